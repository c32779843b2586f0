/**
 * The variables as they are at each point where control may leave a `try` block by a throw
 * (try.ts): a `catch` or `finally` entered from there starts from them. Recorded only while a
 * `try` block runs, keyed by the exit's place in program order (every exit takes its order here).
 */
import type * as TS from "typescript";
import type { Sym } from "../values";
import type { Exec } from "./context";
import type { State } from "./state";

export type Env = ReadonlyMap<TS.Symbol, Sym>;

/** Per executor: how many `try` blocks are running, and the variables at each exit recorded meanwhile. */
const open = new WeakMap<Exec, { depth: number; states: Map<number, Env> }>();

/** The program-order number of an exit made in state `st`, whose variables are kept while a `try` block runs. */
export function exitOrder(ex: Exec, st: State): number {
  const order = ex.world.nextOrder();
  open.get(ex)?.states.set(order, new Map(st.env));
  return order;
}

/** The variables where the exit of order `order` was made, if recorded. */
export function exitState(ex: Exec, order: number): Env | undefined {
  return open.get(ex)?.states.get(order);
}

/** Run `work` (a `try`, `catch` or `finally` block) recording the variables at its exits. */
export function recordingExits<T>(ex: Exec, work: () => T): T {
  let rec = open.get(ex);
  if (!rec) open.set(ex, (rec = { depth: 0, states: new Map() }));
  rec.depth++;
  try {
    return work();
  } finally {
    // The outermost block's exits have been read by then (try.ts reads them as its block ends).
    if (--rec.depth === 0) open.delete(ex);
  }
}
