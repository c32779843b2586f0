/**
 * The trusted calls of a run that are in flight, so that `Promise.all` over async tools runs by
 * footprints (docs/footprints.md): a call whose footprint conflicts with an in-flight one starts
 * once that one settled (so conflicting calls run in submission order), a call that commutes with
 * everything in flight starts at once. An opaque call waits for everything in flight, and
 * everything waits for it. A program that awaits one call at a time never has a call in flight
 * when it makes the next: nothing waits, and no footprint is even resolved.
 *
 * A run is the asynchronous context of a `record`/`enforce` run (its recorders), or the process
 * outside any run. A call made inside a tool's implementation belongs to a lane of its own, so it
 * never waits for the call it is part of.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { conflicts, resolveFootprint, type Footprint, type FootprintSpec } from "./footprint";
import { append, PromiseCtor, promiseThen, remove, runWith, storeOf, weakMapGet, weakMapSet } from "./intrinsics";
import { activeRecorders } from "./recorder";

/** One call in flight: its footprint (resolved when another call first needs it) and when it settles. */
interface Entry {
  readonly footprint: () => Footprint;
  readonly settled: Promise<void>;
}

/** The calls in flight of one run, in submission order. */
interface Lane {
  readonly calls: Entry[];
}

const inside = new AsyncLocalStorage<Lane>();
const outsideRuns: Lane = { calls: [] };
const byRun = new WeakMap<readonly unknown[], Lane>();

function currentLane(): Lane {
  const own = storeOf(inside);
  if (own) return own;
  const recorders = activeRecorders();
  if (recorders.length === 0) return outsideRuns;
  let lane = weakMapGet(byRun, recorders);
  if (!lane) weakMapSet(byRun, recorders, (lane = { calls: [] }));
  return lane;
}

/** A call admitted to its run: what it waits for, how it runs, and how it leaves. */
export interface Admission {
  /** Settles when every in-flight call it conflicts with has settled; undefined when there is none. */
  readonly wait: Promise<void> | undefined;
  /** Run the implementation (in a lane of its own, for the calls it makes). */
  run<R>(body: () => R): R;
  /** The call settled: the calls waiting for it may start. */
  settle(): void;
}

/**
 * Admit a call of a tool with footprint `spec` and arguments `named` (by parameter name) to the
 * current run's calls in flight.
 */
export function admit(spec: FootprintSpec, named: Readonly<Record<string, unknown>>): Admission {
  const lane = currentLane();
  let resolved: Footprint | undefined;
  const footprint = (): Footprint => (resolved ??= resolveFootprint(spec, named));
  let wait: Promise<void> | undefined;
  for (let i = 0; i < lane.calls.length; i++) {
    const other = lane.calls[i]!;
    if (!conflicts(other.footprint(), footprint())) continue;
    const before = wait;
    wait = before === undefined ? other.settled : promiseThen(before, () => other.settled);
  }
  let done: () => void = () => undefined;
  const settled = new PromiseCtor<void>((resolve) => (done = resolve));
  const entry: Entry = { footprint, settled };
  append(lane.calls, entry);
  const own: Lane = { calls: [] };
  let left = false;
  return {
    wait,
    run: (body) => runWith(inside, own, body),
    settle: () => {
      if (left) return;
      left = true;
      remove(lane.calls, entry);
      done();
    },
  };
}
