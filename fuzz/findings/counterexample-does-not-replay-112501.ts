// fuzz finding: counterexample does not replay — fuzz.neverEmail(addr="j!0")
// seed 112501, profile default (`npm run fuzz -- --seed 112501 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.neverLogContaining(part="k"): violated; fuzz.neverEmail(addr="j!0"): violated; fuzz.emailsAtLeast(n=2): violated; fuzz.pay@20:13: violated)
// disagreement: fuzz.neverEmail(addr="j!0") is violated (Never email "j!0".). Counterexample: main(p0=[-2.225073858507202e-308, 8.095e-320, 8.095e-320]) reaches the call at plan.ts:22:13, performing SendEmail(to="j!0", subject="a") with tool results lookup@12:16 → "", lookup@16:17 → "", lookup@12:16#2 → "", lookup@16:17#2 → "", lookup@22:30 → "j!0", lookup@12:16#3 → "", lookup@16:17#3 → "", lookup@22:30#2 → "j!0". — replayed 8 times, never observed; first replay: main(p0=[-2.225073858507202e-308, 8.095e-320, 8.095e-320]) with lookup@12:16 → "", lookup@16:17 → "" performed [SendEmail("j!00", "")@15:13, Log("")@16:13] and threw RequiresError: pay(account="", amount=-2.225073858507202e-308): precondition failed: amount must be positive
// shrunk from 1289 to 939 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
const c2: string = "j!0";
const c3: string = "ceo@corp";
const c4: string = " ";
const c5: string = "i!10";
export const guarantees = [m.neverLogContaining("k"), m.neverEmail("j!0"), m.emailsAtLeast(2)];
export function main(p0: number[]): void {
  const h0 = (): void => {
    for (const x1 of p0) {
      switch ((lookup("k") as string)) {
        case "":
          {
            sendEmail(((c2 || "") + 0), "");
            log(lookup("a"));
          }
        default:
          {
            pay("", x1);
            sendEmail((c3.startsWith(c4) ? "h" : "@b!"), "h");
            sendEmail((c5 && lookup("x")), "a");
          }
      }
    }
  };
  h0();
  h0();
}
