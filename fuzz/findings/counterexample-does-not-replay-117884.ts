// fuzz finding: counterexample does not replay — fuzz.nobodyTwice()
// seed 117884, profile default (`npm run fuzz -- --seed 117884 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.measuresAtMost(n=3): proved; fuzz.nobodyTwice(): violated; fuzz.pay@17:5: proved; throw@10:9: violated)
// disagreement: fuzz.nobodyTwice() is violated (Nobody is emailed twice.). Counterexample: main() reaches the call at plan.ts:9:9, performing SendEmail(to="0.5", subject="") and at plan.ts:9:9 SendEmail(to="0.5", subject="") with tool results names@6:20 → ["0.5", "0.5"]. — replayed 8 times, never observed; first replay: main() with names@6:20 → ["0.5", "0.5"] performed [SendEmail("0.5", "")@9:9] and threw Error: clause
// shrunk from 981 to 641 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.measuresAtMost(3), m.nobodyTwice()];
export function main(): void {
  for (const x0 of names()) {
    switch ((x0 as string)) {
      case "0.5":
        sendEmail(x0, "");
        throw new Error("clause");
      case "0":
        {
          sendEmail("", "i!0");
          break;
        }
    }
    pay(("ab" + "/secrets/a"), (-(-1)));
  }
}
