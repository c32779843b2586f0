import { checkSpec, nameOf, needsCompleteRun } from "./check";
import { Clauz3Error, GuaranteeViolationError, IncompleteRunError, type Incompleteness } from "./errors";
import { assertIntrinsicsIntact } from "./integrity";
import {
  ArrayIsArray, ObjectFreeze, PromiseCtor, ReflectGetOwnPropertyDescriptor, append, concat, copy, isInstance, isPromise, map, promiseThen, show, slice,
} from "./intrinsics";
import { PrefixMonitor } from "./monitor";
import { ToolCall, type Occurrence } from "./occurrence";
import { beginRun, endRun, unownedTrace, within, type Recorder, type TraceMark } from "./recorder";
import type { ContractSpec, RelationData, Violation } from "./spec-data";

/** Options of `enforce`. */
export interface EnforceOptions {
  /**
   * Charge the run only with the unowned calls made after this mark (`traceMark()`, taken just
   * before the agent's modules are imported). Default: every unowned call of the process.
   */
  readonly since?: TraceMark;
}

/** What a run that kept its guarantees returns. */
export interface Enforced<R> {
  readonly result: R;
  /** The calls the run made (tool calls and their events, in order). */
  readonly trace: Occurrence[];
  /** The calls made before `enforce` started (while modules loaded), checked with the run's. */
  readonly loaded: Occurrence[];
}

/**
 * Run `main` under the runtime backstop. The prover's proof is the primary defence; this catches
 * what it can miss (a layer whose implementation differs from what was proved, code outside the
 * proved `main`):
 *
 * - At the start, the calls the process made before (while the agent's modules loaded) are checked
 *   against the guarantees' prefix parts; a broken one throws `GuaranteeViolationError` (phase
 *   `"load"`) and `main` does not run.
 * - Before each trusted call in the run (after `await`s too: the run is an async context), the
 *   parts decidable on a prefix — `all`, `empty`, `distinct`, `allSameValue`, a count's upper side,
 *   each part of an `allOf` on its own — are evaluated on the trace plus the call's events; a
 *   violation throws `GuaranteeViolationError` and the call does not happen.
 * - When `main` returns (or its promise fulfils), every guarantee is checked on the whole run,
 *   sums, lower bounds and fluents' final states included (phase `"return"`). A run in which a call was refused fails,
 *   even if the program caught the error. Calls made after the run ended are refused.
 * - When `main` throws (or its promise rejects), the run is incomplete: `IncompleteRunError` with
 *   the thrown value as `cause`. Lower bounds and sums are promises about complete runs, so such a
 *   run is never reported as having kept them.
 *
 * With an async `main`, `enforce` returns a promise of the same result.
 */
export function enforce<R>(guarantees: readonly ContractSpec[], main: () => Promise<R>, options?: EnforceOptions): Promise<Enforced<R>>;
export function enforce<R>(guarantees: readonly ContractSpec[], main: () => R, options?: EnforceOptions): Enforced<R>;
export function enforce<R>(
  guarantees: readonly ContractSpec[],
  main: () => R,
  options: EnforceOptions = {},
): Enforced<R> | Promise<Enforced<Awaited<R>>> {
  // Before anything runs a contract body or a predicate.
  assertIntrinsicsIntact();
  const name = nameOfFunction(main);
  const entries = resolveAll(guarantees);
  const loaded = unownedTrace(options.since);
  const monitor = new PrefixMonitor(entries);
  const violation = monitor.violation(loaded);
  assertIntrinsicsIntact();
  if (violation) throw new GuaranteeViolationError(callerOf(loaded, violation) ?? name, violation.contract, violation.message, "load");
  monitor.absorb(loaded);
  const run = new Run(entries, monitor, loaded, name);
  beginRun(run);
  let result: R;
  try {
    result = within(run, main);
  } catch (error) {
    throw run.fail(error);
  }
  if (isPromise(result)) {
    return promiseThen(result as Promise<Awaited<R>>, (value) => run.finishWhenQuiet(value), (error: unknown) => {
      throw run.fail(error);
    });
  }
  return run.finish(result);
}

