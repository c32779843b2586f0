/**
 * Conversions with no exact model in Z3's theories — the digits JavaScript prints for a number
 * that may not be an integer (`String(x)`, `${x}`, `x.toFixed(2)`), Unicode case mapping
 * (`toLowerCase`/`toUpperCase`), the JSON text of an unknown string — are modelled as functions of
 * their input that Z3 does not know: the same input gives the same text, and nothing else is
 * assumed but the characters the text is made of (`range`). That over-approximates JavaScript, so
 * an `unsat` answer is exact: no function, JavaScript's included, breaks the guarantee. Each query
 * is first asked with a fresh text in the range in place of every conversion (`selectBranch`),
 * which leaves the input's floating-point term out; most guarantees do not depend on the text.
 *
 * A `sat` answer is a counterexample only where the model's function agrees with JavaScript at
 * every point the query depends on. After each model, every application outside a quantifier is
 * evaluated, JavaScript computes the real text at the model's input, and each disagreement becomes
 * a fact (`f(1.5) = "1.5"`, true in every run) added to the next query: the model is refined until
 * it agrees (a genuine counterexample) or the query becomes unsat (proved). An application under a
 * quantifier (a conversion inside a loop over an array of unknown length that decides a branch)
 * cannot be checked point by point: such a model stays undecided, never a counterexample.
 */
import type * as TS from "typescript";
import { decodeFloat, decodeString, parseSExprs, printSExpr, type SExpr } from "./sexpr";
import { FLOAT64, numLit, strLit } from "./smt";
import type { GetValues } from "./z3";

export interface ConversionKind {
  /** The SMT function's name (one per conversion: `toFixed` per number of digits). */
  readonly fn: string;
  readonly from: "Float64" | "String";
  /** The result's sort: a text, or a number (`Number(text)`). */
  readonly to?: "Float64";
  /** A regular expression every result is in, and a text in it (see `Conversions.apply`). */
  readonly range?: { readonly re: string; readonly fallback: string };
  /** For a number result: a Bool term every result satisfies (of the result's term), and a number that does. */
  readonly numberRange?: { readonly holds: (n: string) => string; readonly fallback: string };
  /**
   * Inputs whose text is modelled exactly (`when`, a Bool term of the input) and that text
   * (`value`): NaN and ±Infinity, a string JSON does not escape. The function is read only elsewhere.
   */
  readonly exact?: { readonly when: (arg: string) => string; readonly value: (arg: string) => string };
  /** JavaScript's result at one input. */
  readonly compute: (x: number | string) => string | number;
  /** An input whose result is `result`, when one is easy to find (checked with `compute` before use). */
  readonly inverse?: (result: string | number) => number | string | undefined;
  /**
   * Several inputs that may have `result`, for a conversion that is not injective (case mapping:
   * the text itself, in capitals, capitalised): a model's wanted text is sought at any of them
   * (checked with `compute` before use), so the other constraints pick one.
   */
  readonly preimages?: (result: string | number) => readonly (number | string)[];
  /**
   * `inverse` is exact where the function is read: a text the model wants has one input (`String`
   * round-trips every finite non-zero number; `JSON.parse` undoes `JSON.stringify`), or none.
   */
  readonly injective?: true;
  /** What the conversion is, for messages: "the digits of a number that may not be an integer". */
  readonly what: string;
  /**
   * Literal texts `L` the conversion maps piece by piece: wherever `L` occurs in an input, the
   * result has `compute(L)` in its place (case mapping of text with no surrogate and, lowering,
   * no Σ). The query's literals then give facts (`literalFacts`).
   */
  readonly piecewise?: (literal: string) => boolean;
}

/** The characters JavaScript prints a number with (`-1.5e-7`, `Infinity`, `NaN`). */
const NUMBER_TEXT = `(re.* (re.union (re.range "0" "9") (str.to_re ".") (str.to_re "-") (str.to_re "+") (str.to_re "e") (str.to_re "Infinity") (str.to_re "NaN")))`;

