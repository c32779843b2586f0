/**
 * The progress line (cli/format/progress.ts), on a fake terminal: shown only on a TTY, without
 * `--json`/`--format`, after its delay; done/total and the longest-running program; erased at the
 * end; uncoloured under NO_COLOR.
 */
import { progressFor, ProgressLine, type ProgressStream } from "../../cli/format/progress";
import type { Io } from "../../cli/io";

function fakeTerminal(isTTY = true, columns = 200): ProgressStream & { text: string } {
  const stream = { isTTY, columns, text: "", write: (t: string) => void (stream.text += t) };
  return stream;
}

const io = (env: Record<string, string> = {}): Io => ({ cwd: "/p", stdout: () => undefined, stderr: () => undefined, stderrIsTTY: true, env });
const name = (f: string) => f.replace("/p/", "");
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

describe("progress line", () => {
  it("counts done of total and names the program running longest", async () => {
    let now = 1_000;
    const term = fakeTerminal();
    const line = new ProgressLine(term, false, name, { delayMs: 0, intervalMs: 60_000, now: () => now });
    line.begin(5, 1);
    line.started("/p/slow.ts");
    now += 2_000;
    line.started("/p/fast.ts");
    now += 500;
    await tick();
    expect(term.text).toBe("\rclauz3: proving 1/5 · slowest: slow.ts (2.5 s)\x1b[K");
    line.finished("/p/fast.ts");
    expect(term.text.endsWith("\rclauz3: proving 2/5 · slowest: slow.ts (2.5 s)\x1b[K")).toBe(true);
    line.finished("/p/slow.ts");
    expect(term.text.endsWith("\rclauz3: proving 3/5\x1b[K")).toBe(true);
    line.end();
    expect(term.text.endsWith("\r\x1b[K")).toBe(true);
  });

  it("stays silent for a run shorter than its delay, and when everything was decided", async () => {
    const term = fakeTerminal();
    const line = new ProgressLine(term, false, name, { delayMs: 60_000 });
    line.begin(3, 0);
    line.started("/p/a.ts");
    line.finished("/p/a.ts");
    line.end();
    const decided = new ProgressLine(term, false, name, { delayMs: 0 });
    decided.begin(2, 2);
    await tick();
    decided.end();
    expect(term.text).toBe("");
  });

  it("is cut to the terminal's width, with control characters of names replaced", async () => {
    const term = fakeTerminal(true, 30);
    const line = new ProgressLine(term, false, name, { delayMs: 0, intervalMs: 60_000 });
    line.begin(2, 0);
    line.started("/p/a\x1b]0;evil\x07very-long-name-of-a-program.ts");
    await tick();
    line.end();
    const drawn = term.text.split("\r")[1]!.replace("\x1b[K", "");
    expect(drawn.length).toBe(29);
    expect(drawn.endsWith("…")).toBe(true);
    expect(drawn).not.toContain("\x07");
  });

  it("is dim on a colour terminal and plain under NO_COLOR", async () => {
    const coloured = fakeTerminal();
    const a = progressFor(io(), {}, name, coloured, { delayMs: 0, intervalMs: 60_000 })!;
    a.begin(2, 0);
    await tick();
    a.end();
    expect(coloured.text).toContain("\x1b[2mclauz3: proving 0/2\x1b[22m");
    const plain = fakeTerminal();
    const b = progressFor(io({ NO_COLOR: "1" }), {}, name, plain, { delayMs: 0, intervalMs: 60_000 })!;
    b.begin(2, 0);
    await tick();
    b.end();
    expect(plain.text).toBe("\rclauz3: proving 0/2\x1b[K\r\x1b[K");
  });

  it("is never shown when stderr is not a terminal, with --json or --format, or on TERM=dumb", () => {
    expect(progressFor(io(), {}, name, fakeTerminal(false))).toBeUndefined();
    expect(progressFor(io(), { json: true }, name, fakeTerminal())).toBeUndefined();
    expect(progressFor(io(), { format: "pretty" }, name, fakeTerminal())).toBeUndefined();
    expect(progressFor(io(), { format: "sarif" }, name, fakeTerminal())).toBeUndefined();
    expect(progressFor(io({ TERM: "dumb" }), {}, name, fakeTerminal())).toBeUndefined();
    expect(progressFor(io(), {}, name, fakeTerminal())).toBeInstanceOf(ProgressLine);
  });
});
