/**
 * `reduce` over an array of unknown length (core/prover/exec/reduce-carried.ts): the accumulator
 * is carried across the iterations of a loop, proved for every length by an inductive invariant
 * (core/prover/loop-invariants.ts) as a `let` a `for…of` adds to is; a violation is confirmed by a
 * run with short arrays. Each verdict was decided from JavaScript's semantics before running the
 * prover. Line numbers count the three prepended import lines (body line 1 is file line 4).
 */
import type { LoopCase } from "./cases";
import { proveLoopCases } from "./run-cases";

/** Minutes booked in slots of `slot` into what is left of a day after the invoices' total (h57 i26's shape), for at most four people. */
const booking = (limit: number, slot = 90) => `export const guarantees = [m.emailsAtMost(${limit})];
export async function main(to: string[]): Promise<void> {
  const used = (await openInvoices()).reduce((sum, inv) => sum + inv.amount, 0);
  const remaining = Math.min(180, 480 - used);
  let booked = 0;
  for (const t of to.slice(0, 4)) {
    if (booked + ${slot} > remaining) break;
    sendEmail(t, "slot");
    booked += ${slot};
  }
}`;

const cases: LoopCase[] = [
  { name: "a total of positive integral amounts is never negative", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(): Promise<void> {
  const total = (await openInvoices()).reduce((s, inv) => s + inv.amount, 0);
  if (total < 0) sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: a ledger with credits may total below zero", verdict: "violated", line: 7, match: /amount: -/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const total = ledger().reduce((s, inv) => s + inv.amount, 0);
  if (total < 0) sendEmail("ceo@corp", "x");
}` },
  { name: "a total over a filter's kept elements: only kept amounts are added", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const credits = ledger().filter((inv) => inv.amount < 0).reduce((s, inv) => s + inv.amount, 0);
  if (credits > 0) sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: the total starts from its initial value (100 with no invoices)", verdict: "violated", line: 7, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(): Promise<void> {
  const total = (await openInvoices()).reduce((s, inv) => s + inv.amount, 100);
  if (total === 100) sendEmail("ceo@corp", "x");
}` },
  { name: "what is left of the day after the total bounds the bookings: at most two slots of 90", verdict: "proved", body: booking(2) },
  { name: "adversarial: two slots of 90 fit when the invoices total nothing", verdict: "violated", line: 11, body: booking(1) },
  { name: "a counting callback (`n + 1`) never counts past the length", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  const n = to.reduce((count, t) => count + 1, 0);
  if (n > to.length || n < 0) sendEmail("ceo@corp", "x");
}` },
  { name: "amounts that may be fractions are refused", verdict: "refused", line: 6, match: /may not be an exact integer/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const total = roughInvoices().reduce((s, inv) => s + inv.amount, 0);
  if (total < 0) sendEmail("ceo@corp", "x");
}` },
  { name: "without an initial value it is refused (no short run breaks the guarantee)", verdict: "refused", line: 8, match: /without an initial value/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(): Promise<void> {
  const amounts = (await openInvoices()).map((inv) => inv.amount);
  if (amounts.length === 0) return;
  const total = amounts.reduce((s, a) => s + a);
  if (total < 0) sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: without an initial value, a short run still shows the violation", verdict: "violated", line: 8, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const amounts = ledger().map((inv) => inv.amount);
  if (amounts.length === 0) return;
  const total = amounts.reduce((s, a) => s + a);
  if (total < 0) sendEmail("ceo@corp", "x");
}` },
  { name: "a callback reading the index is refused", verdict: "refused", line: 6, match: /without the index/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const total = ledger().reduce((s, inv, i) => s + i, 0);
  if (total < 0) sendEmail("ceo@corp", "x");
}` },
  { name: "inside another loop over an array of unknown length it is refused (no short run breaks the guarantee)", verdict: "refused", line: 7, match: /inside another loop/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(to: string[]): Promise<void> {
  for (const t of to) {
    const total = (await openInvoices()).reduce((s, inv) => s + inv.amount, 0);
    if (total < 0) sendEmail("ceo@corp", t);
  }
}` },
];

proveLoopCases("reduce over an array of unknown length, its accumulator carried", cases);
