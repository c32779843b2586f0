// fuzz finding: counterexample does not replay — fuzz.neverLog(message="\ude00")
// seed 79305, profile callbacks (`npm run fuzz -- --seed 79305 --count 1 --profile callbacks` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.emailsAtLeast(n=4): violated; fuzz.neverLog(message="\ude00"): violated; fuzz.charge@42:139: refused; throw@42:73: refused)
// disagreement: fuzz.neverLog(message="\ude00") is violated (Never log "\ude00".). Counterexample: main(p0=[]) reaches the call at plan1.ts:52:39, performing Log(message="\ude00") with tool results names@38:21 → [] and log@49:7 throwing (a tool may always fail; the `try` catches it). (Found among runs whose arrays have at most 1 element.) — replayed 8 times, never observed; first replay: main(p0=[]) with names@38:21 → [] performed [Log("h")@49:7]
// shrunk from 2723 to 2723 characters in 44 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount, sendEmailAsync, payAsync, lookupAsync, namesAsync, prefixed, positives, credits, notify, charge, findRow, maybeNull, wholes, tally } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
const c18: string = "\ud83d";
export const guarantees = [m.emailsAtLeast(4), m.neverLog("\ude00")];
export function main(p0: number[]): void {
  const h0 = (a1: boolean = ((4 as number) === (0 as number)), a2: string = "a"): number => {
    for (const y6 of names().map((x3: string, i4: number) => { if (x3 === "ceo@corp") throw new Error("callback"); return x3 + "i!4"; })) log(y6);
    const r9: number = names().findIndex((x7: string, i8: number) => { if (x7 === "\ude00") throw new Error("callback"); log(x7); return (i8 === 1 || x7.startsWith("x@corp")); });
    if (r9 >= 0) log(" ");
    try {
      if ((a2 as string).startsWith("")) throw new Error("try");
    } catch (e10) {
      log((e10 instanceof Error ? (e10 as Error).message : "?"));
      notify({ ...{ to: "", subject: (`0${true}` && "x@corp") }, to: (a2 + (0.1 / 0)) });
    }
    return (-2);
  };
  const h1 = (a11: number = entry("5").amount, a12: boolean = (((("x@corp" as string) < ("b" as string)) as boolean) === (((0.30000000000000004 as number) > (0 as number)) as boolean))): void => {
    try {
      if (("a" as string) !== "i!9") throw new Error("try");
    } catch {
      log("a");
    }
    let w13 = 0;
    L14: do {
      w13++;
      const v15: boolean = ((false || true) || ((Infinity as number) === (0 as number)));
      let w16 = 0;
      L17: do {
        w16++;
        log(entry("k").to);
        sendEmail("h", "j!0");
        pay((lookup(c18) && "i!6"), ("-0".length + "ceo@corp".length));
      } while (w16 < 1);
    } while (w13 < 0);
  };
  for (const x19 of names()) {
    ((false as boolean) === (true as boolean)) ? log("h") : log((x19 + ((true as boolean) !== (true as boolean))));
    const r22: boolean = ([] as string[]).some((x20: string) => { if (x20 === "i!3") throw new Error("callback"); return x20 === "a1"; });
    if (r22) measure(1);
    few().forEach((x23: string, i24: number) => { if (x23 === "x@corp") throw new Error("callback"); if ((i24 === 1 || x23.includes(""))) charge({ account: x19, amount: (score("NaN") * entry("k").amount) }); });
  }
  try {
    try {
      if (("a" as string) === "NaN") throw new Error("try");
    } finally {
      if (("a" as string).length > 1) throw new Error("fin");
      log("h");
    }
  } catch (e26) {
    if (String(e26) === "Error: try") log("\ude00");
  }
}
