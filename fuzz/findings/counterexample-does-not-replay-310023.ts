// fuzz finding: counterexample does not replay — fuzz.logsAtMost(n=1)
// seed 310023, profile callbacks (`npm run fuzz -- --seed 310023 --count 1 --profile callbacks` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.logsAtMost(n=1): violated; fuzz.neverEmail(addr=""): proved)
// disagreement: fuzz.logsAtMost(n=1) is violated (At most 1 log messages.). Counterexample: main() reaches the call at plan.ts:6:87, performing Log(message="") with tool results names@6:3 → ["!0!", "!0!"]. — replayed 8 times, never observed; first replay: main() with names@6:3 → ["!0!", "!0!"] performed [Log("")@6:87]
// shrunk from 949 to 578 characters in 39 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount, sendEmailAsync, payAsync, lookupAsync, namesAsync, prefixed, positives, credits, notify, charge, findRow, maybeNull } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.logsAtMost(1), m.neverEmail("")];
export function main(): void {
  names().forEach((x0: string, i1: number) => { if ((i1 === 1 || x0 === "undefined")) log(""); });
}
