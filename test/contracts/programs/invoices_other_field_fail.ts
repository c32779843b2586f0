// The promise is about amounts only: an account may still be empty.
// @expect violated namedAccounts line=9
import { openInvoices, pay } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.namedAccounts()];

export function main(): void {
  for (const invoice of openInvoices()) pay(invoice.account, invoice.amount);
}
