// fuzz finding: counterexample does not replay — fuzz.pay@9:23
// seed 107199, profile default (`npm run fuzz -- --seed 107199 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.neverLog(message="h"): proved; fuzz.pay@9:23: violated; fuzz.pay@11:28: violated)
// disagreement: fuzz.pay may be called with arguments that fail its precondition "amount must be positive". Counterexample: main(p0=0) reaches the call at plan.ts:9:23. — replayed 8 times, never observed; first replay: main(p0=0) with names@11:5 → ["h"] performed [Pay("", 1)@9:23] and threw RequiresError: pay(account="", amount=0): precondition failed: amount must be positive
// shrunk from 1299 to 619 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
const c1: string = "";
const c2: string = "";
const c4: string = "h";
export const guarantees = [m.neverLog("h")];
export function main(p0: number): void {
  c1.startsWith(c2) ? pay("", 1) : measure(0);
  for (const k3 of [""]) {
    names().includes(c4) ? pay(k3, p0) : measure((true ? (10 * (-2)) : 2));
  }
  p0 -= Math.min((false ? 0.3 : 3), p0);
}
