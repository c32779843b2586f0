// fuzz finding: counterexample does not replay — fuzz.nobodyTwice()
// seed 118469, profile default (`npm run fuzz -- --seed 118469 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.nobodyTwice(): violated; fuzz.oneRecipient(): proved; fuzz.pay@10:9: violated)
// disagreement: fuzz.nobodyTwice() is violated (Nobody is emailed twice.). Counterexample: main() reaches the call at plan.ts:9:9, performing SendEmail(to="", subject="") and at plan.ts:9:9 SendEmail(to="", subject="") with tool results lookup@6:12 → "0", names@8:24 → ["", ""]. — replayed 8 times, never observed; first replay: main() with lookup@6:12 → "0", names@8:24 → ["", ""] performed [SendEmail("", "")@9:9] and threw RequiresError: pay(account="", amount=0): precondition failed: amount must be positive
// shrunk from 1241 to 519 characters in 98 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.nobodyTwice(), m.oneRecipient()];
export function main(): void {
  switch ((lookup("k") as string)) {
    case "0":
      for (const x0 of names()) {
        sendEmail("", "");
        pay("", 0);
      }
      break;
  }
}