/** One `enforce` run: the recorder that owns the calls made in its context. */
class Run implements Recorder {
  readonly trace: Occurrence[] = [];
  #ended: "returned" | "threw" | undefined;
  #refusal: { readonly error: unknown } | undefined;
  /** The first call of the run whose implementation threw (or whose promise rejected). */
  #failure: { readonly error: unknown } | undefined;
  /** Calls of async tools still running, and who waits for them to settle. */
  #pending = 0;
  #quiet: (() => void) | undefined;
  /** How much of `trace` the monitor has absorbed. */
  #absorbed = 0;

  constructor(
    readonly entries: readonly ContractSpec[],
    readonly monitor: PrefixMonitor,
    readonly loaded: readonly Occurrence[],
    readonly name: string,
  ) {}

  before(tool: string, occurrences: readonly Occurrence[], trace: readonly Occurrence[]): void {
    if (this.#ended) {
      throw new GuaranteeViolationError(tool, undefined, `called after ${this.name} ${this.#ended}; a run makes no calls after it ends`);
    }
    if (trace.length > this.#absorbed) {
      this.monitor.absorb(slice(trace, this.#absorbed));
      this.#absorbed = trace.length;
    }
    const violation = this.monitor.violation(occurrences);
    if (violation) throw new GuaranteeViolationError(tool, violation.contract, violation.message);
  }

  refused(error: unknown): void {
    this.#refusal ??= { error };
  }

  failed(_tool: string, error: unknown): void {
    if (!this.#ended) this.#failure ??= { error };
  }

  pending(_tool: string, settled: Promise<unknown>): void {
    this.#pending++;
    const done = (): void => {
      this.#pending--;
      const quiet = this.#quiet;
      if (this.#pending === 0 && quiet) {
        this.#quiet = undefined;
        quiet();
      }
    };
    promiseThen(settled, done, done);
  }

  /** An async `main` fulfilled: wait until no call it started is running, then finish. */
  finishWhenQuiet<T>(result: T): Enforced<T> | Promise<Enforced<T>> {
    if (this.#pending === 0) return this.finish(result);
    const quiet = new PromiseCtor<void>((resolve) => (this.#quiet = resolve));
    return promiseThen(quiet, () => this.finishWhenQuiet(result));
  }

  #end(how: "returned" | "threw"): void {
    this.#ended ??= how;
    endRun(this);
  }

  /** `main` returned: check every guarantee on the whole run (or fail with the first refusal). */
  finish<T>(result: T): Enforced<T> {
    this.#end("returned");
    if (this.#refusal) throw this.#refusal.error;
    if (this.#failure) throw this.#incomplete(this.#failure.error, "call-failed");
    if (this.#pending > 0) {
      const calls = this.#pending === 1 ? "1 call of an async tool was" : `${this.#pending} calls of async tools were`;
      throw this.#incomplete(new Clauz3Error(`${calls} still running; make ${this.name} async and await every call`), "calls-pending");
    }
    assertIntrinsicsIntact();
    const whole = concat(this.loaded, this.trace);
    for (let i = 0; i < this.entries.length; i++) {
      const violation = checkSpec(this.entries[i]!, whole)[0];
      if (violation) throw new GuaranteeViolationError(this.name, violation.contract, violation.message, "return");
    }
    assertIntrinsicsIntact();
    return { result, trace: copy(this.trace), loaded: copy(this.loaded) };
  }

  /** `main` threw: the run is incomplete, and what only a complete run establishes is not established. */
  fail(error: unknown): IncompleteRunError {
    this.#end("threw");
    return this.#incomplete(error, "threw");
  }

  #incomplete(error: unknown, how: Incompleteness): IncompleteRunError {
    const unestablished: string[] = [];
    for (let i = 0; i < this.entries.length; i++) {
      if (needsCompleteRun(this.entries[i]!)) append(unestablished, nameOf(this.entries[i]!));
    }
    return new IncompleteRunError(this.name, error, copy(this.trace), copy(this.loaded), unestablished, this.#refusal?.error, how);
  }
}

/** The tool whose call (in `trace`) performed the last witness of a violation. */
function callerOf(trace: readonly Occurrence[], violation: Violation): string | undefined {
  const witness = violation.witnesses[violation.witnesses.length - 1];
  let i = trace.length - 1;
  while (i >= 0 && trace[i] !== witness) i--;
  for (; i >= 0; i--) if (isInstance(trace[i], ToolCall)) return (trace[i] as ToolCall).toolName;
  return undefined;
}

function nameOfFunction(fn: Function): string {
  if (typeof fn !== "function") throw new TypeError("clauz3: enforce(guarantees, main) expects main to be a function");
  const own = ReflectGetOwnPropertyDescriptor(fn, "name");
  return own && typeof own.value === "string" && own.value !== "" ? own.value : "main";
}

/**
 * The guarantees as plain frozen data, each property read once: a getter cannot answer the
 * checks made before each call and the checks made at the end differently.
 */
function resolveAll(guarantees: readonly ContractSpec[]): readonly ContractSpec[] {
  if (!ArrayIsArray(guarantees)) throw new TypeError("clauz3: enforce(guarantees, main) expects an array of guarantees");
  return ObjectFreeze(map(copy(guarantees), (g, i) => resolve(g, `guarantees[${i}]`)));
}

function resolve(spec: ContractSpec, where: string): ContractSpec {
  if (typeof spec !== "object" || spec === null) throw new TypeError(`clauz3: ${where} is not a guarantee`);
  const relation = (r: RelationData): RelationData => ObjectFreeze({ source: r.source, filters: ObjectFreeze(copy(r.filters)) });
  switch (spec.kind) {
    case "guarantee":
      return ObjectFreeze({
        kind: "guarantee", contract: spec.contract, args: spec.args, description: spec.description, spec: resolve(spec.spec, where),
      });
    case "allOf":
      return ObjectFreeze({ kind: "allOf", specs: ObjectFreeze(map(copy(spec.specs), (s, i) => resolve(s, `${where}.specs[${i}]`))) });
    case "none":
      return ObjectFreeze({ kind: "none" });
    case "all":
      return ObjectFreeze({ kind: "all", relation: relation(spec.relation), predicate: spec.predicate });
    case "empty":
      return ObjectFreeze({ kind: "empty", relation: relation(spec.relation) });
    case "distinct": case "allSameValue":
      return ObjectFreeze({ kind: spec.kind, relation: relation(spec.relation), key: spec.key });
    case "sharesValueWith":
      return ObjectFreeze({ kind: "sharesValueWith", relation: relation(spec.relation), other: relation(spec.other), key: spec.key });
    case "finalAll":
      return ObjectFreeze({ kind: "finalAll", fluent: spec.fluent, predicate: spec.predicate });
    case "finalAt":
      return ObjectFreeze({ kind: "finalAt", fluent: spec.fluent, key: spec.key, value: spec.value });
    case "compare": {
      const agg = spec.aggregate;
      if (agg.kind !== "count" && agg.kind !== "sum") throw new TypeError(`clauz3: ${where} compares an unknown aggregate`);
      return ObjectFreeze({
        kind: "compare",
        relation: relation(spec.relation),
        aggregate: agg.kind === "sum" ? ObjectFreeze({ kind: "sum" as const, selector: agg.selector }) : ObjectFreeze({ kind: "count" as const }),
        comparison: spec.comparison,
        bounds: ObjectFreeze(copy(spec.bounds)),
      });
    }
    default:
      throw new TypeError(`clauz3: ${where} is not a guarantee (kind ${show((spec as { kind?: unknown }).kind)})`);
  }
}
