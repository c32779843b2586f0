/**
 * The float-floor formulation: a query whose floating point is only whole numbers within 2^53 and
 * floats compared with them is restated over integers, which the general solver's linear
 * arithmetic decides where bit-blasting does not.
 *
 * A budget loop over whole-cent amounts with a budget the caller passes
 * (`if (total + inv.amount <= budget) { pay(…); total += inv.amount; }` under `totalOutAtMost`)
 * adds Float64 values that are all integers, and compares the running total with a Float64 input.
 * As floating point (int-floats.ts lifts the amounts to floats), the program's running total and
 * the guarantee's sum are two chains of adds that the bit-blasting engine cannot show equal; the
 * general solver, given the conversions, rarely finishes either. Restated here:
 *
 * - **Integral terms** become Int terms: `((_ to_fp 11 53) rm (to_real E))` of an integer
 *   expression E, integral Float64 literals, `fp.add`/`fp.sub` (RNE) of integral terms, `fp.mul`
 *   (RNE) by a positive integral literal, `fp.roundToIntegral` of one, `ite` of two, and Float64
 *   definitions without parameters whose body is one — when every value, and every partial sum,
 *   lies within [-2^53, 2^53] (interval arithmetic over the query's top-level bounds, as in
 *   int-floats.ts). Then every such Float64 operation is exact, and none yields -0 (RNE adds and
 *   subtracts to +0; the conversions and literals are never -0): the term's Float64 value is its
 *   integer's, bit for bit, so comparisons, `=` and the classification predicates keep their truth.
 * - **Floors**: a Float64 constant (or function applied to numerals: a tool's number) read only by
 *   comparisons with integral terms, `fp.isNaN`, `fp.isInfinite`, `fp.isZero` and the integrality
 *   test `(fp.eq (fp.roundToIntegral rm x) x)`, is restated as what those can observe: NaN, +∞ or
 *   −∞ (flags), else its floor `f` (an Int, clamped to ±(2^53+1), which stands for "beyond every
 *   integral term") and whether it is integral. For an integer `t` within 2^53 and a finite `x`:
 *   `t <= x` iff `t <= f`, `t < x` iff `t < ceil`, `t >= x` iff `t >= ceil`, `t > x` iff `t > f`,
 *   `t = x` iff integral and `t = f`, with `ceil = f + (integral ? 0 : 1)`. Every (flags, f,
 *   integral) the constraints allow is some double's (a non-integral one has |f| < 2^52, where
 *   `f + 0.5` is a double), and every double has one: an equivalence.
 *
 * Anything else floating point in the query — another operation, two floats compared, `=` with a
 * float (which tells -0 from +0), a quantifier or `let` — and the formulation is not made. A model
 * of the restated query gives each float the double its (flags, f, integral) stand for
 * (`restoreFloors`); z3.ts checks the original assertions in that model before believing it.
 */
import { isDeepStrictEqual } from "node:util";
import { constantValue, interpret, type Interpretation } from "./model-restore";
import { decodeFloat, isList, parseSExprs, printSExpr, type SExpr } from "./sexpr";

/** A float the formulation restated: a constant (`args` empty) or a function applied to numerals, and the names of its parts. */
export interface Floored {
  readonly name: string;
  readonly args: readonly bigint[];
  readonly nan: string;
  readonly posInf: string;
  readonly negInf: string;
  readonly negZero: string;
  readonly floor: string;
  readonly integral: string;
}

/** What comparisons with integers can observe of a float: names (a floored float's) or constants (a literal's). */
interface Parts {
  readonly nan: SExpr;
  readonly posInf: SExpr;
  readonly negInf: SExpr;
  readonly negZero: SExpr;
  readonly floor: SExpr;
  readonly integral: SExpr;
}

/** The value of a Float64 literal (`(_ NaN 11 53)`, `(_ +zero 11 53)`, `(fp …)`), or undefined. */
function literalValue(e: SExpr): number | undefined {
  if (!isList(e) || !((e[0] === "_" && typeof e[1] === "string" && /^[+-](?:zero|oo)$|^NaN$/.test(e[1])) || (e[0] === "fp" && e.length === 4))) return undefined;
  try {
    return decodeFloat(e);
  } catch {
    return undefined;
  }
}

