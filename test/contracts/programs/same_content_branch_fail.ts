// The Python reference's same_content (branch): one branch sends only to bob, the other only to ann.
// @expect violated sameContent line=6
import { sendEmail } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.sameContent("bob", "ann")];

export function main(message: string, urgent: boolean): void {
  if (urgent) sendEmail("bob", message);
  else sendEmail("ann", message);
}
