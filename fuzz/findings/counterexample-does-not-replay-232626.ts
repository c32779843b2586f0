// fuzz finding: counterexample does not replay — fuzz.logsAtMost(n=1)
// seed 232626, profile default (`npm run fuzz -- --seed 232626 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.logsAtMost(n=1): violated)
// disagreement: fuzz.logsAtMost(n=1) is violated (At most 1 log messages.). Counterexample: main() reaches the call at plan.ts:6:110, performing Log(message="!0!") with tool results names@6:3 → ["!0!", "!0!"]. — replayed 8 times, never observed; first replay: main() with names@6:3 → ["!0!", "!0!"] performed [Log("!0!")@6:110]
// shrunk from 1019 to 580 characters in 29 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount, sendEmailAsync, payAsync, lookupAsync, namesAsync, prefixed, positives, credits, notify, charge, findRow, maybeNull } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
export const guarantees = [m.logsAtMost(1)];
export function main(): void {
  names().filter((x0: string, i1: number) => { return (i1 === 1 || x0 === "j!0"); }).forEach((y3: string) => log(y3));
}
