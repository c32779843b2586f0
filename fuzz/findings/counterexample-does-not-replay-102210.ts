// fuzz finding: counterexample does not replay — fuzz.logsAtMost(n=0)
// seed 102210, profile default (`npm run fuzz -- --seed 102210 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.logsAtMost(n=0): violated; fuzz.onlyTo(addrs=[]): proved)
// disagreement: fuzz.logsAtMost(n=0) is violated (At most 0 log messages.). Counterexample: main(p0=[]) reaches the call at plan.ts:13:11, performing Log(message="i!0") with tool results rows@12:26 → []. — replayed 8 times, never observed; first replay: main(p0=[]) with rows@12:26 → [] performed [Log("NaN")@16:9]
// shrunk from 1338 to 572 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.logsAtMost(0), m.onlyTo([])];
export function main(p0: string[]): void {
  switch (("i!0" as string)) {
    case "i!0":
      {
      }
    default:
      {
        for (const x1 of rows()) {
          log("i!0");
          log("");
        }
        log("NaN");
      }
  }
}
