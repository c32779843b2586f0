// Control for adversarial_join_promise: ann is sent exactly the names the promise says listEnv
// returns, so every element pairs; proved only because the promise is assumed for every element.
// @expect proved
import { listEnv, sendEmail } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.sameContent("bob", "ann")];

export function main(): void {
  const names = listEnv("A_");
  if (names.length > 0) {
    for (const n of names) {
      sendEmail("bob", n);
      if (n.startsWith("A_")) sendEmail("ann", n);
    }
  } else {
    sendEmail("bob", "none");
    sendEmail("ann", "none");
  }
}
