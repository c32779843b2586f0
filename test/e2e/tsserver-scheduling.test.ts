/**
 * Editor scheduling in a real tsserver (language-service/scheduler.ts, docs/editor.md): a slow
 * proof (a budget loop with a running total over `ensures`-bounded tool results) never holds back
 * a trivial file's verdict, an edit abandons the slow proof of the old text (Z3 interrupted, its
 * answer never shown), and a proof that spends the editor budget is refused on `main`.
 *
 * Only the order of events is asserted, never elapsed time: polls are bounded generously, and the
 * slow proof is slow by the solver's work, so a loaded machine makes everything slower together.
 */
import * as fs from "node:fs";
import { ensureBuilt, locate, makeProject, ours, removeProject, Tsserver, type DiagnosticsView as View, type ProtocolDiagnostic as Diag } from "../language-service/tsserver-client.mjs";
import { BILLING_LAYER, slowProgram, trivialProgram } from "../language-service/slow-programs.mjs";

const POLL = { budgetMs: 900_000 };
/** vitest's limit per test: the polls' bound and then some (a bound, not a measurement). */
const TEST_TIMEOUT = 1_000_000;
/** An editor budget the slow proof never reaches while a test looks at it. */
const LARGE_BUDGET = { editorBudgetMs: 3_600_000 };

