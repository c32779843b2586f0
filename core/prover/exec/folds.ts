/**
 * Methods that fold an array into one value: `reduce` with an initial number or string, and
 * `join` (exactly over literal and bounded arrays; any text over an array of unknown length).
 */
import { CarriedStateRefusal } from "./carried-refusal";
import type * as TS from "typescript";
import { and, ite, not, or } from "../smt";
import { merge, num, str, type Sym } from "../values";
import { checkAwaited } from "./await";
import { callbackOf, compactView, keptIndex, runWith, viewOf } from "./callbacks";
import { refuse, sized, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { declare } from "./fresh";
import { concat, toStr } from "./operators";
import { compactSym, type State } from "./state";
import { exitOrder } from "./exit-states";
import { reduceCarried } from "./reduce-carried";

/**
 * `xs.reduce((acc, x, i) => …, initial)` over a literal array or an array bounded by an `ensures`:
 * unrolled, the accumulator carried from element to element (element j counts iff j < length).
 * Without an initial value (`offers.reduce((best, o) => (o.price < best.price ? o : best))`) the
 * first element present is the accumulator and the callback starts at the next one, with its
 * index; an empty array throws a TypeError there (reported like any reachable throw, and the path
 * goes on where some element is present). The accumulator is then any value an element may be
 * (a record, too). Over an array of unknown length the accumulator is state carried across a
 * quantified loop (reduce-carried.ts).
 */
export function callReduce(ex: Exec, target: Sym, e: TS.CallExpression, st: State): Sym {
  const view = viewOf(target);
  if (!view) refuse(e.expression, "`reduce` is modelled on arrays only.", "Call it on a literal array or an array returned by a tool.");
  if (e.arguments.length !== 1 && e.arguments.length !== 2) refuse(e, "`reduce` takes a callback and an optional initial value.", "Write `xs.reduce((total, x) => total + x, 0)`.");
  const base = view.base;
  const unknownLength = base.k === "sarr" && base.bound === undefined;
  // Carried state: a violation is still looked for among runs with short arrays (prove.ts).
  if (unknownLength && e.arguments.length !== 2) throw new CarriedStateRefusal(e, "`reduce` over an array of unknown length without an initial value carries an element from element to element, which is not modelled.", "Pass an integer initial value (`xs.reduce((total, x) => total + x.amount, 0)`), bound the array with an `ensures((r) => r.length <= N)` on the tool, or pick the element inside `for (const x of xs)`.");
  const { fn, named } = callbackOf(ex, e.arguments[0]!, "reduce", st);
  checkAwaited(ex, e, false, "`reduce`");
  const initial = e.arguments.length === 2;
  let acc: Sym | undefined;
  if (initial) {
    acc = evalExpr(ex, e.arguments[1]!, st);
    if (acc.k !== "num" && acc.k !== "str") refuse(e.arguments[1]!, "`reduce` is modelled with a number or string accumulator.", "Start from a number (`0`) or a string (`\"\"`).");
  }
  if (unknownLength) {
    if (ex.inlining.includes(fn)) refuse(e, "Recursion is not modelled.", "Rewrite the helper without calling itself.");
    if (named) ex.inlining.push(fn);
    try {
      return reduceCarried(ex, e, fn, view as typeof view & { readonly base: Extract<Sym, { k: "sarr" }> }, acc!, st);
    } finally {
      if (named) ex.inlining.pop();
    }
  }
  // Bool term: the accumulator holds a value (always, with an initial value; else once an element was present).
  let started = initial ? "true" : "false";
  if (named) {
    if (ex.inlining.includes(fn)) refuse(e, "Recursion is not modelled.", "Rewrite the helper without calling itself.");
    ex.inlining.push(fn);
  }
  try {
    const count = base.k === "arr" ? base.items.length : base.bound!;
    // The index argument counts the elements present before (over a filtered view, not the base index).
    const kept: string[] = [];
    for (let j = 0; j < count; j++) {
      const element = base.k === "arr" ? base.items[j]! : base.at(String(j));
      const present = and(base.k === "arr" ? "true" : `(< ${j} ${base.len})`, view.keep ? view.keep(String(j)) : "true");
      if (present === "false") continue;
      const index = view.keep ? keptIndex(kept) : num(j);
      kept.push(present);
      if (!acc) {
        // The first element that may be present: the accumulator where it is (any value stands elsewhere, guarded by `started`).
        acc = element;
        started = present;
        continue;
      }
      const step = and(present, started);
      const first = and(present, not(started));
      const before = st.pc;
      const body: State = { pc: and(before, step), env: st.env };
      const value = step === "false" ? acc : runWith(ex, fn, [acc, element, index], body);
      if (step !== "false") st.pc = body.pc === and(before, step) ? before : or(body.pc, and(before, not(step)));
      if (value.k !== acc.k) refuse(fn, initial ? "The callback returns a value of another kind than the accumulator." : "The callback returns a value of another kind than the elements.", initial ? "Return the same type as the initial value." : "Return an element (`best`, `x`), or pass an initial value.");
      const stepped = merge(step, value, acc);
      const m = stepped && merge(first, element, stepped);
      if (!m) refuse(fn, "The callback returns a value of another kind than the accumulator.", initial ? "Return the same type as the initial value." : "Return an element (`best`, `x`), or pass an initial value.");
      // The running value by name: each step reads it twice (`ite(present, acc + x, acc)`), so
      // unnamed it doubled per element (eight amounts made 2 040 Float64 additions, h46 i03).
      acc = sized(compactSym(ex, m), e);
      started = or(started, present);
    }
    if (!initial) {
      ex.world.throws.push({ message: "`reduce` of an empty array without an initial value throws a TypeError", guard: and(st.pc, not(started)), site: e, loops: [...ex.loops], order: exitOrder(ex, st) });
      st.pc = and(st.pc, started);
      if (!acc) return { k: "undef" };
    }
    return acc!;
  } finally {
    if (named) ex.inlining.pop();
  }
}

/**
 * `join` of an array of unknown length: the empty text where it is empty, else any text (a fresh
 * string per run and loop iteration). The world then over-approximates (facts.ts `unknownJoins`): a
 * guarantee that holds whatever the text is proved; a model is a counterexample only once a run
 * with short arrays, where `join` is exact, shows it again (prove.ts).
 */
function unknownJoin(ex: Exec, target: Extract<Sym, { k: "sarr" }>, e: TS.CallExpression): Sym {
  const kind = target.elem.kind;
  if (kind !== "string" && kind !== "number" && kind !== "FilePath" && kind !== "DirectoryPath") refuse(e, "`join` is modelled on arrays of strings and numbers (it prints `undefined` and `null` as empty strings).", "Join strings or numbers.");
  const name = ex.world.fresh("joined");
  declare(ex, name, "String", ex.loops.length);
  ex.world.unknownJoins++;
  const text = ex.loops.length === 0 ? name : `(${name} ${ex.loops.join(" ")})`;
  return { k: "str", t: ite(`(= ${target.len} 0)`, '""', text) };
}

/** Arrays of bounded unknown length are joined for every length up to this many elements. */
const JOIN_BOUND = 64;

/**
 * `xs.join(sep?)` over an array of strings and numbers: the concatenation, as JavaScript prints
 * it. A literal array exactly; an array of bounded unknown length (one the program built, a
 * bounded tool result, a filter over one) as the prefix its length chooses.
 */
export function callJoin(ex: Exec, target0: Sym, e: TS.CallExpression, st: State): Sym {
  const target = compactView(ex, target0) ?? target0;
  const bounded = target.k === "sarr" && target.bound !== undefined && target.bound <= JOIN_BOUND;
  if (e.arguments.length > 1) refuse(e, "`join` takes one separator.", "Call `join(\", \")`.");
  const sepArg = e.arguments[0];
  const sep = sepArg ? evalExpr(ex, sepArg, st) : str(",");
  if (sep.k !== "str") refuse(sepArg ?? e, "The separator of `join` must be a string.", "Pass a string separator.");
  if (target.k === "sarr" && !bounded) return unknownJoin(ex, target, e);
  if (target.k !== "arr" && !bounded) refuse(e, "`join` is modelled on arrays.", "Join an array of strings or numbers.");
  const items = target.k === "arr" ? target.items : Array.from({ length: (target as Extract<Sym, { k: "sarr" }>).bound! }, (_, j) => (target as Extract<Sym, { k: "sarr" }>).at(String(j)));
  // Every prefix's text: an array the program built has one of them, chosen by its length.
  const prefixes: Sym[] = [str("")];
  let acc: Sym = str("");
  items.forEach((item, j) => {
    if (item.k !== "str" && item.k !== "num") refuse(e, "`join` is modelled on arrays of strings and numbers (it prints `undefined` and `null` as empty strings).", "Join strings or numbers.");
    if (j > 0) acc = concat(acc, sep);
    acc = sized(concat(acc, toStr(ex, item, e)), e);
    prefixes.push(acc);
  });
  if (target.k === "arr") return acc;
  const len = target.len;
  let out: Sym = prefixes[prefixes.length - 1]!;
  for (let n = prefixes.length - 2; n >= 0; n--) out = { k: "str", t: ite(`(= ${len} ${n})`, (prefixes[n] as Extract<Sym, { k: "str" }>).t, (out as Extract<Sym, { k: "str" }>).t) };
  return sized(out, e);
}
