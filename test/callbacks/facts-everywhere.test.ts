/**
 * What a callback's run establishes at its index over an array of unknown length — the parts of a
 * `trim`, an element promise — holds at every index, also where the method's answer is negated
 * (callbacks.ts `assumedAtEvery`): `xs.some((s) => s.trim() === "")` being false means no element
 * is blank. Folded only into the quantifier that decides (`∃k. facts(k) ∧ hit(k)`), the negation
 * could dodge it with parts that do not make up the string: a false violation (h52 i08). Each
 * case has its twin. IMPORTS are prepended: body line 1 is file line 3.
 */
import { describe } from "vitest";
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const CASES: readonly ProveCase[] = [
  { name: "proved: after `some(blank)` is false, no element is empty", verdict: "proved", body: `export const guarantees = [m.neverEmail("")];
export function main(xs: string[]): void {
  if (xs.some((s) => s.trim() === "")) return;
  for (const x of xs) sendEmail(x, "hi");
}` },
  { name: "violated: after `some(s.trim() === \"a\")` is false, an element may still be empty", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("")];
export function main(xs: string[]): void {
  if (xs.some((s) => s.trim() === "a")) return;
  for (const x of xs) sendEmail(x, "hi");
}` },
  { name: "proved: `every(non-blank)` true means no element is empty", verdict: "proved", body: `export const guarantees = [m.neverEmail("")];
export function main(xs: string[]): void {
  if (!xs.every((s) => s.trim().length > 0)) return;
  for (const x of xs) sendEmail(x, "hi");
}` },
  { name: "proved: the elements before `find(blank)` are not empty", verdict: "proved", body: `export const guarantees = [m.neverEmail("")];
export function main(xs: string[]): void {
  const blank = xs.find((s) => s.trim() === "");
  if (blank === undefined) for (const x of xs) sendEmail(x, "hi");
}` },
  { name: "violated: `find` of a blank one: the blank one is found and emailed", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("")];
export function main(xs: string[]): void {
  const blank = xs.find((s) => s.trim() === "");
  if (blank !== undefined) sendEmail(blank, "hi");
}` },
  { name: "proved: `filter(non-blank)` keeps no empty element", verdict: "proved", body: `export const guarantees = [m.neverEmail("")];
export function main(xs: string[]): void {
  for (const x of xs.filter((s) => s.trim() !== "")) sendEmail(x, "hi");
}` },
  { name: "violated: `filter(blank)` keeps the empty element", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("")];
export function main(xs: string[]): void {
  for (const x of xs.filter((s) => s.trim() === "")) sendEmail(x, "hi");
}` },
];

describe("facts a callback establishes hold at every index", () => {
  proveCases(CASES);
});
