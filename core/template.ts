import type { LiteralValue } from "./guarantees";
import type { ValueType } from "./model";

/** Version of the sentence renderer: part of every guarantee's identity. */
export const RENDERER_VERSION = "clauz3-template/2";

export type TemplatePart = { readonly kind: "text"; readonly text: string } | { readonly kind: "param"; readonly name: string };

/** A template problem: what is wrong, at which character offset of the template text. */
export class TemplateError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
    this.name = "TemplateError";
  }
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

/**
 * Parse a description template: literal text, `{{`/`}}` for literal braces, and `{name}`
 * substitutions. Attribute/index access, conversions and format specifications are refused.
 */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let buf = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "{") {
      if (text[i + 1] === "{") { buf += "{"; i++; continue; }
      const close = text.indexOf("}", i + 1);
      if (close < 0) throw new TemplateError(`unclosed "{" at offset ${i}; write "{{" for a literal brace`, i);
      const inner = text.slice(i + 1, close);
      if (inner.includes("{")) throw new TemplateError(`nested "{" in "{${inner}}"`, i);
      if (!IDENT.test(inner)) {
        const what = /[.[]/.test(inner) ? "attribute or index access" : /[!:]/.test(inner) ? "a conversion or format specification" : inner === "" ? "an empty substitution" : "an expression";
        throw new TemplateError(`"{${inner}}" is ${what}; only {parameter} substitutions are allowed`, i);
      }
      if (buf) parts.push({ kind: "text", text: buf });
      buf = "";
      parts.push({ kind: "param", name: inner });
      i = close;
    } else if (ch === "}") {
      if (text[i + 1] === "}") { buf += "}"; i++; continue; }
      throw new TemplateError(`unmatched "}" at offset ${i}; write "}}" for a literal brace`, i);
    } else buf += ch;
  }
  if (buf) parts.push({ kind: "text", text: buf });
  return parts;
}

/** Whether a parameter of this type can appear in a sentence. */
export function isDescribable(type: ValueType): boolean {
  switch (type.kind) {
    case "string": case "number": case "boolean": case "FilePath": case "DirectoryPath":
      return true;
    case "array":
      return type.element.kind !== "array" && isDescribable(type.element);
    default:
      return false;
  }
}

/**
 * Validate a template against the contract's parameters: every substitution names a parameter,
 * every parameter appears, every parameter is of a describable type. Returns the problems.
 */
export function validateTemplate(text: string, parameters: readonly { name: string; type: ValueType; typeText: string; rest: boolean }[]): string[] {
  let parts: TemplatePart[];
  try {
    parts = parseTemplate(text);
  } catch (e) {
    return [(e as Error).message];
  }
  const problems: string[] = [];
  const names = new Set(parameters.map((p) => p.name));
  for (const part of parts) {
    if (part.kind === "param" && !names.has(part.name)) {
      problems.push(`"{${part.name}}" is not a parameter (parameters: ${[...names].join(", ") || "none"})`);
    }
  }
  const used = new Set(parts.flatMap((p) => (p.kind === "param" ? [p.name] : [])));
  for (const p of parameters) {
    if (!used.has(p.name)) problems.push(`parameter "${p.name}" does not appear; write {${p.name}} where the sentence names it`);
    if (p.rest) problems.push(`parameter "${p.name}" is variadic; variadic parameters cannot be described`);
    else if (!isDescribable(p.type)) {
      problems.push(`parameter "${p.name}" has type ${p.typeText}; descriptions support string, number, boolean, FilePath, DirectoryPath and arrays of those`);
    }
  }
  return problems;
}

/** A sentence argument: the bound parameter (name and declared type) and its literal value. */
export interface RenderArgument {
  readonly parameter: { readonly name: string; readonly type: ValueType };
  readonly value: LiteralValue;
}

