// fuzz finding: counterexample does not replay — fuzz.emailsAtMost(n=1)
// seed 128242, profile default (`npm run fuzz -- --seed 128242 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.neverLog(message=""): proved; fuzz.emailsAtMost(n=1): violated; fuzz.pay@13:9: violated)
// disagreement: fuzz.emailsAtMost(n=1) is violated (At most 1 emails.). Counterexample: main() reaches the call at plan.ts:14:9, performing SendEmail(to="", subject="") with tool results names@12:24 → ["", ""], score@13:26 → 0. — replayed 8 times, never observed; first replay: main() with names@12:24 → ["", ""], score@13:26 → 0 performed [] and threw RequiresError: pay(account="", amount=0): precondition failed: amount must be positive
// shrunk from 2248 to 863 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.neverLog(""), m.emailsAtMost(1)];
export function main(): void {
  switch (("-0" as string)) {
    case "":
      {
        break;
      }
    default:
      for (const x0 of names()) {
        pay("", Math.max(score(""), 0));
        sendEmail("", "");
      }
      return;
  }
  switch ((lookup("k") as string)) {
    case "i!3":
      for (const k1 of [(-Infinity), 0]) {
        pay("h", (-score("6")));
        sendEmail((true ? "n!0" : ""), "a");
        log("x");
      }
      return;
    case "/secrets/a":
      break;
  }
  let v2: number[] = amounts();
}
