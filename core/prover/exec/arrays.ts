/**
 * Array methods without a per-element callback, and the ones that build arrays: `at`, `indexOf`,
 * `lastIndexOf`, `includes` (literal arrays exactly, arrays of unknown length as quantifiers),
 * `slice` (literal arrays exactly; arrays of unknown length as a view: an offset and a length),
 * `flatMap` over literal arrays, `flat` and `concat` (spliced like a spread), and `Array.from`.
 *
 * Indices follow JavaScript's ToIntegerOrInfinity (NaN is 0, fractions truncate toward zero,
 * ±Infinity stays out of range); `at` and `slice` count negative indices from the end; a read out
 * of range is `undefined`. `indexOf` and `lastIndexOf` compare with `===` (NaN is never found),
 * `includes` with SameValueZero (NaN is found).
 */
import type * as TS from "typescript";
import { and, implies, intLit, ite, not, or, renameSymbols } from "../smt";
import { ARRAY_LENGTH_MAG } from "./integers";
import { boolT, merge, num, numFromInt, sameValueZero, strictEquals, UNDEF, type Sym } from "../values";
import { assumedAtEvery, callbackOf, runWith, viewOf } from "./callbacks";
import { UNROLL_CAP } from "./caps";
import { refuse, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { declare } from "./fresh";
import { noFunctionValue, notOpaque } from "./guards";
import { joinParts, type Part } from "./locals";
import type { State } from "./state";

/** Bounded arrays up to this many elements are searched element by element (`callSearch`). */
const SEARCH_UNROLL_CAP = 64;

export const ARRAY_METHODS = new Set(["at", "indexOf", "lastIndexOf", "includes", "slice", "flatMap", "flat", "concat"]);

type Arr = Extract<Sym, { k: "arr" } | { k: "sarr" }>;

/** Slices of arrays of unknown length bounded by a literal at most this long are unrolled like an `ensures` bound. */
const SLICE_UNROLL = 8;

export function callArrayMethod(ex: Exec, target: Arr, name: string, e: TS.CallExpression, st: State): Sym {
  switch (name) {
    case "at": return callAt(ex, target, e, st);
    case "indexOf": case "lastIndexOf": case "includes": return callSearch(ex, target, name, e, st);
    case "slice": return callSlice(ex, target, e, st);
    case "flat": return callFlat(ex, target, e, st);
    case "concat": return callConcat(ex, target, e, st);
    default: return callFlatMap(ex, target, e, st);
  }
}

/** An index argument as JavaScript's ToIntegerOrInfinity: an Int term, and whether it is +∞ or -∞. */
export interface IntIndex {
  readonly i: string;
  readonly posInf: string;
  readonly negInf: string;
  /** The integer, when it is a literal. */
  readonly c?: number;
}

export function indexArg(ex: Exec, arg: TS.Expression, st: State, what: string): IntIndex;
export function indexArg(ex: Exec, arg: TS.Expression, st: State, what: string, undefinedIsAbsent: true): IntIndex | undefined;
export function indexArg(ex: Exec, arg: TS.Expression, st: State, what: string, undefinedIsAbsent = false): IntIndex | undefined {
  const v = evalExpr(ex, arg, st);
  noFunctionValue(v, arg);
  if (v.k === "undef") return undefinedIsAbsent ? undefined : { i: "0", posInf: "false", negInf: "false", c: 0 };
  if (v.k !== "num") refuse(arg, `The ${what} must be a number here (JavaScript would convert ${v.k === "maybe" ? "a value that may be undefined" : "it"}).`, `Pass a number: \`xs.${what === "index" ? "at(-1)" : "slice(1, 3)"}\`.`);
  if (v.c !== undefined) {
    if (Number.isNaN(v.c)) return { i: "0", posInf: "false", negInf: "false", c: 0 };
    if (v.c === Infinity) return { i: "0", posInf: "true", negInf: "false" };
    if (v.c === -Infinity) return { i: "0", posInf: "false", negInf: "true" };
    const t = Math.trunc(v.c);
    return { i: bigIntLit(t), posInf: "false", negInf: "false", ...(Number.isSafeInteger(t) ? { c: t === 0 ? 0 : t } : {}) };
  }
  if (v.int !== undefined) return { i: v.int, posInf: "false", negInf: "false" };
  const t = v.t;
  const inf = `(fp.isInfinite ${t})`;
  return {
    i: `(ite (or (fp.isNaN ${t}) ${inf}) 0 (to_int (fp.to_real (fp.roundToIntegral RTZ ${t}))))`,
    posInf: and(inf, `(fp.isPositive ${t})`),
    negInf: and(inf, `(fp.isNegative ${t})`),
  };
}

/** An exact Int literal for an integral double (beyond 2^53 too). */
function bigIntLit(n: number): string {
  const s = BigInt(n).toString();
  return s.startsWith("-") ? `(- ${s.slice(1)})` : s;
}

const plus = (a: string, b: string): string => (/^\d+$/.test(a) && /^\d+$/.test(b) ? String(Number(a) + Number(b)) : a === "0" ? b : b === "0" ? a : `(+ ${a} ${b})`);
export const maxI = (a: string, b: string): string => (a === b ? a : `(ite (>= ${a} ${b}) ${a} ${b})`);
export const minI = (a: string, b: string): string => (a === b ? a : `(ite (<= ${a} ${b}) ${a} ${b})`);

/** `xs.at(i)`: the element at i (counted from the end when negative), `undefined` out of range. */
function callAt(ex: Exec, target: Arr, e: TS.CallExpression, st: State): Sym {
  if (e.arguments.length > 1) refuse(e, "`at` takes one index.", "Call `xs.at(i)`.");
  const idx = e.arguments[0] ? indexArg(ex, e.arguments[0], st, "index") : { i: "0", posInf: "false", negInf: "false", c: 0 };
  if (target.k === "arr") {
    const n = target.items.length;
    if (idx.c !== undefined) {
      const k = idx.c >= 0 ? idx.c : n + idx.c;
      return k >= 0 && k < n ? target.items[k]! : UNDEF;
    }
    const finite = and(not(idx.posInf), not(idx.negInf));
    let acc: Sym = UNDEF;
    for (let j = n - 1; j >= 0; j--) {
      const hit = and(finite, or(`(= ${idx.i} ${j})`, `(= ${idx.i} ${intLit(j - n)})`));
      const m = merge(hit, target.items[j]!, acc);
      if (!m) refuse(e, "The elements have values of different kinds.", "Use arrays of one element type.");
      acc = m;
    }
    return acc;
  }
  const len = target.len;
  const k = idx.c !== undefined ? (idx.c >= 0 ? String(idx.c) : plus(len, intLit(idx.c))) : `(ite (>= ${idx.i} 0) ${idx.i} (+ ${len} ${idx.i}))`;
  const def = and(not(idx.posInf), not(idx.negInf), idx.c !== undefined && idx.c >= 0 ? "true" : `(<= 0 ${k})`, `(< ${k} ${len})`);
  return { k: "maybe", def, v: target.at(k) };
}

/**
 * `xs[i]` with an integer index (a literal, or an integer term such as a callback's or loop's
 * index): the element, `undefined` out of range (a negative index names no element). Undefined
 * for an index of another kind (a fraction or a double term), which the caller refuses.
 */
export function elementAt(ex: Exec, target: Arr, index: Sym, at: TS.Node): Sym | undefined {
  if (index.k !== "num") return undefined;
  if (index.c !== undefined && !(Number.isInteger(index.c) && index.c >= 0)) return Number.isInteger(index.c) ? UNDEF : undefined;
  const k = index.c !== undefined ? String(index.c) : index.int;
  if (k === undefined) return undefined;
  if (target.k === "arr") {
    let acc: Sym = UNDEF;
    for (let j = target.items.length - 1; j >= 0; j--) {
      const m = merge(`(= ${k} ${j})`, target.items[j]!, acc);
      if (!m) refuse(at, "The elements have values of different kinds.", "Use arrays of one element type.");
      acc = m;
    }
    return acc;
  }
  return { k: "maybe", def: and(index.c !== undefined ? "true" : `(<= 0 ${k})`, `(< ${k} ${target.len})`), v: target.at(k) };
}

/** `indexOf`, `lastIndexOf` (`===`) and `includes` (SameValueZero) with one argument. */
function callSearch(ex: Exec, target: Arr, name: "indexOf" | "lastIndexOf" | "includes", e: TS.CallExpression, st: State): Sym {
  if (e.arguments.length !== 1) refuse(e, `\`${name}\` with a start position is not modelled.`, `Call \`${name}(value)\` with one argument, or \`xs.slice(start).${name}(value)\`.`);
  const x = evalExpr(ex, e.arguments[0]!, st);
  noFunctionValue(x, e.arguments[0]!);
  notOpaque(x, e.arguments[0]!);
  const same = (item: Sym): string => {
    const eq = name === "includes" ? sameValueZero(item, x) : strictEquals(item, x);
    if (eq === undefined) refuse(e, `\`${name}\` compares strings, numbers, booleans or \`undefined\` only (objects are compared by identity).`, "Compare scalar values, or search with `find((x) => x.key === value)`.");
    return eq;
  };
  if (target.k === "arr") {
    const eqs = target.items.map(same);
    if (name === "includes") return boolT(or(...eqs));
    let acc = "(- 1)";
    const order = name === "indexOf" ? [...eqs.keys()].reverse() : [...eqs.keys()];
    for (const j of order) acc = eqs[j] === "true" ? String(j) : eqs[j] === "false" ? acc : `(ite ${eqs[j]} ${j} ${acc})`;
    return /^\(- 1\)$|^\d+$/.test(acc) ? num(acc === "(- 1)" ? -1 : Number(acc)) : numFromInt(acc, target.items.length);
  }
  if (target.bound !== undefined && target.bound <= SEARCH_UNROLL_CAP) {
    // A bounded array (its length never exceeds `bound`: a tool's `ensures`, or pushes counted
    // where paths met; `unrolled` in callbacks.ts relies on the same) is searched element by
    // element: `∃k. 0 ≤ k < len ∧ eq(k)` is `⋁_{j<bound} (j < len ∧ eq(j))`, and the first
    // (last) match an `ite` chain over those, with no quantifier and no fresh index for the
    // solver (a `paid.includes(x)` per iteration over eight invoices made 9 MB of nested `exists`).
    const hits = Array.from({ length: target.bound }, (_, j) => and(`(< ${j} ${target.len})`, same(target.at(String(j)))));
    if (name === "includes") return boolT(or(...hits));
    let acc = "(- 1)";
    const order = name === "indexOf" ? [...hits.keys()].reverse() : [...hits.keys()];
    for (const j of order) acc = hits[j] === "false" ? acc : `(ite ${hits[j]} ${j} ${acc})`;
    return acc === "(- 1)" ? num(-1) : numFromInt(acc, target.bound);
  }
  // An array of unknown length: the element at a bound index, with the facts reading it made
  // (element promises) kept inside the quantifier.
  const q = ex.world.fresh("k");
  const before = ex.world.assumptions.length;
  const item = target.at(q);
  const local = ex.world.assumptions.splice(before).map((a) => a.term);
  const eq = same(item);
  const at = (y: string, term: string): string => renameAt(term, q, y);
  const facts = (y: string): string => and(...local.map((t) => at(y, t)));
  const range = (y: string): string => and(`(<= 0 ${y})`, `(< ${y} ${target.len})`);
  assumedAtEvery(ex, range, facts);
  const k = ex.world.fresh("k");
  const some = `(exists ((${k} Int)) ${and(range(k), facts(k), at(k, eq))})`;
  if (name === "includes") return boolT(some);
  // The first (last) matching index: a fresh integer constrained where one exists.
  const found = ex.world.fresh(name === "indexOf" ? "first" : "last");
  declare(ex, found, "Int", ex.loops.length);
  const f = ex.loops.length === 0 ? found : `(${found} ${ex.loops.join(" ")})`;
  const j = ex.world.fresh("j");
  const others = name === "indexOf" ? and(`(<= 0 ${j})`, `(< ${j} ${f})`) : and(`(< ${f} ${j})`, `(< ${j} ${target.len})`);
  const none = `(forall ((${j} Int)) ${implies(and(others, facts(j)), not(at(j, eq)))})`;
  ex.world.assumptions.push({ term: implies(some, and(range(f), facts(f), at(f, eq), none)), loops: [...ex.loops] });
  return numFromInt(ite(some, f, "(- 1)"), ARRAY_LENGTH_MAG);
}

/** The term with the bound index renamed (whole symbols only: a string literal spelling the name keeps its meaning). */
function renameAt(term: string, from: string, to: string): string {
  return renameSymbols(term, new Map([[from, to]]));
}

/** A relative slice bound as an absolute index in [0, len] (JavaScript's `slice`). */
export function sliceBound(idx: IntIndex, len: string): string {
  if (idx.c !== undefined) return idx.c >= 0 ? minI(String(idx.c), len) : maxI(plus(len, intLit(idx.c)), "0");
  const finite = `(ite (< ${idx.i} 0) ${maxI(`(+ ${len} ${idx.i})`, "0")} ${minI(idx.i, len)})`;
  return ite(idx.negInf, "0", ite(idx.posInf, len, finite));
}

/**
 * `xs.slice(a?, b?)`: a literal array with literal bounds is sliced exactly; an array of unknown
 * length gives a view (the elements from the start index on, its length `max(end - start, 0)`).
 */
function callSlice(ex: Exec, target: Arr, e: TS.CallExpression, st: State): Sym {
  if (e.arguments.length > 2) refuse(e, "`slice` takes a start and an end.", "Call `xs.slice(start, end)`.");
  const a = e.arguments[0] ? indexArg(ex, e.arguments[0], st, "start") : undefined;
  // An end that is `undefined` means the array's end (a start that is `undefined` is 0).
  const b = e.arguments[1] ? indexArg(ex, e.arguments[1], st, "end", true) : undefined;
  const literal = (x: IntIndex | undefined): number | undefined => (x === undefined ? undefined : x.c ?? (x.posInf === "true" ? Infinity : x.negInf === "true" ? -Infinity : NaN));
  if (target.k === "arr") {
    const la = literal(a), lb = literal(b);
    if ((a && Number.isNaN(la)) || (b && Number.isNaN(lb))) {
      refuse(e, "`slice` of a literal array is modelled with literal bounds only.", "Slice with literal numbers (`xs.slice(1, 3)`), or loop over the array.");
    }
    return { k: "arr", items: target.items.slice(la, lb) };
  }
  const len = target.len;
  const start = a ? sliceBound(a, len) : "0";
  const end = b ? sliceBound(b, len) : len;
  const count = end === len && start === "0" ? len : maxI(`(- ${end} ${start})`, "0");
  const base = target;
  const at = (i: string): Sym => base.at(plus(start, i));
  // A literal bound on the count lets loops over the slice unroll (the count never exceeds it).
  const caps: number[] = [];
  if (base.bound !== undefined) caps.push(base.bound);
  if (b?.c !== undefined && b.c >= 0) caps.push(Math.max(0, b.c - (a?.c !== undefined && a.c > 0 ? a.c : 0)));
  if (a?.c !== undefined && a.c < 0) caps.push(-a.c);
  const cap = caps.length > 0 ? Math.min(...caps) : undefined;
  const bound = cap !== undefined && (base.bound !== undefined || cap <= SLICE_UNROLL) ? cap : undefined;
  return { k: "sarr", len: count, at, elem: base.elem, label: `${base.label}.slice`, ...(bound !== undefined ? { bound } : {}) };
}

/** Whether a value is spliced in by `flat` or `concat`: an array, or a filter's result (a view of one). */
function spliced(v: Sym): boolean {
  return v.k === "arr" || v.k === "sarr" || viewOf(v) !== undefined;
}

/** A part of `flat`'s or `concat`'s result: an array spliced in, a plain value as one element; a value that may or may not be an array is refused. */
function splicePart(value: Sym, node: TS.Node, method: string): Part {
  if (spliced(value)) return { value, spread: true, node };
  if (value.k === "str" || value.k === "num" || value.k === "bool" || value.k === "rec" || value.k === "undef") return { value, spread: false, node };
  return refuse(node, `\`${method}\` of a value that may be undefined, or is not an array or a plain value, is not modelled.`, "Decide first what the value is (`xs ?? []`), then flatten arrays of arrays.");
}

/**
 * `xs.flat()` (depth 1): each element that is an array is spliced in its place, others are kept;
 * over a literal array of arrays of unknown length too (`(await Promise.all(…)).flat()`), as
 * `[...a, ...b]` is. Over an array of unknown length the result is the array itself when its
 * elements are not arrays, and refused when they are (the result's length is then a sum over
 * every element, which is not tracked).
 */
function callFlat(ex: Exec, target: Arr, e: TS.CallExpression, st: State): Sym {
  const depth = e.arguments[0];
  if (depth !== undefined) {
    const d = evalExpr(ex, depth, st);
    if (!(d.k === "undef" || (d.k === "num" && d.c === 1))) refuse(depth, "`flat` is modelled with its default depth (1) only.", "Call `xs.flat()`, and flatten deeper levels with another `flat()` on the result.");
  }
  if (e.arguments.length > 1) refuse(e, "`flat` takes one argument.", "Call `xs.flat()`.");
  if (target.k === "sarr") {
    if (target.elem.kind === "array") refuse(e, "`flat` over an array of unknown length whose elements are arrays is not modelled (the result's length is a sum over every element).", "Loop over the outer array and, inside it, over each inner one: `for (const xs of lists) for (const x of xs) …`.");
    return target;
  }
  return spliceParts(ex, target.items.map((value) => splicePart(value, e, "flat")), e);
}

/** `xs.concat(a, b, …)`: the receiver's elements, then each argument's (an array's spliced in, any other value as one element). */
function callConcat(ex: Exec, target: Arr, e: TS.CallExpression, st: State): Sym {
  const parts: Part[] = [{ value: target, spread: true, node: e.expression }];
  for (const a of e.arguments) {
    if (ex.ts.isSpreadElement(a)) refuse(a, "A spread argument to `concat` is not modelled.", "Pass the arrays themselves: `xs.concat(a, b)`.");
    const value = evalExpr(ex, a, st);
    noFunctionValue(value, a);
    parts.push(splicePart(value, a, "concat"));
  }
  return spliceParts(ex, parts, e);
}

function spliceParts(ex: Exec, parts: readonly Part[], e: TS.CallExpression): Arr {
  const joined = joinParts(ex, parts, e);
  if (joined.k === "arr" && joined.items.length > UNROLL_CAP) refuse(e, `The result has more than ${UNROLL_CAP} elements.`, "Build a shorter array.");
  return joined;
}

/**
 * `xs.flatMap(cb)` over a literal array: the callback runs on every element in order, and each
 * array it returns is spliced in (any other value is one element), arrays of unknown length too.
 * Over other arrays: refused.
 */
function callFlatMap(ex: Exec, target: Arr, e: TS.CallExpression, st: State): Sym {
  if (target.k !== "arr") refuse(e, "`flatMap` is modelled on literal arrays only (over other arrays its result has a length the prover does not track).", "Loop with `for (const x of xs)` and handle each element's values inside the loop, or `map` to one value per element.");
  if (e.arguments.length !== 1) refuse(e, "`flatMap` with a `thisArg` is not modelled.", "Pass only the callback: `xs.flatMap((x) => [x, …])`.");
  const { fn, named } = callbackOf(ex, e.arguments[0]!, "flatMap", st);
  if (named) {
    if (ex.inlining.includes(fn)) refuse(e, "Recursion is not modelled.", "Rewrite the helper without calling itself.");
    ex.inlining.push(fn);
  }
  try {
    // Each array the callback returns is spread in its place (of unknown length too: locals.ts joinParts).
    const parts: Part[] = [];
    target.items.forEach((element, j) => {
      const value = runWith(ex, fn, [element, num(j)], st);
      if (spliced(value)) parts.push({ value, spread: true, node: fn });
      else if (value.k === "str" || value.k === "num" || value.k === "bool" || value.k === "rec" || value.k === "undef") parts.push({ value, spread: false, node: fn });
      else refuse(fn, "A `flatMap` callback must return an array or a plain value.", "Return an array (`[x, x + \"!\"]`, `items.filter(…)`), or use `map` and `filter`.");
    });
    return spliceParts(ex, parts, e);
  } finally {
    if (named) ex.inlining.pop();
  }
}
