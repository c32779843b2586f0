/**
 * `s.split(sep)` of a string the prover does not know, by a non-empty literal separator.
 *
 * JavaScript cuts `s` at the occurrences of `sep`, left to right and without overlaps: part j is
 * what lies before the first occurrence in the rest r_j that part j−1 and its separator leave, and
 * the last part holds none. The first parts are defined exactly by that chain in the string
 * theory: r_0 = s; c_j is "sep occurs in r_j"; p_j = r_j before its first occurrence when c_j,
 * else r_j; r_{j+1} = r_j after that occurrence. There are j + 1 parts exactly when c_0 … c_{j−1}
 * hold and c_j does not.
 *
 * Among runs with short arrays (bounded mode, `ex.arrayBound` = B) the chain is spelled out B deep
 * and `s` is assumed to have at most B parts: the array is exact there, as a tool's result is.
 *
 * In the general encoding the number of parts is unbounded. The chain is spelled out for the first
 * CHAIN parts, which are exact, and the length n is tied to it (n = j + 1 exactly as above for
 * j < CHAIN, n > CHAIN when all CHAIN occur). Every part is also an element of an uninterpreted
 * function (one per split), of which the world states what is true of every part of every run: it
 * holds no occurrence of `sep` and occurs in `s`; the first CHAIN elements equal the chain's parts.
 * That is true of every run, so a proof is sound; it is not all that is true (a model may cut `s`
 * wrong past the chain), so a world that splits so (`World.unknownSplits`) reports a violation only
 * where a run with short arrays shows it again, and refuses the guarantee otherwise (prove.ts), as
 * it does over a counted filter.
 */
import type * as TS from "typescript";
import { and, implies, intLit, ite, not, strLit } from "../smt";
import type { Sym } from "../values";
import { refuse, type Exec } from "./context";
import { indexLoops } from "./elements";
import { declare, freshValue } from "./fresh";
import { nameTerm } from "./state";

/** Parts spelled out exactly in the general encoding (the rest are elements with facts). */
const CHAIN = 3;

type Str = Extract<Sym, { k: "str" }>;
type SArr = Extract<Sym, { k: "sarr" }>;

/** The chain's first `depth` levels: whether `sep` occurs in r_j, part j, and the assumption that defines them. */
interface Chain {
  readonly occurs: readonly string[];
  readonly parts: readonly string[];
  readonly facts: readonly string[];
}

/**
 * r_j = p_j ++ sep ++ r_{j+1} where sep occurs in r_j, with no occurrence starting inside p_j (for
 * one code unit: none in p_j; else none in p_j followed by all but sep's last unit): word
 * equations, which the solver handles better than `str.indexof` and `str.substr`.
 */
function chain(ex: Exec, s: string, sep: string, depth: number, at: TS.Node): Chain {
  const lit = strLit(sep);
  const fresh = (role: string): string => {
    const v = freshValue(ex, `split.${role}`, { kind: "string" }, at);
    if (v.k !== "str") throw new Error("a fresh string is a string");
    return v.t;
  };
  const first = (p: string): string => not(`(str.contains ${sep.length === 1 ? p : `(str.++ ${p} ${strLit(sep.slice(0, -1))})`} ${lit})`);
  const occurs: string[] = [];
  const parts: string[] = [];
  const facts: string[] = [];
  let rest = s;
  for (let j = 0; j < depth; j++) {
    const c = `(str.contains ${rest} ${lit})`;
    const p = fresh("part");
    const after = j + 1 < depth ? fresh("rest") : undefined;
    const cut = after ? `(= ${rest} (str.++ ${p} ${lit} ${after}))` : `(str.prefixof (str.++ ${p} ${lit}) ${rest})`;
    facts.push(ite(c, and(cut, first(p)), `(= ${p} ${rest})`));
    occurs.push(c);
    parts.push(p);
    if (after) rest = after;
  }
  return { occurs, parts, facts };
}

/** Splits already made, by separator, loop indices in scope and string term, with the assumption that defines each. */
const made = new WeakMap<Exec, Map<string, { readonly value: SArr; readonly defined: Exec["world"]["assumptions"][number] }>>();

