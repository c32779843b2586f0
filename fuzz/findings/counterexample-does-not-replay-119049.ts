// fuzz finding: counterexample does not replay — fuzz.nobodyTwice()
// seed 119049, profile default (`npm run fuzz -- --seed 119049 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.subjectsNonEmpty(): proved; fuzz.nobodyTwice(): violated; fuzz.pay@10:7: violated)
// disagreement: fuzz.nobodyTwice() is violated (Nobody is emailed twice.). Counterexample: main(p0="NaN") reaches the call at plan.ts:9:7, performing SendEmail(to="", subject="i!0") and at plan.ts:9:7 SendEmail(to="", subject="i!0") with tool results score@7:7 → 2.2250738585072014e-308, names@8:22 → ["", ""]. — replayed 8 times, never observed; first replay: main(p0=NaN) with score@7:7 → 2.2250738585072014e-308, names@8:22 → ["", ""] performed [SendEmail("", "i!0")@9:7] and threw RequiresError: pay(account="", amount=null): precondition failed: amount must be positive
// shrunk from 999 to 507 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
const c1: string = "";
export const guarantees = [m.subjectsNonEmpty(), m.nobodyTwice()];
export function main(p0: number): void {
  if (score(c1)) {
    for (const x2 of names()) {
      sendEmail("", "i!0");
      pay("", p0);
    }
  }
}
