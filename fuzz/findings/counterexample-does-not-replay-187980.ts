// fuzz finding: counterexample does not replay — fuzz.internalAtMost(n=4)
// seed 187980, profile default (`npm run fuzz -- --seed 187980 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.internalAtMost(n=4): violated)
// disagreement: fuzz.internalAtMost(n=4) is violated (At most 4 internal emails.). Counterexample: main() reaches the call at plan.ts:8:5, performing SendEmail(to="B", subject="A") with tool results prefixed@7:20 → ["h", "h", "h", "hCA@corp", "h"]. — replayed 8 times, never observed; first replay: main() with prefixed@7:20 → ["h", "h", "h", "hCA@corp", "h"] performed [SendEmail("h", "A")@8:5, SendEmail("h", "A")@8:5, SendEmail("h", "A")@8:5, SendEmail("hCA@corp", "A")@8:5, SendEmail("h", "A")@8:5]
// shrunk from 931 to 518 characters in 22 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount, sendEmailAsync, payAsync, lookupAsync, namesAsync, prefixed, positives, credits } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.internalAtMost(4)];
export function main(): void {
  const q1: string = "h";
  for (const x0 of prefixed(q1)) {
    sendEmail(x0, "A");
  }
}
