import type { ValueType } from "./model";

/** Version of the sentence renderer: part of every guarantee's identity. */
export const RENDERER_VERSION = "clauz3-template/1";

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
