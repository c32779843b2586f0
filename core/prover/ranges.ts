/**
 * Ranges of Float64 and Int values and the operations on them (intervals.ts evaluates queries with
 * them). A Float64 range is a closed range of doubles plus "may be NaN" (an empty range: NaN or
 * nothing); an Int range, and a string's length, is a closed range widened to unbounded past
 * 2^52. Every operation over-approximates: the result range holds every result of the operation on
 * values in its operands' ranges, using that correctly rounded arithmetic is monotone.
 */
import { decodeFloat, isList, readLiteral, type SExpr } from "./sexpr";

/**
 * `whole`: every number in the range is a whole number or ±∞ (the result of a rounding to an
 * integral, an integer converted, a sum, difference or product of whole numbers: an exact integer
 * rounds to an integral double or overflows), so it equals its own `fp.roundToIntegral`.
 */
export interface FloatRange { readonly k: "fp"; readonly lo: number; readonly hi: number; readonly nan: boolean; readonly whole?: boolean }
export interface IntRange { readonly k: "int"; readonly lo: number; readonly hi: number }
/** A predicate a conjunction asserts (or asserts false). */
export interface Holds { readonly k: "bool"; readonly holds: boolean }
/** What is known of a string's text (interval-strings.ts): a prefix and a suffix, the whole text when exact. */
export interface TextValue { readonly k: "text"; readonly prefix: string; readonly suffix: string; readonly exact: boolean }
export type Value = FloatRange | IntRange | Holds | TextValue | { readonly k: "other" };
/** True, false or unknown. */
export type Truth = boolean | undefined;

export const OTHER: Value = { k: "other" };
export const ANY_FLOAT: FloatRange = { k: "fp", lo: -Infinity, hi: Infinity, nan: true };
export const ANY_INT: IntRange = { k: "int", lo: -Infinity, hi: Infinity };
/** Past this magnitude an Int bound is widened to unbounded (doubles hold every integer up to 2^53). */
const INT_EXACT = 2 ** 52;

export const not = (t: Truth): Truth => (t === undefined ? undefined : !t);

export function exactInt(n: number): IntRange {
  return widen(n, n);
}

/** An Int range, unbounded on a side whose bound is past what doubles hold exactly. */
export function widen(lo: number, hi: number): IntRange {
  return { k: "int", lo: Number.isNaN(lo) || lo < -INT_EXACT || lo > INT_EXACT ? -Infinity : lo, hi: Number.isNaN(hi) || hi > INT_EXACT || hi < -INT_EXACT ? Infinity : hi };
}

export function multiplyInts(a: IntRange, b: IntRange): IntRange {
  if (![a.lo, a.hi, b.lo, b.hi].every(Number.isFinite)) return ANY_INT;
  const corners = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
  return widen(Math.min(...corners), Math.max(...corners));
}

/** The range of a Float64 literal: `(fp s e m)` or `(_ +zero 11 53)` and the other special values. */
export function literalRange(e: SExpr): FloatRange {
  if (!isList(e)) return ANY_FLOAT;
  if (e[0] === "_" && !(e.length === 4 && e[2] === "11" && e[3] === "53")) return ANY_FLOAT;
  if (e[0] === "fp" && !(e.length === 4 && bitWidth(e[1]) === 1 && bitWidth(e[2]) === 11 && bitWidth(e[3]) === 52)) return ANY_FLOAT;
  let x: number;
  try {
    x = decodeFloat(e);
  } catch {
    return ANY_FLOAT;
  }
  return Number.isNaN(x) ? { k: "fp", lo: Infinity, hi: -Infinity, nan: true } : { k: "fp", lo: x, hi: x, nan: false, whole: !Number.isFinite(x) || Number.isInteger(x) };
}

