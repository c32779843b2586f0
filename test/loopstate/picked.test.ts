/**
 * A variable a loop over an array of unknown length sets only to its element (`if (o.price <
 * best.price) best = o`: the cheapest, the largest, the longest), core/prover/exec/loopstate.ts:
 * carried as the index of the element it holds (-1 while it holds its value from before the
 * loop). After the loop it is that value or an element the loop visited and kept, exactly; which
 * one is not assumed, so violations are reported only once a run with short arrays shows them.
 * Each verdict was decided from JavaScript's semantics before running the prover. Line numbers
 * count the three prepended import lines (body line 1 is file line 4).
 */
import { describe } from "vitest";
import { prove, proveCases, type ProveCase } from "../prover/prove-helpers";
import { LOOP_EXTRA, LOOP_IMPORT } from "./layer";

const run = (body: string) => prove(LOOP_IMPORT + body, LOOP_EXTRA);

const CASES: readonly ProveCase[] = [
  {
    name: "proved: the cheapest invoice among those of at most 500 is paid, starting from the first of them",
    verdict: "proved",
    body: `export const guarantees = [m.noPaymentOver(500)];
export async function main(): Promise<void> {
  const cheap = (await openInvoices()).filter((i) => i.amount <= 500);
  if (cheap.length === 0) return;
  let best = cheap[0];
  for (const inv of cheap) if (inv.amount < best.amount) best = inv;
  pay(best.payee, best.amount);
}`,
  },
  {
    name: "violated: the loop skips invoices over 500, but the start value is the first of all of them (one invoice of 600)",
    verdict: "violated",
    line: 10,
    body: `export const guarantees = [m.noPaymentOver(500)];
export async function main(): Promise<void> {
  const all = await openInvoices();
  if (all.length === 0) return;
  let best = all[0];
  for (const inv of all) { if (inv.amount > 500) continue; if (inv.amount < best.amount) best = inv; }
  pay(best.payee, best.amount);
}`,
  },
  {
    name: "proved: fractional amounts, the loop over a filter, the start `undefined` and `if (best)` after it",
    verdict: "proved",
    body: `export const guarantees = [m.noPaymentOver(300)];
export function main(): void {
  let best: { payee: string; amount: number } | undefined = undefined;
  for (const inv of roughInvoices().filter((i) => i.amount <= 300)) {
    if (best === undefined || inv.amount < best.amount) best = inv;
  }
  if (best) pay(best.payee, best.amount);
}`,
  },
  {
    name: "violated: the largest invoice is paid under a cap of 999 (amounts reach 1000)",
    verdict: "violated",
    line: 9,
    body: `export const guarantees = [m.noPaymentOver(999)];
export async function main(): Promise<void> {
  let top: { payee: string; amount: number } | undefined;
  for (const inv of await openInvoices()) if (top === undefined || inv.amount > top.amount) top = inv;
  if (top !== undefined) {
    pay(top.payee, top.amount);
  }
}`,
  },
  {
    name: "violated: the longest contact is emailed, and it may be the excluded address",
    verdict: "violated",
    line: 8,
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(): void {
  let longest = "";
  for (const c of contacts()) if (c.length > longest.length) longest = c;
  sendEmail(longest, "hello");
}`,
  },
  {
    name: "refused (true verdict: proved): starting from a three-letter name it is never \"ceo\", but that needs an invariant about the lengths",
    verdict: "refused",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(): void {
  let longest = "ops";
  for (const c of contacts()) if (c.length > longest.length) longest = c;
  sendEmail(longest, "hello");
}`,
  },
  {
    name: "proved: the longest contact other than the excluded address, or the start value",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(): void {
  let longest = "ops";
  for (const c of contacts()) if (c !== "ceo" && c.length > longest.length) longest = c;
  sendEmail(longest, "hello");
}`,
  },
  {
    name: "proved: the largest of numbers given by the caller, paid only within (0, 500] (-Infinity and NaN never pass)",
    verdict: "proved",
    body: `export const guarantees = [m.noPaymentOver(500)];
export function main(xs: number[]): void {
  let max = -Infinity;
  for (const x of xs) if (x > max) max = x;
  if (max > 0 && max <= 500) pay("a", max);
}`,
  },
  {
    name: "violated: the largest number given by the caller is paid when positive",
    verdict: "violated",
    line: 8,
    body: `export const guarantees = [m.noPaymentOver(500)];
export function main(xs: number[]): void {
  let max = -Infinity;
  for (const x of xs) if (x > max) max = x;
  if (max > 0) pay("a", max);
}`,
  },
  {
    name: "violated: the spread between the largest and the smallest is paid, and it is 0 for one invoice (a failing precondition)",
    verdict: "violated",
    line: 11,
    body: `export const guarantees = [m.noRefunds()];
export async function main(): Promise<void> {
  const all = await openInvoices();
  if (all.length === 0) return;
  let lo = all[0];
  let hi = all[0];
  for (const inv of all) { if (inv.amount < lo.amount) lo = inv; if (inv.amount > hi.amount) hi = inv; }
  pay(hi.payee, hi.amount - lo.amount);
}`,
  },
  {
    name: "proved: the current best is read inside the loop after it changed, and a call made with it",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(): void {
  let pick = "ops";
  for (const c of contacts()) {
    if (c.endsWith("@corp") && c.length < 20) {
      pick = c;
      sendEmail(pick, "candidate");
    }
  }
  sendEmail(pick, "chosen");
}`,
  },
  {
    name: "refused: a record built from the element is not the element (its index would not say what it holds)",
    verdict: "refused",
    match: /may only be set to the loop's element/,
    body: `export const guarantees = [m.noPaymentOver(500)];
export async function main(): Promise<void> {
  let best = { payee: "a", amount: 1 };
  for (const inv of await openInvoices()) {
    if (inv.amount < best.amount) best = inv;
    else if (inv.amount === 7) best = { payee: inv.payee, amount: 2 };
  }
  pay(best.payee, best.amount);
}`,
  },
  {
    name: "refused (true verdict: proved): an element of another array is not the loop's element",
    verdict: "refused",
    match: /set it only to the loop's element or one field of it/,
    body: `export const guarantees = [m.noPaymentOver(500)];
export async function main(): Promise<void> {
  const all = (await openInvoices()).filter((i) => i.amount <= 500);
  const other = (await openInvoices()).filter((i) => i.amount <= 500);
  if (other.length === 0) return;
  let best = all[0];
  for (const inv of all) { const o = other[0]; if (inv.amount < 3) best = o; }
  if (best) pay(best.payee, best.amount);
}`,
  },
  {
    name: "proved: the smallest fractional amount, from Infinity, paid only when at most 300",
    verdict: "proved",
    body: `export const guarantees = [m.noPaymentOver(300)];
export function main(): void {
  let min = Infinity;
  for (const inv of roughInvoices()) if (inv.amount < min) min = inv.amount;
  if (min <= 300) pay("a", min);
}`,
  },
  {
    name: "violated: the payee of the last small invoice is emailed, and it may be the excluded address",
    verdict: "violated",
    line: 8,
    body: `export const guarantees = [m.neverEmail("ceo")];
export async function main(): Promise<void> {
  let who = "ops";
  for (const inv of await openInvoices()) if (inv.amount < 10) who = inv.payee;
  sendEmail(who, "small invoice");
}`,
  },
  {
    name: "proved: the payee of the last small invoice not addressed to the excluded address",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("ceo")];
export async function main(): Promise<void> {
  let who = "ops";
  for (const inv of await openInvoices()) {
    if (inv.payee === "ceo") continue;
    if (inv.amount < 10) who = inv.payee;
  }
  sendEmail(who, "small invoice");
}`,
  },
  {
    name: "refused: a value computed from the field is not the field",
    verdict: "refused",
    match: /may only be set to the loop's element/,
    body: `export const guarantees = [m.neverEmail("ceo")];
export async function main(): Promise<void> {
  let who = "ops";
  for (const inv of await openInvoices()) {
    if (inv.amount < 10) who = inv.payee;
    else if (inv.amount > 900) who = inv.payee.trim();
  }
  sendEmail(who, "small invoice");
}`,
  },
];

describe("a variable a loop over an array of unknown length sets to its element", () => {
  proveCases(CASES, run);
});
