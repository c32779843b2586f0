// Every message goes to both, and one more pair when there is no message: a pair on every run,
// found among the iterations of a loop over an input.
// @expect proved
import { sendEmail } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.sameContent("bob", "ann")];

export function main(messages: string[]): void {
  for (const m of messages) {
    sendEmail("bob", m);
    sendEmail("ann", m);
  }
  if (messages.length === 0) {
    sendEmail("bob", "nothing new");
    sendEmail("ann", "nothing new");
  }
}
