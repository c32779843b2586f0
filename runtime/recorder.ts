import { AsyncLocalStorage } from "node:async_hooks";
import { RecorderError } from "./errors";
import {
  ArrayIsArray, ObjectFreeze, ObjectIsExtensible, ReflectGetOwnPropertyDescriptor, append, appendAll, concat, copy, includes, isProxy, map,
  remove, runWith, slice, storeOf, weakAdd, weakHas, weakMapGet, weakMapSet,
} from "./intrinsics";
import type { Occurrence } from "./occurrence";

/** Receives every occurrence a trusted call performs, before its implementation runs. */
export interface Recorder {
  /** Called with the call's tool record and events; may throw to stop the call. */
  before?(tool: string, occurrences: readonly Occurrence[], trace: readonly Occurrence[]): void;
  /** Told when a call it saw is refused (by a recorder's `before`, or because a built-in changed). */
  refused?(error: unknown): void;
  /** Told when the implementation of a call it recorded threw, or the call's promise rejected. */
  failed?(tool: string, error: unknown): void;
  /** Told when a call it recorded returned a promise: the call runs until `settled` settles. */
  pending?(tool: string, settled: Promise<unknown>): void;
  readonly trace: Occurrence[];
}

/**
 * The recorders of the current asynchronous context, outermost first. AsyncLocalStorage, not a
 * stack: a call made after an `await` inside `main` still belongs to the run that started `main`,
 * and two runs in flight at once never see each other's calls.
 */
const context = new AsyncLocalStorage<readonly Recorder[]>();

/** The recorders that are `enforce` runs (a WeakSet nobody else can add to). */
const runs = new WeakSet<Recorder>();
/** Runs between their start and their end, in start order. */
const inFlight: Recorder[] = [];
/**
 * Every trusted call of the process that no `enforce` run owns, from the first one on: calls made
 * while modules load, inside a `record()` outside `enforce`, or from a callback that lost its
 * context. Every `enforce` checks it at its start and includes it in its whole-run checks.
 */
const unowned: Occurrence[] = [];

/**
 * Every active recorder, outermost first. A trusted call is reported to all of them, so a nested
 * `record(...)` cannot hide a call from an enclosing one (nor from an enclosing `enforce`).
 */
export function activeRecorders(): readonly Recorder[] {
  return storeOf(context) ?? [];
}

export function activeRecorder(): Recorder | undefined {
  const all = activeRecorders();
  return all[all.length - 1];
}

/** Who is told about one trusted call, and whether an `enforce` run owns it. */
export interface Recipients {
  readonly recorders: readonly Recorder[];
  /** Each recorder's `trace`, read once. */
  readonly traces: readonly Occurrence[][];
  /** No run in the call's context: it goes to the process trace and to every run in flight. */
  readonly unowned: boolean;
}

/** The recorders of a call made now. */
export function recipients(): Recipients {
  const active = activeRecorders();
  let owned = false;
  for (let i = 0; i < active.length && !owned; i++) owned = weakHas(runs, active[i]!);
  const all = copy(active);
  if (!owned) for (let i = 0; i < inFlight.length; i++) if (!includes(all, inFlight[i]!)) append(all, inFlight[i]!);
  return { recorders: all, traces: map(all, (r) => r.trace), unowned: !owned };
}

/** Whether every recorder of a call is an `enforce` run (no hook of anyone else's runs during its checks). */
export function onlyRuns(to: Recipients): boolean {
  for (let i = 0; i < to.recorders.length; i++) if (!weakHas(runs, to.recorders[i]!)) return false;
  return true;
}

/**
 * A recorder's trace must take the call's occurrences without running anyone's code (no Proxy,
 * no frozen array, no fixed length): the append happens after the checks.
 */
export function assertTracesWritable(tool: string, to: Recipients): void {
  for (let i = 0; i < to.traces.length; i++) {
    const trace = to.traces[i];
    const length = ArrayIsArray(trace) && !isProxy(trace) && ObjectIsExtensible(trace) ? ReflectGetOwnPropertyDescriptor(trace, "length") : undefined;
    if (!length?.writable) throw new RecorderError(tool);
  }
}

/**
 * Add a call's occurrences to the traces of the recorders that are not runs: done first, inside
 * the checks, so a trace that refuses them (made read-only by a hook) refuses the call before any
 * run counts it.
 */
export function commitForeign(to: Recipients, occurrences: readonly Occurrence[]): void {
  for (let i = 0; i < to.recorders.length; i++) if (!weakHas(runs, to.recorders[i]!)) appendAll(to.traces[i]!, occurrences);
}

/** Add a call's occurrences to every run's trace (and to the process trace when unowned). */
export function commit(to: Recipients, occurrences: readonly Occurrence[]): void {
  for (let i = 0; i < to.recorders.length; i++) if (weakHas(runs, to.recorders[i]!)) appendAll(to.traces[i]!, occurrences);
  if (to.unowned) appendAll(unowned, occurrences);
}

/** A point in the process's unowned calls (see `traceMark`). */
export interface TraceMark {
  readonly [MARK]: true;
}
const MARK = Symbol("clauz3.traceMark");
const marks = new WeakMap<object, number>();

/**
 * Mark the process's unowned calls so far, for `enforce(guarantees, main, { since })`: a host
 * that made trusted calls of its own before importing an agent module takes a mark just before
 * the import, and the run is charged only with the unowned calls made after it. Without `since`
 * every unowned call from the first one of the process is charged (the safe default). A mark
 * only narrows the run of the `enforce` call it is passed to.
 */
export function traceMark(): TraceMark {
  const mark = ObjectFreeze({ [MARK]: true as const });
  weakMapSet(marks, mark, unowned.length);
  return mark;
}

/** The unowned calls made since `mark` (from the first one of the process without it), as a copy. */
export function unownedTrace(mark?: TraceMark): Occurrence[] {
  if (mark === undefined) return copy(unowned);
  const from = weakMapGet(marks, mark);
  if (from === undefined) throw new TypeError("clauz3: enforce(…, { since }) expects a mark made by traceMark()");
  return slice(unowned, from);
}

/** Run `body` with `recorder` added to the current context (it and everything it awaits). */
export function within<R>(recorder: Recorder, body: () => R): R {
  return runWith(context, ObjectFreeze(concat(activeRecorders(), [recorder])), body);
}

/** Register an `enforce` run: it owns the calls made in its context and sees unowned calls while in flight. */
export function beginRun(run: Recorder): void {
  weakAdd(runs, run);
  append(inFlight, run);
}

/** The run has ended: unowned calls no longer reach it. */
export function endRun(run: Recorder): void {
  remove(inFlight, run);
}

/**
 * Run `body` with a fresh recorder and return what it performed. An async body keeps recording
 * after it returns (its trace fills as its continuations make calls). Enclosing recorders still
 * see (and may refuse) every call the body makes. Outside `enforce`, the calls also count as the
 * process's unowned calls, which every later `enforce` checks.
 */
export function record<R>(body: () => R, recorder: Recorder = { trace: [] }): { result: R; trace: Occurrence[] } {
  const result = within(recorder, body);
  return { result, trace: recorder.trace };
}
