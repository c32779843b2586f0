// fuzz finding: counterexample does not replay — fuzz.internalAtMost(n=3)
// seed 130837, profile default (`npm run fuzz -- --seed 130837 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.safeMail(addr="k", n=3): violated; fuzz.internalAtMost(n=3): violated; throw@16:11: violated)
// disagreement: fuzz.internalAtMost(n=3) is violated (At most 3 internal emails.). Counterexample: main() reaches the call at plan.ts:15:11, performing SendEmail(to="@corp", subject="i!0") with tool results names@12:22 → ["", "", "", ""], entry@15:21 → { to: "@corp", amount: "NaN" }. — replayed 8 times, never observed; first replay: main() with names@12:22 → ["", "", "", ""], entry@15:21 → { to: "@corp", amount: NaN } performed [SendEmail("h", "htrue")@24:3, SendEmail("@corp", "i!0")@15:11] and threw Error: clause
// shrunk from 2163 to 1098 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
const c1: string = "6";
const c2: string = "b";
const c4: string = "NaN";
const c5: string = "0";
const c6: string = "i!13";
export const guarantees = [m.safeMail("k", 3), m.internalAtMost(3)];
export function main(): void {
  const h0 = (): void => {
    for (const x0 of names()) {
      switch ((x0 as string)) {
        case "":
          sendEmail(entry("k").to, "i!0");
          throw new Error("clause");
        case "i!0":
          break;
      }
      (!((c1 as string) !== (c2 as string))) ? sendEmail(`a${x0}6${(false ? "i!5" : "x@corp")}/secrets/a`, "i!6") : log(lookup("/secrets/a"));
    }
    let v3: string = "a";
  };
  sendEmail("h", ("h" + ((5e-324 as number) < (6 as number))));
  if (c4) {
  } else {
    sendEmail((((c5 as string) <= (c6 as string)) ? "a" : lookup("x@corp")), "a");
    h0();
  }
  h0();
}
