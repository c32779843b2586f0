// fuzz finding: counterexample does not replay — fuzz.logsAtMost(n=3)
// seed 233572, profile default (`npm run fuzz -- --seed 233572 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.logsAtMost(n=3): violated; fuzz.noPaymentOver(limit=0): proved)
// disagreement: fuzz.logsAtMost(n=3) is violated (At most 3 log messages.). Counterexample: main(p0="N") reaches the call at plan.ts:7:23, performing Log(message="") with tool results prefixed@6:20 → ["N", "N", "N", "NaN"]. — replayed 8 times, never observed; first replay: main(p0="N") with prefixed@6:20 → ["N", "N", "N", "NaN"] performed [Log("NaN")@7:23]
// shrunk from 575 to 561 characters in 30 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount, sendEmailAsync, payAsync, lookupAsync, namesAsync, prefixed, positives, credits, notify, charge, findRow, maybeNull } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.logsAtMost(3), m.noPaymentOver(0)];
export function main(p0: string): void {
  for (const x1 of prefixed(p0)) {
    if (x1 === "NaN") log(x1);
  }
}
