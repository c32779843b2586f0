// The loop sends the pair, but an empty input sends nothing: no pair on that run.
// @expect violated sameContent line=6
import { sendEmail } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.sameContent("bob", "ann")];

export function main(messages: string[]): void {
  for (const m of messages) {
    sendEmail("bob", m);
    sendEmail("ann", m);
  }
}
