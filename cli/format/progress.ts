/**
 * The progress line of `check` and `prove` (issue 14): on a terminal, for a run longer than a
 * second, one line on stderr that is rewritten in place — programs done of the total, and the
 * program that has been running longest, with its time. Never when stderr is not a terminal (a
 * pipe, a CI log), never with `--json` or `--format` (a machine reads the output), never on a
 * `TERM=dumb` terminal (no carriage return); uncoloured under NO_COLOR. The line is erased before
 * the report is printed.
 */
import type { ProofProgress } from "../../core/gate";
import type { Io } from "../io";
import { colourWanted } from "./colour";
import type { OutputFlags } from "./output";

/** Where the line goes: stderr, or a fake terminal in tests. */
export interface ProgressStream {
  write(text: string): void;
  readonly isTTY: boolean;
  /** Width of the terminal; the line is cut to fit. */
  readonly columns?: number;
}

export interface ProgressTiming {
  /** How long a run goes before the line appears (default 1000 ms). */
  readonly delayMs?: number;
  /** How often the running time is redrawn (default 200 ms). */
  readonly intervalMs?: number;
  readonly now?: () => number;
}

export class ProgressLine implements ProofProgress {
  private total = 0;
  private done = 0;
  private readonly running = new Map<string, number>();
  private delay: NodeJS.Timeout | undefined;
  private tick: NodeJS.Timeout | undefined;
  private shown = false;
  private readonly now: () => number;

  constructor(
    private readonly stream: ProgressStream,
    private readonly colour: boolean,
    /** The name to show for a program's file (relative to the current directory). */
    private readonly name: (fileName: string) => string,
    private readonly timing: ProgressTiming = {},
  ) {
    this.now = timing.now ?? Date.now;
  }

  begin(total: number, decided: number): void {
    this.total = total;
    this.done = decided;
    if (decided >= total) return;
    const show = (): void => {
      this.shown = true;
      this.draw();
      this.tick = setInterval(() => this.draw(), this.timing.intervalMs ?? 200);
      this.tick.unref();
    };
    this.delay = setTimeout(show, this.timing.delayMs ?? 1000);
    this.delay.unref();
  }

  started(fileName: string): void {
    this.running.set(fileName, this.now());
  }

  finished(fileName: string): void {
    this.running.delete(fileName);
    this.done++;
    if (this.shown) this.draw();
  }

  /** Stop, and erase the line if it was shown (before the report is written). */
  end(): void {
    clearTimeout(this.delay);
    clearInterval(this.tick);
    if (this.shown) this.stream.write("\r\x1b[K");
    this.shown = false;
  }

  /** The line's text (without colour): `proving 3/40 · slowest: plans/a.ts (4.2 s)`. */
  text(): string {
    let slowest: [string, number] | undefined;
    for (const entry of this.running) if (!slowest || entry[1] < slowest[1]) slowest = entry;
    const head = `clauz3: proving ${this.done}/${this.total}`;
    if (!slowest) return head;
    const seconds = ((this.now() - slowest[1]) / 1000).toFixed(1);
    return `${head} · slowest: ${this.name(slowest[0])} (${seconds} s)`;
  }

  private draw(): void {
    const width = Math.max(20, (this.stream.columns ?? 80) - 1);
    let line = this.text().replace(/[\p{Cc}\u2028\u2029\p{Bidi_Control}]/gu, "?");
    if (line.length > width) line = `${line.slice(0, width - 1)}…`;
    this.stream.write(`\r${this.colour ? `\x1b[2m${line}\x1b[22m` : line}\x1b[K`);
  }
}

/** The progress line a run gets, or undefined when it gets none (see the module comment). */
export function progressFor(io: Io, flags: OutputFlags, name: (fileName: string) => string, stream: ProgressStream = processStderr(io), timing?: ProgressTiming): ProgressLine | undefined {
  if (!stream.isTTY || flags.json || flags.format !== undefined) return undefined;
  const env = io.env ?? {};
  if (env.TERM === "dumb") return undefined;
  return new ProgressLine(stream, colourWanted(env, true), name, timing);
}

function processStderr(io: Io): ProgressStream {
  return { write: io.stderr, isTTY: io.stderrIsTTY, columns: io.stderrIsTTY ? process.stderr.columns : undefined };
}