/** The outcome of rendering: the sentence, or why no sentence can be generated for these arguments. */
export type RenderResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/**
 * Characters that never appear raw in a rendered value, because they are invisible or change how
 * the text around them is shown, so two different arguments could read the same: controls (Cc),
 * format characters (Cf: zero-width spaces and joiners, bidirectional controls, the soft hyphen,
 * the byte order mark, tags), lone surrogates (Cs), the line and paragraph separators (Zl, Zp),
 * every space separator but the ASCII space (Zs: no-break, figure, ideographic space, …) and the
 * other default-ignorable code points (variation selectors, Hangul fillers). `"` and `\` are
 * escaped by JSON itself.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|(?! )\p{Zs}/u;
/** Combining marks: shown raw only on a base character of the value itself. */
const MARK = /\p{M}/u;
/** A JSON string literal (the only place the texts escaped here hold arbitrary characters). */
const STRING_TOKEN = /("(?:[^"\\]|\\.)*")/su;

/**
 * A string as a JSON string literal: `JSON.stringify` (which escapes `"`, `\`, C0 controls and
 * lone surrogates) with every invisible character escaped too ({@link escapeControls}). The result
 * always parses back (`JSON.parse`) to the string, so different strings never render alike.
 */
export function quoteString(value: string): string {
  return escapeControls(JSON.stringify(value));
}

/**
 * Replace every character that could make two different texts look the same by its `\uXXXX`
 * escape (a pair of them beyond the BMP): the {@link INVISIBLE} characters; a combining mark that
 * would sit on renderer syntax (first in a string, or after an escape: it would combine with the
 * quote or a hex digit); and in a string that is not in Unicode normal form C, every non-ASCII
 * character (`"e\u0301"` and `"é"`, or Hangul jamo and the syllable they compose, are different
 * arguments shown alike). Applied to JSON text (or source-like literal text whose strings are JSON
 * strings) it keeps the meaning: inside a string the escape stands for the same character, and
 * outside strings there are none.
 */
export function escapeControls(text: string): string {
  return text
    .split(STRING_TOKEN)
    .map((token, i) => escapeToken(token, i % 2 === 1))
    .join("");
}

