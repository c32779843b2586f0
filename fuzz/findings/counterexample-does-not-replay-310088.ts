// fuzz finding: counterexample does not replay — fuzz.someEmail()
// seed 310088, profile callbacks (`npm run fuzz -- --seed 310088 --count 1 --profile callbacks` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.someEmail(): violated; fuzz.distinctLogs(): violated)
// disagreement: fuzz.someEmail() is violated (Some email was sent.). Counterexample: main() with tool results lookup@16:33 → "". — replayed 8 times, never observed; first replay: main() with lookup@16:33 → "" performed [Log("j!0")@7:3, SendEmail("i!0", "")@14:5, Log("j!0")@7:3, SendEmail("", "")@16:5]
// shrunk from 1332 to 735 characters in 100 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount, sendEmailAsync, payAsync, lookupAsync, namesAsync, prefixed, positives, credits, notify, charge, findRow, maybeNull } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
const c0: string = "j!5";
export const guarantees = [m.someEmail(), m.distinctLogs()];
function h0(): string {
  log("j!0");
  return "";
}
export function main(): void {
  try {
    if (("a" as string) !== "") throw new Error("try");
  } catch {
    sendEmail("i!0", h0());
  } finally {
    notify({ to: h0(), subject: lookup((c0 || "ab")) });
  }
}