/** NaN, ±Infinity and ±0, whose text is fixed: `zero` is the text of ±0. */
function specialNumbers(zero: string): NonNullable<ConversionKind["exact"]> {
  return {
    when: (x) => `(or (fp.isNaN ${x}) (fp.isInfinite ${x}) (fp.isZero ${x}))`,
    value: (x) => `(ite (fp.isNaN ${x}) "NaN" (ite (fp.isZero ${x}) ${strLit(zero)} (ite (fp.isPositive ${x}) "Infinity" "-Infinity")))`,
  };
}

/** `String(x)`, `${x}`, `"" + x` of a number that may not be an integer. */
export const NUMBER_TEXT_KIND: ConversionKind = {
  fn: "conv!String",
  from: "Float64",
  range: { re: NUMBER_TEXT, fallback: "0" },
  exact: specialNumbers("0"),
  compute: (x) => String(x),
  inverse: (text) => Number(text),
  injective: true,
  what: "the digits JavaScript prints for a number that may not be an integer",
};

/** `x.toFixed(digits)` of a number that may not be an integer. */
export function toFixedKind(digits: number): ConversionKind {
  return {
    fn: `conv!toFixed${digits}`,
    from: "Float64",
    range: { re: NUMBER_TEXT, fallback: "0" },
    exact: specialNumbers((0).toFixed(digits)),
    compute: (x) => (x as number).toFixed(digits),
    inverse: (text) => Number(text),
    what: `the digits of \`toFixed(${digits})\` of a number that may not be an integer`,
  };
}

/** `s.toLowerCase()` / `s.toUpperCase()` of an unknown string (Unicode's full case mapping). */
export function caseKind(name: "toLowerCase" | "toUpperCase"): ConversionKind {
  return {
    fn: `conv!${name}`,
    from: "String",
    // ASCII text with no letter to map is its own image (no replacement: Z3 leaves 26 nested
    // `str.replace_all` undecided).
    exact: { when: (s) => `(str.in_re ${s} ${name === "toLowerCase" ? ASCII_NO_UPPER : ASCII_NO_LOWER})`, value: (s) => s },
    compute: (x) => (name === "toLowerCase" ? (x as string).toLowerCase() : (x as string).toUpperCase()),
    inverse: (text) => String(text),
    preimages: (text) => {
      const t = String(text);
      const words = (f: (w: string) => string): string => t.replace(/[^\s@.]+/g, f);
      return [t, t.toUpperCase(), t.toLowerCase(), words((w) => w.charAt(0).toUpperCase() + w.slice(1)), words((w) => w.charAt(0).toLowerCase() + w.slice(1).toUpperCase())];
    },
    what: `\`${name}\` of a string the prover does not know`,
    // Case maps each code point on its own (some into two characters), but for Σ, which lowers by
    // its neighbours; a surrogate in `L` could pair with a neighbour into another code point.
    piecewise: (literal) => !/[\ud800-\udfff]/.test(literal) && (name === "toUpperCase" || !literal.includes("\u03a3")),
  };
}

const rangeRe = (lo: number, hi: number): string => `(re.range ${strLit(String.fromCharCode(lo))} ${strLit(String.fromCharCode(hi))})`;
const ASCII_NO_UPPER = `(re.* (re.union ${rangeRe(0, 0x40)} ${rangeRe(0x5b, 0x7f)}))`;
const ASCII_NO_LOWER = `(re.* (re.union ${rangeRe(0, 0x60)} ${rangeRe(0x7b, 0x7f)}))`;
/** The strings JSON writes as they are: no `"`, `\\`, U+0000–U+001F, and no surrogate (so no lone one). */
const JSON_PLAIN = `(re.* (re.union ${rangeRe(0x20, 0x21)} ${rangeRe(0x23, 0x5b)} ${rangeRe(0x5d, 0xd7ff)} ${rangeRe(0xe000, 0xffff)}))`;

