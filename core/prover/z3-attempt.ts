import type { Trace } from "./query-dump";
import type { Attempt } from "./attempts";
import { readModel, type GetValues } from "./z3-model";
import { watchdog } from "./z3-watchdog";
import type { SolverThreads } from "./z3-threads";
import { MEMORY_CAP, SLICE_OVER, type AttemptEnd } from "./z3-answers";
import { closeScope, engine, isInstanceFailure, openScope, parse, rlimitCount, SolverError, type Scope } from "./z3-scope";

/**
 * One check of a query (z3.ts): its formulas on one engine for a resource slice, under the
 * query's wall-clock deadline, and the model it gives confirmed against the query as written
 * before anyone reads it. The session's settings and test hooks come in through `AttemptHost`.
 */
export interface AttemptHost {
  /** Drops the wasm instance: after a lost interrupt or a failure nothing it says is trusted. */
  retire(): void;
  /** Added to every seed (the bench proves the corpus under several bases). */
  readonly seedBase: number;
  /** Z3's memory cap in MB, for the reason given when it runs out. */
  readonly memoryMb: number;
  /** Test-only fault injection: called before every check. */
  readonly beforeCheck: (() => void) | undefined;
  /** Test-only fault injection: called once a check runs. */
  readonly whileChecking: ((threads: SolverThreads) => void) | undefined;
  /** Test-only fault injection: the watchdog's interrupt is not delivered. */
  readonly dropInterrupts: boolean;
}

/**
 * The skeleton's one attempt, in a context of its own: terms parsed into the query's context
 * first would number the query's own terms differently, and that alone made one query's
 * attempt go from 6 000 resource units to over 250 000.
 */
export async function runSkeleton(host: AttemptHost, scope: Scope, text: string, rlimit: number, deadline: number, trace: Trace | undefined, stop: Promise<void> | undefined): Promise<AttemptEnd<never>> {
  if (trace) trace.skeleton = text;
  const own = openScope(scope);
  let failed = false;
  try {
    let formulas: unknown[];
    try {
      formulas = parse(own, text);
    } catch (error) {
      if (isInstanceFailure(error)) throw error;
      trace?.lines.push(`skeleton rejected: ${String(error).slice(0, 200)}`);
      return { kind: "none", reason: "the skeleton was rejected", used: 0 };
    }
    const unread = async (): Promise<never> => {
      throw new SolverError("the model of a skeleton is never read");
    };
    return await runAttempt(host, own, { engine: "core", formulation: "skeleton" }, formulas, () => [], false, false, rlimit, deadline, 0, () => new Set(), unread, trace, stop);
  } catch (error) {
    failed = isInstanceFailure(error);
    throw error;
  } finally {
    // A failed instance is retired by the caller, its contexts with it.
    if (!failed) {
      try {
        closeScope(own);
      } catch {
        host.retire();
      }
    }
  }
}

/**
 * One attempt: the formulas on one engine for at most `rlimit` resource units, under the
 * query's wall-clock deadline. Reports the resource units it used.
 */
