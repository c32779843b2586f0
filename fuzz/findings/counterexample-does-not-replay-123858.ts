// fuzz finding: counterexample does not replay — fuzz.oneMeasure()
// seed 123858, profile default (`npm run fuzz -- --seed 123858 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.oneMeasure(): violated; fuzz.oneMeasure(): violated; fuzz.internalAtMost(n=3): proved; fuzz.pay@11:7: violated)
// disagreement: fuzz.oneMeasure() is violated (Every measurement has the same value.). Counterexample: main(p0="NaN") reaches the call at plan.ts:9:5, performing Metric(value="NaN") and at plan.ts:9:5 Metric(value="NaN") with tool results names@8:20 → ["", ""]. — replayed 8 times, never observed; first replay: main(p0=NaN) with names@8:20 → ["", ""] performed [Metric(null)@9:5] and threw RequiresError: pay(account="j!0", amount=0): precondition failed: amount must be positive
// shrunk from 833 to 680 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
const c2: number = 1;
const c3: string = "b";
export const guarantees = [m.oneMeasure(), m.oneMeasure(), m.internalAtMost(3)];
export function main(p0: number): void {
  for (const x1 of names()) {
    measure(p0);
    if (c2) {
      pay("j!0", (-0));
      log("n!0");
      sendEmail("\ud83d", (lookup(c3) || x1));
    } else {
      pay(x1, 1);
      sendEmail(x1, "h");
      sendEmail("", "😀");
    }
  }
}
