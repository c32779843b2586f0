/**
 * Numbers that are integers in every run, encoded as Int terms beside their Float64 terms.
 *
 * JavaScript's numbers are doubles, and the prover keeps their exact Float64 semantics. But a
 * double that holds an integer of magnitude at most 2^53 is that integer exactly, and adding,
 * subtracting or multiplying two such integers gives the exact result as long as it stays within
 * 2^53. So a number the prover knows to be an integer carries an Int term (`int`) and a static
 * bound on its magnitude (`mag`); arithmetic keeps the Int term only while the bound of the result
 * stays within 2^53, comparisons, equality, sums of contract selectors and ToString use the Int
 * term, and the query stays free of floating point wherever they are all it needs. (Budget loops
 * over tool results with a running total: Float64 sums time out; integer sums are decided at once.)
 *
 * Where integers come from: literals, lengths of strings and arrays, the index of a callback,
 * and tool results that an `ensures` declares integral and bounded (`Number.isInteger(x) &&
 * x > 0 && x <= 1000`, or `Number.isSafeInteger(x)`; ranges.ts reads them). The bounds of lengths
 * are those of the engine the program runs on (docs/prover.md, "Integers").
 *
 * The one thing an Int term cannot tell is the sign of zero. Nothing that uses it can either
 * (comparisons, `===`, sums compared with bounds, ToString all treat -0 as 0), and the Float64
 * term stays exact: a tool's integral result that may be zero carries a fresh sign flag in its
 * Float64 term, so `1 / x` still sees -0 where a run can.
 */
import { holeOpen } from "../holes";
import { intLit, numLit } from "../smt";
import { finiteBound, intToFp, type NumSym, type Quotient } from "../values";

/** Every integer of magnitude at most 2^53 is a double, and integer arithmetic within it is exact. */
export const EXACT_LIMIT = 2 ** 53;

/** The name of the fresh integer a rounded number gets (builtins.ts `roundedInteger`): `rounded!n`. */
export const ROUNDED_PREFIX = "rounded";
/** A term that mentions one. */
export const MENTIONS_ROUNDED = new RegExp(`\\b${ROUNDED_PREFIX}!\\d`);

/** Array lengths are at most 2^32 − 1 (ECMAScript's `ToUint32` bound on `length`). */
export const ARRAY_LENGTH_MAG = 2 ** 32 - 1;

/**
 * String lengths: Node (V8, 64-bit) limits strings to 2^29 − 24 code units; the prover assumes a
 * bound of 2^30, above it with room for a future increase, far below 2^53.
 */
export const STRING_LENGTH_MAG = 2 ** 30;

export type IntOp = "+" | "-" | "*";

/**
 * The bound of a sum (or product) of magnitude bounds, when it is at most 2^53; undefined beyond.
 * Computed in BigInt: in doubles, 2^53 − 1 + 2 rounds to 2^53 and would pass for exact.
 */
export function boundWithin(mags: readonly number[], op: "+" | "*" = "+"): number | undefined {
  if (holeOpen("integer-bound-in-doubles")) {
    const d = mags.reduce((t, m) => (op === "+" ? t + m : t * m), op === "+" ? 0 : 1);
    return d <= EXACT_LIMIT ? d : undefined;
  }
  let total = op === "+" ? 0n : 1n;
  for (const m of mags) {
    if (!Number.isInteger(m) || m < 0) return undefined;
    total = op === "+" ? total + BigInt(m) : total * BigInt(m);
    if (total > BigInt(EXACT_LIMIT)) return undefined;
  }
  return Number(total);
}

/**
 * The Int term and magnitude bound of `a op b` when both operands have Int terms and the result's
 * bound stays within 2^53; undefined otherwise (the result is then a Float64 term only).
 */
export function intArithmetic(op: IntOp, a: NumSym, b: NumSym): { int: string; mag: number } | undefined {
  if (a.int === undefined || b.int === undefined) return undefined;
  const mag = boundWithin([a.mag, b.mag], op === "*" ? "*" : "+");
  if (mag === undefined) return undefined;
  // Keep products linear where one side is a literal (the solver's integer arithmetic is linear).
  if (op === "*" && a.c === undefined && b.c === undefined) return undefined;
  // 0 + x and x ± 0 are x (the running total's first step, repeated in every later term).
  if (op !== "*" && b.c === 0) return { int: a.int, mag };
  if (op === "+" && a.c === 0) return { int: b.int, mag };
  return { int: `(${op} ${a.int} ${b.int})`, mag };
}

/**
 * A bound above every finite value arithmetic on bounded numbers may reach, far below the largest
 * double: bounded operands then never overflow to ±∞, and none of `+`, `-`, `*` or `/` by a
 * nonzero literal gives NaN.
 */
const FINITE_LIMIT = 2 ** 900;

/** One Float64 rounding moves a value by at most half an ulp: a relative 2^-53, taken as 2^-50 for room. */
const ONE_ROUNDING = 1 + 2 ** -50;