/** `JSON.stringify(s)` of an unknown string: `"` + s + `"` when nothing in s is escaped. */
export const JSON_STRING_KIND: ConversionKind = {
  fn: "conv!jsonString",
  from: "String",
  exact: { when: (s) => `(str.in_re ${s} ${JSON_PLAIN})`, value: (s) => `(str.++ ${strLit('"')} ${s} ${strLit('"')})` },
  range: { re: `(re.++ (str.to_re "\\u{22}") re.all (str.to_re "\\u{22}"))`, fallback: '""' },
  compute: (x) => JSON.stringify(x as string),
  injective: true,
  inverse: (text) => {
    try {
      const v: unknown = JSON.parse(String(text));
      return typeof v === "string" ? v : undefined;
    } catch {
      return undefined;
    }
  },
  what: "the JSON text of a string that holds a character JSON escapes",
};

/** The characters `encodeURIComponent` writes as they are: ASCII letters, digits and `-_.!~*'()`. */
const URI_UNRESERVED = `(re.union ${rangeRe(0x41, 0x5a)} ${rangeRe(0x61, 0x7a)} ${rangeRe(0x30, 0x39)} ${[..."-_.!~*'()"].map((c) => `(str.to_re ${strLit(c)})`).join(" ")})`;
const URI_HEX = `(re.union ${rangeRe(0x30, 0x39)} ${rangeRe(0x41, 0x46)})`;

/**
 * Well-formed UTF-16: no lone surrogate (a high one followed by a low one is a pair). The strings
 * `encodeURIComponent` accepts; on any other it throws a URIError.
 */
export const WELL_FORMED_UTF16 = `(re.* (re.union ${rangeRe(0, 0xd7ff)} ${rangeRe(0xe000, 0xffff)} (re.++ ${rangeRe(0xd800, 0xdbff)} ${rangeRe(0xdc00, 0xdfff)})))`;

/**
 * `encodeURIComponent(s)` of an unknown well-formed string (the executor reports the URIError on
 * the others): itself when every character is unreserved, otherwise unreserved characters and
 * `%XX` escapes (upper-case hex digits of the UTF-8 bytes).
 */
export const URI_COMPONENT_KIND: ConversionKind = {
  fn: "conv!encodeURIComponent",
  from: "String",
  exact: { when: (s) => `(str.in_re ${s} (re.* ${URI_UNRESERVED}))`, value: (s) => s },
  range: { re: `(re.* (re.union ${URI_UNRESERVED} (re.++ (str.to_re "%") ${URI_HEX} ${URI_HEX})))`, fallback: "" },
  // At an input JavaScript throws on, no run reads the result: any text is true of every run.
  compute: (x) => {
    try {
      return encodeURIComponent(x as string);
    } catch {
      return "";
    }
  },
  inverse: (text) => {
    try {
      return decodeURIComponent(String(text));
    } catch {
      return undefined;
    }
  },
  what: "`encodeURIComponent` of a string the prover does not know",
};

/**
 * `Number(s)` of an unknown string: JavaScript's StringToNumber (white space around, signs,
 * fractions, exponents, `0x…`/`0o…`/`0b…`, `Infinity`; `""` is 0; anything else NaN), a function
 * of the text everywhere. No exact branch: the digits' `str.to_int` converted to a float made even
 * the query for `Number("")` mixed strings, integers and floats, which the general solver left
 * undecided in 30 s; a model's wanted number is found at its text instead (`inverse`).
 */
export const NUMBER_OF_TEXT_KIND: ConversionKind = {
  fn: "conv!Number",
  from: "String",
  to: "Float64",
  compute: (x) => Number(x),
  // `String` prints a number `Number` reads back, but for -0 (printed "0"): checked before use.
  inverse: (n) => (typeof n === "number" ? String(n) : undefined),
  what: "`Number` of a string the prover does not know",
};

/**
 * `parseInt(text, radix)` (`radix` a literal from 2 to 36, or absent: 10, with a `0x` prefix read
 * as hexadecimal) and `parseFloat(text)` of a string the prover does not know: the longest prefix
 * of the trimmed text its grammar reads (digits of the radix, a sign; for `parseFloat` a fraction,
 * an exponent, `Infinity`), or NaN. `parseInt`'s results are NaN or integers (±Infinity and -0
 * among them: "1" repeated 400 times, "-0").
 */
