// Adversarial: inside a loop over an input the copy to ann is sent only for elements no run has
// (a string of negative length). Must never be proved.
// @expect violated sameContent line=7
import { sendEmail } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.sameContent("bob", "ann")];

export function main(messages: string[]): void {
  for (const m of messages) {
    sendEmail("bob", m);
    if (m.length < 0) sendEmail("ann", m);
  }
  if (messages.length === 0) {
    sendEmail("bob", "nothing new");
    sendEmail("ann", "nothing new");
  }
}
