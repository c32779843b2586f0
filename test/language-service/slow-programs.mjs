/**
 * Programs for the editor-scheduling tests and the bench (test/e2e/tsserver-scheduling.test.ts,
 * bench/tsserver.mjs): a billing layer whose `openInvoices` promises bounded amounts, a budget
 * loop over its results with a running total (a slow proof: Float64 sums over an array of unknown
 * length), and a trivial program beside it.
 */

/** The billing layer, as files of a project (`tools/billing/trusted/`). */
export const BILLING_LAYER = {
  "tools/billing/trusted/events.ts": `import { Event } from "clauz3/events";

/** A payment of amount to payee. */
export class Payment extends Event {
  constructor(readonly payee: string, readonly amount: number) {
    super();
  }
}
`,
  "tools/billing/trusted/effects.ts": `import { ensures, requires, trusted } from "clauz3";
import { performs } from "clauz3/events";
import { Payment } from "./events";

/** One open invoice. */
export interface Invoice {
  readonly payee: string;
  readonly amount: number;
}

/** The open invoices of customer c: at most 12, every amount positive and at most 1000. */
export const openInvoices = trusted(
  ensures((r: Invoice[]) => r.length <= 12, "at most 12 invoices"),
  ensures((r: Invoice[]) => r.every((inv) => inv.amount > 0 && inv.amount <= 1000), "every amount is in (0, 1000]"),
  function openInvoices(c: string): Invoice[] {
    return c === "" ? [] : [{ payee: "acme", amount: 120 }];
  },
);

/** Pay amount to payee. */
export const pay = trusted(
  performs((payee: string, amount: number) => new Payment(payee, amount)),
  requires((amount: number) => amount > 0, "amount must be positive"),
  function pay(payee: string, amount: number): void {},
);
`,
  "tools/billing/trusted/contracts.ts": `import { contract, type ContractSpec } from "clauz3/spec";
import { Payment } from "./events";

/** The payments add up to at most limit. */
export const spendAtMost = contract(
  { description: "The payments add up to at most {limit}." },
  (limit: number): ContractSpec => Payment.sum((p) => p.amount).atMost(limit),
);

/** Every payment is positive. */
export const positivePayments = contract(
  { description: "Every payment is positive." },
  (): ContractSpec => Payment.all((p) => p.amount > 0),
);
`,
};

const HEADER = `import { openInvoices, pay } from "./tools/billing/trusted/effects";
import * as billing from "./tools/billing/trusted/contracts";
`;

/** The budget loop: pays invoices while the running total stays within 2000. `n` makes the text new. */
export function slowProgram(n = 0) {
  return (
    HEADER +
    `export const guarantees = [billing.spendAtMost(2000)];
export function main(c: string): void {
  let total = 0; // version ${n}
  for (const inv of openInvoices(c)) {
    if (total + inv.amount <= 2000) {
      pay(inv.payee, inv.amount);
      total += inv.amount;
    }
  }
}
`
  );
}

/** A trivial program of the same layer (proved at once). `n` makes the text new. */
export function trivialProgram(n = 0) {
  return (
    HEADER +
    `export const guarantees = [billing.positivePayments()];
export function main(payee: string): void {
  pay(payee, 5); // version ${n}
}
`
  );
}