export function parseKind(name: "parseInt" | "parseFloat", radix: number | undefined): ConversionKind {
  const compute = (x: number | string): number => (name === "parseFloat" ? parseFloat(String(x)) : parseInt(String(x), radix));
  const base = radix ?? 10;
  /** Digits of the radix (or, for `parseFloat`, JavaScript's text) that read as `n`; "?" reads as NaN. */
  const textOf = (n: number): string => {
    if (Number.isNaN(n)) return "?";
    if (Object.is(n, -0)) return "-0";
    // Past the largest double: the radix's highest digit, repeated beyond 2^1024.
    if (!Number.isFinite(n)) return (n < 0 ? "-" : "") + (name === "parseFloat" ? "Infinity" : (base - 1).toString(base).repeat(1100));
    return name === "parseFloat" ? String(n) : n.toString(base);
  };
  return {
    fn: name === "parseFloat" ? "conv!parseFloat" : `conv!parseInt${radix ?? ""}`,
    from: "String",
    to: "Float64",
    ...(name === "parseInt" ? { numberRange: { holds: (n: string) => `(or (fp.isNaN ${n}) (= ${n} (fp.roundToIntegral RTZ ${n})))`, fallback: numLit(NaN) } } : {}),
    compute,
    // A text read back as `n`, and texts with a tail the grammar stops at, a space or a sign
    // before (`parseInt(s) === 12 && s !== "12"` has "12px"). Checked with `compute` before use.
    inverse: (n) => (typeof n === "number" ? textOf(n) : undefined),
    preimages: (n) => {
      if (typeof n !== "number") return [];
      const t = textOf(n);
      return [t, `${t}x`, ` ${t}`, `0${t}`, `+${t}`, `${t}.5`];
    },
    what: `\`${name}\` of a string the prover does not know`,
  };
}

/** The conversions a program uses, with the node of their first use; and the facts learned about them. */
export class Conversions {
  readonly kinds = new Map<string, { readonly kind: ConversionKind; readonly at: TS.Node }>();
  /** `f(input) = text` at inputs models asked about: true in every run, added to every later query. */
  readonly facts: string[] = [];
  private readonly known = new Set<string>();

  /**
   * The result term of `kind` at `arg`, declaring the function on first use (into
   * `declarations`): `(ite conv!exact <the function's text> <abstract>)`, where `abstract` is a
   * fresh string of the loop indices in scope. Queries choose one branch before they are asked
   * (`selectBranch`): the abstract one first, where any text in the range will do, so a guarantee
   * that does not depend on the text is proved without the number's floating-point term.
   */
  apply(kind: ConversionKind, arg: string, at: TS.Node, declarations: string[], abstract: string): string {
    if (this.kinds.size === 0) declarations.push(`(declare-const ${EXACT} Bool)`);
    if (!this.kinds.has(kind.fn)) {
      this.kinds.set(kind.fn, { kind, at });
      declarations.push(`(declare-fun ${kind.fn} (${kind.from === "Float64" ? FLOAT64 : "String"}) ${kind.to === "Float64" ? FLOAT64 : "String"})`);
    }
    // The result is in the range by construction (no axiom to instantiate): any function into the
    // range is some `f` here, JavaScript's among them.
    const ranged = (t: string): string =>
      kind.range ? `(ite (str.in_re ${t} ${kind.range.re}) ${t} ${strLit(kind.range.fallback)})` : kind.numberRange ? `(ite ${kind.numberRange.holds(t)} ${t} ${kind.numberRange.fallback})` : t;
    const app = ranged(`(${kind.fn} ${arg})`);
    const exact = kind.exact ? `(ite ${kind.exact.when(arg)} ${kind.exact.value(arg)} ${app})` : app;
    return `(ite ${EXACT} ${exact} ${ranged(abstract)})`;
  }

  learn(fact: string): void {
    if (!this.known.has(fact)) {
      this.known.add(fact);
      this.facts.push(fact);
    }
  }
}

/**
 * The switch between a conversion's two terms (see `Conversions.apply`). Queries hold one branch
 * only; the exact query also asserts it, so the world's terms read from its model (which hold both
 * branches) evaluate as the query did.
 */
export const EXACT = "conv!exact";

