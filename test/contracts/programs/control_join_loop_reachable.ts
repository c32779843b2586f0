// Control for adversarial_join_loop_unreachable: the copy is sent for every element.
// @expect proved
import { sendEmail } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.sameContent("bob", "ann")];

export function main(messages: string[]): void {
  for (const m of messages) {
    sendEmail("bob", m);
    if (m.length >= 0) sendEmail("ann", m);
  }
  if (messages.length === 0) {
    sendEmail("bob", "nothing new");
    sendEmail("ann", "nothing new");
  }
}
