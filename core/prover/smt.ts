/**
 * SMT-LIB text helpers. Terms are strings; sorts are Float64 for `number` (JavaScript's double),
 * String restricted to 16-bit characters for `string` (JavaScript's UTF-16 code units), Bool, Int.
 */

import { holeOpen } from "./holes";
import { parseSExprs, printSExpr, type SExpr } from "./sexpr";

export const FLOAT64 = "(_ FloatingPoint 11 53)";
export const RM = "RNE";

/** An SMT-LIB string literal holding exactly these UTF-16 code units. */
export function strLit(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) out += s[i];
    else out += `\\u{${c.toString(16)}}`;
  }
  return out + '"';
}

const view = new DataView(new ArrayBuffer(8));

/** An exact Float64 literal for a JavaScript number (NaN, ±0 and ±Infinity included). */
export function numLit(n: number): string {
  if (Number.isNaN(n)) return "(_ NaN 11 53)";
  if (n === Infinity) return "(_ +oo 11 53)";
  if (n === -Infinity) return "(_ -oo 11 53)";
  if (n === 0) return Object.is(n, -0) ? "(_ -zero 11 53)" : "(_ +zero 11 53)";
  view.setFloat64(0, n);
  const bits = view.getBigUint64(0);
  const sign = (bits >> 63n).toString(2);
  const exponent = ((bits >> 52n) & 0x7ffn).toString(2).padStart(11, "0");
  const significand = (bits & 0xfffffffffffffn).toString(2).padStart(52, "0");
  return `(fp #b${sign} #b${exponent} #b${significand})`;
}

/** Decode a 64-bit IEEE pattern (from `fp.to_ieee_bv`) to a JavaScript number. */
export function numFromBits(bits: bigint): number {
  view.setBigUint64(0, bits);
  return view.getFloat64(0);
}

/** Int literal (SMT-LIB has no negative literals). */
export function intLit(n: number): string {
  return n < 0 ? `(- ${-n})` : String(n);
}

