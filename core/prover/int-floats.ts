/**
 * The integer-lifting formulation: integers that meet floating point only through exact
 * conversions are restated as integral Float64 constants, so that a query about them can go to the
 * bit-blasting engines (attempts.ts) instead of the general solver's mixed real/float reasoning.
 *
 * An integer a tool promises (`Number.isInteger(cents) && 0 <= cents && cents <= 1e8`) is an Int
 * constant `n` with a Float64 term `((_ to_fp 11 53) RNE (to_real n))` (values.ts). When the query
 * compares it with a Float64 input (`amount <= balance`), Z3 has to reason about the conversion
 * between reals and floats, which it rarely finishes: a balance check of two payments ran for
 * minutes. With `n` replaced by a Float64 constant `f` that is integral, finite and not -0, the same
 * query is pure floating point and is decided in seconds.
 *
 * It is an equivalence, so an `unsat` of the lifted query is an `unsat` of the original. It applies
 * to a constant `n` (or an Int function applied to numerals) only when
 * - `n` is an Int constant bound by no quantifier, `let` or function parameter;
 * - the query's top-level assertions bound `n` from both sides within [-2^53, 2^53];
 * - every occurrence of `n` is in an integer expression E (numerals, such terms, `+`, binary `-`,
 *   `*` by a positive numeral, `ite`, and Int definitions without parameters whose value is one:
 *   the sum of the amounts a guarantee adds up, a running total) that is converted,
 *   `((_ to_fp 11 53) rm (to_real E))`, or compared (`=`, `<=`, `<`, `>=`, `>`) with another;
 * - every value of E and of each of its parts lies within [-2^53, 2^53] (interval arithmetic over
 *   the bounds; a sum's partial sums in the order they are added).
 * Then every value of `n` is a double exactly, and `n ↦ to_fp(n)` is a bijection from the integers
 * in the bounds onto the integral, finite, non-negative-zero doubles in the same bounds. Under it,
 * E's Float64 operations are exact (no rounding within 2^53, and RNE adds and subtracts to +0, never
 * -0), so every conversion is E's float and every comparison keeps its truth. A model of the lifted
 * query gives `n` the integer value of `f` (`valueOfLifted`), and z3.ts checks the original
 * assertions in that model before believing it.
 */
import { isDeepStrictEqual } from "node:util";
import { decodeFloat, isList, parseSExprs, printSExpr, type SExpr } from "./sexpr";
import { FLOAT64, numLit } from "./smt";
import { constantValue, interpret, type Interpretation } from "./model-restore";

/**
 * A term the formulation lifted: an Int constant (`args` empty) or an Int function applied to
 * numerals in the original, and its Float64 stand-in.
 */
export interface Lifted {
  readonly name: string;
  /** Numerals; printed terms only in a ground query's lifting, whose models are never read. */
  readonly args: readonly (bigint | string)[];
  readonly float: string;
}

export interface IntLifting {
  readonly text: string;
  readonly lifted: readonly Lifted[];
}

const LIMIT = 2n ** 53n;
const COMPARISONS: Readonly<Record<string, string>> = { "=": "fp.eq", "<=": "fp.leq", "<": "fp.lt", ">=": "fp.geq", ">": "fp.gt" };
/** The comparison with its sides swapped: `(<= 3 n)` is `(>= n 3)`. */
const FLIPPED: Readonly<Record<string, string>> = { "=": "=", "<=": ">=", "<": ">", ">=": "<=", ">": "<" };
const TO_FP: SExpr = ["_", "to_fp", "11", "53"];
const BINDERS = new Set(["forall", "exists", "let"]);


/** An integer numeral (`7`, `(- 7)`) of magnitude at most 2^53, or undefined. */
function numeral(e: SExpr): bigint | undefined {
  const value = typeof e === "string" && /^(?:0|[1-9]\d*)$/.test(e) ? BigInt(e)
    : isList(e) && e.length === 2 && e[0] === "-" && typeof e[1] === "string" && /^(?:0|[1-9]\d*)$/.test(e[1]) ? -BigInt(e[1])
    : undefined;
  return value !== undefined && value <= LIMIT && value >= -LIMIT ? value : undefined;
}

