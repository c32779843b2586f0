/** Modelled built-ins: `Math.min`/`Math.max`, the `Number` predicates, `console.log` and its kin, and the methods of strings, arrays and contract relations. */
import type * as TS from "typescript";
import { ARRAY_METHODS, callArrayMethod } from "./arrays";
import { callSortedCopy, freshCopy } from "./inplace";
import { CALLBACK_METHODS, callArrayCallback, compactView, viewOf } from "./callbacks";
import { SET_VIEW_WHY, setDelete, setHas } from "./unique";
import { collectedMapMethod, isCollectedMap } from "./collected-maps";
import { collectingCall } from "./collected";
import { callJoin, callReduce } from "./folds";
import { and, FLOAT64, intLit, numLit } from "../smt";
import { boolT, finiteBound, intToFp, num, UNDEF, withFmag, type Sym } from "../values";
import { refuseToolValues } from "./calls";
import { refuse, sized, type Exec } from "./context";
import { EXACT_LIMIT, ROUNDED_PREFIX, roundedQuotient } from "./integers";
import { declare } from "./fresh";
import { compareAggregate, relationMethod } from "./contracts";
import { evalExpr } from "./expressions";
import { fluentMethod } from "./fluents";
import { callLastIndexOf, callParse, callSearch, callStringMethod, callToFixed, SEARCH_METHODS, STRING_METHODS, type SearchMethod } from "./strings";
import { definite, noFunctionValue, notOpaque } from "./guards";
import { nameTerm, type State } from "./state";
import { callMutator, MUTATING_METHODS } from "./locals";
import { callCollectionMethod } from "./collections";

/** The `console` methods an agent logs with: no events, no value. */
const CONSOLE_METHODS: ReadonlySet<string> = new Set(["log", "info", "warn", "error", "debug"]);

/**
 * `console.log(...)` and its kin perform no event, but their arguments are evaluated in order, so
 * a tool called inside one still happens. Formatting never runs program code: the values the
 * prover models are primitives, arrays and records from trusted tools.
 */
export function callConsole(ex: Exec, name: string, e: TS.CallExpression, st: State): Sym {
  if (!CONSOLE_METHODS.has(name)) refuse(e, `\`console.${name}\` is not modelled.`, "Log with console.log, console.info, console.warn, console.error or console.debug.");
  for (const a of e.arguments) noFunctionValue(evalExpr(ex, a, st), a);
  return UNDEF;
}

/** `Math.floor`, `ceil` and `trunc`: Float64 rounding to an integral value in one direction. */
const ROUNDINGS: Readonly<Record<string, string>> = { floor: "RTN", ceil: "RTP", trunc: "RTZ" };

