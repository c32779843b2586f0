// fuzz finding: counterexample does not replay — fuzz.internalAtMost(n=2)
// seed 182000, profile default (`npm run fuzz -- --seed 182000 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.safeMail(addr="i!0", n=0): violated; fuzz.internalAtMost(n=2): violated)
// disagreement: fuzz.internalAtMost(n=2) is violated (At most 2 internal emails.). Counterexample: main() reaches the call at plan.ts:8:5, performing SendEmail(to="", subject="") with tool results prefixed@7:20 → ["i!0a", "i!0a", "i!0aDEF@corp"]. — replayed 8 times, never observed; first replay: main() with prefixed@7:20 → ["i!0a", "i!0a", "i!0aDEF@corp"] performed [SendEmail("i!0a", "")@8:5, SendEmail("i!0a", "")@8:5, SendEmail("i!0aDEF@corp", "")@8:5]
// shrunk from 629 to 549 characters in 27 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount, sendEmailAsync, payAsync, lookupAsync, namesAsync, prefixed, positives, credits } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.safeMail("i!0", 0), m.internalAtMost(2)];
export function main(): void {
  const q1: string = ("i!0" + "a");
  for (const x0 of prefixed(q1)) {
    sendEmail(x0, "");
  }
}
