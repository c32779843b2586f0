import type { BoolExpr, Effect, StringsStmt } from "./ir";

/**
 * Issue 10's strings and conversions in the differential tester (profile `strings`): the forms of
 * the `strings` statement, the literals that probe their corners (JavaScript's number grammar,
 * Unicode case mapping, the whitespace `trim` removes and the look-alikes it keeps, `$` patterns
 * in replacements), and their printing. The literals also reach the oracle's pools, so tool
 * results and inputs are drawn from them.
 */
export const STRINGS_OPS = ["String", "Number", "toFixed", "case", "trim", "trimStart", "trimEnd", "split", "replace", "replaceAll", "slice", "substring", "math", "indexOf", "search", "minmax", "charAt", "pad", "lastIndexOf", "parse"] as const;

/** `Math`'s roundings and `abs`, and numbers at their corners: halves (rounded up), -0.5 to -0, just below a half, beyond 2^52. */
export const MATH_FUNCTIONS = ["floor", "ceil", "round", "trunc", "abs"] as const;
export const MATH_NUMBERS = [-0.5, -0.3, -0, 0.5, 2.5, -2.5, 0.49999999999999994, 4503599627370495.5, -4503599627370495.5, 1e21 + 0.5, -7.25];

/** Texts for `Number(…)`: digits, spaces around, signs, exponents, other bases, non-ASCII digits, junk. */
export const NUMBER_TEXTS = ["", " ", "12", " 12 ", "\t7\n", "007", "+5", "-5", "-0", "1e3", "1.5", ".5", "5.", "0x10", "0b11", "0o7", "Infinity", "-Infinity", "١٢", "12px", "1_000", "9007199254740993", "\u00a012\ufeff"];
/** `parseInt` without a radix (a `0x` prefix reads as hexadecimal), with 10, 16, 2 and 36, and `parseFloat`. */
export const PARSERS = [(a: string) => `parseInt(${a})`, (a: string) => `parseInt(${a}, 10)`, (a: string) => `Number.parseInt(${a}, 16)`, (a: string) => `parseInt(${a}, 2)`, (a: string) => `parseInt(${a}, 36)`, (a: string) => `parseFloat(${a})`, (a: string) => `Number.parseFloat(${a})`];
/** Texts around whitespace: the code units `trim` removes and two it keeps (U+200B, U+180E). */
export const SPACE_TEXTS = ["", " ", " a ", "\ta\n", "\u00a0b", "c\u2028", "\ufeff", "\u3000x\u3000", "\u200b", "\u180ey", "a b", " ceo@corp", "ceo@corp\r\n"];
/** Texts for case mapping: ASCII, ß (two upper-case units), İ (two lower-case units), final sigma, a surrogate pair. */
export const CASE_TEXTS = ["abc", "ABC", "Ceo@Corp", "straße", "İ", "ΟΔΟΣ", "ǅ", "😀", "\ud83d", "ﬀ"];
/** Patterns and separators; "" splits into code units and inserts everywhere. */
export const PATTERNS = ["", "a", ",", "aa", "@", "\ud83d", " "];
/** Replacements, `$` patterns among them (`$&` the match, `$$` one dollar, `$1` and `$<n>` kept as written). */
export const REPLACEMENTS = ["", "b", "$&", "$$", "$1", "$<n>", "x$&x", "$"];
/** Literals the results are compared with. */
export const RESULT_TEXTS = ["", "a", "b", "abc", "ABC", "STRASSE", "i\u0307", "ceo@corp", "12", "0", "1.00", "-1", "3", "b@corp", "ab", "x", "οδος", "ΟΔΟΣ", "true", "NaN"];
/** The searches with a position (`search`), and the positions: negative, fractional, past the end, not numbers (NaN is 0), infinite, absent. */
export const SEARCHES = ["startsWith", "endsWith", "includes", "indexOf"] as const;
export const POSITIONS = ["-1", "0", "1", "2", "1.5", "-0.5", "9", "NaN", "Infinity", "-Infinity", "undefined"];
/** Texts to split and to replace in. */
export const SOURCE_TEXTS = ["a,b,,c", "aaa", "a@corp", "", "😀a", "b a a"];

