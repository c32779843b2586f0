/**
 * `JSON.stringify` of modelled values (core/prover/exec/json.ts): escaping of known strings
 * (lone surrogates as \uXXXX), numbers (-0 as "0", NaN and Infinity as null, integers by their
 * digits), booleans, arrays (`undefined` as null), object literals in their own-key order
 * (`undefined` properties left out), and the refusals (unknown strings, non-integer numbers,
 * tool objects, `toJSON`, replacer and indentation). Verdicts decided from JavaScript's semantics
 * before running the prover. IMPORTS are prepended: body line 1 is file line 3.
 */
import { describe } from "vitest";
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "a record in its key order", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail('{"to":"a","n":3,"ok":true}')];
export function main(): void {
  sendEmail(JSON.stringify({ to: "a", n: 3, ok: true }), "s");
}` },
  { name: "control: another key order is another text", verdict: "proved", body: `export const guarantees = [m.neverEmail('{"n":3,"to":"a","ok":true}')];
export function main(): void {
  sendEmail(JSON.stringify({ to: "a", n: 3, ok: true }), "s");
}` },
  { name: "array-index keys come first", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail('{"1":2,"b":1}')];
export function main(): void {
  sendEmail(JSON.stringify({ b: 1, "1": 2 }), "s");
}` },
  { name: "escaping: quotes, backslashes, controls and a lone surrogate", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail(${JSON.stringify(JSON.stringify(["a\"b\\c\n\u0001\ud800", "\ud83d\ude00"]))})];
export function main(): void {
  sendEmail(JSON.stringify(["a\\"b\\\\c\\n\\u0001\\ud800", "\\ud83d\\ude00"]), "s");
}` },
  { name: "numbers: -0, NaN, Infinity, fractions", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("[0,null,null,0.1,1e+21]")];
export function main(): void {
  sendEmail(JSON.stringify([-0, NaN, -Infinity, 0.1, 1e21]), "s");
}` },
  { name: "an integer by its digits", verdict: "violated", match: /to="\[-?\d+\]"/, body: `export const guarantees = [m.neverEmail("[12]")];
export function main(xs: string[]): void {
  sendEmail(JSON.stringify([xs.length]), "s");
}` },
  { name: "control: a length is never negative in its JSON", verdict: "proved", body: `export const guarantees = [m.neverEmail("[-1]")];
export function main(xs: string[]): void {
  sendEmail(JSON.stringify([xs.length]), "s");
}` },
  { name: "undefined properties are left out, undefined elements are null", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail('{"a":1}|[null,1]')];
export function main(): void {
  const u: number | undefined = undefined;
  sendEmail(JSON.stringify({ a: 1, b: u }) + "|" + JSON.stringify([u, 1]), "s");
}` },
  { name: "a property that may be undefined is there only where it is defined", verdict: "violated", match: /c=false/, body: `export const guarantees = [m.neverEmail('{"b":true}')];
export function main(c: boolean): void {
  const a = c ? 1 : undefined;
  sendEmail(JSON.stringify({ a, b: true }), "s");
}` },
  { name: "control: the comma follows a present property only", verdict: "proved", body: `export const guarantees = [m.neverEmail('{,"b":true}'), m.neverEmail('{"a":1"b":true}')];
export function main(c: boolean): void {
  const a = c ? 1 : undefined;
  sendEmail(JSON.stringify({ a, b: true }), "s");
}` },
  { name: "a boolean input", verdict: "violated", match: /c=true/, body: `export const guarantees = [m.neverEmail("[true]")];
export function main(c: boolean): void {
  sendEmail(JSON.stringify([c]), "s");
}` },
  { name: "undefined at the top is undefined", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if (JSON.stringify(undefined) !== undefined) sendEmail("x", "s");
}` },
  { name: "an array the program built", verdict: "violated", match: /skip="c".*SendEmail\(to="\[\\"a\\",\\"b\\"\]"/, body: `export const guarantees = [m.neverEmail('["a","b"]')];
export function main(skip: string): void {
  const out: string[] = [];
  for (const x of ["a", "b", "c"]) if (x !== skip) out.push(x);
  sendEmail(JSON.stringify(out), "s");
}` },
  // ── refused ──
  { name: "adversarial: a toJSON method is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  sendEmail(JSON.stringify({ a: 1, toJSON: () => { sendEmail("x", "y"); return 1; } }), "s");
}` },
  { name: "adversarial: a toJSON value is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  sendEmail(JSON.stringify({ a: 1, toJSON: 2 }), "s");
}` },
  { name: "adversarial: an unknown string is quoted (conversions.ts)", verdict: "violated", line: 5, match: /to="a"/, body: `export const guarantees = [m.neverEmail('"a"')];
export function main(to: string): void {
  sendEmail(JSON.stringify(to), "s");
}` },
  { name: "adversarial: a number that may be a fraction is written as JavaScript writes it", verdict: "violated", line: 5, match: /x=0\.3/, body: `export const guarantees = [m.neverEmail("0.3")];
export function main(x: number): void {
  sendEmail(JSON.stringify(x), "s");
}` },
  { name: "adversarial: a replacer is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  sendEmail(JSON.stringify({ a: 1 }, null, 2), "s");
}` },
  { name: "adversarial: a tool's record is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.emailsAtMost(5)];
export function main(): void {
  for (const r of rows()) sendEmail(JSON.stringify(r), "s");
}` },
  { name: "adversarial: a Set is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.emailsAtMost(5)];
export function main(): void {
  sendEmail(JSON.stringify(new Set(["a"])), "s");
}` },
  { name: "an array the program builds, inside the literal JSON.stringify is given (h56 i40)", verdict: "violated", line: 8, match: /\{\\"n\\":2,\\"ids\\":\[\\"a\\",\\"b\\"\]\}|SendEmail/, body: `export const guarantees = [m.neverEmail('{"n":2,"ids":["a","b"]}')];
export function main(): void {
  const ids: string[] = [];
  for (const x of ["a", "b"]) ids.push(x);
  const text = JSON.stringify({ n: ids.length, ids });
  sendEmail(text, "summary");
}` },
  { name: "control: the same array pushed to after the text was made is not in it", verdict: "proved", body: `export const guarantees = [m.neverEmail('{"ids":["a","b","c"]}')];
export function main(): void {
  const ids: string[] = ["a", "b"];
  const text = JSON.stringify({ ids: [...ids, ...[]], all: [ids] });
  ids.push("c");
  sendEmail(text, "summary");
}` },
  { name: "adversarial: an array stored in an object by a shorthand property is refused (a wrong proof before session 43)", verdict: "refused", match: /stored, passed or captured/, body: `export const guarantees = [m.neverEmail('{"ids":["a","b"]}')];
export function main(): void {
  const ids: string[] = ["a"];
  const summary = { ids };
  ids.push("b");
  sendEmail(JSON.stringify(summary), "summary");
}` },
  { name: "adversarial: the same with a property assignment", verdict: "refused", match: /stored, passed or captured/, body: `export const guarantees = [m.neverEmail('{"ids":["a","b"]}')];
export function main(): void {
  const ids: string[] = ["a"];
  const summary = { ids: ids };
  ids.push("b");
  sendEmail(JSON.stringify(summary), "summary");
}` },
];

describe("JSON.stringify of modelled values", () => {
  proveCases(cases);
});
