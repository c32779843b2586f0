/**
 * `Array.from`: a copy of an array (a Set's keys, a Map's pairs, as `[...xs]`), and
 * `Array.from({ length: n }, (_, i) => …)`.
 *
 * A literal `n` gives a literal array (the callback runs for i = 0…n-1). Any other `n` is read as
 * JavaScript reads it: the length is ToLength(n) (NaN and anything below 1 give 0, a fraction is
 * cut: 2.5 gives 2), and past 2^32 − 1 `Array` throws a RangeError. It is modelled when the path
 * to the call bounds `n` by at most {@link BOUNDED_UNROLL_CAP} (`if (days > 7) return;`), as the
 * interval reading of the path shows (intervals.ts, the same ranges that refute queries): element
 * j then exists where n ≥ j + 1, and the callback runs for it only there, so the array is one of
 * at most that many elements, read like a tool's result an `ensures` bounds.
 */
import type * as TS from "typescript";
import { readIntervals } from "../intervals";
import { parseCommands } from "../tactics";
import { and, intLit, ite, not, numLit, or } from "../smt";
import { merge, num, UNDEF, type Sym } from "../values";
import { callbackOf, elemTypeOf, makeView, runWith, viewOf } from "./callbacks";
import { collectionElements } from "./collections";
import { BOUNDED_UNROLL_CAP, UNROLL_CAP } from "./caps";
import { refuse, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { nameTerm, type State } from "./state";

const HOW = "Write `Array.from({ length: 3 }, (_, i) => …)` with a literal length, bound the length first (`if (n > 7) return;`), or use `[...]` / `xs.map(…)`.";

export function callArrayFrom(ex: Exec, e: TS.CallExpression, st: State): Sym {
  const ts = ex.ts;
  const [src, cb, thisArg] = e.arguments;
  if (!src || thisArg) refuse(e, "`Array.from` takes an array or `{ length: n }` and, optionally, a callback.", HOW);
  if (ts.isObjectLiteralExpression(src)) {
    const props = src.properties;
    const p = props[0];
    if (props.length !== 1 || !p || !ts.isPropertyAssignment(p) || !ts.isIdentifier(p.name) || p.name.text !== "length") refuse(src, "`Array.from` of an object is modelled for `{ length: n }` only.", HOW);
    const n = evalExpr(ex, p.initializer, st);
    if (n.k !== "num") refuse(p.initializer, "The length must be a number.", HOW);
    if (n.c !== undefined) {
      if (!Number.isInteger(n.c) || n.c < 0 || n.c > UNROLL_CAP) refuse(p.initializer, `A literal length must be a whole number from 0 to ${UNROLL_CAP}.`, HOW);
      return elements(ex, e, cb, st, Array.from({ length: n.c }, () => "true"));
    }
    const bound = lengthBound(ex, n.t, st);
    if (bound === undefined) refuse(p.initializer, `The length is not a literal, and the path to here does not keep it at most ${BOUNDED_UNROLL_CAP} (so the number of elements is not bounded).`, HOW);
    // Element j exists where ToLength(n) > j, that is n >= j + 1 (false for NaN).
    const present = Array.from({ length: bound }, (_, j) => `(fp.geq ${n.t} ${numLit(j + 1)})`);
    const arr = elements(ex, e, cb, st, present);
    if (arr.k !== "arr") throw new Error("elements give a literal array");
    // Each `present` implies the one before it: the length is the last one that holds.
    let len = intLit(0);
    for (let j = 0; j < bound; j++) len = ite(present[j]!, intLit(j + 1), len);
    const items = arr.items;
    const first = items.find((x) => x.k !== "undef") ?? UNDEF;
    const elem = first.k === "undef" ? undefined : elemTypeOf(first, e);
    if (!elem) refuse(e, "`Array.from({ length: n })` without a callback, with a length that is not a literal, is an array of `undefined`s that is not modelled.", "Pass a callback: `Array.from({ length: n }, (_, i) => …)`.");
    const at = (index: string): Sym => {
      if (/^\d+$/.test(index)) return items[Number(index)] ?? UNDEF;
      let v: Sym = items[items.length - 1] ?? UNDEF;
      for (let j = items.length - 2; j >= 0; j--) {
        const m = merge(`(= ${index} ${j})`, items[j]!, v);
        if (!m) refuse(e, "The callback returns values of different kinds.", "Return one kind of value.");
        v = m;
      }
      return v;
    };
    return { k: "sarr", len: nameTerm(ex, len, "Int", "from.length", true), at, elem, bound, label: "Array.from" };
  }
  if (cb) refuse(cb, "`Array.from(xs, callback)` is not modelled.", "Write `xs.map((x, i) => …)`.");
  // `Array.from(xs)` is `[...xs]` (locals.ts `arrayLiteral`): an array, a filtered view, a Set's
  // keys or a Map's pairs (collections.ts).
  let v = evalExpr(ex, src, st);
  if (v.k === "coll") v = collectionElements(v);
  const view = viewOf(v);
  if (view?.keep) return makeView(view);
  if (v.k === "arr" || v.k === "sarr") return v;
  refuse(src, v.k === "str" ? "`Array.from` of a string splits it into code points, which is not modelled." : "`Array.from` is modelled on arrays and `{ length: n }` only.", HOW);
}

/**
 * The elements of `{ length }` through the callback (or `undefined`s), element j computed where
 * `present[j]` holds: the callback's calls happen only there, and a path it fails on stops there.
 */
function elements(ex: Exec, e: TS.CallExpression, cb: TS.Expression | undefined, st: State, present: readonly string[]): Sym {
  if (!cb) return { k: "arr", items: present.map(() => UNDEF) };
  const { fn, named } = callbackOf(ex, cb, "Array.from", st);
  if (named) {
    if (ex.inlining.includes(fn)) refuse(e, "Recursion is not modelled.", "Rewrite the helper without calling itself.");
    ex.inlining.push(fn);
  }
  try {
    const items: Sym[] = [];
    for (const [j, c] of present.entries()) {
      const before = st.pc;
      const body: State = { pc: and(before, c), env: st.env };
      const v = runWith(ex, fn, [UNDEF, num(j)], body);
      if (v.k === "opaque") refuse(fn, `The callback returns a value that cannot be stored: ${v.why}.`, "Return strings, numbers, booleans or objects of those.");
      // Where the element does not exist the path goes on as before; where it does, as the callback left it.
      st.pc = body.pc === and(before, c) ? before : or(body.pc, and(before, not(c)));
      items.push(v);
    }
    return { k: "arr", items };
  } finally {
    if (named) ex.inlining.pop();
  }
}

/**
 * The least K ≤ BOUNDED_UNROLL_CAP such that no run reaching here has n ≥ K + 1, as the interval
 * reading of the path condition and the world's assumptions outside loops shows; undefined when
 * none does.
 */
function lengthBound(ex: Exec, n: string, st: State): number | undefined {
  const facts = [...ex.world.assumptions.filter((a) => a.loops.length === 0).map((a) => a.term), st.pc];
  const base = `${ex.world.declarations.join("\n")}\n${facts.map((f) => `(assert ${f})`).join("\n")}`;
  const refuted = (k: number): boolean => {
    try {
      return readIntervals(parseCommands(`${base}\n(assert (fp.geq ${n} ${numLit(k + 1)}))`)) === "refuted";
    } catch {
      return false;
    }
  };
  if (!refuted(BOUNDED_UNROLL_CAP)) return undefined;
  let lo = 0;
  let hi = BOUNDED_UNROLL_CAP;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (refuted(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