export function splitUnknown(ex: Exec, s: Str, sep: string, e: TS.CallExpression): Sym {
  if (sep === "") refuse(e.arguments[0]!, "`split(\"\")` of a string the prover does not know is not modelled (one part per code unit, unbounded).", "Split by a non-empty separator, or test the text with includes, startsWith or endsWith.");
  if (ex.pureOnly) refuse(e, "`split` of an unknown string is not modelled here (contract predicates and top-level values).", "Split inside `main`.");
  let known = made.get(ex);
  if (!known) made.set(ex, (known = new Map()));
  const key = `${sep.length}:${sep} ${ex.loops.join(" ")} ${s.t}`;
  const again = known.get(key);
  // A scope that folded its assumptions into a term of its own (a callback's) took the definition with it.
  if (again && ex.world.assumptions.includes(again.defined)) return again.value;
  const split = ex.arrayBound === undefined ? general(ex, s, sep, e) : short(ex, s, sep, ex.arrayBound, e);
  known.set(key, split);
  return split.value;
}

/** Bounded mode: at most `bound` parts, each exact. */
function short(ex: Exec, s: Str, sep: string, bound: number, e: TS.Node): { value: SArr; defined: Exec["world"]["assumptions"][number] } {
  const { occurs, parts, facts } = chain(ex, s.t, sep, bound, e);
  const defined = { term: and(...facts, not(and(...occurs))), loops: [...ex.loops] };
  ex.world.assumptions.push(defined);
  let len = intLit(bound);
  for (let j = bound - 2; j >= 0; j--) len = ite(occurs[j]!, len, intLit(j + 1));
  len = nameTerm(ex, len, "Int", "split.length", true);
  const at = (index: string): Sym => {
    if (/^\d+$/.test(index)) return { k: "str", t: parts[Math.min(Number(index), bound - 1)]! };
    let t = parts[bound - 1]!;
    for (let j = bound - 2; j >= 0; j--) t = ite(`(= ${index} ${j})`, parts[j]!, t);
    return { k: "str", t };
  };
  return { value: { k: "sarr", len, at, elem: { kind: "string" }, bound, label: "split" }, defined };
}

/** The general encoding: the chain's first CHAIN parts exact, the others elements with the facts true of every part. */
function general(ex: Exec, s: Str, sep: string, e: TS.Node): { value: SArr; defined: Exec["world"]["assumptions"][number] } {
  const { occurs, parts, facts: cuts } = chain(ex, s.t, sep, CHAIN, e);
  const loops = [...ex.loops];
  const lenName = ex.world.fresh("split.length");
  declare(ex, lenName, "Int", loops.length);
  const n = loops.length === 0 ? lenName : `(${lenName} ${loops.join(" ")})`;
  const fn = ex.world.fresh("split.part");
  declare(ex, fn, "String", loops.length + 1);
  const part = (index: string): string => `(${fn} ${[...loops, index].join(" ")})`;
  // The length as the chain fixes it, the chain's parts as the first elements, and the last part
  // as what follows an occurrence of sep and holds none (true of every run, though for a sep
  // that overlaps itself, such as "aa", not the only such cut).
  const last = part(`(- ${n} 1)`);
  const before = freshValue(ex, "split.before", { kind: "string" }, e);
  if (before.k !== "str") throw new Error("a fresh string is a string");
  const facts: string[] = [...cuts, ite(`(> ${n} 1)`, and(`(= ${s.t} (str.++ ${before.t} ${strLit(sep)} ${last}))`, not(`(str.contains ${last} ${strLit(sep)})`)), `(= ${last} ${s.t})`)];
  for (let j = 0; j < CHAIN; j++) {
    facts.push(`(= (= ${n} ${j + 1}) ${and(...occurs.slice(0, j), not(occurs[j]!))})`);
    facts.push(implies(`(< ${j} ${n})`, `(= ${part(String(j))} ${parts[j]!})`));
  }
  facts.push(`(= (> ${n} ${CHAIN}) ${and(...occurs)})`);
  const defined = { term: and(...facts), loops };
  ex.world.assumptions.push(defined);
  ex.world.unknownSplits++;
  const lit = strLit(sep);
  const seen = new Set<string>();
  const at = (index: string): Sym => {
    // Only while `main` runs: reading a model afterwards adds nothing to the world.
    if (ex.steps !== undefined && !seen.has(index)) {
      seen.add(index);
      const p = part(index);
      const every = and(not(`(str.contains ${p} ${lit})`), `(str.contains ${s.t} ${p})`);
      ex.world.assumptions.push({ term: implies(and(`(<= 0 ${index})`, `(< ${index} ${n})`), every), loops: [...new Set([...loops, ...indexLoops(ex, index)])] });
    }
    if (/^\d+$/.test(index) && Number(index) < CHAIN) return { k: "str", t: parts[Number(index)]! };
    return { k: "str", t: part(index) };
  };
  return { value: { k: "sarr", len: n, at, elem: { kind: "string" }, label: "split" }, defined };
}