/**
 * Query texts with every conversion's exact (`true`) or abstract branch chosen: the other branch
 * is removed from the text (the switch stays declared), so a query never holds both (the abstract one would leave the
 * function unread; the exact one holds the number's floating-point term).
 */
export function selectBranch(texts: readonly string[], exact: boolean): string[] {
  const pick = (e: SExpr): SExpr => {
    if (!Array.isArray(e)) return e;
    if (e.length === 4 && e[0] === "ite" && e[1] === EXACT) return pick(exact ? e[2]! : e[3]!);
    return e.map(pick);
  };
  return texts.map((t) => (t.includes(EXACT) ? parseSExprs(t).map((c) => printSExpr(pick(c))).join("\n") : t));
}

/**
 * The applications of conversion functions in a query: those outside quantifiers, and whether any
 * is under one. A `define-fun` with parameters (a named loop term, state.ts `nameTerm`) is a macro:
 * its body is read at each of its uses, with the use's arguments for its parameters.
 */
export function applicationsIn(conversions: Conversions, texts: readonly string[]): { ground: { kind: ConversionKind; arg: string }[]; quantified: ConversionKind | undefined; commands: readonly SExpr[] } {
  const ground = new Map<string, { kind: ConversionKind; arg: string }>();
  let quantified: ConversionKind | undefined;
  const macros = new Map<string, { params: string[]; body: SExpr }>();
  const commands = texts.flatMap((t) => parseSExprs(t));
  for (const c of commands) {
    if (Array.isArray(c) && c[0] === "define-fun" && typeof c[1] === "string" && Array.isArray(c[2]) && c[2].length > 0) {
      macros.set(c[1], { params: c[2].map((p) => (Array.isArray(p) ? String(p[0]) : String(p))), body: c[4] ?? [] });
    }
  }
  const expanded = new Set<string>();
  const converting = new Map<string, ConversionKind | undefined>();
  /** The first conversion a term applies, through the macros it uses. */
  const converts = (e: SExpr): ConversionKind | undefined => {
    if (!Array.isArray(e)) {
      const m = macros.get(e);
      if (!m) return conversions.kinds.get(e)?.kind;
      if (!converting.has(e)) {
        converting.set(e, undefined); // definitions are not recursive; this only stops a loop
        converting.set(e, converts(m.body));
      }
      return converting.get(e);
    }
    for (const x of e) {
      const k = converts(x);
      if (k) return k;
    }
    return undefined;
  };
  const mentions = (e: SExpr, bound: ReadonlySet<string>): boolean => (Array.isArray(e) ? e.some((x) => mentions(x, bound)) : bound.has(e));
  const substitute = (e: SExpr, values: ReadonlyMap<string, SExpr>): SExpr => (Array.isArray(e) ? e.map((x) => substitute(x, values)) : values.get(e) ?? e);
  const visit = (e: SExpr, bound: ReadonlySet<string>): void => {
    if (!Array.isArray(e) || e.length === 0) return;
    const [head, ...args] = e;
    if ((head === "forall" || head === "exists" || head === "let") && Array.isArray(args[0])) {
      const inner = new Set(bound);
      for (const b of args[0]) if (Array.isArray(b) && typeof b[0] === "string") inner.add(b[0]);
      // A `let` binds to terms of the outer scope; they are read there.
      if (head === "let") for (const b of args[0]) if (Array.isArray(b)) visit(b[1] ?? [], bound);
      for (const a of args.slice(1)) visit(a, inner);
      return;
    }
    if (head === "declare-fun" || head === "declare-const") return;
    // Macros are read where they are used; a definition without parameters is used as it stands.
    if (head === "define-fun") {
      if (Array.isArray(args[1]) && args[1].length === 0) visit(args[3] ?? [], bound);
      return;
    }
    const macro = typeof head === "string" ? macros.get(head) : undefined;
    if (macro) {
      if (mentions(args, bound)) {
        // A use under a quantifier: anything the body converts is converted at unchecked points.
        quantified ??= converts(macro.body);
      } else {
        const key = printSExpr(e);
        if (!expanded.has(key)) {
          expanded.add(key);
          visit(substitute(macro.body, new Map(macro.params.map((p, i) => [p, args[i] ?? p] as const))), bound);
        }
      }
    }
    const kind = typeof head === "string" ? conversions.kinds.get(head)?.kind : undefined;
    if (kind && args.length === 1) {
      if (mentions(args[0]!, bound)) quantified ??= kind;
      else {
        const arg = printSExpr(args[0]!);
        ground.set(`${kind.fn} ${arg}`, { kind, arg });
      }
    }
    for (const a of args) visit(a, bound);
  };
  for (const c of commands) visit(c, new Set());
  return { ground: [...ground.values()], quantified, commands };
}

