/**
 * In-place changes of variables the program owns (`out.push(x)`, `out[0] = v`, `out.sort()`,
 * `seen.add(k)`): each rebinds the variable to its new value in the path's state. While a `try`,
 * `catch` or `finally` block runs (try.ts), the first such change of each variable is recorded in
 * program order: where the block may still throw after it, the `catch` would see the change in
 * some runs and not in others.
 */
import type * as TS from "typescript";
import type { Sym } from "../values";
import type { Exec } from "./context";
import type { State } from "./state";

/** A variable's first in-place change in a block: where it stands in program order, and its node. */
export interface Change {
  readonly order: number;
  readonly node: TS.Node;
}

/** The blocks being watched, innermost last, per executor. */
const watching = new WeakMap<Exec, Map<TS.Symbol, Change>[]>();

/** Rebind `sym` to `value` in `st`, a change in place made at `node`. */
export function changeInPlace(ex: Exec, st: State, sym: TS.Symbol, value: Sym, node: TS.Node): void {
  st.env.set(sym, value);
  const blocks = watching.get(ex);
  if (!blocks || blocks.length === 0) return;
  let order: number | undefined;
  for (const changes of blocks) if (!changes.has(sym)) changes.set(sym, { order: (order ??= ex.world.nextOrder()), node });
}

/** Run `work`, recording the first in-place change of each variable it makes. */
export function watchChanges<T>(ex: Exec, work: () => T): { result: T; changes: ReadonlyMap<TS.Symbol, Change> } {
  const changes = new Map<TS.Symbol, Change>();
  let blocks = watching.get(ex);
  if (!blocks) watching.set(ex, (blocks = []));
  blocks.push(changes);
  try {
    return { result: work(), changes };
  } finally {
    blocks.pop();
  }
}