export function callMath(ex: Exec, name: string, e: TS.CallExpression, st: State): Sym {
  if (name in ROUNDINGS || name === "round" || name === "abs") return rounded(ex, name, e, st);
  if (name !== "min" && name !== "max") refuse(e, `\`Math.${name}\` is not modelled.`, "Use Math.min, Math.max, Math.floor, Math.ceil, Math.round, Math.trunc, Math.abs, comparisons and arithmetic.");
  const args = e.arguments.map((a) => evalExpr(ex, a, st));
  if (args.length === 0) return num(name === "min" ? Infinity : -Infinity);
  if (args.some((a) => a.k !== "num")) refuse(e, `\`Math.${name}\` takes numbers.`, "Pass numbers.");
  const given = args as Extract<Sym, { k: "num" }>[];
  if (given.every((n) => n.c !== undefined)) return num(name === "min" ? Math.min(...given.map((n) => n.c!)) : Math.max(...given.map((n) => n.c!)));
  // Each computed argument by name: the ranges narrow a name by the comparison that picks it
  // (`Math.min(Math.round(x), 5000)` is at most 5000 on both branches), never a compound term.
  const nums = given.map((n) => (n.c !== undefined || n.int !== undefined ? n : { ...n, t: nameTerm(ex, n.t, FLOAT64, "arg", true) }));
  // JavaScript semantics: NaN if any argument is NaN; -0 < +0 for min, +0 > -0 for max.
  const result = nums.slice(1).reduce<Sym>((acc, b) => {
    // A running result by name: each step repeats it six times (a dozen arguments made a text
    // longer than JavaScript's strings).
    const a0 = acc as Extract<Sym, { k: "num" }>;
    const a: Extract<Sym, { k: "num" }> = acc === nums[0] ? a0 : a0.int === undefined ? withFmag({ k: "num", t: nameTerm(ex, a0.t, FLOAT64, name, true) }, a0.fmag) : { k: "num", t: nameTerm(ex, a0.t, FLOAT64, name, true), int: nameTerm(ex, a0.int, "Int", name, true), mag: a0.mag };
    // Strictly better, or the zero of the right sign: two `ite`s rather than one over their
    // disjunction, so that the ranges (intervals.ts) read each branch under a conjunction they narrow by.
    const better = name === "min" ? `(fp.lt ${a.t} ${b.t})` : `(fp.gt ${a.t} ${b.t})`;
    const zero = `(and (fp.isZero ${a.t}) (fp.isZero ${b.t}) (${name === "min" ? "fp.isNegative" : "fp.isPositive"} ${a.t}))`;
    const t = `(ite (or (fp.isNaN ${a.t}) (fp.isNaN ${b.t})) ${numLit(NaN)} (ite ${better} ${a.t} (ite ${zero} ${a.t} ${b.t})))`;
    // Of two integers (Int terms: never NaN, exact below 2^53) the smaller (larger) is an integer
    // of the same value as the Float64 term, the sign of a zero aside, which Int terms never tell
    // (integers.ts): keep it in integer arithmetic, so `Math.min(inv.amount, 50000)` adds up as
    // integers instead of converting every amount to Float64.
    if (a.int === undefined || b.int === undefined) {
      // Of two finite numbers, one: finite, bounded by the larger bound.
      const x = finiteBound(a), y = finiteBound(b);
      return withFmag({ k: "num", t }, x !== undefined && y !== undefined ? Math.max(x, y) : undefined);
    }
    return { k: "num", t, int: `(ite (${name === "min" ? "<=" : ">="} ${a.int} ${b.int}) ${a.int} ${b.int})`, mag: Math.max(a.mag, b.mag) };
  }, nums[0]!) as Extract<Sym, { k: "num" }>;
  // The result by name too: a guard on it (`if (amount > 0)`) then narrows what it bounds.
  return result.int !== undefined ? result : { ...result, t: nameTerm(ex, result.t, FLOAT64, name, true) };
}

/**
 * `Math.floor`, `ceil`, `trunc`, `round` and `abs` of a number, exactly in Float64 (the sign of
 * zero included: `Math.ceil(-0.5)` and `Math.round(-0.2)` are -0). `round` rounds half up: the
 * floor, plus one where the fraction `x - floor(x)` (exact in Float64) is at least 0.5. An integer
 * (integers.ts) rounds to itself; `round` of -0.5 up to -0 is -0. Other values are refused (JavaScript would convert them).
 */
function rounded(ex: Exec, name: string, e: TS.CallExpression, st: State): Sym {
  if (e.arguments.length !== 1) refuse(e, `\`Math.${name}\` takes one number here.`, `Call \`Math.${name}(x)\` with a number.`);
  const v = evalExpr(ex, e.arguments[0]!, st);
  if (v.k !== "num") refuse(e.arguments[0]!, `\`Math.${name}\` of a value that may not be a number is not modelled (JavaScript converts it first).`, "Pass a number.");
  const f = Math[name as "floor" | "ceil" | "trunc" | "round" | "abs"];
  if (v.c !== undefined) return num(f(v.c));
  if (name === "abs") return v.int !== undefined ? { k: "num", t: `(fp.abs ${v.t})`, int: `(abs ${v.int})`, mag: v.mag! } : withFmag({ k: "num", t: `(fp.abs ${v.t})` }, v.fmag);
  if (v.int !== undefined) return v;
  const x = nameTerm(ex, v.t, FLOAT64, "x");
  const mode = ROUNDINGS[name];
  // `Math.floor(n / 24)` of an integer: the integer division too (integers.ts).
  if (mode && v.quotient) return { k: "num", t: `(fp.roundToIntegral ${mode} ${x})`, ...roundedQuotient(name as "floor" | "ceil" | "trunc", v.quotient) };
  let t: string;
  if (mode) t = `(fp.roundToIntegral ${mode} ${x})`;
  else {
    const down = nameTerm(ex, `(fp.roundToIntegral RTN ${x})`, FLOAT64, "x");
    const up = `(ite (fp.geq (fp.sub RNE ${x} ${down}) ${numLit(0.5)}) (fp.add RNE ${down} ${numLit(1)}) ${down})`;
    t = `(ite (and (fp.isNegative ${x}) (fp.geq ${x} ${numLit(-0.5)})) ${numLit(-0)} ${up})`;
  }
  return roundedInteger(ex, t, v.fmag === undefined ? undefined : roundedBound(name, v.fmag));
}