/** Literals longer than this are left out of `literalFacts`; past `LITERAL_FACTS_LIMIT` literals, the rest are. */
const LITERAL_LENGTH_LIMIT = 256;
const LITERAL_FACTS_LIMIT = 48;

/**
 * Facts true of every run about the query's conversions of strings at the query's own string
 * literals: `f(L) = compute(L)`, and for a piecewise one at each ground application `f(a)`, that `a` containing
 * (starting with, ending with) `L` means `f(a)` contains (starts with, ends with) `compute(L)`
 * where the query looks for that text.
 * Z3 reads them by congruence: `t.id.toUpperCase()` compared with `"T-1"` needs no regular
 * expression (the exact branch's test) once `t.id` is `"T-1"`, which left twelve unrolled
 * comparisons undecided in 90 s (h46 i21).
 */
export function literalFacts(conversions: Conversions, applications: ReturnType<typeof applicationsIn>): string[] {
  const { ground, commands } = applications;
  const kinds = [...conversions.kinds.values()].map((k) => k.kind).filter((k) => k.from === "String");
  if (kinds.length === 0) return [];
  // Definitions whose value applies a piecewise conversion (through other definitions).
  const converting = new Set<string>(kinds.filter((k) => k.piecewise).map((k) => k.fn));
  for (const c of commands) {
    if (Array.isArray(c) && c[0] === "define-fun" && typeof c[1] === "string" && mentionsAny(c[4] ?? [], converting)) converting.add(c[1]);
  }
  const literals = new Set<string>();
  // A containment fact is added only for a text the query looks for in a converted string
  // (`str.contains (f x) "…"`): they cost a satisfiable query seconds (h46 i22: 0.5 s without
  // them, 2 s with, 90 s with the regex test).
  const sought = { contains: new Set<string>(), prefixof: new Set<string>(), suffixof: new Set<string>() };
  const visit = (e: SExpr): void => {
    if (!Array.isArray(e)) {
      if (e.startsWith('"') && e.length <= LITERAL_LENGTH_LIMIT && literals.size < LITERAL_FACTS_LIMIT) literals.add(decodeString(e));
      return;
    }
    // The bounds of a character range, and the texts of a regular expression, are no values.
    if (e[0] === "re.range" || e[0] === "str.to_re") return;
    const [needle, haystack] = e[0] === "str.contains" ? [e[2], e[1]] : e[0] === "str.prefixof" || e[0] === "str.suffixof" ? [e[1], e[2]] : [];
    if (typeof needle === "string" && needle.startsWith('"') && haystack !== undefined && mentionsAny(haystack, converting)) {
      sought[(e[0] as string).slice(4) as keyof typeof sought].add(decodeString(needle));
    }
    e.forEach(visit);
  };
  commands.forEach(visit);
  const forms = [
    { sought: sought.contains, holds: (a: string, l: string) => `(str.contains ${a} ${l})` },
    { sought: sought.prefixof, holds: (a: string, l: string) => `(str.prefixof ${l} ${a})` },
    { sought: sought.suffixof, holds: (a: string, l: string) => `(str.suffixof ${l} ${a})` },
  ];
  const facts: string[] = [];
  for (const kind of kinds) {
    // JavaScript's own result at a literal is a fact whatever the conversion.
    for (const l of literals) facts.push(`(= (${kind.fn} ${strLit(l)}) ${lit(kind.compute(l))})`);
    if (!kind.piecewise) continue;
    const own = [...literals].filter((l) => kind.piecewise!(l));
    for (const { arg } of ground.filter((g) => g.kind.fn === kind.fn)) {
      for (const l of own) {
        if (l === "") continue;
        const image = String(kind.compute(l));
        for (const f of forms) if (f.sought.has(image)) facts.push(`(=> ${f.holds(arg, strLit(l))} ${f.holds(`(${kind.fn} ${arg})`, strLit(image))})`);
      }
    }
  }
  return facts;
}

