// Adversarial: the matching copy to ann is sent only on a path no run takes (a length below zero);
// the copy every run sends differs. Must never be proved.
// @expect violated sameContent line=7
import { sendEmail } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.sameContent("bob", "ann")];

export function main(message: string): void {
  sendEmail("bob", message);
  if (message.length < 0) sendEmail("ann", message);
  sendEmail("ann", message + " ");
}
