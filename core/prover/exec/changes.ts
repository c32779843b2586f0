/**
 * Changes of variables: assignments (`config = await read(…)`, `total += x`) and changes in place
 * of values the program owns (`out.push(x)`, `out[0] = v`, `out.sort()`, `seen.add(k)`): each
 * rebinds the variable to its new value in the path's state. While a `try`, `catch` or `finally`
 * block runs (try.ts), the first change of each variable is recorded in program order: where the
 * block may still throw after it, the `catch` would see the change in some runs and not in others.
 *
 * A change inside a loop over an array of unknown length that began in the block is executed once
 * for every iteration: the next iteration's throw points come after it in the run but before it in
 * the text. Such a change is recorded at the block's start, so that any point the block may throw
 * from counts as after it.
 */
import type * as TS from "typescript";
import type { Sym } from "../values";
import { currentFrame, refuse, type Exec } from "./context";
import type { State } from "./state";

/** A variable's first in-place change in a block: where it stands in program order, and its node. */
export interface Change {
  readonly order: number;
  readonly node: TS.Node;
}

/** A block being watched: its changes, where it began, and the quantified loops around it then. */
interface Watched {
  readonly changes: Map<TS.Symbol, Change>;
  readonly start: number;
  readonly loops: number;
}

/** The blocks being watched, innermost last, per executor. */
const watching = new WeakMap<Exec, Watched[]>();

/** Rebind `sym` to `value` in `st`, a change made at `node`. */
export function changeInPlace(ex: Exec, st: State, sym: TS.Symbol, value: Sym, node: TS.Node): void {
  const element = currentFrame(ex).carriedElements?.get(sym);
  if (element) {
    // Its value after the loop is read back from the index it records (loopstate.ts), so it may hold nothing else.
    if (value !== element.element) refuse(node, `\`${sym.name}\` is carried across iterations of a loop over an array of unknown length as the element it last picked, so it may only be set to the loop's element (or the same field of it).`, "Assign the loop variable itself (`best = o`) or one field of it (`min = o.price`), and compute other values after the loop from it.");
    st.env.set(element.shadow, element.index);
  }
  st.env.set(sym, value);
  const blocks = watching.get(ex);
  if (!blocks || blocks.length === 0) return;
  let order: number | undefined;
  for (const b of blocks) {
    if (b.changes.has(sym)) continue;
    b.changes.set(sym, { order: ex.loops.length > b.loops ? b.start : (order ??= ex.world.nextOrder()), node });
  }
}

/** Run `work`, recording the first in-place change of each variable it makes. */
export function watchChanges<T>(ex: Exec, work: () => T): { result: T; changes: ReadonlyMap<TS.Symbol, Change> } {
  const changes = new Map<TS.Symbol, Change>();
  let blocks = watching.get(ex);
  if (!blocks) watching.set(ex, (blocks = []));
  blocks.push({ changes, start: ex.world.nextOrder(), loops: ex.loops.length });
  try {
    return { result: work(), changes };
  } finally {
    blocks.pop();
  }
}
