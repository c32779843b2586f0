/**
 * Digests of JSON data: SHA-256 of its RFC 8785 canonical form (JCS: keys sorted by code unit, no
 * whitespace, numbers as ECMAScript prints them), so that any language can recompute a digest the
 * approval service or a receipt names. Each digested document carries a `format` tag, so a digest
 * of one kind of document can never stand for another.
 */
import canonicalize from "canonicalize";
import { sha256Hex } from "../lock/digest";

/** The canonical text of JSON data; throws on what JSON cannot hold (undefined, functions, non-finite numbers). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("the value has no JSON form");
  return text;
}

/** SHA-256 (hex) of the canonical JSON of `{ format, ...fields }`. */
export function digestOf(format: string, fields: Readonly<Record<string, unknown>>): string {
  return sha256Hex(Buffer.from(canonicalJson({ ...fields, format }), "utf8"));
}

/** Where `value` is not JSON data (undefined, a function, a non-finite number, a non-plain object), or undefined when it is. */
export function jsonProblem(value: unknown, field: string): { readonly field: string; readonly problem: string } | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : { field, problem: `is ${String(value)}, which JSON cannot hold` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = jsonProblem(value[i], `${field}[${i}]`);
      if (p) return p;
    }
    return undefined;
  }
  if (typeof value === "object" && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
    for (const [k, v] of Object.entries(value)) {
      const p = jsonProblem(v, /^[A-Za-z_$][\w$]*$/.test(k) ? `${field}.${k}` : `${field}[${JSON.stringify(k)}]`);
      if (p) return p;
    }
    return undefined;
  }
  const what = value === undefined ? "undefined" : typeof value === "object" ? "an object that is not plain JSON data" : `a ${typeof value}`;
  return { field, problem: `is ${what}, which JSON cannot hold` };
}
