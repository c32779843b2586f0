// fuzz finding: counterexample does not replay — fuzz.pay@33:22
// seed 201386, profile default (`npm run fuzz -- --seed 201386 --count 1` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.emailsExactly(n=0): violated; fuzz.neverLog(message="i!3"): proved; fuzz.measuresAtMost(n=1): violated; fuzz.pay@33:22: violated; fuzz.pay@42:9: refused; fuzz.pay@15:7: refused; throw@62:9: refused)
// disagreement: fuzz.pay may be called with arguments that fail its precondition "amount must be positive". Counterexample: main() with tool results lookup@37:7 → "", lookup@55:14 → "0.2", lookup@57:26 → "", lookup@57:19 → "", names@15:18 → ["ndefine"], names@32:20 → [], names@15:18#2 → ["ndefine"], names@32:20#2 → ["ndefine"] calls pay(account="ab", amount=-2) at plan.ts:33:22. — replayed 8 times, never observed; first replay: main() with lookup@37:7 → "", lookup@55:14 → "0.2", lookup@57:26 → "", lookup@57:19 → "", names@15:18 → ["ndefine"], names@32:20 → [], names@15:18 → ["ndefine"], names@32:20 → ["ndefine"] performed [SendEmail("", "j!5")@57:9, Log("a")@58:9, Pay("i!0", 1)@15:7, Pay("i!0", 1)@15:7]
// shrunk from 2232 to 2010 characters in 43 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
const c1: string = "\ude00";
const c2: string = "\ude00\ude00i";
const c3: string = "i!4";
const c4: string = "\ud83d\ud83d";
const c5: string = "i!13";
const c6: number = 0;
const c8: string = "ia";
export const guarantees = [m.emailsExactly(0), m.neverLog("i!3"), m.measuresAtMost(1)];
function h0(): void {
  if (true) {
    for (const x0 of [""]) {
      pay("i!0", names().length);
    }
  } else {
    switch (((`A${"b"}a` + true) as string)) {
      case "0":
        pay("a", score("i!3"));
        sendEmail(`A${(c1 || "i!7")}undefined${(-Infinity)}i!3`, "a");
        log("a");
        break;
      default:
        sendEmail(entry("i!3").to, (lookup(c2) && (c3 || "6")));
        log(`x${"😀"}NaN`);
        throw new Error("clause");
    }
    measure((c4 || "NaN").length);
  }
  ((c5.length as number) === (c6 as number)) && log(("a" + isOpen("pc!2")));
  for (const x7 of names()) {
    if (x7 === "ab") pay(x7, (-2));
  }
}
export function main(): void {
  if (lookup(c8)) {
    switch ((score("k") as number)) {
      case 3:
        break;
      case 2:
        pay(`a${1}x@corp${"j!4"}v!1`, entry("k").to.length);
        log("-0");
        measure((ratio() + 2));
        break;
      case 0:
        {
          log([" ", "x!1"][0]);
        }
    }
    for (const k9 of [0.1]) {
      log("a");
    }
  } else {
    switch ((lookup("k") as string)) {
      case "0.2":
        sendEmail(lookup(lookup("6")), "j!5");
        log("a");
        break;
      case "-2":
        log("a");
        throw new Error("clause");
      default:
        {
          sendEmail(entry("k").to, "b");
          measure(score("5"));
          measure(score(("k!0" + "a")));
        }
    }
    h0();
    h0();
  }
  let v10: number = 5;
}
