// fuzz finding: counterexample does not replay — fuzz.pay@11:9
// seed 117612, profile default (`npm run fuzz -- --seed 117612 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.internalAtMost(n=4): proved; fuzz.pay@11:9: violated; throw@9:9: violated)
// disagreement: fuzz.pay may be called with arguments that fail its precondition "amount must be positive". Counterexample: main() with tool results names@6:20 → ["ceo@corp", "ceo@corp", ""], score@11:20 → "-0" calls pay(account="j!0", amount="-0") at plan.ts:11:9. — replayed 8 times, never observed; first replay: main() with names@6:20 → ["ceo@corp", "ceo@corp", ""] performed [] and threw Error: clause
// shrunk from 717 to 584 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.internalAtMost(4)];
export function main(): void {
  for (const x0 of names()) {
    switch ((x0 as string)) {
      case "ceo@corp":
        throw new Error("clause");
      case "":
        pay("j!0", score("i!0"));
        break;
    }
  }
  let v1: number[] = amounts();
  log("a");
}
