// fuzz finding: counterexample does not replay — fuzz.safeMail(addr="i!0", n=4)
// seed 109514, profile default (`npm run fuzz -- --seed 109514 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.noPayTo(account="h"): proved; fuzz.safeMail(addr="i!0", n=4): violated; fuzz.pay@10:7: violated)
// disagreement: fuzz.safeMail(addr="i!0", n=4) is violated (Never email "i!0"; at most 4 emails.). Counterexample: main() reaches the call at plan.ts:9:7, performing SendEmail(to="", subject="i!0") with tool results names@8:22 → ["", "", "", "", ""]. — replayed 8 times, never observed; first replay: main() with names@8:22 → ["", "", "", "", ""] performed [SendEmail("", "i!0")@9:7] and threw RequiresError: pay(account="i!0", amount=0): precondition failed: amount must be positive
// shrunk from 802 to 504 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.noPayTo("h"), m.safeMail("i!0", 4)];
export function main(): void {
  if (false) {
  } else {
    for (const x0 of names()) {
      sendEmail("", "i!0");
      pay("i!0", 0);
    }
  }
  sendEmail("", "h");
}
