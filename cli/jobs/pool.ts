/**
 * `--jobs N`: the programs a run must prove go to a pool of N child processes (tinypool's
 * `child_process` runtime), each with one warm Z3 (worker.ts). Child processes, not worker
 * threads: z3-solver's emscripten build runs its own pthreads as worker threads and aborts the
 * whole thread tree when Z3 dies, and a wasm instance that exhausts its memory takes its process
 * with it; a child process keeps either to the one program it was proving.
 *
 * - Output is the caller's business: verdicts come back per program, and core/gate puts them in
 *   the order of the files, so the report is the same as with `--jobs 1`.
 * - A worker that dies (crash, out of memory, killed) or does not answer within a generous
 *   deadline (twice the program budget, plus a minute) gives its program an internal-error
 *   verdict (93090, never cached), and the pool starts another worker for the rest.
 * - The pool is torn down by `close` (the CLI calls it before it exits) and on SIGINT/SIGTERM;
 *   a worker whose parent dies exits on its own (worker.ts).
 */
import * as path from "node:path";
import type * as TS from "typescript";
import type Tinypool from "tinypool";
import type { ProgramVerdict } from "../../core/prover/api";
import { DEFAULT_PROGRAM_TIMEOUT_MS, type BudgetOptions } from "../../core/prover/limits";
import { RULES } from "../../core/rules";
import type { LoadOptions } from "../project";
import type { ProveTask, WarmTask } from "./worker";

export interface PoolOptions {
  readonly size: number;
  readonly load: LoadOptions;
  readonly solver: BudgetOptions;
  /** The worker module (tests give one that crashes); default worker.js beside this file. */
  readonly workerFile?: string;
  /** How long a program may go unanswered before its worker is killed; default 2 × program budget + 60 s. */
  readonly deadlineMs?: number;
}

/** Grace beyond twice the program budget before a silent worker is killed (project loading, Z3 start-up). */
const DEADLINE_GRACE_MS = 60_000;

export class ProofPool {
  private readonly pool: Tinypool;
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private closed = false;
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    // Kill the workers, then end as the signal would have (128 + its number).
    void this.close().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };

  private constructor(
    private readonly TinypoolClass: typeof Tinypool,
    private readonly options: PoolOptions,
  ) {
    this.pool = new TinypoolClass({
      filename: options.workerFile ?? path.join(__dirname, "worker.js"),
      name: "prove",
      runtime: "child_process",
      minThreads: options.size,
      maxThreads: options.size,
      // Worker output would mix with the report: workers print nothing, and what Z3 writes is captured.
      env: process.env as Record<string, string>,
      serialization: "advanced",
    });
    process.once("SIGINT", this.onSignal);
    process.once("SIGTERM", this.onSignal);
    // Load the project and start Z3 in every worker while the first programs are dispatched.
    for (let i = 0; i < options.size; i++) {
      const warm: WarmTask = { load: options.load, warm: true };
      this.pool.run(warm).catch(() => undefined); // a worker that cannot start fails its first program, with the reason
    }
  }

  /** A pool of `options.size` workers (tinypool is an ES module: loaded when a run needs it). */
  static async open(options: PoolOptions): Promise<ProofPool> {
    const { default: TinypoolClass } = await import("tinypool");
    return new ProofPool(TinypoolClass, options);
  }

  /** The verdict of one program, proved by a worker; `started` is called when a worker takes it. */
  async prove(file: TS.SourceFile, started: () => void = () => undefined): Promise<ProgramVerdict> {
    await this.slot();
    try {
      started();
      const deadlineMs = this.options.deadlineMs ?? 2 * (this.options.solver.programTimeoutMs ?? DEFAULT_PROGRAM_TIMEOUT_MS) + DEADLINE_GRACE_MS;
      const task: ProveTask = { load: this.options.load, file: file.fileName, solver: this.options.solver };
      try {
        const verdict = (await this.pool.run(task, { signal: AbortSignal.timeout(deadlineMs) })) as ProgramVerdict;
        return verdict;
      } catch (error) {
        const aborted = error instanceof Error && error.name === "AbortError";
        return workerFailure(file, aborted ? `the proof worker did not answer within ${deadlineMs} ms and was stopped` : `the proof worker failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    } finally {
      this.release();
    }
  }

  /** At most `size` programs are handed to tinypool at once, so a program's deadline starts when its proof does. */
  private async slot(): Promise<void> {
    if (this.running < this.options.size) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  /** Stop every worker (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    process.off("SIGINT", this.onSignal);
    process.off("SIGTERM", this.onSignal);
    await this.pool.destroy();
  }
}

/** An internal-error verdict for a program whose worker failed: refused, never cached, with what to do. */
export function workerFailure(file: TS.SourceFile, why: string): ProgramVerdict {
  const anchor = file.statements[0] ?? file;
  const start = anchor.getStart(file);
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  const location = { fileName: file.fileName, start, length: anchor.getEnd() - start, line: line + 1, column: character + 1 };
  const message = `refused: clauz3 could not prove this program: ${why}. This is a bug in clauz3 (or the machine ran out of memory); the program is not proved. \`--jobs 1\` proves it in the CLI's own process.`;
  return { file: file.fileName, verdict: "refused", results: [{ kind: "guarantee", verdict: "refused", code: RULES.internalError.code, location, message }] };
}
