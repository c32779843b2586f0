/**
 * Strings for interval reasoning (intervals.ts): what is known of a string term is the range of its
 * length and its text where literals fix it (a known prefix and suffix, or the whole text).
 *
 * Exact for what it answers, like the ranges: each fact over-approximates the term's values.
 * - Length: a literal's is exact (a quote written twice and a `\u` escape are one character;
 *   another escape, which Z3 may read as one character or as its text, is between one and its
 *   text's length), a join's is the sum, a branch's the join, a number's digits at least one for a
 *   number at least 0, a piece at most the whole.
 * - Text: a literal whose characters are all known (no escape but `\u`, no surrogate pair) is its
 *   text; a join keeps the prefix up to its first part not known whole, and the suffix likewise
 *   from the end; a branch keeps what both branches share. `(str.prefixof "https://" s)` asserted
 *   gives s that prefix for the other conjuncts, `(= s t)` gives s what t has.
 * - Alphabet: the characters a term's text can hold, where its parts say (a literal's own, a
 *   number's digits, a join's or a branch's union, a piece's or a replacement's those of its
 *   operands); a declared string can hold any. A text whose known part has a character the other
 *   side cannot hold is not equal to it, not its prefix or suffix and not contained in it
 *   (`"samples=" + digits` never contains `"token="`).
 * - Equality, prefix, suffix and containment are decided only when the known texts or alphabets
 *   decide them (or lengths cannot fit); otherwise unknown.
 */
import { ANY_LENGTH, exactInt, literalLength, narrowInt, sameValue, widen, type IntRange, type TextValue, type Truth, type Value } from "./ranges";
import { isStringLiteral, readLiteral, type SExpr } from "./sexpr";
import { INTS, LENGTHS, type Env, type Kind, type Sort } from "./interval-terms";

/** What strings need of the evaluator. */
export interface StringHost {
  step(): void;
  narrowable(e: SExpr): string | undefined;
  memoised(key: string, env: Env, compute: () => Value | Truth): Value | Truth;
  definition(name: string): { readonly body: SExpr; readonly sort: Sort } | undefined;
  intOf(e: SExpr, env: Env): IntRange;
  either<R extends IntRange>(ite: readonly SExpr[], env: Env, kind: Kind<R>): R;
  truth(e: SExpr, env: Env): Truth;
  branches(condition: SExpr, env: Env): readonly [Env | "empty", Env | "empty"];
}

/** A string's known text: a prefix and a suffix, which are the whole text when `exact`. */
export interface Text {
  readonly prefix: string;
  readonly suffix: string;
  readonly exact: boolean;
}

const UNKNOWN: Text = { prefix: "", suffix: "", exact: false };

/** The characters (UTF-16 code units) a text may hold; `undefined`: any. */
type Alphabet = ReadonlySet<string> | undefined;
const DIGITS: Alphabet = new Set("0123456789");

export class Strings {
  /** Definitions' alphabets (they do not depend on what a conjunction narrowed). */
  private readonly alphabets = new Map<string, Alphabet>();

  constructor(private readonly host: StringHost) {}

  // ─────────────── lengths ───────────────

  /** The range of a string term's length (in characters, as `str.len` counts them). */
  length(e: SExpr, env: Env): IntRange {
    this.host.step();
    if (isStringLiteral(e)) return literalLength(e);
    // What a conjunction narrowed the length and the text to, met with what the term's definition gives.
    let range = this.computedLength(e, env);
    const key = this.host.narrowable(e);
    if (key === undefined) return range;
    const length = env.get(`(str.len ${key})`);
    if (length?.k === "int") range = INTS.meet(length, range);
    const text = env.get(`(text ${key})`);
    if (text?.k === "text") range = INTS.meet(range, widen(Math.max(text.prefix.length, text.suffix.length), text.exact ? text.prefix.length : Infinity));
    return range;
  }