const made: string[] = [];
const servers: Tsserver[] = [];
function start(files: Record<string, string>, pluginOptions: Record<string, unknown>): { dir: string; s: Tsserver } {
  const dir = makeProject({ files: { ...BILLING_LAYER, ...files }, stdlib: [], pluginOptions, prefix: "clauz3-sched-" });
  made.push(dir);
  const s = new Tsserver(dir);
  servers.push(s);
  return { dir, s };
}
const errorsOf = (v: View): Diag[] => ours(v.semantic);
const provedOf = (v: View): Diag[] => ours(v.suggestion).filter((d) => d.text.startsWith("proved: "));
const hasVerdict = (v: View): boolean => errorsOf(v).length > 0 || provedOf(v).length > 0;
/** The plugin's trace lines in the tsserver log, in order. */
function traces(s: Tsserver): string[] {
  return fs.readFileSync(s.logFile, "utf8").split("\n").filter((l) => l.includes("[clauz3/language-service]"));
}
/** Wait (polling the log, bounded) until a trace line matches. */
async function untilTraced(s: Tsserver, pattern: RegExp): Promise<string[]> {
  const deadline = Date.now() + POLL.budgetMs;
  for (;;) {
    const lines = traces(s);
    if (lines.some((l) => pattern.test(l))) return lines;
    if (Date.now() > deadline) throw new Error(`no log line matching ${pattern}; last lines: ${lines.slice(-10).join("\n")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(() => ensureBuilt());
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  made.forEach(removeProject);
});

describe("a trivial file opened while a slow proof runs", () => {
  it("gets its verdict while the slow proof is still running", async () => {
    const { s } = start({ "slow.ts": slowProgram(), "trivial.ts": trivialProgram() }, LARGE_BUDGET);
    await s.configure();
    await s.open("slow.ts");
    await s.geterr(["slow.ts"]);
    await untilTraced(s, /first query of .*slow\.ts/);
    await s.open("trivial.ts");
    const trivial: View = await s.pollDiagnostics("trivial.ts", hasVerdict, POLL);
    expect(errorsOf(trivial)).toEqual([]);
    expect(provedOf(trivial).map((d) => d.text)).toEqual(["proved: Every payment is positive."]);
    // The slow program has no verdict yet: its proof is still running.
    const slow = await s.geterr(["slow.ts"]);
    const slowView: View = { semantic: [...slow.semantic.values()][0] ?? [], suggestion: [...slow.suggestion.values()][0] ?? [], syntax: [] };
    expect(hasVerdict(slowView)).toBe(false);
    const log = traces(s);
    const first = log.findIndex((l) => /first query of .*slow\.ts/.test(l));
    const preempted = log.findIndex((l) => /preempted a query of .*slow\.ts/.test(l));
    const proved = log.findIndex((l) => /proved .*trivial\.ts in .*: proved/.test(l));
    // The slow proof's query was interrupted for the trivial one, which then finished first.
    expect(first).toBeGreaterThanOrEqual(0);
    expect(preempted).toBeGreaterThan(first);
    expect(proved).toBeGreaterThan(preempted);
    expect(log.some((l) => /proved .*slow\.ts in/.test(l))).toBe(false);
  }, TEST_TIMEOUT);
});

describe("an edit during a slow proof", () => {
  it("abandons the proof of the old text (interrupting Z3), never shows its verdict, and proves the new text", async () => {
    const before = slowProgram(1);
    const after = trivialProgram(1);
    const { s } = start({ "slow.ts": before }, LARGE_BUDGET);
    await s.configure();
    await s.open("slow.ts");
    await s.geterr(["slow.ts"]);
    await untilTraced(s, /first query of .*slow\.ts/);
    await s.replace("slow.ts", before, after);
    const seen: View[] = [];
    const v: View = await s.pollDiagnostics("slow.ts", (x: View) => (seen.push(x), hasVerdict(x)), POLL);
    expect(errorsOf(v)).toEqual([]);
    expect(provedOf(v).map((d) => d.text)).toEqual(["proved: Every payment is positive."]);
    // Nothing of the old text's proof (its guarantee was spendAtMost) was ever shown.
    for (const x of seen) expect([...ours(x.semantic), ...ours(x.suggestion)].filter((d) => /add up to at most|budget/.test(d.text))).toEqual([]);
    const log = traces(s);
    const abandoned = log.findIndex((l) => /abandoned the proof of .*slow\.ts \(stale\)/.test(l));
    const interrupted = log.findIndex((l) => /interrupting the running query of .*slow\.ts/.test(l));
    const proved = log.findIndex((l) => /proved .*slow\.ts in .*: proved/.test(l));
    expect(abandoned).toBeGreaterThanOrEqual(0);
    expect(interrupted).toBeGreaterThan(abandoned);
    // The session answered the new text's queries after the interrupt.
    expect(proved).toBeGreaterThan(interrupted);
    expect(log.filter((l) => /proved .*slow\.ts in/.test(l))).toHaveLength(1);
  }, TEST_TIMEOUT);
});

describe("the editor budget", () => {
  it("refuses a program whose proof spends it, on main, and says to run clauz3 check", async () => {
    const text = slowProgram(2);
    const { s } = start({ "slow.ts": text }, { editorBudgetMs: 2000 });
    await s.configure();
    await s.open("slow.ts");
    const v: View = await s.pollDiagnostics("slow.ts", (x: View) => errorsOf(x).length > 0, POLL);
    expect(errorsOf(v)).toEqual([
      expect.objectContaining({ code: 93085, category: "error", source: "clauz3", start: locate(text, "main(") }),
    ]);
    expect(errorsOf(v)[0]!.text).toMatch(/^refused: could not decide within the editor budget — run `clauz3 check`/);
    expect(errorsOf(v)[0]!.text).toContain("2000 ms");
    expect(provedOf(v)).toEqual([]);
    // Kept for this content: asking again shows it without another proof.
    const proofs = () => traces(s).filter((l) => /first query of .*slow\.ts/.test(l)).length;
    const before = proofs();
    const again = await s.geterr(["slow.ts"]);
    expect(ours([...again.semantic.values()][0] ?? []).map((d) => d.code)).toEqual([93085]);
    expect(proofs()).toBe(before);
    // One proof in all: requests while its running query was being interrupted joined it.
    expect(before).toBe(1);
    expect(traces(s).some((l) => /abandoned the proof of .*slow\.ts \(budget\)/.test(l))).toBe(true);
  }, TEST_TIMEOUT);

  it("is a configuration error when it is not a positive number", async () => {
    const { s } = start({ "trivial.ts": trivialProgram(3) }, { editorBudgetMs: "soon" });
    await s.open("trivial.ts");
    const r = await s.geterr(["trivial.ts"]);
    const errors = ours([...r.semantic.values()][0] ?? []);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.text).toContain('option "editorBudgetMs" must be a number of milliseconds');
  }, TEST_TIMEOUT);
});