/** The width of a bit-vector literal (`#b…` or `#x…`), or -1. */
function bitWidth(e: SExpr | undefined): number {
  if (typeof e !== "string") return -1;
  if (/^#b[01]+$/.test(e)) return e.length - 2;
  if (/^#x[0-9a-fA-F]+$/.test(e)) return 4 * (e.length - 2);
  return -1;
}

/** Whether a range holds no number (its value, if any, is NaN). */
export const empty = (r: FloatRange): boolean => r.lo > r.hi;

export function joinFloats(a: FloatRange, b: FloatRange): FloatRange {
  if (empty(a)) return { ...b, nan: a.nan || b.nan };
  if (empty(b)) return { ...a, nan: a.nan || b.nan };
  return { k: "fp", lo: Math.min(a.lo, b.lo), hi: Math.max(a.hi, b.hi), nan: a.nan || b.nan, whole: a.whole === true && b.whole === true };
}

export function absFloat(a: FloatRange): FloatRange {
  if (empty(a)) return a;
  if (a.lo >= 0) return { ...a, lo: Math.abs(a.lo) };
  if (a.hi <= 0) return { k: "fp", lo: -a.hi, hi: -a.lo, nan: a.nan };
  return { k: "fp", lo: 0, hi: Math.max(-a.lo, a.hi), nan: a.nan };
}

/**
 * `fp.roundToIntegral` in a rounding mode: monotone, so the ends' roundings bound it (NaN only from
 * NaN). Toward −∞, +∞ and zero are JavaScript's `floor`, `ceil` and `trunc`; the nearest modes lie
 * between the floor and the ceiling, which bound them. An unknown mode gives up.
 */
export function roundFloat(mode: string, a: FloatRange): FloatRange {
  if (empty(a)) return a;
  const [down, up] = ROUNDING_ENDS[mode] ?? [undefined, undefined];
  if (!down || !up) return ANY_FLOAT;
  return { k: "fp", lo: down(a.lo), hi: up(a.hi), nan: a.nan, whole: true };
}

const ROUNDING_ENDS: Readonly<Record<string, readonly [(x: number) => number, (x: number) => number]>> = {
  RTN: [Math.floor, Math.floor], roundTowardNegative: [Math.floor, Math.floor],
  RTP: [Math.ceil, Math.ceil], roundTowardPositive: [Math.ceil, Math.ceil],
  RTZ: [Math.trunc, Math.trunc], roundTowardZero: [Math.trunc, Math.trunc],
  RNE: [Math.floor, Math.ceil], roundNearestTiesToEven: [Math.floor, Math.ceil],
  RNA: [Math.floor, Math.ceil], roundNearestTiesToAway: [Math.floor, Math.ceil],
};

/**
 * A correctly rounded operation over two ranges. The rounded value at each corner of the box is
 * a bound, since rounding is monotone; where NaN can arise inside the box the result may be NaN.
 */
export function arithmetic(op: "fp.add" | "fp.sub" | "fp.mul" | "fp.div", a: FloatRange, b: FloatRange): FloatRange {
  if (empty(a) || empty(b)) return { k: "fp", lo: Infinity, hi: -Infinity, nan: a.nan || b.nan };
  const hasInf = (r: FloatRange) => r.lo === -Infinity || r.hi === Infinity;
  const holdsZero = (r: FloatRange) => r.lo <= 0 && r.hi >= 0;
  let nan = a.nan || b.nan;
  let corners: number[];
  switch (op) {
    case "fp.add":
      nan ||= (a.hi === Infinity && b.lo === -Infinity) || (a.lo === -Infinity && b.hi === Infinity);
      corners = [a.lo + b.lo, a.hi + b.hi];
      break;
    case "fp.sub":
      nan ||= (a.hi === Infinity && b.hi === Infinity) || (a.lo === -Infinity && b.lo === -Infinity);
      corners = [a.lo - b.hi, a.hi - b.lo];
      break;
    case "fp.mul":
      nan ||= (holdsZero(a) && hasInf(b)) || (hasInf(a) && holdsZero(b));
      corners = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
      break;
    case "fp.div":
      // A divisor range that holds zero gives ±∞ of either sign (and NaN for 0/0): anything.
      if (holdsZero(b)) return ANY_FLOAT;
      nan ||= hasInf(a) && hasInf(b);
      corners = [a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi];
      break;
  }
  if (corners.some(Number.isNaN)) return ANY_FLOAT;
  const whole = op !== "fp.div" && a.whole === true && b.whole === true;
  return { k: "fp", lo: Math.min(...corners), hi: Math.max(...corners), nan, whole };
}

export type Relation = "<" | "<=" | ">" | ">=" | "=";

/** The relation `term R other` that a conjunct `op` (with the term on the right when `flipped`, negated when `negated`) states. */
export function relation(op: string, flipped: boolean, negated: boolean): Relation {
  const base: Relation = op === "fp.lt" || op === "<" ? "<" : op === "fp.leq" || op === "<=" ? "<=" : op === "fp.gt" || op === ">" ? ">" : op === "fp.geq" || op === ">=" ? ">=" : "=";
  const turned: Relation = !flipped ? base : base === "<" ? ">" : base === "<=" ? ">=" : base === ">" ? "<" : base === ">=" ? "<=" : "=";
  if (!negated) return turned;
  return turned === "<" ? ">=" : turned === "<=" ? ">" : turned === ">" ? "<=" : turned === ">=" ? "<" : "=";
}

/**
 * The range of a Float64 term that satisfies `term R bound`, closed (an over-approximation of the
 * strict relations). A negated IEEE comparison also holds when either side is NaN, so it narrows
 * only the term's numbers, and only when the bound cannot be NaN.
 */
export function narrowFloat(term: FloatRange, r: Relation, bound: FloatRange, negated: boolean): FloatRange | "empty" | undefined {
  if (negated) {
    if (bound.nan || empty(bound) || r === "=") return undefined;
    const next = clip(term, r, bound);
    return empty(next) && !next.nan ? "empty" : next;
  }
  // A comparison that holds has two numbers: neither side is NaN.
  if (empty(bound)) return "empty";
  const next = { ...clip(term, r, bound), nan: false };
  return empty(next) ? "empty" : next;
}

function clip(term: FloatRange, r: Relation, bound: FloatRange): FloatRange {
  switch (r) {
    // Between doubles, "less than c" is "at most the double below c".
    case "<": return { ...term, hi: Math.min(term.hi, nextDown(bound.hi)) };
    case "<=": return { ...term, hi: Math.min(term.hi, bound.hi) };
    case ">": return { ...term, lo: Math.max(term.lo, -nextDown(-bound.lo)) };
    case ">=": return { ...term, lo: Math.max(term.lo, bound.lo) };
    case "=": return { ...term, lo: Math.max(term.lo, bound.lo), hi: Math.min(term.hi, bound.hi) };
  }
}

/** The largest double below `x` (-∞ stays; below either zero is -5e-324). */
function nextDown(x: number): number {
  if (Number.isNaN(x) || x === -Infinity) return x;
  if (x === 0) return -Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigInt64(0, view.getBigInt64(0) + (x > 0 ? -1n : 1n));
  return view.getFloat64(0);
}

export function meet(a: Value, b: Value): Value {
  if (a.k === "fp" && b.k === "fp") return meetFloats(a, b);
  if (a.k === "int" && b.k === "int") return { k: "int", lo: Math.max(a.lo, b.lo), hi: Math.min(a.hi, b.hi) };
  return a.k === "other" ? b : a;
}

/** Both over-approximations at once (an empty result: no value but perhaps NaN). */
export function meetFloats(a: FloatRange, b: FloatRange): FloatRange {
  return { k: "fp", lo: Math.max(a.lo, b.lo), hi: Math.min(a.hi, b.hi), nan: a.nan && b.nan, whole: a.whole === true || b.whole === true };
}

/** The whole numbers of a range (equal to their own rounding: never NaN; ±∞ stay). */
export function integral(r: FloatRange): FloatRange | "empty" {
  const next: FloatRange = { k: "fp", lo: Math.ceil(r.lo), hi: Math.floor(r.hi), nan: false, whole: true };
  return empty(next) ? "empty" : next;
}

export function narrowInt(term: IntRange, r: Relation, bound: IntRange): IntRange | "empty" {
  let { lo, hi } = term;
  if (r === "<") hi = Math.min(hi, bound.hi - 1);
  if (r === "<=") hi = Math.min(hi, bound.hi);
  if (r === ">") lo = Math.max(lo, bound.lo + 1);
  if (r === ">=") lo = Math.max(lo, bound.lo);
  if (r === "=") [lo, hi] = [Math.max(lo, bound.lo), Math.min(hi, bound.hi)];
  return lo > hi ? "empty" : { k: "int", lo, hi };
}

export function sameValue(a: Value, b: Value): boolean {
  if (a.k !== b.k) return false;
  if (a.k === "other") return true;
  if (a.k === "bool") return a.holds === (b as Holds).holds;
  if (a.k === "text") {
    const t = b as TextValue;
    return a.prefix === t.prefix && a.suffix === t.suffix && a.exact === t.exact;
  }
  const x = a as FloatRange;
  const y = b as FloatRange;
  return Object.is(x.lo, y.lo) && Object.is(x.hi, y.hi) && x.nan === y.nan && (x.whole === true) === (y.whole === true);
}

/** An IEEE comparison of two ranges: false also when a side is NaN. */
export function compareFloats(op: string, a: FloatRange, b: FloatRange): Truth {
  // A side with no number is NaN (every comparison is false), or nothing at all (left unknown).
  if (empty(a) || empty(b)) return (empty(a) && !a.nan) || (empty(b) && !b.nan) ? undefined : false;
  const mayNaN = a.nan || b.nan;
  switch (op) {
    case "fp.lt": return a.lo >= b.hi ? false : !mayNaN && a.hi < b.lo ? true : undefined;
    case "fp.leq": return a.lo > b.hi ? false : !mayNaN && a.hi <= b.lo ? true : undefined;
    case "fp.gt": return a.hi <= b.lo ? false : !mayNaN && a.lo > b.hi ? true : undefined;
    case "fp.geq": return a.hi < b.lo ? false : !mayNaN && a.lo >= b.hi ? true : undefined;
    case "fp.eq": return a.hi < b.lo || b.hi < a.lo ? false : !mayNaN && a.lo === a.hi && b.lo === b.hi && a.lo === b.lo ? true : undefined;
    default: return undefined;
  }
}

export function compareInts(op: string, a: IntRange, b: IntRange): Truth {
  switch (op) {
    case "<": return a.lo >= b.hi ? false : a.hi < b.lo ? true : undefined;
    case "<=": return a.lo > b.hi ? false : a.hi <= b.lo ? true : undefined;
    case ">": return a.hi <= b.lo ? false : a.lo > b.hi ? true : undefined;
    case ">=": return a.hi < b.lo ? false : a.lo >= b.hi ? true : undefined;
    case "=": return a.hi < b.lo || b.hi < a.lo ? false : a.lo === a.hi && b.lo === b.hi && a.lo === b.lo ? true : undefined;
    default: return undefined;
  }
}

/** SMT-LIB's `=` on Float64 (the same value: NaN equals NaN, -0 differs from +0): decided only when the ranges are apart. */
export function sameFloat(a: FloatRange, b: FloatRange): Truth {
  const apart = empty(a) || empty(b) || a.hi < b.lo || b.hi < a.lo;
  return apart && !(a.nan && b.nan) ? false : undefined;
}

export function classify(op: string, a: FloatRange): Truth {
  switch (op) {
    case "fp.isNaN": return !a.nan ? false : empty(a) ? true : undefined;
    case "fp.isInfinite": return a.lo > -Infinity && a.hi < Infinity ? false : undefined;
    case "fp.isZero": return a.lo > 0 || a.hi < 0 ? false : undefined;
    case "fp.isNegative": return a.lo > 0 ? false : !a.nan && a.hi < 0 ? true : undefined;
    case "fp.isPositive": return a.hi < 0 ? false : !a.nan && a.lo > 0 ? true : undefined;
    default: return undefined;
  }
}

/**
 * The range of a term that satisfies a classification (`fp.isNaN t`, negated when `negated`): no
 * NaN, finite, zero, of a sign; "empty" when nothing in the range does; undefined when it says
 * nothing a range can hold (a range cannot leave out the numbers between zeros and infinities).
 * `fp.isPositive` holds of +0 and +∞ and never of NaN; `(not (fp.isPositive t))` of -0 and NaN.
 */
export function narrowClass(op: string, r: FloatRange, negated: boolean): FloatRange | "empty" | undefined {
  const check = (next: FloatRange): FloatRange | "empty" => (empty(next) && !next.nan ? "empty" : next);
  switch (op) {
    case "fp.isNaN": return negated ? check({ ...r, nan: false }) : r.nan ? { k: "fp", lo: Infinity, hi: -Infinity, nan: true } : "empty";
    case "fp.isInfinite":
      if (negated) return check({ ...r, lo: Math.max(r.lo, -Number.MAX_VALUE), hi: Math.min(r.hi, Number.MAX_VALUE) });
      return r.lo > -Infinity && r.hi < Infinity ? "empty" : check({ ...r, nan: false });
    case "fp.isZero": return negated ? undefined : r.lo > 0 || r.hi < 0 ? "empty" : { k: "fp", lo: 0, hi: 0, nan: false, whole: true };
    case "fp.isPositive": return check(negated ? { ...r, hi: Math.min(r.hi, 0) } : { ...r, lo: Math.max(r.lo, 0), nan: false });
    case "fp.isNegative": return check(negated ? { ...r, lo: Math.max(r.lo, 0) } : { ...r, hi: Math.min(r.hi, 0), nan: false });
    default: return undefined;
  }
}

/** Any string's length. */
export const ANY_LENGTH = widen(0, Infinity);

/**
 * A string literal's length: exact when Z3's reading of every character is certain (sexpr.ts
 * `readLiteral`), else between one (its text is not empty) and its text's length in UTF-8 bytes:
 * every character Z3 reads takes at least one byte of the text (a raw `é` is two characters to
 * Z3, an escape several bytes for one character).
 */
export function literalLength(lit: string): IntRange {
  const chars = readLiteral(lit);
  if (chars !== undefined) {
    // Kept wide as before: a surrogate pair counts as two characters under `:encoding bmp`, but one code point.
    const points = [...chars].length;
    return points === chars.length ? exactInt(points) : widen(points, chars.length);
  }
  const body = lit.slice(1, -1).replace(/""/g, '"');
  return widen(Math.min(1, body.length), Buffer.byteLength(body, "utf8"));
}
