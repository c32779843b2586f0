import type * as TS from "typescript";
import type { ContractModel, EventClassModel, FluentModel, ToolModel, ValueType } from "../model";
import { holeOpen } from "./holes";
import { and, FLOAT64, ite, iteBool, not, intLit, numLit, or, RM, strLit } from "./smt";

export type FunctionLike = TS.FunctionDeclaration | TS.ArrowFunction | TS.FunctionExpression;

/** A lambda of a contract (predicate, selector, key) with the concrete bindings it closes over. */
export interface Lambda {
  readonly fn: TS.ArrowFunction | TS.FunctionExpression;
  readonly env: Env;
}

/** A relation of a contract, as the prover sees it. */
export interface RelationIR {
  readonly source: { readonly kind: "event"; readonly event: EventClassModel } | { readonly kind: "effect"; readonly tool: ToolModel };
  readonly filters: readonly Lambda[];
  readonly node: TS.Node;
}

export type Comparison = "atMost" | "atLeast" | "lessThan" | "greaterThan" | "equals" | "between";

/** A contract specification, evaluated from a contract body with literal arguments. */
export type SpecIR =
  | { readonly k: "all"; readonly rel: RelationIR; readonly pred: Lambda; readonly node: TS.Node }
  | { readonly k: "empty"; readonly rel: RelationIR; readonly node: TS.Node }
  | { readonly k: "compare"; readonly rel: RelationIR; readonly agg: { readonly k: "count" } | { readonly k: "sum"; readonly sel: Lambda }; readonly op: Comparison; readonly bounds: readonly number[]; readonly node: TS.Node }
  | { readonly k: "distinct" | "allSameValue"; readonly rel: RelationIR; readonly key: Lambda; readonly node: TS.Node }
  | { readonly k: "sharesValueWith"; readonly rel: RelationIR; readonly other: RelationIR; readonly key: Lambda; readonly node: TS.Node }
  /** Every key the run wrote satisfies `pred` with its final value (`Fluent.final.all`). */
  | { readonly k: "finalAll"; readonly fluent: FluentModel; readonly pred: Lambda; readonly node: TS.Node }
  /** The final value at `key` is `value` (`Fluent.final.at(key).equals(value)`). */
  | { readonly k: "finalAt"; readonly fluent: FluentModel; readonly key: Sym; readonly value: Sym; readonly node: TS.Node }
  | { readonly k: "allOf"; readonly specs: readonly SpecIR[] }
  | { readonly k: "none" };

/** A symbolic JavaScript value. Scalar terms are SMT-LIB text; `c` holds the value when it is known. */
export type Sym =
  | { readonly k: "str"; readonly t: string; readonly c?: string }
  | NumSym
  | { readonly k: "bool"; readonly t: string; readonly c?: boolean }
  | { readonly k: "undef" }
  /** A value that is `undefined` unless `def` holds (e.g. `let x: string | undefined` after a branch). */
  | { readonly k: "maybe"; readonly def: string; readonly v: Sym }
  | { readonly k: "arr"; readonly items: readonly Sym[] }
  | { readonly k: "sarr"; readonly len: string; readonly at: (index: string) => Sym; readonly elem: ValueType; readonly bound?: number; readonly label: string }
  /** A record; `literal` when the program built it from an object literal (its own properties are exactly `fields`). */
  | { readonly k: "rec"; readonly fields: ReadonlyMap<string, Sym>; readonly literal?: true }
  | { readonly k: "fn"; readonly node: FunctionLike }
  /** A `Set` or `Map` the program built (exec/collections.ts): its slots in insertion order. */
  | { readonly k: "coll"; readonly map: boolean; readonly slots: readonly Slot[] }
  | { readonly k: "opaque"; readonly why: string; readonly caught?: { readonly text: Sym; readonly message: Sym; readonly inexact?: true; readonly unless?: string } }
  | { readonly k: "eventClass"; readonly event: EventClassModel }
  | { readonly k: "contract"; readonly contract: ContractModel }
  | { readonly k: "rel"; readonly rel: RelationIR }
  | { readonly k: "agg"; readonly rel: RelationIR; readonly agg: { readonly k: "count" } | { readonly k: "sum"; readonly sel: Lambda } }
  | { readonly k: "spec"; readonly spec: SpecIR }
  /** A fluent of the layer, `Fluent.final`, and `Fluent.final.at(key)` (contract bodies only). */
  | { readonly k: "fluent"; readonly fluent: FluentModel; readonly final?: true }
  | { readonly k: "finalAt"; readonly fluent: FluentModel; readonly key: Sym };

