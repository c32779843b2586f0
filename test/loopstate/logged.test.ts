/**
 * Totals and texts a loop over an array of unknown length keeps only to log them (loopstate.ts
 * `onlyLoggedVariable`: any value at every step, no invariant). Each verdict was decided from
 * JavaScript's semantics before running the prover; body line 1 is file line 4.
 */
import { describe, expect, it } from "vitest";
import { problems, prove } from "../prover/prove-helpers";
import { LOOP_EXTRA, LOOP_IMPORT } from "./layer";
import type { LoopCase } from "./cases";

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

describe("totals only logged", () => {
  for (const c of cases) {
    it(`${c.verdict}: ${c.name}`, async () => {
      const v = await prove(LOOP_IMPORT + c.body, LOOP_EXTRA);
      const shown = JSON.stringify(problems(v), null, 1);
      expect(v.verdict, shown).toBe(c.verdict);
      if (c.line !== undefined) expect(problems(v).map((p) => p.line), shown).toContain(c.line);
    }, 600_000);
  }
});