/**
 * A bound on the magnitude of a rounding of any value within [-b, b]: the rounding is monotone,
 * so it lies between the roundings of -b and b (`round(-2.5)` is -2, `round(2.5)` is 3).
 */
function roundedBound(name: string, b: number): number {
  return name === "round" ? Math.round(b) : name === "trunc" ? Math.floor(b) : Math.ceil(b);
}

/**
 * A rounding of a value that is finite and bounded in every run (`Math.round(e.monthlyCents *
 * 1.05)` of an integral amount) is an integer of magnitude at most `mag`: it gets an Int term
 * (integers.ts), a fresh integer over the loop indices in scope with the fact that the Float64
 * term equals it (`fp.eq`: the rounding may be -0, which an Int term never tells). Then
 * `Number.isInteger` of it is true at once, its comparisons and sums stay in integer arithmetic,
 * and a precondition `Number.isInteger(x) && x >= 100000` after a guard `x < 100000` needs no
 * floating point (h56 i06: 40 s of bit-blasted multiplications, refused). The integer is named
 * `rounded!…` (integers.ts `ROUNDED_PREFIX`): loop-invariants.ts must not use its fact to bound a
 * carried variable, whose claimed bound the fact's own bound may rest on.
 */
function roundedInteger(ex: Exec, t: string, mag: number | undefined): Sym {
  if (mag === undefined || mag > EXACT_LIMIT) return { k: "num", t };
  const name = ex.world.fresh(ROUNDED_PREFIX);
  declare(ex, name, "Int", ex.loops.length);
  const int = ex.loops.length === 0 ? name : `(${name} ${ex.loops.join(" ")})`;
  ex.world.assumptions.push({ term: and(`(fp.eq ${t} ${intToFp(int)})`, `(<= ${intLit(-mag)} ${int})`, `(<= ${int} ${intLit(mag)})`), loops: [...ex.loops] });
  return { k: "num", t, int, mag };
}

/** The `Number` predicates; every other `Number` member is refused. */
const NUMBER_PREDICATES: ReadonlySet<string> = new Set(["isInteger", "isSafeInteger", "isFinite", "isNaN"]);

/**
 * `Number.isInteger`, `Number.isSafeInteger`, `Number.isFinite`, `Number.isNaN`: false for any
 * value that is not a number (they never convert), exact Float64 tests otherwise. A number with an
 * Int term (integers.ts) is an integer by construction.
 */
export function callNumber(ex: Exec, name: string, e: TS.CallExpression, st: State): Sym {
  // The same functions as the globals (ECMA-262: `Number.parseInt === parseInt`).
  if (name === "parseInt" || name === "parseFloat") return callParse(ex, name, e, st);
  if (!NUMBER_PREDICATES.has(name)) refuse(e, `\`Number.${name}\` is not modelled.`, "Use Number.isInteger, Number.isSafeInteger, Number.isFinite, Number.isNaN, Number.parseInt or Number.parseFloat, comparisons and arithmetic.");
  if (e.arguments.length !== 1) refuse(e, `\`Number.${name}\` takes one argument here.`, "Pass the value to test.");
  const v = evalExpr(ex, e.arguments[0]!, st);
  notOpaque(v, e.arguments[0]!);
  noFunctionValue(v, e.arguments[0]!);
  const test = (x: Sym): string => {
    if (x.k === "maybe") return and(x.def, test(x.v));
    if (x.k !== "num") return "false";
    if (x.c !== undefined) return String(name === "isInteger" ? Number.isInteger(x.c) : name === "isSafeInteger" ? Number.isSafeInteger(x.c) : name === "isFinite" ? Number.isFinite(x.c) : Number.isNaN(x.c));
    if (x.int !== undefined) {
      if (name === "isNaN") return "false";
      if (name !== "isSafeInteger" || x.mag <= Number.MAX_SAFE_INTEGER) return "true";
      return `(<= (abs ${x.int}) ${Number.MAX_SAFE_INTEGER})`;
    }
    const finite = `(not (or (fp.isInfinite ${x.t}) (fp.isNaN ${x.t})))`;
    if (name === "isNaN") return `(fp.isNaN ${x.t})`;
    if (name === "isFinite") return finite;
    const integral = and(finite, `(fp.eq (fp.roundToIntegral RTZ ${x.t}) ${x.t})`);
    return name === "isInteger" ? integral : and(integral, `(fp.leq (fp.abs ${x.t}) ${numLit(Number.MAX_SAFE_INTEGER)})`);
  };
  return boolT(test(v));
}

