/**
 * Query analysis and exact reformulations, used by `Z3Session` to pick solver configurations.
 *
 * - `regexFormulation` rewrites string predicates with literal patterns into regular-expression
 *   membership (`str.contains x "a/b"` → `x ∈ Σ*a/bΣ*`), distributes them over concatenations with
 *   literal parts (`"data/" ++ x`), turns comparisons of `str.len x` with numerals into
 *   memberships, and merges the memberships of one term under one Boolean connective into one
 *   membership (`¬(x ∈ R1) ∧ x ∈ R2` → `x ∈ comp(R1) ∩ R2`). Every step is an equivalence (same
 *   free symbols, same models), so an answer about the reformulated query is an answer about the
 *   original one. Z3's sequence solver decides one membership in a Boolean combination of
 *   regular expressions by derivatives, which is often far cheaper than its word-equation
 *   reasoning about `str.contains`, `str.prefixof` and lengths — and sometimes far dearer, which
 *   is why `Z3Session` alternates between both formulations.
 */
import { endOfQuoted, isList, isStringLiteral, parseSExprs, printSExpr, readLiteral, type SExpr } from "./sexpr";
import { strLit } from "./smt";
import { ARITH, CORE, STRING_OPS } from "./theories";

export { printSExpr };


/**
 * Parse query text into commands (the shared parser of Z3's output reads SMT-LIB input as well).
 * Throws on unbalanced parentheses, which Z3's parser lets pass at the end of the text.
 */
export function parseCommands(text: string): SExpr[] {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */ || ch === 124 /* | */) i = endOfQuoted(text, i) - 1;
    else if (ch === 59 /* ; */) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (ch === 40 /* ( */) depth++;
    else if (ch === 41 /* ) */ && --depth < 0) break;
  }
  if (depth !== 0) throw new Error("unbalanced parentheses");
  return parseSExprs(text);
}

// ───────────────────────────── the regular-expression formulation ─────────────────────────────

const TRUE = "true";
const FALSE = "false";
const bool = (b: boolean): SExpr => (b ? TRUE : FALSE);
function or(xs: SExpr[]): SExpr {
  const ys = xs.filter((x) => x !== FALSE);
  if (ys.includes(TRUE)) return TRUE;
  return ys.length === 0 ? FALSE : ys.length === 1 ? ys[0]! : ["or", ...ys];
}
function and(xs: SExpr[]): SExpr {
  const ys = xs.filter((x) => x !== TRUE);
  if (ys.includes(FALSE)) return FALSE;
  return ys.length === 0 ? TRUE : ys.length === 1 ? ys[0]! : ["and", ...ys];
}

/** A literal whose reading by Z3 is not certain (sexpr.ts `readLiteral`): a reformulation could not restate it exactly. */
export class UncertainLiteral extends Error {}
const lit = (e: string): string => {
  const text = readLiteral(e);
  if (text === undefined) throw new UncertainLiteral(`Z3's reading of the literal ${e.slice(0, 40)} is not certain`);
  return text;
};
const toRe = (s: string): SExpr => ["str.to_re", strLit(s)];
const RE_ALL = "re.all";
const RE_NONE = "re.none";

/** The parts of a concatenation, nested concatenations flattened, adjacent literals joined, empty literals dropped. */
function concatParts(t: SExpr): SExpr[] {
  const flat: SExpr[] = [];
  const go = (e: SExpr): void => {
    if (isList(e) && e[0] === "str.++") e.slice(1).forEach(go);
    else flat.push(e);
  };
  go(t);
  const out: SExpr[] = [];
  for (const p of flat) {
    const last = out[out.length - 1];
    if (isStringLiteral(p) && last !== undefined && isStringLiteral(last)) out[out.length - 1] = strLit(lit(last) + lit(p));
    else out.push(p);
  }
  return out.filter((p) => !(isStringLiteral(p) && lit(p) === ""));
}

/**
 * A string term that memberships are stated about: a constant or an application of a declared
 * function. Built-in operations (`ite`, `str.substr`, `str.replace`, …) are not: a membership of
 * those would hide from Z3 what it already reasons about well.
 */
function atomic(e: SExpr): boolean {
  if (!isList(e)) return !isStringLiteral(e) && !CORE.has(e);
  const head = e[0];
  return typeof head === "string" && !CORE.has(head) && !STRING_OPS.has(head) && !ARITH.has(head) && head !== "let" && head !== "_" && head !== "!";
}