  private computedLength(e: SExpr, env: Env): IntRange {
    const host = this.host;
    if (typeof e === "string") {
      const d = host.definition(e);
      return d?.sort === "string" ? (host.memoised(`(str.len ${e})`, env, () => this.length(d.body, env)) as IntRange) : ANY_LENGTH;
    }
    const [op, ...args] = e;
    switch (op) {
      case "str.++": return args.map((a) => this.length(a, env)).reduce((x, y) => widen(x.lo + y.lo, x.hi + y.hi), exactInt(0));
      case "ite": return args.length === 3 ? host.either(args, env, LENGTHS) : ANY_LENGTH;
      // At most as long as the string and as the count asked for.
      case "str.substr": return args.length === 3 ? widen(0, Math.max(0, Math.min(this.length(args[0]!, env).hi, host.intOf(args[2]!, env).hi))) : ANY_LENGTH;
      case "str.at": case "str.from_code": return widen(0, 1);
      case "str.from_int": {
        // "" for a negative number, else its digits.
        if (args.length !== 1) return ANY_LENGTH;
        const n = host.intOf(args[0]!, env);
        if (n.hi < 0) return exactInt(0);
        return widen(n.lo >= 0 ? 1 : 0, Number.isFinite(n.hi) ? String(n.hi).length : Infinity);
      }
      // The string itself, or one occurrence of the pattern (at most the whole string) replaced.
      case "str.replace": {
        if (args.length !== 3) return ANY_LENGTH;
        const [s, by] = [this.length(args[0]!, env), this.length(args[2]!, env)];
        return widen(Math.min(s.lo, by.lo), s.hi + by.hi);
      }
      default: return ANY_LENGTH;
    }
  }

  // ─────────────── texts ───────────────

  /** What is known of a string term's text. */
  text(e: SExpr, env: Env): Text {
    this.host.step();
    if (isStringLiteral(e)) return literalText(e);
    const computed = this.computedText(e, env);
    const key = this.host.narrowable(e);
    const narrowed = key === undefined ? undefined : env.get(`(text ${key})`);
    if (narrowed?.k !== "text") return computed;
    // Both hold of the term; facts that cannot both hold leave a case that never happens, where either is sound.
    return meetTexts(narrowed, computed) ?? narrowed;
  }

  private computedText(e: SExpr, env: Env): Text {
    const host = this.host;
    if (typeof e === "string") {
      const d = host.definition(e);
      return d?.sort === "string" ? (host.memoised(`(text ${e})`, env, () => asValue(this.text(d.body, env))) as TextValue) : UNKNOWN;
    }
    const [op, ...args] = e;
    if (op === "str.++" && args.length > 0) return args.map((a) => this.text(a, env)).reduce(join);
    if (op === "ite" && args.length === 3) {
      const [condition, then, otherwise] = args as [SExpr, SExpr, SExpr];
      const c = host.truth(condition, env);
      if (c !== undefined) return this.text(c ? then : otherwise, env);
      const [yes, no] = host.branches(condition, env);
      if (yes === "empty") return no === "empty" ? UNKNOWN : this.text(otherwise, no);
      if (no === "empty") return this.text(then, yes);
      return common(this.text(then, yes), this.text(otherwise, no));
    }
    return UNKNOWN;
  }

  // ─────────────── alphabets ───────────────

  /**
   * The characters a string term's text may hold (an over-approximation; `undefined`: any). An
   * `ite` whose condition the ranges decide holds only its branch's (a number's text has a minus
   * sign only where the number may be negative); a definition's alphabet is read without them.
   */
  alphabet(e: SExpr, env?: Env): Alphabet {
    this.host.step();
    if (isStringLiteral(e)) {
      const t = literalText(e);
      return t.exact ? new Set(units(t.prefix)) : undefined;
    }
    if (typeof e === "string") {
      const d = this.host.definition(e);
      if (d?.sort !== "string") return undefined;
      if (!this.alphabets.has(e)) this.alphabets.set(e, this.alphabet(d.body));
      return this.alphabets.get(e);
    }
    const [op, ...args] = e;
    switch (op) {
      case "str.++": return args.length > 0 ? union(args.map((a) => this.alphabet(a, env))) : undefined;
      case "ite": {
        if (args.length !== 3) return undefined;
        const c = env === undefined ? undefined : this.host.truth(args[0]!, env);
        return c === true ? this.alphabet(args[1]!, env) : c === false ? this.alphabet(args[2]!, env) : union([this.alphabet(args[1]!, env), this.alphabet(args[2]!, env)]);
      }
      // A piece of a string holds only its characters.
      case "str.substr": case "str.at": return args.length >= 1 ? this.alphabet(args[0]!, env) : undefined;
      // Digits, or nothing for a negative number.
      case "str.from_int": return args.length === 1 ? DIGITS : undefined;
      // The string's characters and the replacement's.
      case "str.replace": case "str.replace_all": return args.length === 3 ? union([this.alphabet(args[0]!, env), this.alphabet(args[2]!, env)]) : undefined;
      default: return undefined;
    }
  }