/** The parts of a Float64 literal (any: NaN, ±∞, -0, fractions). */
function literalParts(e: SExpr): Parts | undefined {
  const v = literalValue(e);
  if (v === undefined) return undefined;
  const b = (x: boolean): SExpr => (x ? "true" : "false");
  const finite = Number.isFinite(v);
  const clamped = !finite ? 0n : v > 2 ** 53 ? BEYOND : v < -(2 ** 53) ? -BEYOND : BigInt(Math.floor(v));
  return { nan: b(Number.isNaN(v)), posInf: b(v === Infinity), negInf: b(v === -Infinity), negZero: b(Object.is(v, -0)), floor: intLit(clamped), integral: b(!finite || Math.abs(v) > 2 ** 53 || Number.isInteger(v)) };
}

export interface FloatFloors {
  readonly text: string;
  readonly floored: readonly Floored[];
  /** How many whole-number adds and subtracts were restated as integer ones (a running total's). */
  readonly sums: number;
}

const LIMIT = 2n ** 53n;
/** The floor that stands for every double beyond ±2^53 (compared with integers within 2^53, they all behave alike). */
const BEYOND = LIMIT + 1n;
const HALF_LIMIT = 2n ** 52n;
const FLOAT_SORT: SExpr = ["_", "FloatingPoint", "11", "53"];
const TO_FP: SExpr = ["_", "to_fp", "11", "53"];
const ROUNDING = new Set(["RNE", "RNA", "RTP", "RTN", "RTZ", "roundNearestTiesToEven", "roundNearestTiesToAway", "roundTowardPositive", "roundTowardNegative", "roundTowardZero"]);
const BINDERS = new Set(["forall", "exists", "let", "lambda"]);
const INT_COMPARISONS: Readonly<Record<string, string>> = { "fp.leq": "<=", "fp.lt": "<", "fp.geq": ">=", "fp.gt": ">", "fp.eq": "=" };
const FLIPPED: Readonly<Record<string, string>> = { "fp.leq": "fp.geq", "fp.lt": "fp.gt", "fp.geq": "fp.leq", "fp.gt": "fp.lt", "fp.eq": "fp.eq", "=": "=" };

/** The formulation cannot be made (caught in `floorFloats`). */
class NotFloored extends Error {}
const fail = (): never => {
  throw new NotFloored();
};

interface Interval {
  readonly lo: bigint;
  readonly hi: bigint;
}
const within = (i: Interval): boolean => i.lo >= -LIMIT && i.hi <= LIMIT;

const isNumeral = (e: SExpr): e is string => typeof e === "string" && /^(?:0|[1-9]\d*)$/.test(e);
/** An integer numeral (`7`, `(- 7)`), or undefined. */
function numeral(e: SExpr): bigint | undefined {
  if (isNumeral(e)) return BigInt(e);
  if (isList(e) && e.length === 2 && e[0] === "-" && isNumeral(e[1]!)) return -BigInt(e[1]);
  return undefined;
}
const intLit = (k: bigint): SExpr => (k < 0n ? ["-", String(-k)] : String(k));

/** A Float64 literal that is an integer within 2^53 and not -0, as that integer; else undefined. */
function integralLiteral(e: SExpr): bigint | undefined {
  const v = literalValue(e);
  return v !== undefined && Number.isInteger(v) && !Object.is(v, -0) && Math.abs(v) <= 2 ** 53 ? BigInt(v) : undefined;
}

/**
 * The float-floor formulation of a query (parsed commands of its simplified text), or undefined
 * when its floating point is not all integral terms and floats compared with them, or it has none.
 */
export function floorFloats(commands: readonly SExpr[]): FloatFloors | undefined {
  try {
    return build(commands);
  } catch (error) {
    if (error instanceof NotFloored) return undefined;
    throw error;
  }
}

