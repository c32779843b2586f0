// fuzz finding: counterexample does not replay — fuzz.distinctLogs()
// seed 111654, profile default (`npm run fuzz -- --seed 111654 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.safeMail(addr=".", n=1): violated; fuzz.neverMeasure(v=-1): proved; fuzz.distinctLogs(): violated; fuzz.pay@14:11: violated; fuzz.pay@23:7: proved)
// disagreement: fuzz.distinctLogs() is violated (No message is logged twice.). Counterexample: main() reaches the call at plan.ts:10:11, performing Log(message="") and at plan.ts:10:11 Log(message="") with tool results names@6:20 → ["", ""], lookup@7:14 → "i!0", lookup@7:14#2 → "i!0". — replayed 8 times, never observed; first replay: main() with names@6:20 → ["", ""], lookup@7:14 → "i!0" performed [Log("")@10:11] and threw RequiresError: pay(account="", amount=-1): precondition failed: amount must be positive
// shrunk from 1129 to 798 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.safeMail(".", 1), m.neverMeasure(-1), m.distinctLogs()];
export function main(): void {
  for (const x0 of names()) {
    switch ((lookup("") as string)) {
      case "i!0":
        {
          log("");
        }
      case "i!15":
        {
          pay("", (-1));
          break;
        }
      default:
        {
          break;
        }
    }
    for (const x1 of names()) {
      pay(`${`.${false}a`}i!4${x0}i!5`, 1);
    }
    sendEmail("i!4", x0);
  }
  if (false) throw new Error("i!4");
}