export function callMethod(ex: Exec, target: Sym, name: string, e: TS.CallExpression, st: State): Sym {
  // `seen.add(k)`, `seen.has(k)`, `out.includes(k)` on what the running loop collects (collected.ts).
  const collecting = collectingCall(ex, e, st);
  if (collecting) return collecting;
  // A Set built from an array (unique.ts) is a view of it, but its methods are not an array's:
  // `forEach` passes (value, value, set), not an index.
  if (target.k === "opaque" && target.why === SET_VIEW_WHY) {
    const has = name === "has" ? setHas(ex, target, e, st) : name === "delete" ? setDelete(ex, target, e, st) : undefined;
    if (has) return has;
    refuse(e, `\`${name}\` of ${SET_VIEW_WHY}.`, "Loop with `for (const x of set)`, spread it (`[...new Set(xs)]`), or test a key with `has`.");
  }
  // A Map a loop over an array of unknown length built (collected-maps.ts): its keys, and values it does not track.
  if (isCollectedMap(target)) return collectedMapMethod(ex, target, name, e, st);
  if (CALLBACK_METHODS.has(name) && viewOf(target)) return callArrayCallback(ex, target, name as Parameters<typeof callArrayCallback>[2], e, st);
  if (name === "reduce" && viewOf(target)) return callReduce(ex, target, e, st);
  if (name === "join" && viewOf(target)) return callJoin(ex, target, e, st);
  const args = () => e.arguments.map((a) => definite(ex, evalExpr(ex, a, st), a, st));
  if (target.k === "str" && SEARCH_METHODS.has(name)) return callSearch(ex, target, name as SearchMethod, e, st);
  if (target.k === "str" && name === "lastIndexOf") return callLastIndexOf(ex, target, e, st);
  if (target.k === "str" && STRING_METHODS.has(name)) return sized(callStringMethod(ex, target, name, e, st), e);
  if (target.k === "num" && name === "toFixed") return sized(callToFixed(ex, target, e, st), e);
  // A sorted copy changes no array a name holds (inplace.ts).
  if ((target.k === "arr" || target.k === "sarr") && (name === "toSorted" || (name === "sort" && freshCopy(ex, (e.expression as TS.PropertyAccessExpression).expression)))) return callSortedCopy(ex, target, e);
  if ((target.k === "arr" || target.k === "sarr") && MUTATING_METHODS.has(name)) return callMutator(ex, target, name, e, st);
  if ((target.k === "arr" || target.k === "sarr") && ARRAY_METHODS.has(name)) return callArrayMethod(ex, target, name, e, st);
  if ((target.k === "arr" || target.k === "sarr") && (name === "entries" || name === "keys" || name === "values")) {
    refuse(e, `\`${name}()\` of an array is modelled only as what a \`for…of\` loops over (an iterator used otherwise is not).`, "Write `for (const [i, x] of xs.entries())`, or `xs.map((x, i) => …)`.");
  }
  if (target.k === "coll") return callCollectionMethod(ex, target, name, e, st);
  if (target.k === "eventClass") return relationMethod(ex, { source: { kind: "event", event: target.event }, filters: [], node: e }, name, e, st);
  if (target.k === "rel") return relationMethod(ex, target.rel, name, e, st);
  if (target.k === "agg") return compareAggregate(target, name, e, args);
  if (target.k === "fluent" || target.k === "finalAt") return fluentMethod(ex, target, name, e, st);
  const compact = compactView(ex, target);
  if (compact) return callMethod(ex, compact, name, e, st);
  if (target.k === "opaque") refuse(e, `This value cannot be used: ${target.why}.`, "Use tool results of modelled types.");
  refuseToolValues(ex, e.arguments);
  refuse(e.expression, `The method \`${name}\` is not modelled.`, "Use startsWith, endsWith, includes, indexOf, lastIndexOf, length, trim, replace, replaceAll, toLowerCase, toUpperCase, slice and substring on strings (and split with a literal separator on a known string), toFixed on numbers; length, at, includes, indexOf, lastIndexOf, slice, join and the callback methods on arrays.");
}
