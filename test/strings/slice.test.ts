/**
 * `slice` and `substring` of strings (core/prover/exec/strings.ts `sliced`): JavaScript's index
 * rules over code units. Each verdict was decided from JavaScript's semantics before running the
 * prover; adversarial cases (negative indices, a start past the end, swapped `substring` bounds,
 * NaN and Infinity, a lone surrogate cut from its pair) have benign twins. Body line 1 is file line 3.
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "the first three code units of an input: violated for an input starting with ceo", verdict: "violated", line: 5, match: /s="ceo/, body: `export const guarantees = [m.neverEmail("ceo")];
export function main(s: string): void {
  sendEmail(s.slice(0, 3), "x");
}` },
  { name: "control: slice(0, 3) is never four code units long", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@")];
export function main(s: string): void {
  sendEmail(s.slice(0, 3), "x");
}` },
  { name: "slice(-4) is the last four code units: violated for an input ending with corp", verdict: "violated", line: 5, match: /s="[^"]*corp"/, body: `export const guarantees = [m.neverEmail("corp")];
export function main(s: string): void {
  sendEmail(s.slice(-4), "x");
}` },
  { name: "adversarial: slice(-4) of a shorter string is the whole string", verdict: "violated", line: 5, match: /s="ab"/, body: `export const guarantees = [m.neverEmail("ab")];
export function main(s: string): void {
  if (s.length < 4) sendEmail(s.slice(-4), "x");
}` },
  { name: "adversarial: slice with the start past the end is empty", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("")];
export function main(s: string): void {
  sendEmail(s.slice(3, 1), "x");
}` },
  { name: "adversarial: substring swaps a start past the end", verdict: "violated", line: 5, match: /s="[^"]ab/, body: `export const guarantees = [m.neverEmail("ab")];
export function main(s: string): void {
  sendEmail(s.substring(3, 1), "x");
}` },
  { name: "control: substring(3, 1) of a literal is its code units 1 and 2", verdict: "proved", body: `export const guarantees = [m.neverEmail("ab")];
export function main(): void {
  sendEmail("xyzw".substring(3, 1), "x");
}` },
  { name: "adversarial: substring clamps a negative start to 0 (slice counts it from the end)", verdict: "violated", line: 5, match: /s="ab/, body: `export const guarantees = [m.neverEmail("ab")];
export function main(s: string): void {
  if (s.length === 3) sendEmail(s.substring(-2, 2), "x");
}` },
  { name: "control: slice(-2, 2) of a three-unit string is one unit", verdict: "proved", body: `export const guarantees = [m.neverEmail("ab")];
export function main(s: string): void {
  if (s.length === 3) sendEmail(s.slice(-2, 2), "x");
}` },
  { name: "NaN is 0 and Infinity the end: slice(NaN, Infinity) is the whole string", verdict: "violated", line: 5, match: /s="ceo"/, body: `export const guarantees = [m.neverEmail("ceo")];
export function main(s: string): void {
  sendEmail(s.slice(NaN, Infinity), "x");
}` },
  { name: "a symbolic start: what follows a prefix of another input's length", verdict: "violated", line: 5, match: /rivals/, body: `export const guarantees = [m.neverEmail("rivals")];
export function main(s: string, prefix: string): void {
  if (s.startsWith(prefix)) sendEmail(s.slice(prefix.length), "x");
}` },
  { name: "control: after a prefix of the same length the rest is shorter by it", verdict: "proved", body: `export const guarantees = [m.neverEmail("rivals")];
export function main(s: string, prefix: string): void {
  if (s.length === prefix.length + 2) sendEmail(s.slice(prefix.length), "x");
}` },
  { name: "adversarial: slicing through a surrogate pair leaves a lone surrogate", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("\\ud83d")];
export function main(): void {
  sendEmail("\\ud83d\\ude00".slice(0, 1), "x");
}` },
  // A literal head cut at or past its end stays the head (strings.ts `literalHead`, h52 i09).
  { name: "a prefixed text cut to 12 code units still starts with the prefix", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo")];
export function main(s: string, t: string): void {
  const title = \`[infra] \${s}: \${t}\`.slice(0, 12);
  if (!title.startsWith("[infra] ") || title.length > 12) sendEmail("ceo", "x");
}` },
  { name: "adversarial: cut to 5 code units, inside the prefix", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("ceo")];
export function main(s: string): void {
  const title = ("[infra] " + s).slice(0, 5);
  if (!title.startsWith("[infra] ")) sendEmail("ceo", "x");
}` },
  { name: "adversarial: cut from 1, the prefix loses its first code unit", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("ceo")];
export function main(s: string): void {
  const title = ("[infra] " + s).substring(1, 40);
  if (!title.startsWith("[infra] ")) sendEmail("ceo", "x");
}` },
  { name: "the rest is cut exactly: a prefix and 4 code units of the input", verdict: "violated", line: 6, match: /s="ceo@/, body: `export const guarantees = [m.neverEmail("ceo@")];
export function main(s: string): void {
  const title = ("[x] " + s).substring(0, 8);
  sendEmail(title.slice(4), "x");
}` },
];

describe("slice and substring of strings", () => {
  proveCases(cases);
});
