/**
 * Totals and texts a loop over an array of unknown length keeps only to log them (loopstate.ts
 * `onlyLoggedVariable`: any value at every step, no invariant). Each verdict was decided from
 * JavaScript's semantics before running the prover; body line 1 is file line 4.
 */
import type { LoopCase } from "./cases";
import { proveLoopCases } from "./run-cases";

const cases: LoopCase[] = [
  { name: "a total of fractions kept only to log it: every payment is within its limit", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(1000)];
export function main(): void {
  let total = 0;
  for (const inv of roughInvoices()) {
    pay(inv.payee, inv.amount);
    total += inv.amount;
  }
  console.log(\`paid \${total.toFixed(2)} in all\`);
}` },
  { name: "a report text built only to log it", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(1000)];
export function main(): void {
  let report = "";
  for (const inv of roughInvoices()) {
    pay(inv.payee, inv.amount);
    report += \`\${inv.payee}: \${inv.amount}\\n\`;
  }
  console.info(report);
}` },
  { name: "adversarial: the logged total also decides a call: not only logged, and a short run sends the email", verdict: "violated", line: 12, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  let total = 0;
  for (const inv of roughInvoices()) {
    pay(inv.payee, inv.amount);
    total += inv.amount;
  }
  console.log(\`paid \${total}\`);
  if (total > 2500) sendEmail("ops", "big");
}` },
  { name: "adversarial: the total passed to a tool is not only logged", verdict: "refused", line: 9, body: `export const guarantees = [m.nothing()];
export function main(): void {
  let total = 0;
  for (const inv of roughInvoices()) {
    pay(inv.payee, inv.amount);
    total += inv.amount;
  }
  log(\`paid \${total}\`);
}` },
  { name: "adversarial: a closure reads the total", verdict: "refused", body: `export const guarantees = [m.nothing()];
export function main(): void {
  let total = 0;
  const show = () => console.log(total);
  for (const inv of roughInvoices()) {
    pay(inv.payee, inv.amount);
    total += inv.amount;
  }
  show();
}` },
  { name: "an integer total of any size, only logged (no invariant bounds it)", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(1000)];
export async function main(): Promise<void> {
  let total = 0;
  for (const inv of await openInvoices()) {
    pay(inv.payee, inv.amount);
    total += inv.amount;
  }
  console.log("total", total);
}` },
];

proveLoopCases("totals only logged", cases);
