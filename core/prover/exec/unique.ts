/**
 * `new Set(xs)` of an array of unknown or bounded length (not a literal one: collections.ts holds
 * those key by key): the Set's elements in insertion order are the array's elements whose value no
 * earlier element has (SameValueZero), so the Set is a filtered view of the array (callbacks.ts)
 * that keeps element i where every earlier element differs from it, each number as the Set stores
 * it (-0 as +0). It can be iterated
 * (`for…of`) and spread into an array (`[...new Set(xs)]`, locals.ts), and `has(k)` is whether
 * some element the array keeps is k (SameValueZero, as the Set compares), and its `size` is the
 * count of its keys (counted.ts); `add` and `forEach` are refused on the node (the view is
 * opaque), as are Sets of records, which compare by identity.
 */
import type * as TS from "typescript";
import { and, implies, not, or, renameSymbols } from "../smt";
import { boolT, sameValueZero, UNDEF, type Sym } from "../values";
import { assumedAtEvery, makeView, viewOf, type View } from "./callbacks";
import { ownedCollection, storedKey } from "./collections";
import { changeInPlace } from "./changes";
import { refuse, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { noFunctionValue, notOpaque } from "./guards";
import type { State } from "./state";

export const SET_VIEW_WHY = "a Set built from an array the prover does not know element by element: here it can only be iterated (`for…of`), spread into an array (`[...new Set(xs)]`), tested with `has` or changed by `delete`";

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
  // What reading an element makes true (a `trim`'s parts, a tool's element promises), at every
  // index: `keep` is read at indices a caller's quantifier binds, where a fact pushed as a
  // world assumption would name a variable no assertion binds (h54 i63: Z3 rejected the query).
  const range = (y: string): string => and(`(<= 0 ${y})`, `(< ${y} ${base.len})`);
  assumedAtEvery(ex, range, (y) => and(...local.map((t) => renameSymbols(t, new Map([[j, y]])))));
  const keep = (i: string): string => {
    const item = elementAt(ex, base, i);
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
  const set = makeView({ base: stored, keep, ...(view.facts ? { facts: view.facts } : {}) }, SET_VIEW_WHY);
  sources.set(set, view);
  return set;
}

/**
 * Element `i` of a Set's source array. Reading it pushes the facts of reading it (a `trim`'s parts,
 * a tool's element promises); `uniqueView` assumed them at every index, so at an index that is not
 * a numeral (one a caller's quantifier may bind) they are dropped: as world assumptions they would
 * name a variable no assertion binds.
 */
function elementAt(ex: Exec, base: Extract<Sym, { k: "sarr" }>, i: string): Sym {
  const mark = ex.world.assumptions.length;
  const item = base.at(i);
  if (!/^\d+$/.test(i)) ex.world.assumptions.splice(mark);
  return item;
}

/** The array (or filtered view) each Set view was built from: its members are that array's kept elements. */
const sources = new WeakMap<Sym, View>();

/**
 * `set.delete(k)` of a Set built from an array, as a statement or read (whether `k` was there):
 * the Set after it is the same view without the elements equal to `k` (SameValueZero), in the
 * same order, and its source keeps them no more (so `has(k)` is false after). Undefined when `set`
 * is not such a Set.
 */
export function setDelete(ex: Exec, set: Sym, e: TS.CallExpression, st: State): Sym | undefined {
  const source = sources.get(set);
  const members = viewOf(set);
  if (!source || !members) return undefined;
  if (e.arguments.length !== 1) refuse(e, "`delete` takes one key.", "Call `set.delete(key)`.");
  const receiver = (e.expression as TS.PropertyAccessExpression).expression;
  const sym = ownedCollection(ex, receiver);
  const arg = e.arguments[0]!;
  const x = evalExpr(ex, arg, st);
  noFunctionValue(x, arg);
  notOpaque(x, arg);
  if (x.k !== "str" && x.k !== "num") refuse(arg, "`delete` of a Set built from an array is modelled with a string or number key.", "Delete a string or a number (test a possibly undefined value first).");
  const had = membership(ex, source, x, arg);
  const other = (item: Sym): string => not(sameValueZero(item, x) ?? refuse(arg, "A Set of these values compares them by identity, which is not modelled.", "Build Sets of strings or numbers."));
  const without = (view: View): View => ({
    ...view,
    keep: (i) => and(view.keep ? view.keep(i) : "true", other(view.base.k === "arr" ? view.base.items[Number(i)] ?? UNDEF : elementAt(ex, view.base, i))),
  });
  const next = makeView(without(members), SET_VIEW_WHY);
  sources.set(next, without(source));
  changeInPlace(ex, st, sym, next, e);
  return had;
}

/**
 * `set.has(k)` of a Set built from an array: some element the array keeps is k (SameValueZero:
 * -0 and +0 are one key, NaN is found); undefined when `set` is not such a Set. Over an array of
 * unknown length an existential over its indices, with the facts reading an element (a tool's
 * element promises, the callbacks' facts) at every index, as `includes` has them (arrays.ts).
 */
export function setHas(ex: Exec, set: Sym, e: TS.CallExpression, st: State): Sym | undefined {
  const view = sources.get(set);
  if (!view) return undefined;
  if (e.arguments.length !== 1) refuse(e, "`has` takes one key.", "Call `set.has(key)`.");
  const arg = e.arguments[0]!;
  const x = evalExpr(ex, arg, st);
  noFunctionValue(x, arg);
  notOpaque(x, arg);
  return membership(ex, view, x, arg);
}

/** Whether some element `view` keeps is `x` (SameValueZero). */
function membership(ex: Exec, view: View, x: Sym, arg: TS.Node): Sym {
  const kept = view.keep ?? (() => "true");
  const same = (item: Sym): string => sameValueZero(item, x) ?? refuse(arg, "A Set of these values compares them by identity, which is not modelled.", "Build Sets of strings or numbers and test a string or a number.");
  const { base } = view;
  if (base.k === "arr") return boolT(or(...base.items.map((item, i) => and(kept(String(i)), same(item)))));
  const q = ex.world.fresh("k");
  const before = ex.world.assumptions.length;
  const item = base.at(q);
  const local = ex.world.assumptions.splice(before).map((a) => a.term);
  const eq = same(item);
  const at = (y: string, term: string): string => renameSymbols(term, new Map([[q, y]]));
  const facts = (y: string): string => and(...local.map((t) => at(y, t)), view.facts ? view.facts(y) : "true");
  const range = (y: string): string => and(`(<= 0 ${y})`, `(< ${y} ${base.len})`);
  assumedAtEvery(ex, range, facts);
  const k = ex.world.fresh("k");
  // What reading the kept test at the bound index made true stays inside the quantifier.
  const mark = ex.world.assumptions.length;
  const keptK = kept(k);
  const inner = ex.world.assumptions.splice(mark).map((a) => a.term);
  return boolT(`(exists ((${k} Int)) ${and(range(k), keptK, ...inner, facts(k), at(k, eq))})`);
}