function build(commands: readonly SExpr[]): FloatFloors | undefined {
  const intTerms = new Map<string, number>(); // Int constants and functions of Int arguments, by arity
  const floatTerms = new Map<string, number>(); // Float64 constants and functions of Int arguments, by arity
  const definitions = new Map<string, { readonly sort: "Int" | "Float"; readonly body: SExpr }>();
  const taken = new Set<string>();
  let hasFloat = false;
  for (const c of commands) {
    if (!isList(c)) continue;
    if (containsBinder(c)) fail();
    if (typeof c[1] !== "string") continue;
    taken.add(c[1]);
    const [head, name] = c as [string, string, ...SExpr[]];
    if (head === "declare-const" && c.length === 3) {
      if (c[2] === "Int") intTerms.set(name, 0);
      else if (isDeepStrictEqual(c[2], FLOAT_SORT)) (floatTerms.set(name, 0), (hasFloat = true));
    } else if (head === "declare-fun" && c.length === 4 && isList(c[2])) {
      const intArgs = c[2].every((s) => s === "Int");
      if (c[3] === "Int" && intArgs) intTerms.set(name, c[2].length);
      else if (isDeepStrictEqual(c[3], FLOAT_SORT)) {
        hasFloat = true;
        if (!intArgs) fail(); // a float function of texts (a conversion): not restated
        floatTerms.set(name, c[2].length);
      } else if (c[2].some((s) => isDeepStrictEqual(s, FLOAT_SORT))) fail();
    } else if (head === "define-fun" && c.length === 5 && isList(c[2])) {
      if (c[2].length > 0) {
        if (mentionsFloat(c)) fail();
        continue;
      }
      if (c[3] === "Int") definitions.set(name, { sort: "Int", body: c[4]! });
      else if (isDeepStrictEqual(c[3], FLOAT_SORT)) (definitions.set(name, { sort: "Float", body: c[4]! }), (hasFloat = true));
    }
  }
  if (!hasFloat) return undefined;

  /** `name` or `(name k…)` with numerals `k` of a declared term of `arity`, as its key. */
  const termKey = (e: SExpr, of: Map<string, number>): string | undefined => {
    if (typeof e === "string") return of.get(e) === 0 ? e : undefined;
    if (!isList(e) || e.length < 2 || typeof e[0] !== "string" || of.get(e[0]) !== e.length - 1) return undefined;
    const args = e.slice(1).map(numeral);
    return args.every((a) => a !== undefined) ? [e[0], ...args].join(" ") : undefined;
  };

  // Bounds of Int terms from the top-level assertions (`(<= 0 n)`, `(<= n 100)`, conjunctions).
  const lo = new Map<string, bigint>();
  const hi = new Map<string, bigint>();
  const tighten = (e: SExpr): void => {
    if (!isList(e)) return;
    if (e[0] === "and") return void e.slice(1).forEach(tighten);
    if (e.length !== 3 || typeof e[0] !== "string" || !["<=", "<", ">=", ">", "="].includes(e[0])) return;
    let [op, a, b] = e as [string, SExpr, SExpr];
    let key = termKey(a, intTerms);
    let k = numeral(b);
    if (key === undefined || k === undefined) {
      key = termKey(b, intTerms);
      k = numeral(a);
      op = op === "<=" ? ">=" : op === "<" ? ">" : op === ">=" ? "<=" : op === ">" ? "<" : op;
    }
    if (key === undefined || k === undefined) return;
    const lower = op === ">=" || op === "=" ? k : op === ">" ? k + 1n : undefined;
    const upper = op === "<=" || op === "=" ? k : op === "<" ? k - 1n : undefined;
    if (lower !== undefined && (lo.get(key) === undefined || lower > lo.get(key)!)) lo.set(key, lower);
    if (upper !== undefined && (hi.get(key) === undefined || upper < hi.get(key)!)) hi.set(key, upper);
  };
  for (const c of commands) if (isList(c) && c[0] === "assert" && c.length === 2) tighten(c[1]!);

  // Intervals of integral terms, Int or Float64 (see the module comment); undefined when not one.
  const memo = new Map<string, Interval | undefined>();
  const interval = (e: SExpr): Interval | undefined => {
    const result = intervalOf(e);
    return result && within(result) ? result : undefined;
  };
  const intervalOf = (e: SExpr): Interval | undefined => {
    const k = numeral(e) ?? integralLiteral(e);
    if (k !== undefined) return { lo: k, hi: k };
    if (typeof e === "string" && definitions.has(e)) {
      if (!memo.has(e)) {
        memo.set(e, undefined); // definitions are not recursive; this only stops a loop
        memo.set(e, interval(definitions.get(e)!.body));
      }
      return memo.get(e);
    }
    const key = termKey(e, intTerms);
    if (key !== undefined) {
      const [l, h] = [lo.get(key), hi.get(key)];
      return l !== undefined && h !== undefined ? { lo: l, hi: h } : undefined;
    }
    if (!isList(e) || e.length < 2) return undefined;
    const [head, ...xs] = e;
    if (head === "+" || head === "-" || head === "*") return intInterval(e);
    if (isDeepStrictEqual(head, TO_FP) && xs.length === 2 && typeof xs[0] === "string" && ROUNDING.has(xs[0]) && isList(xs[1]) && xs[1].length === 2 && xs[1][0] === "to_real") return intInterval(xs[1][1]!);
    if ((head === "fp.add" || head === "fp.sub") && xs.length === 3 && xs[0] === "RNE") {
      const [a, b] = [interval(xs[1]!), interval(xs[2]!)];
      if (!a || !b || !isFloatTerm(xs[1]!) || !isFloatTerm(xs[2]!)) return undefined;
      return head === "fp.add" ? { lo: a.lo + b.lo, hi: a.hi + b.hi } : { lo: a.lo - b.hi, hi: a.hi - b.lo };
    }
    if (head === "fp.mul" && xs.length === 3 && xs[0] === "RNE") {
      const [f, x] = integralLiteral(xs[1]!) !== undefined ? [integralLiteral(xs[1]!)!, xs[2]!] : [integralLiteral(xs[2]!), xs[1]!];
      const i = f !== undefined && f > 0n ? interval(x) : undefined;
      return i && f !== undefined ? { lo: f * i.lo, hi: f * i.hi } : undefined;
    }
    if (head === "fp.roundToIntegral" && xs.length === 2 && typeof xs[0] === "string" && ROUNDING.has(xs[0])) return interval(xs[1]!);
    if (head === "ite" && xs.length === 3) {
      const [a, b] = [interval(xs[1]!), interval(xs[2]!)];
      return a && b ? { lo: a.lo < b.lo ? a.lo : b.lo, hi: a.hi > b.hi ? a.hi : b.hi } : undefined;
    }
    return undefined;
  };
  /** Int expressions (the integers converted): numerals, bounded terms, `+`, `-`, `*` by a numeral, `ite`, Int definitions. */
  const intInterval = (e: SExpr): Interval | undefined => {
    if (isFloatTerm(e)) return undefined;
    if (numeral(e) !== undefined || termKey(e, intTerms) !== undefined || (typeof e === "string" && definitions.get(e)?.sort === "Int")) return interval(e);
    if (!isList(e)) return undefined;
    const [head, ...xs] = e;
    if (head === "+" && xs.length >= 2) {
      let sum: Interval | undefined = intInterval(xs[0]!);
      for (const x of xs.slice(1)) {
        const i = intInterval(x);
        sum = sum && i && within(sum) ? { lo: sum.lo + i.lo, hi: sum.hi + i.hi } : undefined;
      }
      return sum && within(sum) ? sum : undefined;
    }
    if (head === "-" && xs.length === 2) {
      const [a, b] = [intInterval(xs[0]!), intInterval(xs[1]!)];
      const r = a && b ? { lo: a.lo - b.hi, hi: a.hi - b.lo } : undefined;
      return r && within(r) ? r : undefined;
    }
    if (head === "*" && xs.length === 2) {
      const [f, x] = numeral(xs[0]!) !== undefined ? [numeral(xs[0]!)!, xs[1]!] : [numeral(xs[1]!), xs[0]!];
      const i = f !== undefined ? intInterval(x) : undefined;
      const r = i && f !== undefined ? (f >= 0n ? { lo: f * i.lo, hi: f * i.hi } : { lo: f * i.hi, hi: f * i.lo }) : undefined;
      return r && within(r) ? r : undefined;
    }
    if (head === "ite" && xs.length === 3) {
      const [a, b] = [intInterval(xs[1]!), intInterval(xs[2]!)];
      return a && b ? { lo: a.lo < b.lo ? a.lo : b.lo, hi: a.hi > b.hi ? a.hi : b.hi } : undefined;
    }
    return undefined;
  };
  /** Whether `e` is of sort Float64 (as far as this formulation reads terms). */
  function isFloatTerm(e: SExpr): boolean {
    if (typeof e === "string") return floatTerms.get(e) === 0 || definitions.get(e)?.sort === "Float";
    if (!isList(e)) return false;
    if (integralLiteral(e) !== undefined || (e[0] === "_" && typeof e[1] === "string" && /^[+-](?:zero|oo)$|^NaN$/.test(e[1])) || e[0] === "fp") return true;
    if (isList(e[0])) return isDeepStrictEqual(e[0], TO_FP) || (e[0][0] === "_" && e[0][1] === "to_fp");
    if (typeof e[0] === "string" && floatTerms.has(e[0])) return true;
    if (e[0] === "ite" && e.length === 4) return isFloatTerm(e[2]!) || isFloatTerm(e[3]!);
    return typeof e[0] === "string" && /^fp\.(?:abs|neg|add|sub|mul|div|fma|sqrt|rem|roundToIntegral|min|max)$/.test(e[0]);
  }

  // The floats restated by their floors, by key, made on first use; and how many float terms were restated at all.
  const floored = new Map<string, Floored>();
  let restated = 0;
  let sums = 0;
  const fresh = (base: string): string => {
    let name = base;
    for (let i = 0; taken.has(name); i++) name = `${base}${i}`;
    taken.add(name);
    return name;
  };
  const floorOf = (e: SExpr): Parts | undefined => {
    const literal = literalParts(e);
    if (literal) return literal;
    const key = termKey(e, floatTerms);
    if (key === undefined) return undefined;
    let f = floored.get(key);
    if (!f) {
      const [name, ...args] = key.split(" ");
      const base = [name, "floor", ...args.map((a) => (a.startsWith("-") ? `m${a.slice(1)}` : a))].join("!");
      f = { name: name!, args: args.map(BigInt), nan: fresh(`${base}!nan`), posInf: fresh(`${base}!pinf`), negInf: fresh(`${base}!ninf`), negZero: fresh(`${base}!nzero`), floor: fresh(`${base}!f`), integral: fresh(`${base}!int`) };
      floored.set(key, f);
    }
    return f;
  };
  /** A float term a comparison may read: floored floats, integral terms, and `ite`s and definitions of them (expanded). */
  const finite = (f: Parts): SExpr => ["and", ["not", f.nan], ["not", f.posInf], ["not", f.negInf]];
  const ceil = (f: Parts): SExpr => ["+", f.floor, ["ite", f.integral, "0", "1"]];

  /** `(op a b)` over Float64 terms, as Int and Bool terms. */
  const compare = (op: string, a: SExpr, b: SExpr): SExpr => {
    const da = expandable(a);
    if (da !== undefined) return compare(op, da, b);
    const db = expandable(b);
    if (db !== undefined) return compare(op, a, db);
    if (isList(a) && a[0] === "ite" && a.length === 4 && interval(a) === undefined) return ["ite", rewrite(a[1]!), compare(op, a[2]!, b), compare(op, a[3]!, b)];
    if (isList(b) && b[0] === "ite" && b.length === 4 && interval(b) === undefined) return ["ite", rewrite(b[1]!), compare(op, a, b[2]!), compare(op, a, b[3]!)];
    const [ia, ib] = [interval(a), interval(b)];
    if (ia && ib) return [op === "=" ? "=" : INT_COMPARISONS[op]!, toInt(a), toInt(b)];
    if (ia) {
      const x = floorOf(b);
      if (!x) return fail();
      const t = toInt(a);
      switch (op) {
        case "fp.leq": return ["and", ["not", x.nan], ["or", x.posInf, ["and", ["not", x.negInf], ["<=", t, x.floor]]]];
        case "fp.lt": return ["and", ["not", x.nan], ["or", x.posInf, ["and", ["not", x.negInf], ["<", t, ceil(x)]]]];
        case "fp.geq": return ["and", ["not", x.nan], ["or", x.negInf, ["and", ["not", x.posInf], [">=", t, ceil(x)]]]];
        case "fp.gt": return ["and", ["not", x.nan], ["or", x.negInf, ["and", ["not", x.posInf], [">", t, x.floor]]]];
        case "fp.eq": return ["and", finite(x), x.integral, ["=", t, x.floor]];
        // `=` tells -0 from +0; an integral term is never -0 (nor NaN).
        default: return ["and", finite(x), x.integral, ["not", x.negZero], ["=", t, x.floor]];
      }
    }
    if (ib) return compare(FLIPPED[op]!, b, a);
    // Two floats: only a float with itself (NaN is not equal to itself), or two literals.
    if (isDeepStrictEqual(a, b) && floorOf(a)) return op === "fp.lt" || op === "fp.gt" ? "false" : op === "=" ? "true" : ["not", floorOf(a)!.nan];
    const [va, vb] = [literalValue(a), literalValue(b)];
    if (va !== undefined && vb !== undefined) {
      const holds = op === "fp.leq" ? va <= vb : op === "fp.lt" ? va < vb : op === "fp.geq" ? va >= vb : op === "fp.gt" ? va > vb : op === "fp.eq" ? va === vb : Object.is(va, vb);
      return holds ? "true" : "false";
    }
    return fail();
  };
  /** A Float64 definition's body, where the definition is not an integral term (a choice between a float and a bound). */
  const expandable = (e: SExpr): SExpr | undefined => (typeof e === "string" && definitions.get(e)?.sort === "Float" && interval(e) === undefined ? definitions.get(e)!.body : undefined);

  /** An integral term as an Int term. */
  const toInt = (e: SExpr): SExpr => {
    restated++;
    const k = integralLiteral(e);
    if (k !== undefined) return intLit(k);
    if (typeof e === "string") return e; // a numeral, an Int term or an integral definition (restated as Int)
    if (!isList(e)) return e;
    const [head, ...xs] = e;
    if (isDeepStrictEqual(head, TO_FP)) return rewrite((xs[1] as SExpr[])[1]!);
    if (head === "fp.add" || head === "fp.sub") sums++;
    if (head === "fp.add") return ["+", toInt(xs[1]!), toInt(xs[2]!)];
    if (head === "fp.sub") return ["-", toInt(xs[1]!), toInt(xs[2]!)];
    if (head === "fp.mul") return integralLiteral(xs[1]!) !== undefined ? ["*", toInt(xs[1]!), toInt(xs[2]!)] : ["*", toInt(xs[2]!), toInt(xs[1]!)];
    if (head === "fp.roundToIntegral") return toInt(xs[1]!);
    if (head === "ite") return ["ite", rewrite(xs[0]!), toInt(xs[1]!), toInt(xs[2]!)];
    if (termKey(e, intTerms) !== undefined) return e;
    return rewrite(e); // an Int expression (`+`, `-`, `*`, `ite`)
  };

  /** Any term, with its floating point restated; fails on floating point it cannot restate. */
  const rewrite = (e: SExpr): SExpr => {
    if (!isList(e)) {
      if (isFloatTerm(e)) fail();
      return e;
    }
    const [head, ...xs] = e;
    if (typeof head === "string" && Object.hasOwn(INT_COMPARISONS, head) && xs.length === 2) return compare(head, xs[0]!, xs[1]!);
    if (head === "=" && xs.length === 2 && (isFloatTerm(xs[0]!) || isFloatTerm(xs[1]!))) return compare("=", xs[0]!, xs[1]!);
    if ((head === "fp.isNaN" || head === "fp.isInfinite" || head === "fp.isZero" || head === "fp.isNegative" || head === "fp.isPositive") && xs.length === 1) return classify(head, xs[0]!);
    if (isFloatTerm(e)) return fail();
    return e.map(rewrite);
  };
  const classify = (head: string, a: SExpr): SExpr => {
    const d = expandable(a);
    if (d !== undefined) return classify(head, d);
    if (isList(a) && a[0] === "ite" && a.length === 4 && interval(a) === undefined) return ["ite", rewrite(a[1]!), classify(head, a[2]!), classify(head, a[3]!)];
    if (interval(a)) {
      const t = toInt(a);
      return head === "fp.isZero" ? ["=", t, "0"] : head === "fp.isNegative" ? ["<", t, "0"] : head === "fp.isPositive" ? [">=", t, "0"] : "false";
    }
    const x = floorOf(a);
    if (!x) return fail();
    if (head === "fp.isNaN") return x.nan;
    if (head === "fp.isInfinite") return ["or", x.posInf, x.negInf];
    if (head === "fp.isZero") return ["and", finite(x), x.integral, ["=", x.floor, "0"]];
    if (head === "fp.isNegative") return ["and", ["not", x.nan], ["or", x.negInf, ["and", finite(x), ["or", ["<", x.floor, "0"], x.negZero]]]];
    return ["and", ["not", x.nan], ["or", x.posInf, ["and", finite(x), [">=", x.floor, "0"], ["not", x.negZero]]]];
  };
  /** The integrality test `(fp.eq (fp.roundToIntegral rm x) x)` of a floored float (either side). */
  const integrality = (e: SExpr): SExpr | undefined => {
    if (!isList(e) || e[0] !== "fp.eq" || e.length !== 3) return undefined;
    for (const [r, x] of [[e[1]!, e[2]!], [e[2]!, e[1]!]] as const) {
      if (isList(r) && r[0] === "fp.roundToIntegral" && r.length === 3 && isDeepStrictEqual(r[2], x) && interval(x) === undefined) {
        const f = floorOf(x);
        if (f) return ["and", ["not", f.nan], ["or", f.posInf, f.negInf, f.integral]];
      }
    }
    return undefined;
  };
  const rewriteTop = (e: SExpr): SExpr => {
    const i = integrality(e);
    if (i !== undefined) return i;
    if (!isList(e)) return rewrite(e);
    const [head, ...xs] = e;
    if (head === "and" || head === "or" || head === "not" || head === "=>" || (head === "ite" && xs.length === 3 && !isFloatTerm(e))) return [head, ...xs.map(rewriteTop)];
    return rewrite(e);
  };

  const out: SExpr[] = [];
  for (const c of commands) {
    if (!isList(c)) continue;
    const [head, name] = c;
    if ((head === "declare-const" || head === "declare-fun") && typeof name === "string" && floatTerms.has(name)) continue;
    if (head === "define-fun" && typeof name === "string" && definitions.get(name)?.sort === "Float") {
      // Integral definitions become Int definitions; a float's choice (`cap`) is expanded where it is compared.
      if (interval(name) !== undefined) out.push(["define-fun", name, [], "Int", toInt(c[4]!)]);
      continue;
    }
    if (head === "define-fun" && c.length === 5) out.push(["define-fun", c[1]!, c[2]!, c[3]!, rewriteTop(c[4]!)]);
    else if (head === "assert" && c.length === 2) out.push(["assert", rewriteTop(c[1]!)]);
    else out.push(c);
  }
  // Nothing restated (a float declared and never read): the query is left as it is.
  if (restated === 0 && floored.size === 0) return undefined;
  if (out.some(mentionsFloat)) return undefined;
  // Each floored float's parts, and what they can be (see the module comment).
  const parts: SExpr[] = [];
  for (const f of floored.values()) {
    for (const b of [f.nan, f.posInf, f.negInf, f.negZero, f.integral]) parts.push(["declare-const", b, "Bool"]);
    parts.push(["declare-const", f.floor, "Int"]);
    parts.push(["assert", ["and",
      ["not", ["and", f.nan, f.posInf]], ["not", ["and", f.nan, f.negInf]], ["not", ["and", f.posInf, f.negInf]],
      ["=>", ["or", f.nan, f.posInf, f.negInf], ["and", f.integral, ["=", f.floor, "0"], ["not", f.negZero]]],
      ["=>", f.negZero, ["and", f.integral, ["=", f.floor, "0"]]],
      ["<=", intLit(-BEYOND), f.floor], ["<=", f.floor, intLit(BEYOND)],
      ["=>", ["or", ["=", f.floor, intLit(-BEYOND)], ["=", f.floor, intLit(BEYOND)]], f.integral],
      ["=>", ["not", f.integral], ["and", ["<=", intLit(-HALF_LIMIT), f.floor], ["<", f.floor, intLit(HALF_LIMIT)]]],
    ]]);
  }
  // The parts go after the declarations they replace: before the first command that is not a declaration.
  const at = out.findIndex((c) => !(isList(c) && (c[0] === "declare-const" || c[0] === "declare-fun" || c[0] === "set-option")));
  out.splice(at < 0 ? out.length : at, 0, ...parts);
  return { text: out.map(printSExpr).join("\n"), floored: [...floored.values()], sums };
}

