// Adversarial: listEnv promises names starting with its prefix, so ann (sent only names that do
// not) never gets what bob gets. Must never be proved, though a pair exists if the promise is ignored.
// @expect violated sameContent line=7
import { listEnv, sendEmail } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.sameContent("bob", "ann")];

export function main(): void {
  const names = listEnv("A_");
  if (names.length > 0) {
    for (const n of names) {
      sendEmail("bob", n);
      if (!n.startsWith("A_")) sendEmail("ann", n);
    }
  } else {
    sendEmail("bob", "none");
    sendEmail("ann", "none");
  }
}
