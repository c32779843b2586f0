// fuzz finding: counterexample does not replay — fuzz.logsAtMost(n=4)
// seed 230223, profile default (`npm run fuzz -- --seed 230223 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.logsAtMost(n=4): violated)
// disagreement: fuzz.logsAtMost(n=4) is violated (At most 4 log messages.). Counterexample: main(p0="") reaches the call at plan.ts:10:9, performing Log(message="") with tool results names@17:23 → ["undefined"], credits@8:22 → [{ to: "FGHA", amount: 1.7800590868057611e-307 }, { to: "j!0false", amount: 4.778310296355388e-299 }, { to: "FGHA", amount: 1.7800590868057611e-307 }]. — replayed 8 times, never observed; first replay: main(p0="") with names@17:23 → ["undefined"], credits@8:22 → [{ to: "FGHA", amount: 1.7800590868057611e-307 }, { to: "j!0false", amount: 4.778310296355388e-299 }, { to: "FGHA", amount: 1.7800590868057611e-307 }] performed [Log("")@18:11, Log("")@10:9, Log("h")@11:9, Log("h")@15:5]
// shrunk from 971 to 840 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount, sendEmailAsync, payAsync, lookupAsync, namesAsync, prefixed, positives, credits, notify, charge, findRow, maybeNull } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
const c2: string = "j!0";
export const guarantees = [m.logsAtMost(4)];
export function main(p0: string): void {
  const h0 = (): void => {
    for (const x1 of credits()) {
      if ((((c2 + false) as string) === (x1.to as string))) {
        log("");
        log("h");
      } else {
      }
    }
    log("h");
  };
  const r5: boolean = names().some((x3: string, i4: number) => { return (i4 === 1 || x3 === "undefined"); });
  if (r5) log(p0);
  h0();
}