/**
 * A number. `int`, when present, is an Int term equal to the value in every run (up to the sign
 * of zero, which no comparison, sum or ToString can tell), and `mag` bounds its magnitude
 * statically, never above 2^53: integer arithmetic on such terms is exact, and so is the Float64
 * arithmetic JavaScript does (integers.ts).
 */
export type NumSym =
  | { readonly k: "num"; readonly t: string; readonly c?: number; readonly int?: undefined; readonly mag?: undefined; readonly quotient?: Quotient; readonly fmag?: number }
  | { readonly k: "num"; readonly t: string; readonly c?: number; readonly int: string; readonly mag: number; readonly quotient?: undefined; readonly fmag?: undefined };

/**
 * A static bound on a number's magnitude when it is finite in every run (never NaN or ±∞): a
 * literal's, an integer's `mag`, or `fmag`, which arithmetic on bounded numbers keeps (integers.ts
 * `arithmeticBound`) so that rounding it gives an integer (builtins.ts `rounded`).
 */
export function finiteBound(v: NumSym): number | undefined {
  if (v.c !== undefined) return Number.isFinite(v.c) ? Math.abs(v.c) : undefined;
  return v.int !== undefined ? v.mag : v.fmag;
}

/**
 * The exact quotient an `a / b` stands for, when `a` is an integer of magnitude below 2^53 and
 * `b` a literal whole number (integers.ts `roundedQuotient`): `Math.floor(a / b)` is then that
 * integer division, in Int terms. Dropped by anything that builds a new value (a merge, a rename).
 */
export interface Quotient {
  readonly int: string;
  readonly mag: number;
  readonly by: number;
}

/**
 * One key a `Set`/`Map` was given, where it was added: present in the runs where `present` holds
 * (at most one present slot per key, by SameValueZero); `value` is a Map's value. `id` tells a
 * slot both paths share from one added on a single path (see `merge`).
 */
export interface Slot {
  readonly id: number;
  readonly key: Sym;
  readonly value?: Sym;
  readonly present: string;
}

/** Variable bindings, keyed by the TypeScript symbol of the declaration. */
export type Env = ReadonlyMap<TS.Symbol, Sym>;

export const str = (c: string): Sym => ({ k: "str", t: strLit(c), c });
export const num = (c: number): Sym => (Number.isInteger(c) && Math.abs(c) <= 2 ** 53 ? { k: "num", t: numLit(c), c, int: intLit(c), mag: Math.abs(c) } : { k: "num", t: numLit(c), c });
export const bool = (c: boolean): Sym => ({ k: "bool", t: String(c), c });
export const boolT = (t: string): Sym => (t === "true" ? bool(true) : t === "false" ? bool(false) : { k: "bool", t });
export const UNDEF: Sym = { k: "undef" };

/** Int term → Float64 term (exact for |n| ≤ 2^53, which string and array lengths always are). */
export const intToFp = (i: string): string => `((_ to_fp 11 53) ${RM} (to_real ${i}))`;
/** A number given by an Int term whose magnitude is at most `mag` (≤ 2^53) in every run. */
export const numFromInt = (i: string, mag: number): Sym => ({ k: "num", t: intToFp(i), int: i, mag });
/** The same number with its terms renamed (a quantified copy); `c`, `int` and `mag` kept. */
export function renameNum(v: NumSym, rename: (t: string) => string): NumSym {
  if (v.c !== undefined) return v;
  return v.int !== undefined ? { k: "num", t: rename(v.t), int: rename(v.int), mag: v.mag } : withFmag({ k: "num", t: rename(v.t) }, v.fmag);
}

