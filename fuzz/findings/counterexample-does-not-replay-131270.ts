// fuzz finding: counterexample does not replay — fuzz.pay@13:3
// seed 131270, profile default (`npm run fuzz -- --seed 131270 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.neverLogContaining(part=""): proved; fuzz.pay@13:3: violated)
// disagreement: fuzz.pay may be called with arguments that fail its precondition "amount must be positive". Counterexample: main() with tool results names@6:20 → ["", "", ""], amounts@8:24 → [0, 0, 0, 0, 0, 0], amounts@8:24#2 → [0, 0, 0, 0, 0, 0, 0], amounts@8:24#3 → [0, 0, 0, 0, 0, 0], amounts@8:24#4 → [0, 0, 0, 0, 0, 0, 0], amounts@8:24#5 → [1.2882322110226865e-231], amounts@8:24#6 → [2.0000000009313226], amounts@8:24#7 → ["NaN"] calls pay(account="", amount=0) at plan.ts:13:3. — replayed 8 times, never observed; first replay: main() with names@6:20 → ["", "", ""], amounts@8:24 → [0, 0, 0, 0, 0, 0] performed [] and threw EnsuresError: amounts() returned [0,0,0,0,0,0]: postcondition failed: (r) => r.length <= 2
// shrunk from 1021 to 549 characters in 76 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.neverLogContaining("")];
export function main(): void {
  for (const x0 of names()) {
    const h2 = (): number => {
      for (const x1 of amounts()) return x1;
      return 0;
    };
    if (h2() !== h2()) measure(h2());
  }
  pay("", few().length);
}