/**
 * The finite bound (values.ts `finiteBound`) of `a op b` when both operands have one (for `/`, a
 * nonzero literal divisor): the exact result's bound, widened by one rounding. Undefined otherwise.
 */
export function arithmeticBound(op: "+" | "-" | "*" | "/", a: NumSym, b: NumSym): number | undefined {
  const x = finiteBound(a);
  const y = finiteBound(b);
  if (x === undefined || y === undefined) return undefined;
  let bound: number;
  if (op === "/") {
    if (b.c === undefined || b.c === 0 || !Number.isFinite(b.c)) return undefined;
    bound = (x / Math.abs(b.c)) * ONE_ROUNDING;
  } else bound = (op === "*" ? x * y : x + y) * ONE_ROUNDING;
  return bound <= FINITE_LIMIT ? bound : undefined;
}

/** The Int term of `-a`, when `a` has one (the magnitude is unchanged). */
export function intNegate(a: NumSym): { int: string; mag: number } | undefined {
  if (a.int === undefined) return undefined;
  return { int: a.c !== undefined ? intLit(-a.c) : `(- ${a.int})`, mag: a.mag };
}

/**
 * `a % b` of an integer and a literal whole number other than 0: JavaScript's remainder takes the
 * sign of the dividend (`-7 % 3` is -1, `-6 % 3` is -0), so it is the Euclidean remainder of
 * `|a|` with `a`'s sign. The Float64 term is exact (-0 where the remainder is zero and `a` is
 * negative or -0); the result's magnitude is below `|b|`. Undefined for any other operands.
 */
export function intRemainder(a: NumSym, b: NumSym): NumSym | undefined {
  if (a.int === undefined || b.c === undefined || !Number.isInteger(b.c) || b.c === 0 || Math.abs(b.c) > EXACT_LIMIT) return undefined;
  const m = intLit(Math.abs(b.c));
  const int = `(ite (>= ${a.int} 0) (mod ${a.int} ${m}) (- (mod (- ${a.int}) ${m})))`;
  const t = `(ite (and (= ${int} 0) (fp.isNegative ${a.t})) ${numLit(-0)} ${intToFp(int)})`;
  return { k: "num", t, int, mag: Math.min(Math.abs(b.c) - 1, a.mag) };
}

/**
 * `a % b` of two integers where `b` is not a literal but known not to be 0 (the caller checks the
 * path: `agents[i % agents.length]` after `if (agents.length === 0) return;`): as `intRemainder`,
 * with SMT-LIB's `mod`, whose result lies in [0, |b|) for every non-zero `b`.
 */
export function intRemainderBy(a: NumSym, b: NumSym): NumSym | undefined {
  if (a.int === undefined || b.int === undefined || b.mag > EXACT_LIMIT) return undefined;
  const int = `(ite (>= ${a.int} 0) (mod ${a.int} ${b.int}) (- (mod (- ${a.int}) ${b.int})))`;
  const t = `(ite (and (= ${int} 0) (fp.isNegative ${a.t})) ${numLit(-0)} ${intToFp(int)})`;
  return { k: "num", t, int, mag: Math.min(Math.max(b.mag - 1, 0), a.mag) };
}

/** The dividend bound below which `a / b` never rounds a non-integral quotient onto an integer. */
const QUOTIENT_LIMIT = 2 ** 53 - 1;

/** The exact quotient of `a / b` (see `Quotient`), when it has one. */
export function quotientOf(a: NumSym, b: NumSym): Quotient | undefined {
  if (a.int === undefined || a.mag > QUOTIENT_LIMIT || b.c === undefined || !Number.isInteger(b.c) || b.c === 0 || Math.abs(b.c) > QUOTIENT_LIMIT) return undefined;
  return { int: a.int, mag: a.mag, by: b.c };
}

/**
 * The Int term of `Math.floor`, `ceil` or `trunc` of a quotient: Euclidean division by a positive
 * divisor is the floor. Exact because for |a| < 2^53 a quotient q that is not an integer is at
 * least 1/|b| from the nearest one, and half a unit in the last place of q is at most
 * |q|·2^-53 < 1/|b|: the Float64 division never rounds it onto an integer, so it lies strictly
 * between the same two integers (both doubles) and rounds to the same one.
 */
export function roundedQuotient(mode: "floor" | "ceil" | "trunc", q: Quotient): { int: string; mag: number } {
  // a / b = (sign · a) / |b|.
  const m = intLit(Math.abs(q.by));
  const n = q.by > 0 ? q.int : `(- ${q.int})`;
  const floor = (x: string): string => `(div ${x} ${m})`;
  const int = mode === "floor" ? floor(n) : mode === "ceil" ? `(- ${floor(`(- ${n})`)})` : `(ite (>= ${n} 0) ${floor(n)} (- ${floor(`(- ${n})`)}))`;
  return { int, mag: Math.ceil(q.mag / Math.abs(q.by)) };
}