/** A number without an Int term, with its finite bound when there is one. */
export function withFmag(v: { readonly k: "num"; readonly t: string; readonly quotient?: Quotient }, fmag: number | undefined): NumSym {
  return fmag === undefined ? v : { ...v, fmag };
}

/** JavaScript truthiness as a Bool term. */
export function truthy(v: Sym): string {
  switch (v.k) {
    case "bool": return v.t;
    case "str": return v.c !== undefined ? String(v.c !== "") : `(not (= ${v.t} ""))`;
    case "num": return v.c !== undefined ? String(!(v.c === 0 || Number.isNaN(v.c))) : `(not (or (fp.isZero ${v.t}) (fp.isNaN ${v.t})))`;
    case "undef": return "false";
    case "maybe": return and(v.def, truthy(v.v));
    // The executor refuses these before asking; nothing may assume an unmodelled value is truthy.
    case "opaque": if (!holeOpen("opaque-truthy")) throw new Error(`the truthiness of an unmodelled value was asked (${v.why})`); return "true";
    // Objects, arrays and functions are always truthy.
    default: return "true";
  }
}

/**
 * An equality over scalars lifted to possibly-undefined values: equal when both are undefined, or
 * both defined and equal by `eq`; `null` when neither side may be undefined.
 */
function overMaybe(a: Sym, b: Sym, eq: (a: Sym, b: Sym) => string | undefined): string | undefined | null {
  if (a.k === "maybe" && b.k === "maybe") {
    const inner = eq(a.v, b.v);
    return inner === undefined ? undefined : or(and(not(a.def), not(b.def)), and(a.def, b.def, inner));
  }
  if (a.k === "maybe" || b.k === "maybe") {
    const [m, x] = a.k === "maybe" ? [a, b] : [b as Extract<Sym, { k: "maybe" }>, a];
    if (x.k === "undef") return not(m.def);
    const inner = eq(m.v, x);
    return inner === undefined ? undefined : and(m.def, inner);
  }
  return null;
}

/** `a === b` for two scalars (JavaScript strict equality); undefined when the kinds are not comparable here. */
export function strictEquals(a: Sym, b: Sym): string | undefined {
  const lifted = overMaybe(a, b, strictEquals);
  if (lifted !== null) return lifted;
  // An unmodelled value may be undefined, null or anything else: not comparable here.
  if ((a.k === "opaque" || b.k === "opaque") && !holeOpen("opaque-truthy")) return undefined;
  if (a.k === "undef" || b.k === "undef") return String(a.k === b.k);
  if (a.k !== b.k) return a.k === "str" || a.k === "num" || a.k === "bool" ? (b.k === "str" || b.k === "num" || b.k === "bool" ? "false" : undefined) : undefined;
  if (a.k === "str" && b.k === "str") return a.c !== undefined && b.c !== undefined ? String(a.c === b.c) : `(= ${a.t} ${b.t})`;
  if (a.k === "bool" && b.k === "bool") return a.c !== undefined && b.c !== undefined ? String(a.c === b.c) : `(= ${a.t} ${b.t})`;
  if (a.k === "num" && b.k === "num") {
    if (a.c !== undefined && b.c !== undefined) return String(a.c === b.c);
    if (a.int && b.int) return `(= ${a.int} ${b.int})`;
    // An integer within 2^53 never equals a literal that has no Int term (a fraction, NaN, ±Infinity, or past 2^53).
    if ((a.int && b.c !== undefined) || (b.int && a.c !== undefined)) return "false";
    return `(fp.eq ${a.t} ${b.t})`;
  }
  return undefined;
}

