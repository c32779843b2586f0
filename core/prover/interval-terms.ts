/**
 * What intervals.ts reads terms with: their sorts, the scopes of narrowed ranges, how each kind of
 * range is read, met and joined, and the operator tables.
 */
import { ANY_FLOAT, ANY_INT, joinFloats, meetFloats, widen, type FloatRange, type IntRange, type Truth, type Value } from "./ranges";
import { isList, type SExpr } from "./sexpr";

/** Thrown when the analysis stops (too many steps, definitions too deep): nothing is concluded. */
export class GiveUp extends Error {}
/** Thrown when the analysis ran out of steps: a larger budget might still conclude. */
export class OutOfSteps extends GiveUp {}

export type Sort = "fp" | "int" | "bool" | "string" | "other";

export function sortOf(s: SExpr | undefined): Sort {
  if (s === "Int") return "int";
  if (s === "Bool") return "bool";
  if (s === "String") return "string";
  if (s === "Float64" || (isList(s) && s.length === 4 && s[0] === "_" && s[1] === "FloatingPoint" && s[2] === "11" && s[3] === "53")) return "fp";
  return "other";
}

/** A definition's value under an environment, and the narrowed keys its evaluation looked up. */
export interface Memo {
  readonly value: Value | Truth;
  readonly reads: ReadonlySet<string>;
}

/**
 * The ranges a conjunction narrowed and the predicates it asserts (keyed by the terms' texts),
 * over those of the conjunctions around it, and the definitions' values under them. An inner
 * environment is never wider than its parent, so a value read under the parent holds under it
 * (less precisely): reusing one is a question of precision only.
 */
export class Env {
  /**
   * The keys looked up while definitions are evaluated, innermost last (intervals.ts `memoised`):
   * a definition's value under an outer environment stands under an inner one that narrowed none
   * of them. The analysis is synchronous, so one stack serves.
   */
  static readonly reading: Set<string>[] = [];
  readonly memo = new Map<string, Memo>();
  /**
   * The truth of each Boolean term read under these ranges, by node: a query's simplified terms
   * share their repeated parts (simplify.ts), and a path condition reaches the same part once per
   * later iteration. Ranges only narrow while a conjunction narrows them, so a truth read earlier
   * under them still holds.
   */
  readonly truths = new WeakMap<SExpr[], Truth>();
  constructor(
    readonly parent: Env | undefined,
    readonly own: ReadonlyMap<string, Value>,
  ) {}

  get(key: string): Value | undefined {
    Env.reading[Env.reading.length - 1]?.add(key);
    for (let e: Env | undefined = this; e; e = e.parent) {
      const v = e.own.get(key);
      if (v !== undefined) return v;
    }
    return undefined;
  }
}

/** How a kind of range is read from a term (intervals.ts's evaluator). */
export interface Reader {
  floatOf(e: SExpr, env: Env): FloatRange;
  intOf(e: SExpr, env: Env): IntRange;
  lengthOf(e: SExpr, env: Env): IntRange;
}

/** How `known` and `either` read, meet and join one kind of range. */
export interface Kind<R extends FloatRange | IntRange> {
  readonly k: R["k"];
  readonly sort: Sort;
  readonly any: R;
  of(self: Reader, e: SExpr, env: Env): R;
  meet(a: R, b: R): R;
  join(a: R, b: R): R;
}

export const FLOATS: Kind<FloatRange> = {
  k: "fp", sort: "fp", any: ANY_FLOAT,
  of: (self, e, env) => self.floatOf(e, env),
  meet: meetFloats,
  join: joinFloats,
};

/** A string's length, read through `ite`s as an integer range. */
export const LENGTHS: Kind<IntRange> = {
  k: "int", sort: "string", any: widen(0, Infinity),
  of: (self, e, env) => self.lengthOf(e, env),
  meet: (a, b) => INTS.meet(a, b),
  join: (a, b) => INTS.join(a, b),
};

export const INTS: Kind<IntRange> = {
  k: "int", sort: "int", any: ANY_INT,
  of: (self, e, env) => self.intOf(e, env),
  meet: (a, b) => ({ k: "int", lo: Math.max(a.lo, b.lo), hi: Math.min(a.hi, b.hi) }),
  join: (a, b) => ({ k: "int", lo: Math.min(a.lo, b.lo), hi: Math.max(a.hi, b.hi) }),
};

/** Whether two terms are the same tree. */
export function sameTerm(a: SExpr, b: SExpr): boolean {
  if (a === b) return true;
  if (!isList(a) || !isList(b) || a.length !== b.length) return false;
  return a.every((x, i) => sameTerm(x, b[i]!));
}

/** Heads whose applications are not recorded as predicates: connectives, binders, comparisons of numbers. */
export const NOT_ATOMS: ReadonlySet<string> = new Set(["and", "or", "not", "=>", "ite", "xor", "let", "forall", "exists", "!", "<", "<=", ">", ">=", "fp.lt", "fp.leq", "fp.gt", "fp.geq", "fp.eq"]);
export const NUMBERS: ReadonlySet<Sort> = new Set(["int", "fp"]);
export const FLOAT_COMPARISONS: ReadonlySet<string> = new Set(["fp.lt", "fp.leq", "fp.gt", "fp.geq", "fp.eq"]);
export const INT_COMPARISONS: ReadonlySet<string> = new Set(["<", "<=", ">", ">=", "="]);
/** Operations whose result is a string. */
export const STRING_RESULTS = new Set(["str.++", "str.substr", "str.at", "str.from_int", "int.to.str", "str.from_code", "str.replace", "str.replace_all", "str.replace_re", "str.replace_re_all", "str.to_lower", "str.to_upper"]);
/** Operations whose result is a Float64 (when their operands are). */
export const FLOAT_RESULTS = new Set(["fp.add", "fp.sub", "fp.mul", "fp.div", "fp.neg", "fp.abs", "fp.fma", "fp.sqrt", "fp.rem", "fp.roundToIntegral", "fp.min", "fp.max"]);