function containsBinder(e: SExpr): boolean {
  return isList(e) && ((typeof e[0] === "string" && BINDERS.has(e[0])) || e.some(containsBinder));
}

/** Whether a command mentions floating point (sorts, literals, operations, conversions). */
function mentionsFloat(e: SExpr): boolean {
  if (!isList(e)) return typeof e === "string" && (/^fp\./.test(e) || e === "FloatingPoint" || e === "to_fp" || e === "RNE" || e === "Float64");
  return e.some(mentionsFloat);
}

/** The double a floored float's parts stand for (module comment): NaN, ±∞, its floor, or its floor plus one half. */
export function valueOfFloored(parts: { nan: boolean; posInf: boolean; negInf: boolean; negZero: boolean; floor: bigint; integral: boolean }): number | undefined {
  if (parts.nan) return NaN;
  if (parts.posInf) return Infinity;
  if (parts.negInf) return -Infinity;
  if (parts.negZero) return -0;
  if (parts.floor > BEYOND || parts.floor < -BEYOND) return undefined;
  if (parts.floor === BEYOND || parts.floor === -BEYOND) return parts.integral ? Number(parts.floor) * 2 : undefined;
  if (parts.integral) return Number(parts.floor);
  return parts.floor >= -HALF_LIMIT && parts.floor < HALF_LIMIT ? Number(parts.floor) + 0.5 : undefined;
}