type Kind = "contains" | "prefix" | "suffix";
const PATTERN: Record<Kind, (s: string) => SExpr> = {
  contains: (s) => ["re.++", RE_ALL, toRe(s), RE_ALL],
  prefix: (s) => ["re.++", toRe(s), RE_ALL],
  suffix: (s) => ["re.++", RE_ALL, toRe(s)],
};

/** The predicate about one part: folded for a literal, pushed into both branches of an `ite`, a membership for an atomic term. */
function onePart(kind: Kind, part: SExpr, s: string): SExpr {
  if (isStringLiteral(part)) {
    const a = lit(part);
    return bool(kind === "contains" ? a.includes(s) : kind === "prefix" ? a.startsWith(s) : a.endsWith(s));
  }
  if (isList(part) && part[0] === "ite" && part.length === 4) {
    const of = (branch: SExpr): SExpr => (kind === "contains" ? contains : kind === "prefix" ? prefix : suffix)(concatParts(branch), s);
    return ["ite", part[1]!, of(part[2]!), of(part[3]!)];
  }
  if (atomic(part)) return ["str.in_re", part, PATTERN[kind](s)];
  return kind === "contains" ? ["str.contains", part, strLit(s)] : kind === "prefix" ? ["str.prefixof", strLit(s), part] : ["str.suffixof", strLit(s), part];
}

/** `str.contains (p1 ++ … ++ pn) s`: inside one part, or across the boundary after the first part. */
function contains(parts: readonly SExpr[], s: string): SExpr {
  if (s === "") return TRUE;
  if (parts.length === 0) return FALSE;
  const [first, ...rest] = parts as [SExpr, ...SExpr[]];
  if (rest.length === 0) return onePart("contains", first, s);
  const out = [contains([first], s), contains(rest, s)];
  // An occurrence that takes the last j characters of the first part and the rest from the others.
  for (let j = 1; j < s.length; j++) out.push(and([suffix([first], s.slice(0, j)), prefix(rest, s.slice(j))]));
  return or(out);
}

/** `str.prefixof s (p1 ++ … ++ pn)`. */
function prefix(parts: readonly SExpr[], s: string): SExpr {
  if (s === "") return TRUE;
  if (parts.length === 0) return FALSE;
  const [first, ...rest] = parts as [SExpr, ...SExpr[]];
  if (isStringLiteral(first)) {
    const a = lit(first);
    if (a.length >= s.length) return bool(a.startsWith(s));
    return s.startsWith(a) ? prefix(rest, s.slice(a.length)) : FALSE;
  }
  const own = onePart("prefix", first, s);
  if (rest.length === 0) return own;
  // Either the first part is at least as long as s, or it is exactly s's first k characters.
  const out: SExpr[] = [own];
  for (let k = 0; k < s.length; k++) out.push(and([["=", first, strLit(s.slice(0, k))], prefix(rest, s.slice(k))]));
  return or(out);
}

/** `str.suffixof s (p1 ++ … ++ pn)`. */
function suffix(parts: readonly SExpr[], s: string): SExpr {
  if (s === "") return TRUE;
  if (parts.length === 0) return FALSE;
  const last = parts[parts.length - 1]!;
  const init = parts.slice(0, -1);
  if (isStringLiteral(last)) {
    const a = lit(last);
    if (a.length >= s.length) return bool(a.endsWith(s));
    return s.endsWith(a) ? suffix(init, s.slice(0, s.length - a.length)) : FALSE;
  }
  const own = onePart("suffix", last, s);
  if (init.length === 0) return own;
  const out: SExpr[] = [own];
  for (let k = 0; k < s.length; k++) out.push(and([["=", last, strLit(s.slice(s.length - k))], suffix(init, s.slice(0, s.length - k))]));
  return or(out);
}

/**
 * Rewrite string predicates with literal patterns, bottom up. A concatenation is distributed over
 * only when at most one of its parts is not a literal: across two unknown parts the distribution
 * is a disjunction of pairs of memberships, which Z3 handles far worse than the concatenation.
 */
function predicates(e: SExpr): SExpr {
  if (!isList(e)) return e;
  const x = sameOrMapped(e, predicates);
  const [op, a, b] = x;
  const distributable = (t: SExpr): SExpr[] | undefined => {
    const parts = concatParts(t);
    return parts.filter((p) => !isStringLiteral(p)).length <= 1 ? parts : undefined;
  };
  if (x.length === 3) {
    if (op === "str.contains" && isStringLiteral(b!)) {
      const parts = distributable(a!);
      if (parts) return contains(parts, lit(b));
    }
    if ((op === "str.prefixof" || op === "str.suffixof") && isStringLiteral(a!)) {
      const parts = distributable(b!);
      if (parts) return (op === "str.prefixof" ? prefix : suffix)(parts, lit(a));
    }
  }
  return x;
}

