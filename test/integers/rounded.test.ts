/**
 * A rounded number of a bounded finite value (`Math.round(e.cents * 1.05)`) is an integer with an
 * Int term (core/prover/exec/builtins.ts `roundedInteger`): a fresh integer with the fact that the
 * Float64 rounding equals it, so `Number.isInteger` of it is true and its comparisons stay in
 * integer arithmetic. The Float64 term stays exact (ties round up, -0, the double rounding of a
 * product). Verdicts decided from JavaScript's semantics; IMPORTS are prepended (body line 1 is
 * file line 3).
 */
import { describe } from "vitest";
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "a rounded length times a fraction is an integer", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  const n = Math.round(xs.length * 1.05);
  if (!Number.isInteger(n) || !Number.isSafeInteger(Math.floor(xs.length / 3 * 1.5))) sendEmail("ceo@corp", "x");
}` },
  { name: "the guard before a precondition decides it: a rounded amount of at least 1 is positive", verdict: "proved", body: `export const guarantees = [m.nothing()];
export function main(xs: string[]): void {
  const amount = Math.round(xs.length * 1.05);
  if (amount < 1) return;
  pay("acct", amount);
}` },
  { name: "adversarial: a rounded amount may be 0 (an empty list)", verdict: "violated", line: 7, match: /xs=\[\]/, body: `export const guarantees = [m.nothing()];
export function main(xs: string[]): void {
  const amount = Math.round(xs.length * 1.05);
  if (amount < 0) return;
  pay("acct", amount);
}` },
  { name: "adversarial: Math.round of -0.4 is -0, and the Float64 term still tells", verdict: "violated", line: 5, match: /xs=\[\]/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  if (1 / Math.round((xs.length - 1) * 0.4) === -Infinity) sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: a tie rounds up (0.5 to 1, -0.5 to -0)", verdict: "violated", line: 6, match: /xs=\["[^"]*"\]/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  const up = Math.round(xs.length * 0.5);
  if (xs.length === 1 && up === 1 && 1 / Math.round((xs.length - 2) * 0.5) === -Infinity) sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: 1.005 * 100 is 100.49999999999999 in doubles, so it rounds to 100", verdict: "violated", line: 5, match: /xs=\["[^"]*"\]/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  if (xs.length === 1 && Math.round(xs.length * 1.005 * 100) === 100) sendEmail("ceo@corp", "x");
}` },
  { name: "control: the same product never rounds to 101", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  if (xs.length === 1 && Math.round(xs.length * 1.005 * 100) === 101) sendEmail("ceo@corp", "x");
}` },
  { name: "rounded amounts add up as integers: three raises of at most 1050 each", verdict: "proved", body: `export const guarantees = [m.spendAtMost(3150)];
export function main(): void {
  for (const r of fewContacts()) {
    const amount = Math.min(Math.round(r.length * 1.05), 1050);
    if (amount > 0) pay(r, amount);
  }
}` },
  { name: "adversarial: without the cap, a longer name is paid more than 1", verdict: "violated", line: 7, body: `export const guarantees = [m.noPaymentOver(1)];
export function main(): void {
  for (const r of fewContacts()) {
    const amount = Math.round(r.length * 1.05);
    if (amount > 0) pay(r, amount);
  }
}` },
  // (A loop over a list of any length whose rounding must be bounded below its Int bound, e.g.
  // `Math.round(Math.min(r.length, 11) * 0.5) > 6`, still needs the Float64 fact under the
  // loop's index: the solver times out, as it did before the Int term; not tested here.)
  { name: "in a loop over a list of any length, each rounding is its own integer within its bound", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const r of contacts()) {
    const half = Math.round(r.length * 0.5);
    if (!Number.isInteger(half) || half > 536870913) sendEmail("ceo@corp", r);
  }
}` },
  { name: "a value that may be NaN or infinite gets no Int term: Math.round of it may be NaN", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(x: number): void {
  if (!Number.isInteger(Math.round(x * 1.05))) sendEmail("ceo@corp", "x");
}` },
  { name: "a rounding past 2^53 gets no Int term: `%` of it is refused", verdict: "refused", line: 6, match: /`%` is modelled on integers/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[], ys: string[]): void {
  const big = Math.round(xs.length * 0.5 * ys.length * 4194304.5);
  if (big % 2 === 0) sendEmail("ceo@corp", "x");
}` },
];

describe("rounded numbers as integers", () => proveCases(cases));
