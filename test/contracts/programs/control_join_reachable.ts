// Control for adversarial_join_unreachable: the same program with a condition every run meets.
// @expect proved
import { sendEmail } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.sameContent("bob", "ann")];

export function main(message: string): void {
  sendEmail("bob", message);
  if (message.length >= 0) sendEmail("ann", message);
  sendEmail("ann", message + " ");
}