/** Real literal for a finite JavaScript number, exact (decimal expansion of the double). */
export function realLit(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not finite: ${n}`);
  const neg = n < 0 || Object.is(n, -0);
  const abs = Math.abs(n);
  // Exact rational: mantissa * 2^exp.
  view.setFloat64(0, abs);
  const bits = view.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & 0xfffffffffffffn;
  let exp: number;
  if (e === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = e - 1075;
  }
  let num: bigint;
  let den = 1n;
  if (exp >= 0) num = mant << BigInt(exp);
  else {
    num = mant;
    den = 1n << BigInt(-exp);
  }
  const body = den === 1n ? `${num}.0` : `(/ ${num}.0 ${den}.0)`;
  return neg && abs !== 0 ? `(- ${body})` : body;
}

export const and = (...xs: string[]): string => {
  const ys = xs.filter((x) => x !== "true");
  if (ys.includes("false")) return "false";
  return ys.length === 0 ? "true" : ys.length === 1 ? ys[0]! : `(and ${ys.join(" ")})`;
};
export const or = (...xs: string[]): string => {
  const ys = xs.filter((x) => x !== "false");
  if (ys.includes("true")) return "true";
  return ys.length === 0 ? "false" : ys.length === 1 ? ys[0]! : `(or ${ys.join(" ")})`;
};
export const not = (x: string): string => (x === "true" ? "false" : x === "false" ? "true" : x.startsWith("(not ") ? x.slice(5, -1) : `(not ${x})`);
export const ite = (c: string, a: string, b: string): string => (c === "true" ? a : c === "false" ? b : a === b ? a : `(ite ${c} ${a} ${b})`);
/** `c ? a : b` over Booleans, as a connective when it is one: `a && b` evaluates to `ite(a, b, a)`, and repeating `a` in every `&&` of a chain doubles the text each time. */
export const iteBool = (c: string, a: string, b: string): string => {
  if (c === "true" || c === "false" || a === b) return ite(c, a, b);
  if (b === c || b === "false") return and(c, a);
  if (a === c || a === "true") return or(c, b);
  if (a === "false") return and(not(c), b);
  if (b === "true") return or(not(c), a);
  return `(ite ${c} ${a} ${b})`;
};
export const implies = (a: string, b: string): string => (a === "true" ? b : b === "true" || a === "false" ? "true" : `(=> ${a} ${b})`);

/**
 * Replace whole SMT symbols (used to rename loop indices for "another iteration"). Renames atoms
 * of the parsed term, never text: a string literal that happens to spell a generated name
 * (`"i!3"`) keeps its meaning.
 */
export function renameSymbols(term: string, renames: ReadonlyMap<string, string>): string {
  if (renames.size === 0) return term;
  if (holeOpen("rename-in-literals")) return term.replace(/[A-Za-z_!$.][\w!$.]*/g, (sym) => renames.get(sym) ?? sym);
  const rename = (e: SExpr): SExpr => (Array.isArray(e) ? e.map(rename) : e.startsWith('"') ? e : renames.get(e) ?? e);
  return parseSExprs(term).map((e) => printSExpr(rename(e))).join(" ");
}

/** The top-level arguments of an `(and …)` term (the term itself when it is not one). */
function conjuncts(term: string): string[] {
  if (!term.startsWith("(and ")) return [term];
  const [parsed] = parseSExprs(term);
  return Array.isArray(parsed) && parsed[0] === "and" ? parsed.slice(1).map(printSExpr) : [term];
}

/** A term `nameTerm` named (exec/state.ts): `(define-fun name ((p Int) …) Bool body)`. */
export interface NamedTerm {
  readonly params: readonly string[];
  readonly body: string;
}
export type NamedTerms = ReadonlyMap<string, NamedTerm>;

const parsedBodies = new WeakMap<NamedTerm, SExpr | undefined>();
function parsedBody(def: NamedTerm): SExpr | undefined {
  if (!parsedBodies.has(def)) parsedBodies.set(def, parseSExprs(def.body)[0]);
  return parsedBodies.get(def);
}

/**
 * Whether `term` implies what `holds` accepts of a part of it, by its shape alone: through `and`
 * (one part), `or` (every part), `not` (pushed inward: `holds` is asked of `(not p)` as `p`,
 * negated) and the terms `nameTerm` named (a long path condition is named after each step:
 * `(and pc!6 (< 10 len))`), read through their bodies with their loop indices' arguments in place
 * of their parameters. Sound, not complete: a `false` says nothing.
 */
function impliedByShape(term: SExpr, holds: (part: SExpr, negated: boolean) => boolean, named: NamedTerms | undefined): boolean {
  const memo = new Map<string, boolean>();
  const walk = (t: SExpr, negated: boolean, depth: number): boolean => {
    if (Array.isArray(t) && t[0] === "not" && t.length === 2) return walk(t[1]!, !negated, depth);
    if (Array.isArray(t) && (t[0] === "and" || t[0] === "or")) {
      const parts = t.slice(1);
      return (t[0] === "and") !== negated ? parts.some((c) => walk(c, negated, depth)) : parts.length > 0 && parts.every((c) => walk(c, negated, depth));
    }
    const head = typeof t === "string" ? t : typeof t[0] === "string" ? t[0] : undefined;
    const def = named !== undefined && head !== undefined && depth < 256 ? named.get(head) : undefined;
    const args = typeof t === "string" ? [] : t.slice(1);
    const body = def && def.params.length === args.length ? parsedBody(def) : undefined;
    if (def && body !== undefined) {
      const key = `${negated}${printSExpr(t)}`;
      if (!memo.has(key)) {
        const at = new Map(def.params.map((p, i) => [p, args[i]!] as const));
        const subst = (e: SExpr): SExpr => (Array.isArray(e) ? e.map(subst) : at.get(e) ?? e);
        memo.set(key, walk(subst(body), negated, depth + 1));
      }
      return memo.get(key)!;
    }
    return holds(t, negated);
  };
  return walk(term, false, 0);
}

/**
 * Whether `pc` implies `c` by its shape (see `impliedByShape`): `c` is a conjunct of it, or of each of its
 * disjuncts. A syntactic test, for what the executor can see without the solver (a loop's test
 * `xs.length > 0` in the condition of the path that reads `xs.shift()`).
 */
export function hasConjunct(pc: string, c: string, named?: NamedTerms): boolean {
  if (pc === c) return true;
  const [want] = parseSExprs(c);
  const key = want === undefined ? c : printSExpr(want);
  const [parsed] = parseSExprs(pc);
  return parsed !== undefined && impliedByShape(parsed, (t, negated) => printSExpr(negated ? ["not", t] : t) === key, named);
}

/**
 * Whether `pc` rules out `t = 0` by its shape (see `impliedByShape`): `t` compared with an integer literal
 * (`(not (= t 0))`, `(> t 0)`, `(>= t 1)`, `(= t 3)`, either side) as a conjunct. A syntactic test,
 * like `hasConjunct`: `if (xs.length === 0) return;` leaves `(not (= len 0))`.
 */
export function excludesZero(pc: string, t: string, named?: NamedTerms): boolean {
  const [want] = parseSExprs(t);
  if (want === undefined) return false;
  const key = printSExpr(want);
  const literal = (e: SExpr | undefined): number | undefined => {
    if (typeof e === "string" && /^\d+$/.test(e)) return Number(e);
    if (Array.isArray(e) && e.length === 2 && e[0] === "-" && typeof e[1] === "string" && /^\d+$/.test(e[1])) return -Number(e[1]);
    return undefined;
  };
  // `t rel k` excludes 0 when `0 rel k` is false (true, under a `not`).
  const holdsAtZero: Record<string, (k: number) => boolean> = { "=": (k) => 0 === k, ">": (k) => 0 > k, ">=": (k) => 0 >= k, "<": (k) => 0 < k, "<=": (k) => 0 <= k };
  const flip: Record<string, string> = { "=": "=", ">": "<", ">=": "<=", "<": ">", "<=": ">=" };
  const excludes = (e: SExpr, negated: boolean): boolean => {
    if (!Array.isArray(e) || e.length !== 3 || typeof e[0] !== "string" || !(e[0] in holdsAtZero)) return false;
    const [rel, x, y] = e as [string, SExpr, SExpr];
    const side = printSExpr(x) === key ? { rel, k: literal(y) } : printSExpr(y) === key ? { rel: flip[rel]!, k: literal(x) } : undefined;
    if (side?.k === undefined) return false;
    return holdsAtZero[side.rel]!(side.k) === negated;
  };
  const [parsed] = parseSExprs(pc);
  return parsed !== undefined && impliedByShape(parsed, excludes, named);
}

/** The ways to read a path condition as `rest ∧ last`. */
function splits(pc: string): { rest: string; last: string }[] {
  const parts = conjuncts(pc);
  const out = [{ rest: "true", last: pc }];
  if (parts.length >= 2) out.push({ rest: and(...parts.slice(0, -1)), last: parts[parts.length - 1]! });
  return out;
}

/**
 * The disjunction of the path conditions of paths that meet again (the end of a loop iteration
 * reached normally and by `continue`), with the splits of `if` undone where they meet:
 * `(X ∧ c) ∨ (X ∧ ¬c)` is `X`. The result is equivalent to `or(...pcs)`, only shorter, so that an
 * iteration with a `continue` is recognised as one that always reaches its end.
 */
export function rejoin(pcs: readonly string[]): string {
  const live = [...new Set(pcs)].filter((p) => p !== "false");
  for (let merged = true; merged && live.length > 1; ) {
    merged = false;
    search: for (let i = 0; i < live.length; i++) {
      for (let j = i + 1; j < live.length; j++) {
        for (const a of splits(live[i]!)) {
          for (const b of splits(live[j]!)) {
            if (a.rest === b.rest && (not(a.last) === b.last || not(b.last) === a.last)) {
              live.splice(j, 1);
              live.splice(i, 1, a.rest);
              merged = true;
              break search;
            }
          }
        }
      }
    }
  }
  return or(...[...new Set(live)]);
}