/** A Boolean term that is a membership of one string term (`subject`), or a constant (`subject` undefined). */
interface Membership {
  readonly key: string | undefined;
  readonly subject: SExpr | undefined;
  readonly re: SExpr;
}

/** A small Int numeral (lengths beyond a million are left to the original formulation). */
const isNumeral = (v: SExpr): v is string => typeof v === "string" && /^(?:0|[1-9]\d{0,5})$/.test(v);
// Looked up with `Object.hasOwn`: `in` would also find `toString` and `constructor`.
const COMPARISONS: Record<string, string> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=" };
const loop = (lo: number, hi: number): SExpr => [["_", "re.loop", String(lo), String(hi)], "re.allchar"];

/** `len op k` as a regular expression over any characters. */
function lengthRe(op: string, k: number): SExpr {
  const atLeast = (n: number): SExpr => (n === 0 ? RE_ALL : ["re.++", loop(n, n), RE_ALL]);
  switch (op) {
    case ">": return atLeast(k + 1);
    case ">=": return atLeast(k);
    case "<": return k === 0 ? RE_NONE : loop(0, k - 1);
    case "<=": return loop(0, k);
    default: return loop(k, k);
  }
}

function membership(e: SExpr, irregular: ReadonlySet<string>): Membership | undefined {
  if (e === TRUE) return { key: undefined, subject: undefined, re: RE_ALL };
  if (e === FALSE) return { key: undefined, subject: undefined, re: RE_NONE };
  if (!isList(e) || e.length !== 3) return undefined;
  // Every membership is a binary application: `op a b`.
  const [op, a, b] = e as [SExpr, SExpr, SExpr];
  if (op === "str.in_re" && atomic(a)) return { key: printSExpr(a), subject: a, re: b };
  if (op === "=") {
    if (isStringLiteral(b) && atomic(a)) return { key: printSExpr(a), subject: a, re: toRe(lit(b)) };
    if (isStringLiteral(a) && atomic(b)) return { key: printSExpr(b), subject: b, re: toRe(lit(a)) };
  }
  if (typeof op === "string" && Object.hasOwn(COMPARISONS, op)) {
    const isLen = (v: SExpr): v is SExpr[] => isList(v) && v[0] === "str.len" && v.length === 2 && atomic(v[1]!);
    // Lengths only of terms whose content matters nowhere else (else Z3 would have to relate the automaton to those uses).
    if (isLen(a) && isNumeral(b) && !irregular.has(printSExpr(a[1]!))) return { key: printSExpr(a[1]!), subject: a[1], re: lengthRe(op, Number(b)) };
    if (isNumeral(a) && isLen(b) && !irregular.has(printSExpr(b[1]!))) return { key: printSExpr(b[1]!), subject: b[1], re: lengthRe(COMPARISONS[op]!, Number(a)) };
  }
  return undefined;
}

const emit = (m: Membership): SExpr => (m.subject === undefined ? (m.re === RE_NONE ? FALSE : TRUE) : ["str.in_re", m.subject, m.re]);

/**
 * Merge memberships bottom up: a connective whose operands are all memberships of one subject
 * becomes one membership; an `and`/`or` with several subjects merges the operands per subject.
 * Returns the rewritten term and, when it is one, its membership.
 */