type LowLevel = Awaited<ReturnType<typeof import("z3-solver").init>>["Z3"];

/**
 * Put the double each floored float stands for into a model of the restated query, so that the
 * original assertions and the counterexample read it; false when the parts name no double.
 */
export function restoreFloors(z3: LowLevel, ctx: never, model: unknown, floored: readonly Floored[]): boolean {
  const entries: Interpretation[] = [];
  for (const f of floored) {
    const flag = (name: string): boolean | undefined => {
      const v = constantValue(z3, ctx, model, name, "Bool");
      return v === "true" ? true : v === "false" ? false : undefined;
    };
    const [nan, posInf, negInf, negZero, integral] = [flag(f.nan), flag(f.posInf), flag(f.negInf), flag(f.negZero), flag(f.integral)];
    const floorText = constantValue(z3, ctx, model, f.floor, "Int");
    const floorValue = floorText === undefined ? undefined : numeral(parseSExprs(floorText)[0]!);
    if (nan === undefined || posInf === undefined || negInf === undefined || negZero === undefined || integral === undefined || floorValue === undefined) return false;
    const float = valueOfFloored({ nan, posInf, negInf, negZero, floor: floorValue, integral });
    if (float === undefined) return false;
    entries.push({ name: f.name, args: f.args, value: { sort: "Float64", float } });
  }
  interpret(z3, ctx, model, entries);
  return true;
}
