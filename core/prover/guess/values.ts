/**
 * The guesser's values (guess/evaluate.ts): a value's JavaScript type is its sort (Bool boolean,
 * Int bigint, Float64 number, String string of UTF-16 code units, RegLan an interned expression),
 * and the arithmetic SMT-LIB defines differently from JavaScript.
 */
import { isList, type SExpr } from "../sexpr";
import type { Re } from "./regex";

/** What the guesser does not evaluate: the query goes to Z3 as before. */
export class Unsupported extends Error {}

/** The search's budget ran out in the middle of an evaluation. */
export class OverBudget extends Error {}

export type Sort = "Bool" | "Int" | "String" | "Float64";
export type Value = boolean | bigint | number | string | Re;

/** The sort of an SMT-LIB sort expression (the sorts a cell may have). */
export function sortOf(e: SExpr): Sort {
  if (e === "Bool" || e === "Int" || e === "String") return e;
  if (isList(e) && e[0] === "_" && e[1] === "FloatingPoint" && e[2] === "11" && e[3] === "53") return "Float64";
  throw new Unsupported(`sort ${JSON.stringify(e)}`);
}

/** The default value of a sort: what every cell starts as. */
export function defaultOf(sort: Sort): Value {
  return sort === "Bool" ? false : sort === "Int" ? 0n : sort === "String" ? "" : 0;
}

/** A key for a tuple of values (functions' entries, candidate sets). */
export function keyOf(values: readonly Value[]): string {
  return values.map((v) => (typeof v === "bigint" ? `i${v}` : typeof v === "number" ? `f${Object.is(v, -0) ? "-0" : String(v)}` : typeof v === "string" ? `s${JSON.stringify(v)}` : typeof v === "boolean" ? `b${v}` : `r${v.id}`)).join("|");
}

/** Normalised distance: 0 stays 0, anything else lands in (0, 1]. */
export const norm = (d: number): number => (d <= 0 ? 0 : Number.isFinite(d) ? d / (d + 1) : 1);

/** SMT-LIB equality: Float64 by identity (NaN is NaN, +0 is not -0), everything else as JavaScript has it. */
export const same = (x: Value, y: Value): boolean => (typeof x === "number" ? Object.is(x, y) : x === y);

/** Round half to even (IEEE roundToIntegral with RNE); keeps the sign of zero. */
export function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  const rounded = r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
  return rounded === 0 ? (x < 0 || Object.is(x, -0) ? -0 : 0) : rounded;
}

/** Rounding modes by SMT-LIB's short and long names. */
const MODES: Record<string, "RNE" | "RNA" | "RTP" | "RTN" | "RTZ"> = {
  RNE: "RNE", roundNearestTiesToEven: "RNE", RNA: "RNA", roundNearestTiesToAway: "RNA",
  RTP: "RTP", roundTowardPositive: "RTP", RTN: "RTN", roundTowardNegative: "RTN", RTZ: "RTZ", roundTowardZero: "RTZ",
};

/**
 * IEEE roundToIntegral in a rounding mode given by name (`Math.floor` for RTN, `Math.ceil` for RTP,
 * `Math.trunc` for RTZ: each keeps the sign of a zero result as IEEE does); undefined for a name
 * that is not a rounding mode.
 */
export function roundToIntegral(mode: string, x: number): number | undefined {
  switch (MODES[mode]) {
    case "RNE": return roundHalfEven(x);
    case "RTN": return Math.floor(x);
    case "RTP": return Math.ceil(x);
    case "RTZ": return Math.trunc(x);
    case "RNA": {
      if (!Number.isFinite(x)) return x;
      // |x| − trunc(|x|) is exact (no addition of 0.5 that could round up a value just below a half).
      const a = Math.abs(x);
      const t = Math.trunc(a);
      const r = a - t >= 0.5 ? t + 1 : t;
      return x < 0 || Object.is(x, -0) ? -r : r;
    }
    default: return undefined;
  }
}

/** SMT-LIB's integer division and remainder (Euclidean: the remainder is never negative). */
export function euclid(a: bigint, b: bigint): [bigint, bigint] {
  if (b === 0n) throw new Unsupported("division by zero");
  let q = a / b;
  let r = a - q * b;
  if (r < 0n) {
    if (b > 0n) { q -= 1n; r += b; } else { q += 1n; r -= b; }
  }
  return [q, r];
}

