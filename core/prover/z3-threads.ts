/**
 * The threads of one wasm Z3 instance. z3-solver runs every `solver_check` on an emscripten
 * pthread, a Node worker thread. When Z3 aborts on that thread (seen: `std::terminate` in
 * `smt::context::~context` while a check that ignored an interrupt was torn down), emscripten's
 * handler rethrows the error on our thread from an event listener, where nothing can catch it:
 * the CLI dies, and vitest reports an unhandled error. Here a dying thread instead fails the
 * instance it belongs to: its `crashed` promise rejects, the check in flight becomes a
 * {@link SolverThreadCrash}, and the session starts a fresh instance; `terminate` kills every
 * thread of an instance that is dropped, so a check that ignored its interrupt stops using a core.
 *
 * This reaches into emscripten's `PThread` pool, which z3-solver exports as `em.PThread`; the
 * shape is checked when an instance starts, so a z3-solver that moves it fails loudly, never
 * silently unguarded.
 */

/** What emscripten's pool keeps for each worker: the handler its `error` listener calls. */
interface PthreadWorker {
  onerror: (error: unknown) => void;
  emit?: (event: string, ...args: unknown[]) => boolean;
}

interface PthreadPool {
  unusedWorkers: PthreadWorker[];
  runningWorkers: PthreadWorker[];
  loadWasmModuleToWorker: (worker: PthreadWorker) => Promise<void>;
  terminateAllThreads: () => void;
}

/** A thread of the solver died: nothing the instance says can be trusted any more. */
export class SolverThreadCrash extends Error {
  override readonly name = "SolverThreadCrash";
  /** What the instance wrote to its error stream last (Z3's abort message and wasm stack), for bug reports. */
  stderr: readonly string[] = [];
}

/**
 * The instance's error stream. Emscripten writes a dying thread's message and wasm stack there;
 * given as `printErr`, it reaches this thread (pthreads forward it) instead of the terminal, where
 * it would look like clauz3 had crashed. The last lines are kept for the crash they explain.
 */
export class SolverStderr {
  private readonly lines: string[] = [];
  readonly printErr = (text: unknown): void => {
    this.lines.push(String(text));
    if (this.lines.length > 40) this.lines.shift();
  };
  recent(): readonly string[] {
    return [...this.lines];
  }
}

export interface SolverThreads {
  /** Rejects with a {@link SolverThreadCrash} when any thread of the instance dies; never resolves. */
  readonly crashed: Promise<never>;
  /** Kill every thread of the instance (a check still running included). */
  terminate(): void;
  /** The workers running a check now (fault injection in tests). */
  running(): readonly PthreadWorker[];
}

function isPool(value: unknown): value is PthreadPool {
  const pool = value as Partial<PthreadPool> | undefined;
  return (
    typeof pool === "object" &&
    pool !== null &&
    Array.isArray(pool.unusedWorkers) &&
    Array.isArray(pool.runningWorkers) &&
    typeof pool.loadWasmModuleToWorker === "function" &&
    typeof pool.terminateAllThreads === "function"
  );
}

/** Guard the threads of a freshly started instance (`em` is z3-solver's emscripten module). */
export function guardThreads(em: unknown, stderr: SolverStderr): SolverThreads {
  const pool = (em as { PThread?: unknown } | undefined)?.PThread;
  if (!isPool(pool)) throw new Error("z3-solver's thread pool (em.PThread) is not where clauz3 expects it: is the installed z3-solver the pinned version?");
  let fail: (error: SolverThreadCrash) => void = () => undefined;
  const crashed = new Promise<never>((_, reject) => (fail = reject));
  crashed.catch(() => undefined); // observed by whoever races it; an idle crash is not an unhandled rejection
  let dead = false;
  const onError = (error: unknown): void => {
    if (dead) return;
    dead = true;
    const what = error instanceof Error ? error.message : String(error);
    const crash = new SolverThreadCrash(`a solver thread stopped (${what.slice(0, 200)})`);
    crash.stderr = stderr.recent();
    fail(crash);
  };
  const guard = (worker: PthreadWorker): void => {
    worker.onerror = onError;
  };
  // Workers the pool creates later are guarded as they are loaded; the pool's own calls go through the property.
  const load = pool.loadWasmModuleToWorker;
  pool.loadWasmModuleToWorker = (worker) => {
    const loaded = load(worker);
    guard(worker);
    return loaded;
  };
  for (const worker of [...pool.unusedWorkers, ...pool.runningWorkers]) guard(worker);
  return {
    crashed,
    terminate: () => pool.terminateAllThreads(),
    running: () => [...pool.runningWorkers],
  };
}
