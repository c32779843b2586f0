// The Python reference's same_content (fail): ann is sent a different message than bob.
// @expect violated sameContent line=6
import { sendEmail } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.sameContent("bob", "ann")];

export function main(message: string): void {
  sendEmail("bob", message);
  sendEmail("ann", message + " (copy)");
}