const escapeUnits = (ch: string): string => [...Array(ch.length).keys()].map((i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`).join("");

/** One string literal (with its quotes) or one stretch of text between string literals. */
function escapeToken(token: string, isString: boolean): string {
  const normal = token.normalize("NFC") === token;
  let out = "";
  // Whether the last character shown is renderer syntax (a quote, an escape, the start).
  let afterSyntax = true;
  const chars = [...token];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (isString && ch === "\\") {
      // An escape already in the JSON text: `\uXXXX` or `\` and one character.
      const length = chars[i + 1] === "u" ? 6 : 2;
      out += chars.slice(i, i + length).join("");
      i += length - 1;
      afterSyntax = true;
    } else if (INVISIBLE.test(ch) || (afterSyntax && MARK.test(ch)) || (!normal && ch > "\u007f")) {
      out += escapeUnits(ch);
      afterSyntax = true;
    } else {
      out += ch;
      afterSyntax = isString && ch === '"';
    }
  }
  return out;
}

/**
 * A number as JSON: finite numbers as `JSON.stringify` writes them (shortest round-trip form,
 * `1e+21` for large magnitudes), negative zero as `-0` (valid JSON that parses back to -0).
 * NaN and the infinities have no JSON form: undefined (no sentence is generated for them).
 */
export function numberText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  return Object.is(value, -0) ? "-0" : JSON.stringify(value);
}

function typeName(t: ValueType): string {
  switch (t.kind) {
    case "array": return `${typeName(t.element)}[]`;
    case "record": return t.name;
    case "unsupported": return t.text;
    default: return t.kind;
  }
}

function literalKind(v: LiteralValue): string {
  return v.kind === "array" ? "an array" : `a ${v.kind}`;
}

/**
 * One value of the declared type as sentence text, or the reason it cannot be rendered. The value
 * must have the declared type: a `string` parameter takes a string (typed paths are strings too);
 * `FilePath`/`DirectoryPath` take exactly that typed path; `number`, `boolean` their own kind;
 * arrays take arrays whose every element has the element type.
 */
export function renderValue(value: LiteralValue, type: ValueType): { ok: true; text: string } | { ok: false; reason: string } {
  const mismatch = (): { ok: false; reason: string } => ({ ok: false, reason: `${literalKind(value)} was given where the parameter is declared ${typeName(type)}` });
  switch (type.kind) {
    case "string":
      return value.kind === "string" || value.kind === "FilePath" || value.kind === "DirectoryPath" ? { ok: true, text: quoteString(value.value) } : mismatch();
    case "FilePath":
    case "DirectoryPath":
      return value.kind === type.kind ? { ok: true, text: quoteString(value.value) } : mismatch();
    case "number": {
      if (value.kind !== "number") return mismatch();
      const text = numberText(value.value);
      return text === undefined ? { ok: false, reason: `the number ${String(value.value)} has no JSON form` } : { ok: true, text };
    }
    case "boolean":
      return value.kind === "boolean" ? { ok: true, text: value.value ? "true" : "false" } : mismatch();
    case "array": {
      if (value.kind !== "array") return mismatch();
      if (type.element.kind === "array" || !isDescribable(type.element)) return { ok: false, reason: `type ${typeName(type)} cannot be described` };
      const items: string[] = [];
      for (const [i, item] of value.items.entries()) {
        const r = renderValue(item, type.element);
        if (!r.ok) return { ok: false, reason: `element ${i}: ${r.reason}` };
        items.push(r.text);
      }
      return { ok: true, text: `[${items.join(", ")}]` };
    }
    default:
      return { ok: false, reason: `type ${typeName(type)} cannot be described` };
  }
}

/**
 * Render a description template with a contract call's bound arguments (defaults expanded).
 * Only `{parameter}` substitutions; every parameter must appear and be of a describable type;
 * each value must have its parameter's declared type. Strings and typed paths are quoted as JSON
 * ({@link quoteString}), numbers as JSON ({@link numberText}), booleans as `true`/`false`, arrays as
 * JSON arrays (`["a", "b"]`, elements separated by `, `). Substituted text is never re-read as a
 * template. When no sentence can be generated the result says why; callers then show the
 * contract's first JSDoc paragraph instead. Never executes anything.
 */
export function renderTemplate(template: string, args: readonly RenderArgument[]): RenderResult {
  let parts: TemplatePart[];
  try {
    parts = parseTemplate(template);
  } catch (e) {
    return { ok: false, reason: `invalid template: ${(e as Error).message}` };
  }
  const byName = new Map<string, RenderArgument>();
  for (const a of args) {
    if (byName.has(a.parameter.name)) return { ok: false, reason: `parameter "${a.parameter.name}" is bound twice` };
    byName.set(a.parameter.name, a);
  }
  const used = new Set<string>();
  const rendered = new Map<string, string>();
  for (const part of parts) {
    if (part.kind !== "param") continue;
    const arg = byName.get(part.name);
    if (!arg) return { ok: false, reason: `invalid template: "{${part.name}}" is not a parameter` };
    used.add(part.name);
    if (rendered.has(part.name)) continue;
    if (!isDescribable(arg.parameter.type)) return { ok: false, reason: `parameter "${part.name}" has type ${typeName(arg.parameter.type)}, which cannot be described` };
    const r = renderValue(arg.value, arg.parameter.type);
    if (!r.ok) return { ok: false, reason: `argument "${part.name}": ${r.reason}` };
    rendered.set(part.name, r.text);
  }
  for (const a of args) {
    if (!used.has(a.parameter.name)) return { ok: false, reason: `invalid template: parameter "${a.parameter.name}" does not appear` };
  }
  return { ok: true, text: parts.map((p) => (p.kind === "text" ? p.text : rendered.get(p.name)!)).join("") };
}
