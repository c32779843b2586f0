// fuzz finding: counterexample does not replay — fuzz.distinctMeasures()
// seed 111486, profile default (`npm run fuzz -- --seed 111486 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.distinctMeasures(): violated; fuzz.emailsBetween(lo=0, hi=0): proved; throw@10:9: violated)
// disagreement: fuzz.distinctMeasures() is violated (No value is measured twice.). Counterexample: main() reaches the call at plan.ts:9:9, performing Metric(value=0) and at plan.ts:9:9 Metric(value=0) with tool results names@6:20 → ["0", "0"]. — replayed 8 times, never observed; first replay: main() with names@6:20 → ["0", "0"] performed [Metric(0)@9:9] and threw Error: clause
// shrunk from 2088 to 513 characters in 80 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.distinctMeasures(), m.emailsBetween(0, 0)];
export function main(): void {
  for (const x0 of names()) {
    switch ((x0 as string)) {
      case "0":
        measure(0);
        throw new Error("clause");
    }
  }
}