/** SameValueZero (used by `Array.prototype.includes`): like === but NaN equals NaN. */
export function sameValueZero(a: Sym, b: Sym): string | undefined {
  // A possibly-undefined value keeps the NaN rule for its defined part (a red-team finding).
  const lifted = overMaybe(a, b, sameValueZero);
  if (lifted !== null) return lifted;
  const eq = strictEquals(a, b);
  if (eq !== undefined && a.k === "num" && b.k === "num") {
    if (a.c !== undefined && b.c !== undefined) return String(a.c === b.c || (Number.isNaN(a.c) && Number.isNaN(b.c)));
    return or(eq, and(`(fp.isNaN ${a.t})`, `(fp.isNaN ${b.t})`));
  }
  return eq;
}

/** `c ? a : b` over two values of the same kind; undefined when they cannot be merged. */
export function merge(c: string, a: Sym, b: Sym): Sym | undefined {
  if (c === "true") return a;
  if (c === "false") return b;
  if (a === b) return a;
  if (a.k === "str" && b.k === "str") return a.c !== undefined && a.c === b.c ? a : { k: "str", t: ite(c, a.t, b.t) };
  if (a.k === "bool" && b.k === "bool") return a.c !== undefined && a.c === b.c ? a : boolT(iteBool(c, a.t, b.t));
  if (a.k === "num" && b.k === "num") {
    if (a.c !== undefined && Object.is(a.c, b.c)) return a;
    if (a.int !== undefined && b.int !== undefined) return { k: "num", t: ite(c, a.t, b.t), int: ite(c, a.int, b.int), mag: Math.max(a.mag, b.mag) };
    const ba = finiteBound(a), bb = finiteBound(b);
    return withFmag({ k: "num", t: ite(c, a.t, b.t) }, ba !== undefined && bb !== undefined ? Math.max(ba, bb) : undefined);
  }
  if (a.k === "undef" && b.k === "undef") return a;
  // Merging with undefined gives an optional value.
  const defined = (x: Sym): { def: string; v: Sym } | undefined => (x.k === "maybe" ? { def: x.def, v: x.v } : x.k === "undef" ? undefined : { def: "true", v: x });
  if (a.k === "undef" || b.k === "undef" || a.k === "maybe" || b.k === "maybe") {
    const da = defined(a), db = defined(b);
    if (!da && !db) return UNDEF;
    const v = da && db ? merge(c, da.v, db.v) : (da ?? db)!.v;
    if (!v) return undefined;
    return { k: "maybe", def: ite(c, da?.def ?? "false", db?.def ?? "false"), v };
  }
  if (a.k === "arr" && b.k === "arr" && a.items.length === b.items.length) {
    const items: Sym[] = [];
    for (let i = 0; i < a.items.length; i++) {
      const m = merge(c, a.items[i]!, b.items[i]!);
      if (!m) return undefined;
      items.push(m);
    }
    return { k: "arr", items };
  }
  if ((a.k === "arr" || b.k === "arr") && (a.k === "arr" || a.k === "sarr") && (b.k === "arr" || b.k === "sarr")) return mergeLengths(c, a, b);
  if (a.k === "sarr" && b.k === "sarr" && JSON.stringify(a.elem) === JSON.stringify(b.elem)) {
    // `c ? xs : ys` over two symbolic arrays of one element type: the length and every element
    // chosen by c (elements past the chosen array's length are never read: loops stay below it).
    const at = (i: string): Sym => {
      const m = merge(c, a.at(i), b.at(i));
      if (!m) throw new Error("elements of one type did not merge");
      return m;
    };
    return { k: "sarr", len: ite(c, a.len, b.len), at, elem: a.elem, label: a.label, ...(a.bound !== undefined && b.bound !== undefined ? { bound: Math.max(a.bound, b.bound) } : {}) };
  }
  if (a.k === "coll" && b.k === "coll" && a.map === b.map) return mergeCollections(c, a, b);
  if (a.k === "rec" && b.k === "rec") {
    const fields = new Map<string, Sym>();
    for (const [name, av] of a.fields) {
      const bv = b.fields.get(name);
      const m = bv && merge(c, av, bv);
      if (!m) return undefined;
      fields.set(name, m);
    }
    if (fields.size !== b.fields.size) return undefined;
    // Literal objects keep their key order (`Object.keys` shows it): merged, only when both agree.
    const sameOrder = [...a.fields.keys()].every((k, i) => [...b.fields.keys()][i] === k);
    return { k: "rec", fields, ...(a.literal && b.literal && sameOrder ? { literal: true as const } : {}) };
  }
  return undefined;
}

