// Pays every open invoice: amounts are promised positive, so pay's precondition and the guarantee hold.
// @expect proved
import { openInvoices, pay } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.positivePayments()];

export function main(): void {
  for (const invoice of openInvoices()) pay(invoice.account, invoice.amount);
}
