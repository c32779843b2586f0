// fewInvoices returns at most 3 invoices (unrolled exactly), each with a positive amount and an account.
// @expect proved
import { fewInvoices, pay } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.namedAccounts(), mail.positivePayments()];

export function main(): void {
  for (const invoice of fewInvoices()) pay(invoice.account, invoice.amount);
}