  /** Whether a text known in part (`known`) can be (part of) a text of alphabet `of`. */
  private fitsAlphabet(known: Text, of: SExpr, env: Env): boolean {
    if (known.prefix === "" && known.suffix === "") return true;
    const alphabet = this.alphabet(of, env);
    if (alphabet === undefined) return true;
    for (const c of units(known.prefix + known.suffix)) if (!alphabet.has(c)) return false;
    return true;
  }

  // ─────────────── predicates ───────────────

  /** `(= a b)` over strings. */
  equal(a: SExpr, b: SExpr, env: Env): Truth {
    if (disjoint(this.length(a, env), this.length(b, env))) return false;
    const [x, y] = [this.text(a, env), this.text(b, env)];
    if (x.exact && y.exact) return x.prefix === y.prefix;
    if (!this.fitsAlphabet(x, b, env) || !this.fitsAlphabet(y, a, env)) return false;
    return fits(START, x.prefix, y.prefix) && fits(END, x.suffix, y.suffix) ? undefined : false;
  }

  /** `(str.prefixof a b)` at START, `(str.suffixof a b)` at END: b starts (ends) with a. */
  at(end: End, a: SExpr, b: SExpr, env: Env): Truth {
    if (this.length(a, env).lo > this.length(b, env).hi) return false;
    const [x, y] = [this.text(a, env), this.text(b, env)];
    if (x.exact && end.holds(end.part(y), end.part(x))) return true;
    if (x.exact && y.exact) return false;
    // Every character of a is one of b's.
    if (!this.fitsAlphabet(x, b, env)) return false;
    // b has a there, and a has its known part there: b's known part there must agree with it.
    return fits(end, end.part(x), end.part(y)) ? undefined : false;
  }

  /** `(str.contains s t)`: t occurs in s. */
  contains(s: SExpr, t: SExpr, env: Env): Truth {
    if (this.length(t, env).lo > this.length(s, env).hi) return false;
    const [x, y] = [this.text(s, env), this.text(t, env)];
    if (y.exact && (x.prefix.includes(y.prefix) || x.suffix.includes(y.prefix))) return true;
    // All of s known: t, and so its known prefix and suffix, must occur in it.
    if (x.exact) return y.exact || !x.prefix.includes(y.prefix) || !x.prefix.includes(y.suffix) ? false : undefined;
    // Every character of t is one of s's.
    if (!this.fitsAlphabet(y, s, env)) return false;
    return undefined;
  }

  // ─────────────── narrowing ───────────────

  /**
   * What a conjunct of strings says of its narrowable sides, into `ranges`: `(= s t)` gives s t's
   * length and text, `(not (= s ""))` a length of at least one, `(str.prefixof p s)` and
   * `(str.suffixof p s)` p's text at s's start or end. "empty" when it cannot hold.
   */
  narrow(op: string, a: SExpr, b: SExpr, negated: boolean, env: Env, ranges: Map<string, Value>): boolean | "empty" {
    let changed = false;
    const set = (key: string, next: Value | "empty", current: Value): boolean | "empty" => {
      if (next === "empty") return "empty";
      if (sameValue(next, current)) return false;
      ranges.set(key, next);
      return (changed = true);
    };
    if (op === "=") {
      for (const [term, other] of [[a, b], [b, a]] as const) {
        const key = this.host.narrowable(term);
        if (key === undefined || (negated && other !== '""')) continue;
        const length = this.length(term, env);
        if (set(`(str.len ${key})`, negated ? narrowInt(length, ">=", exactInt(1)) : narrowInt(length, "=", this.length(other, env)), length) === "empty") return "empty";
        if (negated) continue;
        const text = this.text(term, env);
        if (set(`(text ${key})`, asValue(meetTexts(text, this.text(other, env)) ?? "empty"), asValue(text)) === "empty") return "empty";
      }
    } else if ((op === "str.prefixof" || op === "str.suffixof") && !negated) {
      const key = this.host.narrowable(b);
      const part = this.text(a, env);
      if (key !== undefined && part.exact) {
        const text = this.text(b, env);
        const known: Text = op === "str.prefixof" ? { prefix: part.prefix, suffix: "", exact: false } : { prefix: "", suffix: part.suffix, exact: false };
        if (set(`(text ${key})`, asValue(meetTexts(text, known) ?? "empty"), asValue(text)) === "empty") return "empty";
      }
    }
    return changed;
  }
}