export async function runAttempt<T>(
  host: AttemptHost,
  scope: Scope,
  attempt: Attempt,
  formulas: readonly unknown[],
  /** The assertions as written (parsed on first use, into the scope's kept parser context, where models are read). */
  original: () => readonly unknown[],
  /** Whether the original formulation of this query is the text as written (no integers lifted). */
  asWritten: boolean,
  /** Evaluate the original assertions in a model before believing it (not for quantified queries, whose evaluation is unreliable). */
  confirm: boolean,
  rlimit: number,
  deadline: number,
  seed: number,
  /** The declared names no assertion of the query reaches. */
  free: () => ReadonlySet<string>,
  onSat: (getValues: GetValues) => Promise<T>,
  trace: Trace | undefined,
  /** Settles when the scheduler takes the solver back: interrupt the check as at the deadline. */
  stop?: Promise<void>,
  /** Where the formulas are a restated text (integers lifted, floats floored): puts the original's values into each model. */
  restore?: (z3: Scope["z3"], ctx: never, model: unknown) => boolean,
  /** An over-approximating query: its models are never read, a `sat` ends it. */
  abstract = false,
): Promise<AttemptEnd<T>> {
  const { z3, ctx } = scope;
  const solver = engine(scope, attempt.engine);
  const params = z3.mk_params(ctx);
  z3.params_inc_ref(ctx, params);
  z3.params_set_uint(ctx, params, z3.mk_string_symbol(ctx, "rlimit"), rlimit);
  // Each round of a query's slices starts afresh; another seed makes it a different try rather
  // than a longer replay of the last one (solving effort is heavy-tailed). Seeds are fixed by
  // the round, so the run is the same every time.
  z3.params_set_uint(ctx, params, z3.mk_string_symbol(ctx, "random_seed"), host.seedBase + seed);
  z3.solver_set_params(ctx, solver, params);
  z3.params_dec_ref(ctx, params);
  const started = performance.now();
  // The check being run, for the watchdog's interrupt.
  let running: { scope: Scope; solver: unknown } | undefined;
  let used = 0;
  let outcome = "error";
  let reset = true;
  try {
    for (const f of formulas) z3.solver_assert(ctx, solver, f as never);
    const before = rlimitCount(scope, solver);
    host.beforeCheck?.();
    running = { scope, solver };
    // A thread that dies during the check fails it (and the instance) instead of the process.
    const check = Promise.race([z3.solver_check(ctx, solver), scope.threads.crashed]);
    host.whileChecking?.(scope.threads);
    const interrupt = (): void => {
      if (running && !host.dropInterrupts) running.scope.z3.solver_interrupt(running.scope.ctx, running.solver as never);
    };
    const status = await watchdog(check, Math.max(1, deadline - performance.now()), stop, interrupt, () => host.retire());
    running = undefined;
    if (status === "lost") {
      // Z3 did not stop when interrupted: the instance is dropped, and with it this context.
      reset = false;
      outcome = "wall clock, lost";
      return { kind: "wallClock", used: rlimit };
    }
    used = Math.max(0, rlimitCount(scope, solver) - before);
    if (status === "interrupted") {
      outcome = "wall clock";
      return { kind: "wallClock", used };
    }
    if (status === -1) {
      outcome = "unsat";
      return { kind: "answer", answer: { status: "unsat" }, used };
    }
    // A model of the skeleton is not one of the query (abstraction.ts): only its unsat counts.
    if (attempt.formulation === "skeleton") {
      outcome = status === 1 ? "sat (not read)" : `unknown (${z3.solver_get_reason_unknown(ctx, solver)})`;
      return { kind: "none", reason: "the skeleton of the query is satisfiable", used };
    }
    if (status === 1 && abstract) {
      outcome = "sat (not read)";
      return { kind: "answer", answer: { status: "sat", result: undefined as never }, used };
    }
    if (status !== 1) {
      const why = z3.solver_get_reason_unknown(ctx, solver);
      outcome = `unknown (${why})`;
      // Z3 says "canceled" or "max. resource limit exceeded" when the slice ran out.
      const sliceOver = used >= rlimit || /resource limit|canceled/.test(why);
      return { kind: "none", reason: sliceOver ? SLICE_OVER : /memory/.test(why) ? `${MEMORY_CAP} of ${host.memoryMb} MB (simplify the program or split the guarantee)` : `the solver answered unknown (${why})`, used };
    }
    const model = z3.solver_get_model(ctx, solver);
    z3.model_inc_ref(ctx, model);
    try {
      // Every model is checked against the original text when it can be evaluated, including the
      // general solver's on the original: a counterexample is shown to a person, so it must be one.
      if (restore && !restore(scope.z3, scope.ctx as never, model)) {
        outcome = "sat, a restated term has no value";
        return { kind: "none", reason: `a model from ${attempt.engine}/${attempt.formulation} gave a restated integer or float no value`, used };
      }
      const confirmed = !confirm && attempt.engine === "general" && attempt.formulation === "original" && asWritten;
      const holds = (f: unknown): boolean => {
        const value = z3.model_eval(ctx, model, f as never, true);
        return value !== null && z3.get_bool_value(ctx, value) === 1;
      };
      if (!confirmed && !original().every(holds)) {
        outcome = "sat, model not confirmed";
        return { kind: "none", reason: `a model from ${attempt.engine}/${attempt.formulation} did not satisfy the query`, used };
      }
      outcome = "sat";
      return { kind: "answer", answer: { status: "sat", result: await readModel(scope, model, original, free, onSat) }, used };
    } finally {
      z3.model_dec_ref(ctx, model);
    }
  } catch (error) {
    if (isInstanceFailure(error)) reset = false;
    throw error;
  } finally {
    running = undefined;
    trace?.lines.push(`${attempt.engine}/${attempt.formulation} rlimit ${rlimit}: ${outcome}, used ${used} units in ${(performance.now() - started).toFixed(1)} ms`);
    if (reset) z3.solver_reset(ctx, solver);
  }
}