function merge(e: SExpr, irregular: ReadonlySet<string>): { term: SExpr; m: Membership | undefined } {
  const merge1 = (x: SExpr) => merge(x, irregular);
  const own = membership(e, irregular);
  if (own) return { term: own.subject === undefined ? e : emit(own), m: own };
  if (!isList(e)) return { term: e, m: undefined };
  const op = e[0];
  if (op !== "not" && op !== "and" && op !== "or" && op !== "ite" && op !== "=>") return { term: sameOrMapped(e, (x) => merge1(x).term), m: undefined };
  const args = e.slice(1);
  // (and (and a b) c) is (and a b c): flatten so that operands about one subject meet.
  const flat = op === "and" || op === "or" ? args.flatMap((a) => (isList(a) && a[0] === op ? flatten(op, a) : [a])) : args;
  const kids = flat.map(merge1);
  const ms = kids.map((k) => k.m);
  const keys = new Set(ms.flatMap((m) => (m?.key === undefined ? [] : [m.key])));
  const subjectOf = (): SExpr | undefined => ms.find((m) => m?.subject !== undefined)?.subject;
  if (ms.every((m) => m !== undefined) && keys.size <= 1) {
    const [key] = keys;
    const rs = ms.map((m) => m!.re);
    let re: SExpr | undefined;
    if (op === "not" && rs.length === 1) re = ["re.comp", rs[0]!];
    else if (op === "and" && rs.length >= 1) re = ["re.inter", ...rs];
    else if (op === "or" && rs.length >= 1) re = ["re.union", ...rs];
    else if (op === "=>" && rs.length === 2) re = ["re.union", ["re.comp", rs[0]!], rs[1]!];
    else if (op === "ite" && rs.length === 3) re = ["re.union", ["re.inter", rs[0]!, rs[1]!], ["re.inter", ["re.comp", rs[0]!], rs[2]!]];
    if (re !== undefined) {
      if (key === undefined) {
        // Constants only: evaluate.
        const value = evalConstant(op, ms.map((m) => m!.re === RE_ALL));
        if (value !== undefined) return { term: bool(value), m: { key: undefined, subject: undefined, re: value ? RE_ALL : RE_NONE } };
      } else {
        const m: Membership = { key, subject: subjectOf(), re };
        return { term: emit(m), m };
      }
    }
  }
  if (op === "and" || op === "or") {
    // Several subjects: one membership per subject, the other operands as they are.
    const groups = new Map<string, Membership[]>();
    const others: SExpr[] = [];
    for (const k of kids) {
      if (k.m?.key !== undefined) {
        const g = groups.get(k.m.key) ?? [];
        g.push(k.m);
        groups.set(k.m.key, g);
      } else others.push(k.term);
    }
    const merged = [...groups.values()].map((g) => (g.length === 1 ? emit(g[0]!) : emit({ key: g[0]!.key, subject: g[0]!.subject, re: [op === "and" ? "re.inter" : "re.union", ...g.map((m) => m.re)] })));
    return { term: op === "and" ? and([...merged, ...others]) : or([...merged, ...others]), m: undefined };
  }
  return { term: [op!, ...kids.map((k) => k.term)], m: undefined };
}

/**
 * `e.map(f)`, or `e` itself when `f` returns every element unchanged: most of a query is not about
 * strings, and rewriting it should not copy it (tested against the copy by `sameSExpr`, printed
 * the same either way).
 */
function sameOrMapped(e: SExpr[], f: (x: SExpr) => SExpr): SExpr[] {
  let out: SExpr[] | undefined;
  for (let i = 0; i < e.length; i++) {
    const x = f(e[i]!);
    if (out) out.push(x);
    else if (x !== e[i]) {
      out = e.slice(0, i);
      out.push(x);
    }
  }
  return out ?? e;
}

function flatten(op: string, e: SExpr[]): SExpr[] {
  return e.slice(1).flatMap((a) => (isList(a) && a[0] === op ? flatten(op, a) : [a]));
}

function evalConstant(op: SExpr | undefined, vs: boolean[]): boolean | undefined {
  switch (op) {
    case "not": return !vs[0];
    case "and": return vs.every(Boolean);
    case "or": return vs.some(Boolean);
    case "=>": return !vs[0] || vs[1]!;
    case "ite": return vs[0] ? vs[1] : vs[2];
    default: return undefined;
  }
}

/**
 * The regular-expression formulation of a query's commands (bodies of `define-fun` and `assert`
 * rewritten), or undefined when nothing changes or the result would be much larger.
 */
/**
 * The atomic terms that occur somewhere other than as the subject of a string predicate with a
 * literal pattern, of an equation with a literal, of a membership or of `str.len` (through
 * concatenations and `ite` branches): their content matters beyond what regular expressions say.
 */
