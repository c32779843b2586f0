// The Python reference's same_content (pass): bob and ann are sent the same message.
// @expect proved
import { sendEmail } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.sameContent("bob", "ann")];

export function main(message: string): void {
  sendEmail("bob", message);
  sendEmail("ann", message);
}
