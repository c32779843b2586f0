// fuzz finding: counterexample does not replay — fuzz.emailsBetween(lo=1, hi=2)
// seed 128041, profile default (`npm run fuzz -- --seed 128041 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.emailsBetween(lo=1, hi=2): violated; fuzz.pay@11:11: violated)
// disagreement: fuzz.emailsBetween(lo=1, hi=2) is violated (Between 1 and 2 emails.). Counterexample: main() reaches the call at plan.ts:10:11, performing SendEmail(to="", subject="") with tool results score@6:12 → 0, rows@9:26 → [{ to: "", amount: "NaN" }, { to: "", amount: "NaN" }, { to: "", amount: "NaN" }]. — replayed 8 times, never observed; first replay: main() with score@6:12 → 0, rows@9:26 → [{ to: "", amount: NaN }, { to: "", amount: NaN }, { to: "", amount: NaN }] performed [SendEmail("", "")@10:11] and threw RequiresError: pay(account="i!0", amount=null): precondition failed: amount must be positive
// shrunk from 1430 to 611 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.emailsBetween(1, 2)];
export function main(): void {
  switch ((score("k") as number)) {
    case 0:
      {
        for (const x0 of rows()) {
          sendEmail("", "");
          pay("i!0", (1 + (-Infinity)));
        }
        break;
      }
  }
  let v1: boolean = ("-0" + false).startsWith(("1." + false));
}
