/**
 * The array a `filter` over an array of unknown length returns, for the reads a filtered view does
 * not offer (`length`, indexing, `slice`, `at`, …), over a ghost count: `before(j)` is the number
 * of kept elements among the base's elements 0…j−1, the length is before(n), and element m is the
 * base element `at(m)`, the one that is kept with exactly m kept before it (kept(at(m)) ∧
 * before(at(m)) = m ∧ 0 ≤ at(m) < n; there is exactly one for every m < before(n), since `before`
 * climbs by 0 or 1 from 0). The facts about `at(m)` are instantiated per element read, as element
 * promises are (elements.ts), so a `slice` of the result holds the kept elements in its range.
 *
 * What is stated of `before` is what holds of it in every run: before(0) = 0 and, for 0 ≤ j ≤ n,
 * 0 ≤ before(j) ≤ j, before(j) ≤ before(n) and before(n) − before(j) ≤ n − j. Its step
 * (before(j + 1) = before(j) + [kept(j)]) is not: the solver cannot do the induction it asks for, and
 * a universal with it left a two-element counterexample undecided after 90 s. So a proof is sound,
 * but a model may count wrong: a world that reads a count (`countedFilters`) reports a violation
 * only where a run with short arrays, where the filter is compacted exactly (callbacks.ts), shows
 * it again, as over a loop's invariant (prove.ts), and refuses the guarantee otherwise.
 *
 * Inside quantified loops the ghosts are functions of the indices of the running loops the source
 * or the test depends on, and of the base index; a filter whose source or test reads the index of
 * a loop that has ended stays a view that can only be iterated, and reading it is refused.
 */
import { and, implies, renameSymbols } from "../smt";
import type { Sym } from "../values";
import type { Exec } from "./context";
import { declare } from "./fresh";
import { indexLoops } from "./elements";

type SArr = Extract<Sym, { k: "sarr" }>;

/** What a filtered view over an array of unknown length keeps (callbacks.ts builds it). */
export interface CountedSource {
  readonly base: SArr;
  /** Bool term: the element at this index is kept. */
  readonly keep: (index: string) => string;
  /** Bool term: the facts the filter's callbacks established at this index (true at every index). */
  readonly facts: (index: string) => string;
}

/**
 * Whether a term mentions the index of a quantified loop other than those running here (the
 * ghosts are functions of the running loops' indices and the base index, nothing else).
 */
function loopBound(ex: Exec, term: string): boolean {
  for (const t of term.match(/[^\s()]+/g) ?? []) if (ex.world.loopRanges.has(t) && !ex.loops.includes(t)) return true;
  return false;
}

/** By the view they compact (a view flows through variables unchanged, so reads share the ghosts). */
const made = new WeakMap<object, SArr | null>();

/**
 * The size a loop that collected a view carried for it (collected.ts): the number of its kept
 * elements (distinct ones for a Set) when the loop ends, true in every run.
 */
export const carriedSizes = new WeakMap<object, string>();

/** The compacted array of a filter over an array of unknown length; undefined where not modelled. */
export function countedArray(ex: Exec, source: CountedSource, key: object): SArr | undefined {
  const known = made.get(key);
  if (known !== undefined) return known ?? undefined;
  // Reading a model after `main` ran adds nothing to the world; the search among short runs must
  // be exact (its violations are reported as such), so a base it did not bound is not counted there.
  if (ex.steps === undefined || ex.arrayBound !== undefined) return undefined;
  const { base } = source;
  const n = base.len;
  const j = ex.world.fresh("j");
  // A probe at an index no quantifier binds: the facts reading an element there (a `trim` of it, a
  // Set's earlier keys) are dropped, or they would name `j` free in the query (h53 i03: Z3 read none of its assertions).
  const probed = ex.world.assumptions.length;
  const read = `${n} ${source.keep(j)} ${source.facts(j)}`;
  const bound = loopBound(ex, read);
  ex.world.assumptions.splice(probed);
  if (bound) {
    made.set(key, null);
    return undefined;
  }
  // Inside quantified loops (a filter of each element's own tool result, h57 i07, i12) the ghosts
  // are functions of the indices of the loops the source or the test depends on: one count per
  // iteration, each stated for every iteration. A filter that depends on none has one count, also
  // where it is read inside a loop (and after it: its terms must not name a loop's index).
  const tokens = new Set(read.match(/[^\s()]+/g) ?? []);
  const loops = ex.loops.filter((q) => tokens.has(q));
  const before = ex.world.fresh("keptBefore");
  declare(ex, before, "Int", loops.length + 1);
  const pos = ex.world.fresh("keptAt");
  declare(ex, pos, "Int", loops.length + 1);
  const b = (x: string): string => `(${[before, ...loops, x].join(" ")})`;
  // True of the count in every run (by induction over j); the step itself is not stated (below).
  ex.world.assumptions.push(
    { term: `(= ${b("0")} 0)`, loops },
    { term: `(forall ((${j} Int)) ${implies(and(`(<= 0 ${j})`, `(<= ${j} ${n})`), and(`(<= 0 ${b(j)})`, `(<= ${b(j)} ${j})`, `(<= ${b(j)} ${b(n)})`, `(<= (- ${b(n)} ${b(j)}) (- ${n} ${j}))`))})`, loops },
  );
  ex.world.countedFilters++;
  const len = b(n);
  // A loop that collected the array and read its size carries that size (collected.ts): the same count.
  const size = carriedSizes.get(key);
  if (size && loops.length === 0) ex.world.assumptions.push({ term: `(= ${len} ${size})`, loops: [] });
  const seen = new Set<string>();
  const at = (m: string): Sym => {
    const p = `(${[pos, ...loops, m].join(" ")})`;
    if (ex.steps !== undefined && !seen.has(m)) {
      seen.add(m);
      const inRange = and(`(<= 0 ${m})`, `(< ${m} ${len})`);
      const fact = and(`(<= 0 ${p})`, `(< ${p} ${n})`, source.keep(p), source.facts(p), `(= ${b(p)} ${m})`);
      ex.world.assumptions.push({ term: implies(inRange, fact), loops: [...new Set([...loops, ...indexLoops(ex, m)])] });
    }
    return base.at(p);
  };
  const out: SArr = { k: "sarr", len, at, elem: base.elem, label: `${base.label}.filter` };
  made.set(key, out);
  return out;
}

/** The facts at one index renamed from the callback's index `q` to another. */
export function factsAt(terms: readonly string[], q: string): (index: string) => string {
  return (index) => and(...terms.map((t) => renameSymbols(t, new Map([[q, index]]))));
}