/** A literal's text: known when Z3's reading of every character is certain (sexpr.ts `readLiteral`) and none is half of a surrogate pair. */
function literalText(lit: string): Text {
  const text = readLiteral(lit);
  if (text === undefined || [...text].length !== text.length) return UNKNOWN;
  return { prefix: text, suffix: text, exact: true };
}

/** A string's start or its end: the part of a text known there, and whether a string has another there. */
export interface End {
  part(t: Text): string;
  holds(s: string, part: string): boolean;
}
export const START: End = { part: (t) => t.prefix, holds: (s, p) => s.startsWith(p) };
export const END: End = { part: (t) => t.suffix, holds: (s, p) => s.endsWith(p) };

/** Whether one string has the other at `end`: texts that both start (end) one string must. */
const fits = (end: End, x: string, y: string): boolean => end.holds(x, y) || end.holds(y, x);
const disjoint = (a: IntRange, b: IntRange): boolean => a.lo > b.hi || b.lo > a.hi;

/** The text of `a` followed by `b`. */
function join(a: Text, b: Text): Text {
  return {
    prefix: a.exact ? a.prefix + b.prefix : a.prefix,
    suffix: b.exact ? a.suffix + b.suffix : b.suffix,
    exact: a.exact && b.exact,
  };
}

/** A text's UTF-16 code units, Z3's characters under `:encoding bmp` (a surrogate pair is two). */
const units = (text: string): string[] => text.split("");

/** The characters any of the alphabets may hold. */
function union(alphabets: readonly Alphabet[]): Alphabet {
  const all = new Set<string>();
  for (const a of alphabets) {
    if (a === undefined) return undefined;
    for (const c of a) all.add(c);
  }
  return all;
}

/** What two branches' texts share. */
function common(a: Text, b: Text): Text {
  if (a.exact && b.exact && a.prefix === b.prefix) return a;
  let p = 0;
  while (p < a.prefix.length && p < b.prefix.length && a.prefix[p] === b.prefix[p]) p++;
  let s = 0;
  while (s < a.suffix.length && s < b.suffix.length && a.suffix[a.suffix.length - 1 - s] === b.suffix[b.suffix.length - 1 - s]) s++;
  return { prefix: a.prefix.slice(0, p), suffix: a.suffix.slice(a.suffix.length - s), exact: false };
}

/** Both facts at once; undefined when no string has both. */
function meetTexts(a: Text, b: Text): Text | undefined {
  if (!fits(START, a.prefix, b.prefix) || !fits(END, a.suffix, b.suffix)) return undefined;
  if (a.exact || b.exact) {
    const [whole, other] = a.exact ? [a, b] : [b, a];
    if (other.exact && other.prefix !== whole.prefix) return undefined;
    return whole.prefix.startsWith(other.prefix) && whole.prefix.endsWith(other.suffix) ? whole : undefined;
  }
  return {
    prefix: a.prefix.length >= b.prefix.length ? a.prefix : b.prefix,
    suffix: a.suffix.length >= b.suffix.length ? a.suffix : b.suffix,
    exact: false,
  };
}

function asValue(t: Text): TextValue;
function asValue(t: Text | "empty"): TextValue | "empty";
function asValue(t: Text | "empty"): TextValue | "empty" {
  return t === "empty" ? t : { k: "text", prefix: t.prefix, suffix: t.suffix, exact: t.exact };
}

