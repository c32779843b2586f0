// fuzz finding: counterexample does not replay — fuzz.emailsAtLeast(n=1)
// seed 191210, profile default (`npm run fuzz -- --seed 191210 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.emailsAtLeast(n=1): violated; fuzz.alsoSentTo(a="", b=""): violated; throw@6:26: violated)
// disagreement: fuzz.emailsAtLeast(n=1) is violated (At least 1 emails.). Counterexample: main() with tool results maybeName@6:26 → null. — replayed 8 times, never observed; first replay: main() with maybeName@6:26 → undefined performed [SendEmail("undefinedi!0", "i!0")@6:10, Log("")@7:3]
// shrunk from 791 to 596 characters in 94 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount, sendEmailAsync, payAsync, lookupAsync, namesAsync, prefixed, positives, credits, notify, charge, findRow, maybeNull } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.emailsAtLeast(1), m.alsoSentTo("", "")];
export function main(): void {
  true ? notify({ to: `${maybeName("k")}i!0`, subject: "i!0" }) : notify({ to: "", subject: "" });
  log("");
}