/** The SMT literal of a conversion's input or result. */
const lit = (x: number | string): string => (typeof x === "number" ? numLit(x) : strLit(x));

function mentionsAny(e: SExpr, names: ReadonlySet<string>): boolean {
  return Array.isArray(e) ? e.some((x) => mentionsAny(x, names)) : names.has(e);
}

/**
 * Check a model against JavaScript at the query's ground applications: the facts that correct
 * every disagreement (none when the model agrees everywhere it is read), and for each
 * disagreement a hint for the next query — the input whose result is the text the model wanted
 * (`inverse`), or else the conversion's exact branch — and a pin: the argument kept at the model's
 * input, whose true result the facts now give (h46 i92: a model wants `"@A".toLowerCase()` to be
 * `"@B"`; with `"@a"` learned, the same input still breaks the guarantee, where an unsteered query
 * wanders off to other inputs, two seconds each).
 */
export async function disagreements(get: GetValues, later: readonly string[], ground: readonly { kind: ConversionKind; arg: string }[]): Promise<{ facts: string[]; hints: string[]; pins: string[] }> {
  if (ground.length === 0) return { facts: [], hints: [], pins: [] };
  const terms = ground.flatMap(({ kind, arg }) => [
    { term: arg, sort: kind.from === "Float64" ? ("Float64" as const) : ("String" as const) },
    { term: `(${kind.fn} ${arg})`, sort: kind.to === "Float64" ? ("Float64" as const) : ("String" as const) },
    { term: kind.exact ? kind.exact.when(arg) : "false", sort: "Bool" as const },
  ]);
  const values = await get(terms, later);
  const facts: string[] = [];
  const hints: string[] = [];
  const pins: string[] = [];
  ground.forEach(({ kind, arg }, i) => {
    // Where the exact branch is taken, the function's value is never read.
    if (values[3 * i + 2] === "true") return;
    const input = kind.from === "Float64" ? decodeFloat(values[3 * i]!) : decodeString(String(values[3 * i]));
    const modelled = kind.to === "Float64" ? decodeFloat(values[3 * i + 1]!) : decodeString(String(values[3 * i + 1]));
    const real = kind.compute(input);
    // `Object.is`: NaN is its own result, and -0 is not 0.
    if (Object.is(modelled, real)) return;
    facts.push(`(= (${kind.fn} ${lit(input)}) ${lit(real)})`);
    pins.push(`(= ${arg} ${lit(input)})`);
    const wanted = kind.inverse?.(modelled);
    const found = wanted !== undefined && typeof wanted === (kind.from === "Float64" ? "number" : "string") && Object.is(kind.compute(wanted), modelled);
    const others = (kind.preimages?.(modelled) ?? []).filter((x, j, all) => all.indexOf(x) === j && typeof x === (kind.from === "Float64" ? "number" : "string") && Object.is(kind.compute(x), modelled));
    // An injective conversion gives the wanted text at one input at most: at this argument, that
    // text means that input (or is impossible). Where the exact branch is taken the function is
    // never read, so these facts may constrain it there as they like.
    if (kind.injective) facts.push(found ? `(=> (= (${kind.fn} ${arg}) ${lit(modelled)}) (= ${arg} ${lit(wanted)}))` : `(not (= (${kind.fn} ${arg}) ${lit(modelled)}))`);
    if (others.length > 1) hints.push(`(or ${others.map((x) => `(= ${arg} ${lit(x)})`).join(" ")})`);
    else if (found) hints.push(`(= ${arg} ${lit(wanted)})`);
    else if (kind.exact) hints.push(kind.exact.when(arg));
  });
  return { facts, hints, pins };
}