function irregularTerms(commands: readonly SExpr[]): Set<string> {
  const out = new Set<string>();
  const walk = (e: SExpr, subject: boolean): void => {
    if (atomic(e)) {
      if (!subject) out.add(printSExpr(e));
      if (isList(e)) for (let i = 1; i < e.length; i++) walk(e[i]!, false);
      return;
    }
    if (!isList(e)) return;
    const [op, a, b, c] = e;
    if (subject && op === "str.++") {
      for (let i = 1; i < e.length; i++) walk(e[i]!, true);
      return;
    }
    if (subject && op === "ite" && e.length === 4) {
      walk(a!, false);
      walk(b!, true);
      return walk(c!, true);
    }
    if (e.length === 3 && ((op === "str.contains" && isStringLiteral(b!)) || op === "str.in_re")) {
      walk(a!, true);
      return walk(b!, false);
    }
    if (e.length === 3 && (op === "str.prefixof" || op === "str.suffixof") && isStringLiteral(a!)) return walk(b!, true);
    if (e.length === 3 && typeof op === "string" && Object.hasOwn(COMPARISONS, op)) {
      // A length compared with a numeral is about the term alone (the form `membership` converts).
      const len = isList(a) && a[0] === "str.len" && a.length === 2 && isNumeral(b!) ? a[1]! : isList(b) && b[0] === "str.len" && b.length === 2 && isNumeral(a!) ? b[1]! : undefined;
      if (len !== undefined && atomic(len)) return walk(len, true);
    }
    if (e.length === 3 && op === "=" && (isStringLiteral(a!) || isStringLiteral(b!))) return walk(isStringLiteral(a!) ? b! : a!, true);
    for (let i = 1; i < e.length; i++) walk(e[i]!, false);
  };
  for (const c of commands) {
    if (isList(c) && c[0] === "assert" && c.length === 2) walk(c[1]!, false);
    else if (isList(c) && c[0] === "define-fun" && c.length === 5) walk(c[4]!, false);
  }
  return out;
}

/** Whether two S-expressions are the same tree (what printing both and comparing the texts says, without the texts). */
function sameSExpr(a: SExpr, b: SExpr): boolean {
  if (a === b) return true;
  if (!isList(a) || !isList(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameSExpr(a[i]!, b[i]!)) return false;
  return true;
}

export function regexFormulation(commands: readonly SExpr[], maxChars: number): string | undefined {
  const irregular = irregularTerms(commands);
  let changed = false;
  const out: string[] = [];
  let size = 0;
  for (const c of commands) {
    let next = c;
    if (isList(c) && c[0] === "assert" && c.length === 2) next = ["assert", merge(predicates(c[1]!), irregular).term];
    else if (isList(c) && c[0] === "define-fun" && c.length === 5) next = [...c.slice(0, 4), merge(predicates(c[4]!), irregular).term];
    const text = printSExpr(next);
    if (!changed && !sameSExpr(next, c)) changed = true;
    size += text.length + 1;
    if (size > maxChars) return undefined;
    out.push(text);
  }
  return changed ? out.join("\n") : undefined;
}

// ───────────────────────────── the word-equation formulation ─────────────────────────────

/**
 * `str.prefixof "s" t` and `str.suffixof "s" t` with a literal `s` restated as equations with a
 * substring of fixed length: `"s" = str.substr t 0 |s|` and `"s" = str.substr t (|t| - |s|) |s|`.
 * Both are equivalences under SMT-LIB's total `str.substr` (a negative offset or a too short `t`
 * gives a shorter string, never `"s"`). Z3 decides the negated predicates slowly, in time that
 * grows steeply with the literal's length (a 48-character prefix: 3 s), and the equations in
 * milliseconds. Only predicates about an atomic term (a constant, a declared function's value) are
 * restated: over a concatenation of inputs the equation is the slow one (it did not finish in 20 s
 * where the original took 0.6 s; with seed 0 it worked 16 s for 250 000 resource units, where
 * Z3 usually does a million a second), and over the corpus it settled no such query first.
 * Returns undefined when nothing changes.
 */
export function wordFormulation(commands: readonly SExpr[]): string | undefined {
  let changed = false;
  const rewrite = (e: SExpr): SExpr => {
    if (!isList(e)) return e;
    const x = e.map(rewrite);
    const [op, a, b] = x;
    if (x.length === 3 && (op === "str.prefixof" || op === "str.suffixof") && isStringLiteral(a!) && atomic(b!)) {
      changed = true;
      const n = lit(a).length;
      if (n === 0) return TRUE;
      const offset: SExpr = op === "str.prefixof" ? "0" : ["-", ["str.len", b!], String(n)];
      return ["=", a!, ["str.substr", b!, offset, String(n)]];
    }
    return x;
  };
  const out = commands.map((c) => {
    if (isList(c) && c[0] === "assert" && c.length === 2) return ["assert", rewrite(c[1]!)];
    if (isList(c) && c[0] === "define-fun" && c.length === 5) return [...c.slice(0, 4), rewrite(c[4]!)];
    return c;
  });
  return changed ? out.map(printSExpr).join("\n") : undefined;
}