/**
 * `c ? a : b` over two collections: the slots both paths share (a common prefix: slots are only
 * ever appended) with their presence and values chosen by c, then each path's own slots, present
 * only on that path (their relative order never matters: no run sees both).
 */
function mergeCollections(c: string, a: Extract<Sym, { k: "coll" }>, b: Extract<Sym, { k: "coll" }>): Sym | undefined {
  let n = 0;
  while (n < a.slots.length && n < b.slots.length && a.slots[n]!.id === b.slots[n]!.id) n++;
  const slots: Slot[] = [];
  for (let i = 0; i < n; i++) {
    const sa = a.slots[i]!, sb = b.slots[i]!;
    let value: Sym | undefined;
    if (sa.value && sb.value) {
      value = merge(c, sa.value, sb.value);
      if (!value) return undefined;
    }
    slots.push({ id: sa.id, key: sa.key, present: sa.present === sb.present ? sa.present : iteBool(c, sa.present, sb.present), ...(value ? { value } : {}) });
  }
  for (const s of a.slots.slice(n)) slots.push({ ...s, present: and(c, s.present) });
  for (const s of b.slots.slice(n)) slots.push({ ...s, present: and(not(c), s.present) });
  return { k: "coll", map: a.map, slots: slots.filter((s) => s.present !== "false") };
}

type ArrSym = Extract<Sym, { k: "arr" } | { k: "sarr" }>;

/** The element type of a stored value, when it has one an array of unknown length can hold. */
function elemTypeOfValue(v: Sym): ValueType | undefined {
  switch (v.k) {
    case "str": return { kind: "string" };
    case "num": return { kind: "number" };
    case "bool": return { kind: "boolean" };
    case "rec": {
      const fields: { name: string; type: ValueType }[] = [];
      for (const [name, f] of v.fields) {
        const type = elemTypeOfValue(f);
        if (!type) return undefined;
        fields.push({ name, type });
      }
      return { kind: "record", name: "built", fields };
    }
    default: return undefined;
  }
}

/**
 * `c ? a : b` where a literal array meets an array of another length (an array the program built
 * differently on two paths): an array of unknown length, bounded when both are, whose element i
 * is chosen by c. An element past one side's length is never read on that side (every read is
 * guarded by the length), so it is taken from the other side, or from the longer side's last.
 */
