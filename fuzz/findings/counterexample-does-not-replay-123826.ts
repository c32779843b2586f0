// fuzz finding: counterexample does not replay — fuzz.nobodyTwice()
// seed 123826, profile default (`npm run fuzz -- --seed 123826 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.nobodyTwice(): violated; fuzz.neverLog(message="j!0"): proved; throw@11:9: violated)
// disagreement: fuzz.nobodyTwice() is violated (Nobody is emailed twice.). Counterexample: main() reaches the call at plan.ts:10:9, performing SendEmail(to="", subject="") and at plan.ts:10:9 SendEmail(to="", subject="") with tool results names@6:20 → ["", ""]. — replayed 8 times, never observed; first replay: main() with names@6:20 → ["", ""] performed [SendEmail("", "")@10:9] and threw Error: clause
// shrunk from 1615 to 549 characters in 99 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.nobodyTwice(), m.neverLog("j!0")];
export function main(): void {
  for (const x0 of names()) {
    switch (("j!0" as string)) {
      case "":
      default:
        sendEmail("", "");
        throw new Error("clause");
    }
  }
  sendEmail("", "");
}
