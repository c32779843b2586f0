/**
 * `new Set(xs)` of an array of unknown or bounded length (not a literal one: collections.ts holds
 * those key by key): the Set's elements in insertion order are the array's elements whose value no
 * earlier element has (SameValueZero), so the Set is a filtered view of the array (callbacks.ts)
 * that keeps element i where every earlier element differs from it, each number as the Set stores
 * it (-0 as +0). It can be iterated
 * (`for…of`) and spread into an array (`[...new Set(xs)]`, locals.ts); its `size`, `has`, `add`
 * and `forEach` are refused on the node (the view is opaque), as are Sets of records, which
 * compare by identity.
 */
import type * as TS from "typescript";
import { and, implies, not, renameSymbols } from "../smt";
import { sameValueZero, type Sym } from "../values";
import { makeView, viewOf } from "./callbacks";
import { storedKey } from "./collections";
import { refuse, type Exec } from "./context";

export const SET_VIEW_WHY = "a Set built from an array the prover does not know element by element: here it can only be iterated (`for…of`) or spread into an array (`[...new Set(xs)]`)";

/** The Set of the array (or filtered view) `init`, as a view; undefined when `init` is neither. */
export function uniqueView(ex: Exec, init: Sym, at: TS.Node): Sym | undefined {
  const view = viewOf(init);
  if (!view || view.base.k !== "sarr") return undefined;
  const base = view.base;
  const kept = view.keep ?? (() => "true");
  const same = (a: Sym, b: Sym): string => {
    const eq = sameValueZero(a, b);
    if (eq === undefined) refuse(at, "A Set of these values compares them by identity, which is not modelled.", "Build Sets of strings or numbers (`new Set(xs.map((x) => x.id))`).");
    return eq;
  };
  // The element at a bound index, with the facts reading it made kept inside the quantifier (as `includes` does).
  const j = ex.world.fresh("j");
  const before = ex.world.assumptions.length;
  const itemJ = base.at(j);
  const local = ex.world.assumptions.splice(before).map((a) => a.term);
  const keep = (i: string): string => {
    const item = base.at(i);
    if (/^\d+$/.test(i)) {
      // A bounded array is read at numerals: the earlier elements one by one, no quantifier.
      const earlier = Array.from({ length: Number(i) }, (_, k) => implies(and(`(< ${k} ${base.len})`, kept(String(k))), not(same(base.at(String(k)), item))));
      return and(kept(i), ...earlier);
    }
    const y = ex.world.fresh("j");
    const at = (t: string): string => renameSymbols(t, new Map([[j, y]]));
    const differs = `(forall ((${y} Int)) ${implies(and(`(<= 0 ${y})`, `(< ${y} ${i})`, kept(y), ...local.map(at)), not(at(same(itemJ, item))))})`;
    return and(kept(i), differs);
  };
  // What the Set holds is each kept value as a key: a number's -0 is stored as +0 (adv35: six wrong
  // proofs read -0 back out of `new Set(xs)`, where JavaScript gives +0).
  const stored: Extract<Sym, { k: "sarr" }> = { ...base, at: (i) => storedKey(base.at(i)) };
  return makeView({ base: stored, keep, ...(view.facts ? { facts: view.facts } : {}) }, SET_VIEW_WHY);
}