/** A liftable term: a candidate constant, or a candidate function applied to numerals. */
interface Term {
  readonly name: string;
  /** Numerals; in a ground query's lifting also printed terms. */
  readonly args: readonly (bigint | string)[];
}
const keyOf = (t: Term): string => [t.name, ...t.args].join(" ");

function term(e: SExpr, candidates: ReadonlyMap<string, number>, ground?: Ground): Term | undefined {
  if (typeof e === "string") return candidates.get(e) === 0 ? { name: e, args: [] } : undefined;
  if (!isList(e) || typeof e[0] !== "string" || candidates.get(e[0]) !== e.length - 1 || e.length < 2) return undefined;
  const args = e.slice(1).map(numeral);
  if (args.every((a) => a !== undefined)) return { name: e[0], args: args as bigint[] };
  // A ground query's lifting (anyArgs): arguments that are any term no binder names.
  if (!ground || e.slice(1).some((a) => mentionsAny(a, ground.bound))) return undefined;
  return { name: e[0], args: e.slice(1).map((a, i) => args[i] ?? printSExpr(a)) };
}

/** In a ground query's lifting: the names binders bind. */
interface Ground {
  readonly bound: ReadonlySet<string>;
}

function mentionsAny(e: SExpr, names: ReadonlySet<string>): boolean {
  return isList(e) ? e.some((x) => mentionsAny(x, names)) : names.has(e);
}

/** `(op t k)` with `t` a liftable term and `k` a numeral, as `{ t, op, k }` with `t` on the left. */
function comparison(e: SExpr[], candidates: ReadonlyMap<string, number>, ground?: Ground): { t: Term; op: string; k: bigint } | undefined {
  if (e.length !== 3 || typeof e[0] !== "string" || !Object.hasOwn(COMPARISONS, e[0])) return undefined;
  const [op, a, b] = e as [string, SExpr, SExpr];
  const left = term(a, candidates, ground);
  const right = term(b, candidates, ground);
  if (left && !right) {
    const k = numeral(b);
    return k === undefined ? undefined : { t: left, op, k };
  }
  if (right && !left) {
    const k = numeral(a);
    return k === undefined ? undefined : { t: right, op: FLIPPED[op]!, k };
  }
  return undefined;
}

/** The names a command binds (function parameters, quantified and `let` variables). */
function boundNames(e: SExpr, out: Set<string>): void {
  if (!isList(e)) return;
  if (typeof e[0] === "string" && BINDERS.has(e[0]) && isList(e[1])) for (const b of e[1]) if (isList(b) && typeof b[0] === "string") out.add(b[0]);
  for (const x of e) boundNames(x, out);
}

/** `[lo, hi]`: the values an integer expression takes, as the query's top-level bounds allow. */
interface Interval {
  readonly lo: bigint;
  readonly hi: bigint;
}
const within = (i: Interval): boolean => i.lo >= -LIMIT && i.hi <= LIMIT;

/**
 * The integer-lifting formulation of a query, or undefined when no term can be lifted. Integer
 * expressions (sums and the rest) are lifted only where a converted integer is compared with a
 * float of another origin (`mixedComparison`): a sum of amounts only added and compared with
 * numerals is linear integer arithmetic, which Z3 decides far faster than the same sum bit-blasted
 * (h46 i16: proved in 12 s as integers, undecided in 18 s lifted).
 */
export function liftIntegers(commands: readonly SExpr[], anyArgs = false): IntLifting | undefined {
  const lifted = lift(commands, true, anyArgs);
  if (!lifted?.compound || mixedComparison(commands)) return lifted;
  // Bare terms suffice unless they leave a conversion the compound lifting removes (a count
  // converted to divide it: formulations.ts uses only a lifting that leaves none).
  const bare = lift(commands, false, anyArgs);
  if (bare && !CONVERSION.test(bare.text)) return bare;
  // A converted integer only compared, added or multiplied is left to integer arithmetic (a sum of
  // amounts: h50 i59 proved in 1 s so, undecided in 55 s lifted); one that a division reads
  // (`refunded / Math.max(n, 1)`, a fraction) is lifted with the rest, when that removes every conversion.
  return CONVERSION.test(lifted.text) || !arithmeticOnConversion(commands) ? bare : lifted;
}

