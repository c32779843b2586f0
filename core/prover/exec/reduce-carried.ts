/**
 * `xs.reduce((total, x) => total + x.amount, 0)` over an array of unknown length: the accumulator
 * is state carried across the iterations of a loop (loopstate.ts), an integer function of the
 * iteration index A(k) with A(0) the initial literal and A(k + 1) the callback's value at element k
 * (A(k) itself where a filtered view skips element k). The callback runs once, at the loop's index
 * q, over A(q); the result is A(length). Nothing is assumed of A beyond A(0): loop-invariants.ts
 * establishes an inductive invariant before any guarantee is decided, exactly as for a `for…of`
 * that adds to a `let` (a violation over the invariant is reported once a run with short arrays,
 * where `reduce` is unrolled (folds.ts), shows it).
 *
 * Modelled: an integer literal to start from, a callback of the accumulator and the element (no
 * index or array parameter) whose value is an exact integer (an `ensures` that declares the
 * amounts integral with `Number.isInteger` and literal bounds) and that does not throw, outside
 * other loops over arrays of unknown length and outside a `try`. Everything else is refused, as
 * before, with what to write instead.
 */
import type * as TS from "typescript";
import { and, ite } from "../smt";
import type { FunctionLike, Sym } from "../values";
import { runWith, type View } from "./callbacks";
import type { Exec } from "./context";
import { declare } from "./fresh";
import { CarriedStateRefusal, carriedBounds, carriedInt, INIT_MAG } from "./loopstate";
import type { State } from "./state";
import { insideTry } from "./try";

type SArr = Extract<Sym, { k: "sarr" }>;

function refuse(node: TS.Node, reason: string, instead: string): never {
  throw new CarriedStateRefusal(node, reason, instead);
}

const INSTEAD = "Start from an integer literal (`0`) and add integers (amounts a tool's `ensures` declares integral with `Number.isInteger` and literal bounds), bound the array with an `ensures((r) => r.length <= N)` on the tool, or reduce a literal array.";

/** The accumulator's parameter, for its name in what the prover reports. */
function accName(ex: Exec, fn: FunctionLike): string {
  const p = fn.parameters[0];
  return p && ex.ts.isIdentifier(p.name) ? p.name.text : "accumulator";
}

export function reduceCarried(ex: Exec, e: TS.CallExpression, fn: FunctionLike, view: View & { readonly base: SArr }, initial: Sym, st: State): Sym {
  const { base } = view;
  const name = accName(ex, fn);
  if (initial.k !== "num" || initial.c === undefined || !Number.isInteger(initial.c) || Object.is(initial.c, -0) || Math.abs(initial.c) > INIT_MAG || initial.int === undefined) {
    refuse(e.arguments[1] ?? e, `\`reduce\` over an array of unknown length carries \`${name}\` from element to element, which is modelled from an integer literal only.`, INSTEAD);
  }
  if (fn.parameters.length > 2) refuse(fn.parameters[2]!, "`reduce` over an array of unknown length is modelled with a callback of the accumulator and the element, without the index or the array.", "Drop the index parameter, or loop with `for (const x of xs)`.");
  if (ex.loops.length > 0) refuse(e, "`reduce` over an array of unknown length inside another loop over an array of unknown length is not modelled (state carried in a nested loop).", "Reduce outside the loop, or bound the arrays.");
  // The search among short runs unrolls every array it can bound; one it cannot has no invariant there.
  if (ex.arrayBound !== undefined) refuse(e, "`reduce` over an array the search among short runs cannot bound is not modelled there.", "Reduce an array input or a tool result.");
  if (insideTry(ex)) refuse(e, "`reduce` over an array of unknown length is not modelled inside a `try` (a throw would stop it at an element the total depends on).", "Move it out of the `try`.");
  const q = ex.world.fresh("i");
  declare(ex, q, "Int");
  const len = base.len;
  ex.world.loopRanges.set(q, { len });
  const accFn = ex.world.fresh(`${name}.at`);
  declare(ex, accFn, "Int", 1);
  const negz = ex.world.fresh(`${name}.negativeZero`);
  declare(ex, negz, "Bool", 1);
  ex.world.assumptions.push({ term: `(= (${accFn} 0) ${initial.int})`, loops: [] });
  const entry = and(st.pc, `(<= 0 ${q})`, `(< ${q} ${len})`);
  const body: State = { pc: entry, env: st.env };
  const factsBefore = ex.world.facts.length;
  ex.loops.push(q);
  let value: Sym;
  try {
    value = runWith(ex, fn, [carriedInt(accFn, negz, q), base.at(q)], body);
  } finally {
    ex.loops.pop();
  }
  if (body.pc !== entry) refuse(fn, `\`reduce\` over an array of unknown length whose callback may throw is not modelled (the total would stop at the element that throws).`, "Make the callback total (test what may be undefined first), or loop with `for…of`.");
  if (value.k !== "num" || value.int === undefined) {
    refuse(fn, `\`reduce\` over an array of unknown length carries \`${name}\` from element to element, and after an element it may not be an exact integer (a fraction, a Float64 operation, or a value past 2^53).`, INSTEAD);
  }
  const still = `(${accFn} ${q})`;
  const kept = view.keep ? view.keep(q) : "true";
  const { base: start, step } = carriedBounds(Math.abs(initial.c!), value.mag);
  const facts = ex.world.facts.slice(factsBefore).filter((f) => f.loops.includes(q));
  ex.world.loopStates.push({ node: e, q, len, vars: [{ name, fn: accFn, sort: "Int", init: initial.int!, next: ite(kept, value.int, still), base: start, step, at: e }], facts });
  return carriedInt(accFn, negz, len);
}
