// fuzz finding: counterexample does not replay — fuzz.nobodyTwice()
// seed 112096, profile default (`npm run fuzz -- --seed 112096 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.emailsAtLeast(n=0): proved; fuzz.nobodyTwice(): violated; fuzz.noPayTo(account=""): proved; throw@10:45: violated)
// disagreement: fuzz.nobodyTwice() is violated (Nobody is emailed twice.). Counterexample: main() reaches the call at plan.ts:9:5, performing SendEmail(to="", subject="") and at plan.ts:9:5 SendEmail(to="", subject="") with tool results names@8:20 → ["", ""]. — replayed 8 times, never observed; first replay: main() with names@8:20 → ["", ""] performed [SendEmail("", "")@9:5] and threw Error: j!0
// shrunk from 834 to 559 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
const c1: number = 5;
const c2: number = 0;
export const guarantees = [m.emailsAtLeast(0), m.nobodyTwice(), m.noPayTo("")];
export function main(): void {
  for (const x0 of names()) {
    sendEmail("", "");
    if (((c1 as number) != (c2 as number))) throw new Error("j!0");
  }
  log("");
}