/** What the printer lends the strings statement. */
export interface StringsPrinter {
  fresh(prefix: string): string;
  line(text: string): void;
  str(v: string): string;
  num(v: number): string;
  expr(e: StringsStmt["x"] | StringsStmt["n"] | BoolExpr): string;
  effect(e: Effect): string;
  /** The effect with a string in its key place (`sendEmail(v, …)`, `log(v)`, …). */
  use(e: Effect, v: string): string;
}

/** Print one `strings` statement: the conversion bound to a `const`, then compared with a literal and passed to the effect. */
export function printStrings(p: StringsPrinter, s: StringsStmt): void {
  const r = p.fresh("r");
  const pick = <T>(xs: readonly T[]): T => xs[s.pick % xs.length]!;
  const text = (): string => (s.literal ? p.str(pick(s.op === "case" ? CASE_TEXTS : s.op.startsWith("trim") ? SPACE_TEXTS : SOURCE_TEXTS)) : p.expr(s.x));
  const cmp = (v: string): string => p.str(v);
  switch (s.op) {
    case "String": {
      const arg = s.pick % 3 === 0 ? `${p.expr(s.x)}.length - ${p.num(s.off)}` : s.pick % 3 === 1 ? p.expr(s.n) : `(${p.expr(s.b)} as boolean)`;
      p.line(`const ${r}: string = String(${arg});`);
      break;
    }
    case "Number": {
      const n = p.fresh("n");
      const arg = s.literal ? p.str(pick(NUMBER_TEXTS)) : s.pick % 2 === 0 ? `(${p.expr(s.b)} as boolean)` : p.expr(s.x);
      p.line(`const ${n}: number = Number(${arg});`);
      p.line(`if (${n} === ${p.num(s.off)} || ${n} !== ${n}) ${p.effect(s.e)};`);
      p.line(`measure(${n});`);
      return;
    }
    case "math": {
      // A fraction of a number expression (or a corner literal) through one of the five (`off` is -1…3); compared, and measured (its sign of zero shows).
      const m = p.fresh("m");
      const arg = s.literal ? p.num(pick(MATH_NUMBERS)) : `${p.expr(s.n)} / ${p.num(s.digits + 2)}`;
      p.line(`const ${m}: number = Math.${MATH_FUNCTIONS[s.off + 1]!}(${arg});`);
      p.line(`if (${m} === ${p.num(s.off - 1)} || 1 / ${m} < 0) ${p.effect(s.e)};`);
      p.line(`measure(${m});`);
      return;
    }
    case "minmax": {
      // Math.min or Math.max of a fraction (or a corner literal), a corner and sometimes a third: -0 against 0, NaN, halves; compared, and measured (its sign of zero shows).
      const m = p.fresh("m");
      const first = s.literal ? p.num(pick(MATH_NUMBERS)) : `${p.expr(s.n)} / ${p.num(s.digits + 2)}`;
      const corners = [...MATH_NUMBERS, NaN, 0];
      const args = [first, p.num(corners[(s.pick + 3) % corners.length]!), ...(s.pick % 3 === 0 ? [p.expr(s.n)] : [])];
      p.line(`const ${m}: number = Math.${s.pick % 2 === 0 ? "min" : "max"}(${(s.off % 2 === 0 ? args : [...args].reverse()).join(", ")});`);
      p.line(`if (${m} === ${p.num(s.off - 1)} || 1 / ${m} < 0) ${p.effect(s.e)};`);
      p.line(`measure(${m});`);
      return;
    }
    case "indexOf": case "lastIndexOf": {
      // The first (last) position of a pattern ("" at 0 (the length), overlapping "aa", a lone surrogate half, absent at -1), compared with `off` (-1…3) and measured.
      const n = p.fresh("n");
      p.line(`const ${n}: number = ${text()}.${s.op}(${p.str(s.pattern)});`);
      p.line(`if (${n} === ${p.num(s.off)}) ${p.effect(s.e)};`);
      p.line(`measure(${n});`);
      return;
    }
    case "parse": {
      // A number text or `x` through one of PARSERS (`pick` chooses): the prefix its grammar reads, or NaN; compared and measured.
      const n = p.fresh("n");
      const arg = s.literal ? p.str(pick(NUMBER_TEXTS)) : p.expr(s.x);
      p.line(`const ${n}: number = ${PARSERS[(s.pick + s.off + 1) % PARSERS.length]!(arg)};`);
      p.line(`if (${n} === ${p.num(s.off)} || ${n} !== ${n}) ${p.effect(s.e)};`);
      p.line(`measure(${n});`);
      return;
    }
    case "search": {
      // A search from a position (`pick` chooses both), compared with `off` (-1…3) or tested, and measured.
      const method = SEARCHES[s.pick % SEARCHES.length]!;
      const call = `${text()}.${method}(${p.str(s.pattern)}, ${POSITIONS[(s.pick + s.off + 1) % POSITIONS.length]!})`;
      const n = p.fresh("n");
      if (method === "indexOf") p.line(`const ${n}: number = ${call};`);
      else p.line(`const ${n}: number = ${call} ? 1 : 0;`);
      p.line(`if (${n} === ${p.num(s.off)}) ${p.effect(s.e)};`);
      p.line(`measure(${n});`);
      return;
    }
    case "toFixed": {
      const arg = s.literal ? `(${p.expr(s.n)})` : `(${p.expr(s.x)}.length - ${p.num(s.off)})`;
      p.line(`const ${r}: string = ${arg}.toFixed(${s.digits});`);
      break;
    }
    case "case":
      p.line(`const ${r}: string = ${text()}.${s.pick % 2 === 0 ? "toLowerCase" : "toUpperCase"}();`);
      break;
    case "trim": case "trimStart": case "trimEnd":
      p.line(`const ${r}: string = ${text()}.${s.op}();`);
      break;
    case "split": {
      const y = p.fresh("y");
      p.line(`for (const ${y} of ${text()}.split(${p.str(s.pattern)})) if (${y} !== ${cmp(s.lit)}) ${p.use(s.e, y)};`);
      return;
    }
    case "charAt": {
      // A position from the searches' corners (-0.5 instead of `undefined`, which is not a number and the argument is required).
      const pos = POSITIONS[(s.pick + s.off + 1) % POSITIONS.length]!;
      p.line(`const ${r}: string = ${text()}.charAt(${pos === "undefined" ? "-0.5" : pos});`);
      break;
    }
    case "pad": {
      // To a length of 1…5, with a pattern as the fill ("" leaves the text as it is), or the default " ".
      const fill = s.pick % 3 === 0 ? "" : `, ${p.str(s.pattern)}`;
      p.line(`const ${r}: string = ${text()}.${s.pick % 2 === 0 ? "padStart" : "padEnd"}(${s.off + 2}${fill});`);
      break;
    }
    case "slice": case "substring": {
      // Start -1…3, end -2…3 or none: negative indices, a start past the end, swapped bounds.
      const end = s.pick % 7 === 0 ? "" : `, ${p.num((s.pick % 6) - 2)}`;
      p.line(`const ${r}: string = ${text()}.${s.op}(${p.num(s.off)}${end});`);
      break;
    }
    case "replace": case "replaceAll": {
      // A third of them with a replacement the prover does not know: an expression that equals the
      // drawn literal where it is that literal (so `$` patterns reach the oracle's pools).
      let replacement = p.str(s.replacement);
      if (s.pick % 3 === 2) {
        const x = p.fresh("w");
        p.line(`const ${x}: string = ${p.expr(s.x)};`);
        replacement = `${x} === ${p.str(s.replacement)} ? ${p.str(s.replacement)} : ${x}`;
      }
      p.line(`const ${r}: string = ${text()}.${s.op}(${p.str(s.pattern)}, ${replacement});`);
      break;
    }
  }
  p.line(`if (${r} === ${cmp(s.lit)}) ${p.effect(s.e)};`);
  p.line(`${p.use(s.e, r)};`);
}