function mergeLengths(c: string, a: ArrSym, b: ArrSym): Sym | undefined {
  const sample = (x: ArrSym): Sym | undefined => (x.k === "arr" ? x.items[x.items.length - 1] : x.at("0"));
  const sa = sample(a), sb = sample(b);
  if (sa && sb && !merge(c, sa, sb)) return undefined;
  // Every element of a literal side must be storable and of the one kind (checked here, not when read).
  for (const x of [a, b]) {
    if (x.k === "arr" && x.items.some((item) => !elemTypeOfValue(item) || !merge(c, item, (sa ?? sb)!))) return undefined;
  }
  const elem = a.k === "sarr" ? a.elem : b.k === "sarr" ? b.elem : elemTypeOfValue((sa ?? sb)!);
  if (!elem) return undefined;
  const filler = (sa ?? sb)!;
  const lenOf = (x: ArrSym): string => (x.k === "arr" ? String(x.items.length) : x.len);
  const boundOf = (x: ArrSym): number | undefined => (x.k === "arr" ? x.items.length : x.bound);
  /** Element i of one side, or undefined where that side has none to offer (never read there). */
  const read = (x: ArrSym, i: string): Sym | undefined => {
    if (x.k === "sarr") return x.at(i);
    if (/^\d+$/.test(i)) return x.items[Number(i)];
    if (x.items.length === 0) return undefined;
    let acc = x.items[x.items.length - 1]!;
    for (let j = x.items.length - 2; j >= 0; j--) {
      const m = merge(`(= ${i} ${j})`, x.items[j]!, acc);
      if (!m) throw new Error("elements of one literal array did not merge");
      acc = m;
    }
    return acc;
  };
  const seen = new Map<string, Sym>();
  const at = (i: string): Sym => {
    const known = seen.get(i);
    if (known) return known;
    const ra = read(a, i), rb = read(b, i);
    const v = ra && rb ? merge(c, ra, rb) : ra ?? rb ?? filler;
    if (!v) throw new Error("elements of one type did not merge");
    seen.set(i, v);
    return v;
  };
  const ba = boundOf(a), bb = boundOf(b);
  return { k: "sarr", len: ite(c, lenOf(a), lenOf(b)), at, elem, label: a.k === "sarr" ? a.label : b.k === "sarr" ? b.label : "built", ...(ba !== undefined && bb !== undefined ? { bound: Math.max(ba, bb) } : {}) };
}

/**
 * The same comparison over an Int term: a bound that is not an integer is replaced by the integer
 * bound it is equivalent to for integers (x ≤ 2.5 ⇔ x ≤ 2), so the query stays in integer
 * arithmetic (mixing in reals makes the solver's work far larger).
 */
export function compareInt(x: string, op: Comparison, bounds: readonly number[]): string {
  const lit = (n: number): string => (n < 0 ? `(- ${BigInt(-n)})` : String(BigInt(n)));
  const cmp = (rel: "<=" | ">=" | "<" | ">" | "=", n: number): string => {
    if (Number.isNaN(n)) return "false";
    if (n === Infinity) return rel === "<=" || rel === "<" ? "true" : "false";
    if (n === -Infinity) return rel === ">=" || rel === ">" ? "true" : "false";
    if (Number.isInteger(n)) return `(${rel} ${x} ${lit(n)})`;
    if (rel === "=") return "false";
    return rel === "<=" || rel === "<" ? `(<= ${x} ${lit(Math.floor(n))})` : `(>= ${x} ${lit(Math.ceil(n))})`;
  };
  switch (op) {
    case "atMost": return cmp("<=", bounds[0]!);
    case "atLeast": return cmp(">=", bounds[0]!);
    case "lessThan": return cmp("<", bounds[0]!);
    case "greaterThan": return cmp(">", bounds[0]!);
    case "equals": return cmp("=", bounds[0]!);
    case "between": return and(cmp(">=", bounds[0]!), cmp("<=", bounds[1]!));
  }
}

/** The same comparison over a Float64 term (JavaScript semantics: NaN compares false). */
export function compareFloat(x: string, op: Comparison, bounds: readonly number[]): string {
  const b = bounds.map(numLit);
  switch (op) {
    case "atMost": return `(fp.leq ${x} ${b[0]})`;
    case "atLeast": return `(fp.geq ${x} ${b[0]})`;
    case "lessThan": return `(fp.lt ${x} ${b[0]})`;
    case "greaterThan": return `(fp.gt ${x} ${b[0]})`;
    case "equals": return `(fp.eq ${x} ${b[0]})`;
    case "between": return `(and (fp.geq ${x} ${b[0]}) (fp.leq ${x} ${b[1]}))`;
  }
}

export { and, or, not, ite, FLOAT64 };