/** Floating-point operations whose result an integer's arithmetic cannot stand for. */
const FP_ARITHMETIC: ReadonlySet<string> = new Set(["fp.div", "fp.rem", "fp.fma", "fp.sqrt"]);

/** Whether such an operation takes a conversion of an integer as an operand. */
function arithmeticOnConversion(commands: readonly SExpr[]): boolean {
  const converts = (e: SExpr): boolean => isList(e) && e.length === 3 && isDeepStrictEqual(e[0], TO_FP) && isList(e[2]) && e[2][0] === "to_real";
  const visit = (e: SExpr): boolean => isList(e) && ((typeof e[0] === "string" && FP_ARITHMETIC.has(e[0]) && e.slice(1).some(converts)) || e.some(visit));
  return commands.some(visit);
}

const CONVERSION = /\(\(_ to_fp 11 53\) \S+ \(to_real /;

const FP_COMPARISONS = new Set(["fp.leq", "fp.lt", "fp.geq", "fp.gt", "fp.eq"]);

/**
 * Whether the query compares (`fp.leq`, …) a term that converts an integer to Float64 with one
 * that reads a Float64 constant or function (an input, a tool's number), through definitions.
 */
function mixedComparison(commands: readonly SExpr[]): boolean {
  const floats = new Set<string>();
  const bodies = new Map<string, SExpr>();
  for (const c of commands) {
    if (!isList(c) || typeof c[1] !== "string") continue;
    if ((c[0] === "declare-const" && isDeepStrictEqual(c[2], FLOAT_SORT)) || (c[0] === "declare-fun" && isDeepStrictEqual(c[3], FLOAT_SORT))) floats.add(c[1]);
    if (c[0] === "define-fun" && isList(c[2]) && c[2].length === 0) bodies.set(c[1], c[4]!);
  }
  const memo = new Map<string, { converts: boolean; foreign: boolean }>();
  const reads = (e: SExpr): { converts: boolean; foreign: boolean } => {
    if (!isList(e)) {
      if (floats.has(e)) return { converts: false, foreign: true };
      const body = bodies.get(e);
      if (!body) return { converts: false, foreign: false };
      if (!memo.has(e)) {
        memo.set(e, { converts: false, foreign: false }); // definitions are not recursive; this only stops a loop
        memo.set(e, reads(body));
      }
      return memo.get(e)!;
    }
    const converts = isDeepStrictEqual(e[0], TO_FP) && isList(e[2]) && e[2][0] === "to_real";
    let out = { converts, foreign: false };
    for (const x of e) {
      const r = reads(x);
      out = { converts: out.converts || r.converts, foreign: out.foreign || r.foreign };
    }
    return out;
  };
  let mixed = false;
  const visit = (e: SExpr): void => {
    if (mixed || !isList(e)) return;
    if (typeof e[0] === "string" && FP_COMPARISONS.has(e[0]) && e.length === 3) {
      const [a, b] = [reads(e[1]!), reads(e[2]!)];
      if ((a.converts && b.foreign) || (b.converts && a.foreign)) mixed = true;
    }
    e.forEach(visit);
  };
  commands.forEach(visit);
  return mixed;
}

const FLOAT_SORT: SExpr = ["_", "FloatingPoint", "11", "53"];

/** `liftIntegers` with integer expressions (`compound`) or with bare terms and numerals only. */
function lift(commands: readonly SExpr[], compound: boolean, anyArgs = false): (IntLifting & { readonly compound: boolean }) | undefined {
  // Candidates: Int constants and Int functions of Int arguments, by name, with their arity.
  const candidates = new Map<string, number>();
  // Int definitions without parameters (a named running total): liftable when their value is.
  const definitions = new Map<string, SExpr>();
  const taken = new Set<string>();
  for (const c of commands) {
    if (!isList(c) || typeof c[1] !== "string") continue;
    taken.add(c[1]);
    if (c[0] === "declare-const" && c.length === 3 && c[2] === "Int") candidates.set(c[1], 0);
    else if (c[0] === "declare-fun" && c.length === 4 && isList(c[2]) && c[2].every((d) => d === "Int") && c[3] === "Int") candidates.set(c[1], c[2].length);
    else if (c[0] === "define-fun" && c.length === 5 && isList(c[2]) && c[2].length === 0 && c[3] === "Int") definitions.set(c[1], c[4]!);
  }
  if (candidates.size === 0) return undefined;
  const bound = new Set<string>();
  for (const c of commands) {
    boundNames(c, bound);
    if (isList(c) && c[0] === "define-fun" && isList(c[2])) for (const p of c[2]) if (isList(p) && typeof p[0] === "string") bound.add(p[0]);
  }
  for (const name of bound) candidates.delete(name);
  // A ground query (grounding.ts, whose models are never read) lifts applications to any
  // arguments; what those arguments read stays an integer (it indexes, it is not lifted).
  const g: Ground | undefined = anyArgs ? { bound } : undefined;
  if (g) {
    const keep = (e: SExpr): void => {
      if (!isList(e)) return;
      if (typeof e[0] === "string" && candidates.get(e[0]) === e.length - 1 && e.length > 1 && e.slice(1).some((a) => numeral(a) === undefined)) {
        const names = new Set<string>();
        const collect = (x: SExpr): void => void (isList(x) ? x.forEach(collect) : names.add(x));
        e.slice(1).forEach(collect);
        for (const n of names) {
          candidates.delete(n);
          definitions.delete(n);
        }
      }
      e.forEach(keep);
    };
    commands.forEach(keep);
  }

  // Every term bounded from both sides in the top-level assertions, or its symbol is not lifted.
  const lo = new Map<string, bigint>();
  const hi = new Map<string, bigint>();
  const tighten = (e: SExpr): void => {
    if (!isList(e)) return;
    if (e[0] === "and") return void e.slice(1).forEach(tighten);
    const c = comparison(e, candidates, g);
    if (!c) return;
    const { op, k } = c;
    const key = keyOf(c.t);
    const lower = op === ">=" || op === "=" ? k : op === ">" ? k + 1n : undefined;
    const upper = op === "<=" || op === "=" ? k : op === "<" ? k - 1n : undefined;
    if (lower !== undefined && (lo.get(key) === undefined || lower > lo.get(key)!)) lo.set(key, lower);
    if (upper !== undefined && (hi.get(key) === undefined || upper < hi.get(key)!)) hi.set(key, upper);
  };
  for (const c of commands) if (isList(c) && c[0] === "assert" && c.length === 2) tighten(c[1]!);

  // Integer expressions over liftable terms: numerals, sums, differences, products by a positive
  // numeral, `ite` and liftable definitions, every value within 2^53 (so that every Float64
  // operation on them is exact) and none -0 (RNE adds and subtracts to +0, a positive factor
  // keeps +0). The interval of each, or undefined.
  const intervals = new Map<string, Interval | undefined>();
  const interval = (e: SExpr): Interval | undefined => {
    const k = numeral(e);
    if (k !== undefined) return { lo: k, hi: k };
    if (!compound && !(typeof e === "string" && candidates.has(e)) && term(e, candidates, g) === undefined) return undefined;
    if (typeof e === "string" && definitions.has(e)) {
      if (!intervals.has(e)) {
        intervals.set(e, undefined); // definitions are not recursive; this only stops a loop
        intervals.set(e, interval(definitions.get(e)!));
      }
      return intervals.get(e);
    }
    const t = term(e, candidates, g);
    if (t) {
      const [l, h] = [lo.get(keyOf(t)), hi.get(keyOf(t))];
      return l !== undefined && h !== undefined && within({ lo: l, hi: h }) ? { lo: l, hi: h } : undefined;
    }
    if (!isList(e) || e.length < 2) return undefined;
    const parts = (xs: readonly SExpr[]): Interval[] | undefined => {
      const out = xs.map(interval);
      return out.every((x) => x !== undefined) ? (out as Interval[]) : undefined;
    };
    let result: Interval | undefined;
    if (e[0] === "+" && e.length >= 3) {
      const xs = parts(e.slice(1));
      // Every partial sum (the Float64 adds, left to right) within the bounds.
      let sum: Interval | undefined = xs?.[0];
      for (const x of xs?.slice(1) ?? []) sum = sum && within(sum) ? { lo: sum.lo + x.lo, hi: sum.hi + x.hi } : undefined;
      result = sum;
    } else if (e[0] === "-" && e.length === 3) {
      const [a, b] = parts(e.slice(1)) ?? [];
      result = a && b ? { lo: a.lo - b.hi, hi: a.hi - b.lo } : undefined;
    } else if (e[0] === "*" && e.length === 3) {
      const [f, x] = numeral(e[1]!) !== undefined ? [numeral(e[1]!)!, interval(e[2]!)] : [numeral(e[2]!), interval(e[1]!)];
      result = f !== undefined && f > 0n && x ? { lo: f * x.lo, hi: f * x.hi } : undefined;
    } else if (e[0] === "ite" && e.length === 4) {
      const [a, b] = parts(e.slice(2)) ?? [];
      result = a && b ? { lo: a.lo < b.lo ? a.lo : b.lo, hi: a.hi > b.hi ? a.hi : b.hi } : undefined;
    }
    return result && within(result) ? result : undefined;
  };
  // The candidates and definitions an integer expression reads (not those in an `ite`'s condition).
  const readsOf = (e: SExpr, out: Set<string>): Set<string> => {
    const t = term(e, candidates, g);
    if (t) out.add(t.name);
    else if (typeof e === "string" && definitions.has(e)) out.add(e);
    else if (isList(e) && e[0] === "ite") e.slice(2).forEach((x) => readsOf(x, out));
    else if (isList(e) && (e[0] === "+" || e[0] === "-" || e[0] === "*")) e.slice(1).forEach((x) => readsOf(x, out));
    return out;
  };
  /** The Bool conditions inside an integer expression's `ite`s, which are visited as any term. */
  const conditionsOf = (e: SExpr, out: SExpr[]): SExpr[] => {
    if (isList(e) && (e[0] === "ite" || e[0] === "+" || e[0] === "-" || e[0] === "*") && term(e, candidates, g) === undefined) {
      if (e[0] === "ite") out.push(e[1]!);
      e.slice(e[0] === "ite" ? 2 : 1).forEach((x) => conditionsOf(x, out));
    }
    return out;
  };
  /** `((_ to_fp 11 53) rm (to_real e))` with `e` an integer expression: `e`. */
  const converts = (e: SExpr[]): SExpr | undefined => {
    if (e.length !== 3 || !isDeepStrictEqual(e[0], TO_FP) || typeof e[1] !== "string") return undefined;
    const arg = e[2];
    return isList(arg) && arg.length === 2 && arg[0] === "to_real" && interval(arg[1]!) ? arg[1]! : undefined;
  };
  /** `(op a b)` comparing two integer expressions (a numeral on at most one side). */
  const compares = (e: SExpr[]): readonly [string, SExpr, SExpr] | undefined => {
    if (e.length !== 3 || typeof e[0] !== "string" || !Object.hasOwn(COMPARISONS, e[0])) return undefined;
    if (numeral(e[1]!) !== undefined && numeral(e[2]!) !== undefined) return undefined;
    return interval(e[1]!) && interval(e[2]!) ? [e[0], e[1]!, e[2]!] : undefined;
  };

  // Every occurrence of a candidate or definition must be inside an integer expression that is
  // converted or compared; an expression's symbols are lifted together (or none of them), and
  // only where one of them meets floating point: lifting one merely compared gains nothing.
  const isDeclaration = (c: SExpr): boolean => isList(c) && (c[0] === "declare-const" || c[0] === "declare-fun" || c[0] === "define-fun") && typeof c[1] === "string" && (candidates.has(c[1]) || definitions.has(c[1]));
  for (let changed = true; changed; ) {
    changed = false;
    intervals.clear();
    const together = new Map<string, Set<string>>();
    const converted = new Set<string>();
    const join = (names: Set<string>): void => {
      const group = new Set(names);
      for (const n of names) for (const m of together.get(n) ?? []) group.add(m);
      for (const n of group) together.set(n, group);
    };
    const drop = (name: string): void => {
      if (candidates.delete(name) || definitions.delete(name)) changed = true;
    };
    const visit = (e: SExpr): void => {
      if (!isList(e)) return void (candidates.has(e) || definitions.has(e) ? drop(e) : undefined);
      const c = converts(e);
      const compared = c === undefined ? compares(e) : undefined;
      const operands = c !== undefined ? [c] : compared ? compared.slice(1) : undefined;
      if (!operands) return void e.forEach(visit);
      const names = new Set<string>();
      for (const x of operands) {
        readsOf(x, names);
        conditionsOf(x, []).forEach(visit);
      }
      join(names);
      if (c !== undefined) names.forEach((n) => converted.add(n));
    };
    for (const c of commands) {
      if (isList(c) && c[0] === "define-fun" && typeof c[1] === "string" && definitions.has(c[1])) {
        if (!interval(c[4]!)) {
          drop(c[1]);
          continue;
        }
        const names = readsOf(c[4]!, new Set([c[1]]));
        conditionsOf(c[4]!, []).forEach(visit);
        join(names);
      } else if (!isDeclaration(c)) visit(c);
    }
    if (changed) continue;
    for (const [name, group] of together) if (![...group].some((n) => converted.has(n))) drop(name);
    // A candidate read nowhere in an integer expression (only its declaration) is left as it is.
    for (const name of [...candidates.keys()]) if (!together.has(name)) candidates.delete(name);
    for (const name of [...definitions.keys()]) if (!together.has(name)) definitions.delete(name);
  }
  const terms = new Map<string, Term>();
  const collect = (e: SExpr): void => {
    const t = term(e, candidates, g);
    if (t) return void terms.set(keyOf(t), t);
    if (isList(e)) e.forEach(collect);
  };
  commands.forEach(collect);
  const liftedTerms = [...terms.values()];
  // A conversion of an integer expression over numerals alone (a count: `(+ 0 (ite c 1 0) …)`)
  // is restated as its Float64 terms too: exact within 2^53, as any other (`interval`).
  const constant = (c: SExpr): boolean => compound && numeral(c) === undefined && readsOf(c, new Set()).size === 0;
  const convertsConstant = (e: SExpr): boolean => isList(e) && ((() => { const c = converts(e); return c !== undefined && constant(c); })() || e.some(convertsConstant));
  if (liftedTerms.length === 0 && !commands.some(convertsConstant)) return undefined;

  const floats = new Map<string, string>();
  for (const [i, t] of liftedTerms.entries()) {
    let float = t.args.some((a) => typeof a === "string") ? `${t.name}!fp!t${i}` : [t.name, "fp", ...t.args.map((a) => (typeof a === "bigint" && a < 0n ? `m${-a}` : String(a)))].join("!");
    for (let i = 0; taken.has(float); i++) float = `${float}${i}`;
    taken.add(float);
    floats.set(keyOf(t), float);
  }
  const lifts = (e: SExpr): boolean => [...readsOf(e, new Set())].some((n) => candidates.has(n) || definitions.has(n));
  let usedCompound = false;
  /** An integer expression as a Float64 term (exact: see `interval`). */
  const asFloat = (e: SExpr): SExpr => {
    const k = numeral(e);
    if (k !== undefined) return numLit(Number(k));
    const t = term(e, candidates, g);
    if (t) return floats.get(keyOf(t))!;
    if (typeof e === "string") return e; // a lifted definition, now of sort Float64
    usedCompound = true;
    const [head, ...xs] = e as SExpr[];
    if (head === "ite") return ["ite", rewrite(xs[0]!), asFloat(xs[1]!), asFloat(xs[2]!)];
    if (head === "*") return ["fp.mul", "RNE", asFloat(xs[0]!), asFloat(xs[1]!)];
    if (head === "-") return ["fp.sub", "RNE", asFloat(xs[0]!), asFloat(xs[1]!)];
    return xs.map(asFloat).reduce((sum, x) => ["fp.add", "RNE", sum, x]);
  };
  const rewrite = (e: SExpr): SExpr => {
    if (!isList(e)) return e;
    const c = converts(e);
    if (c !== undefined && (lifts(c) || constant(c))) return asFloat(c);
    const compared = compares(e);
    if (compared && (lifts(compared[1]) || lifts(compared[2]))) return [COMPARISONS[compared[0]]!, asFloat(compared[1]), asFloat(compared[2])];
    return e.map(rewrite);
  };
  const out: string[] = [];
  for (const float of floats.values()) {
    out.push(`(declare-const ${float} ${FLOAT64})`);
    // Integral, finite and not -0: the image of the integers under an exact conversion.
    out.push(`(assert (and (not (fp.isNaN ${float})) (not (fp.isInfinite ${float})) (not (and (fp.isZero ${float}) (fp.isNegative ${float}))) (fp.eq (fp.roundToIntegral RNE ${float}) ${float})))`);
  }
  for (const c of commands) {
    if (isList(c) && c[0] === "define-fun" && typeof c[1] === "string" && definitions.has(c[1])) out.push(printSExpr(["define-fun", c[1], [], FLOAT64, asFloat(c[4]!)]));
    else if (!(isList(c) && (c[0] === "declare-const" || c[0] === "declare-fun") && typeof c[1] === "string" && candidates.has(c[1]))) out.push(printSExpr(rewrite(c)));
  }
  // Applications of one function to arguments that may be equal are equal there (the constants
  // standing for them would not know it). Last: the arguments read what the commands declare.
  const argText = (a: bigint | string): string => (typeof a === "string" ? a : a < 0n ? `(- ${-a})` : String(a));
  for (const [i, t] of liftedTerms.entries()) {
    for (const u of liftedTerms.slice(i + 1)) {
      if (u.name !== t.name || (t.args.every((a) => typeof a === "bigint") && u.args.every((a) => typeof a === "bigint"))) continue;
      const same = t.args.map((a, j) => `(= ${argText(a)} ${argText(u.args[j]!)})`);
      out.push(`(assert (=> (and ${same.join(" ")}) (= ${floats.get(keyOf(t))} ${floats.get(keyOf(u))})))`);
    }
  }
  return { text: out.join("\n"), lifted: liftedTerms.map((t) => ({ name: t.name, args: t.args, float: floats.get(keyOf(t))! })), compound: definitions.size > 0 || usedCompound };
}

/** The Int value of a lifted constant given its Float64 model value, or undefined when it is not an integer within 2^53. */
export function valueOfLifted(float: number): bigint | undefined {
  return Number.isInteger(float) && Math.abs(float) <= 2 ** 53 ? BigInt(float) : undefined;
}

type LowLevel = Awaited<ReturnType<typeof import("z3-solver").init>>["Z3"];

/**
 * Put the integer values of lifted terms into a model of the lifted query (in context `ctx`), so
 * that the original assertions and the counterexample read them; false when one has no integer
 * value.
 */
export function restoreLifted(z3: LowLevel, ctx: never, model: unknown, lifted: readonly Lifted[]): boolean {
  const entries: Interpretation[] = [];
  for (const { name, args, float } of lifted) {
    if (!args.every((a): a is bigint => typeof a === "bigint")) return false;
    const printed = constantValue(z3, ctx, model, float, "Float64");
    if (printed === undefined) return false;
    const [parsed] = parseSExprs(printed);
    const n = valueOfLifted(decodeFloat(parsed!));
    if (n === undefined) return false;
    entries.push({ name, args, value: { sort: "Int", int: n } });
  }
  interpret(z3, ctx, model, entries);
  return true;
}
