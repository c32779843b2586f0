// fuzz finding: unexpected throw — throw@60:7
// seed 45174, profile loopstate (`npm run fuzz -- --seed 45174 --count 1 --profile loopstate` finds the original; `npm run fuzz -- --replay <this file>` judges this one)
// prover verdict: violated (fuzz.neverEmail(addr="undefined"): violated)
// disagreement: main threw Error: clause, which no result of the prover accounts for; main(p0=1) with score@50:18 → 12, few@52:28 → ["xj!5"], invoices@55:25 → [{ to: "xi!3", amount: 1 }] performed [Log("A")@49:9, Metric(13)@50:9, Metric(1)@57:9] and threw Error: clause
// shrunk from 3381 to 3375 characters in 46 steps
import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount, sendEmailAsync, payAsync, lookupAsync, namesAsync, prefixed, positives, credits, notify, charge, findRow, maybeNull, wholes, tally } from "./tools/fuzz/trusted/layer";
import type { Row } from "./tools/fuzz/trusted/layer";
import * as m from "./tools/fuzz/trusted/layer";
import { invoices } from "./tools/fuzz/trusted/layer";
const c12: string = "a";
const c13: string = ".@.";
const c14: string = "a";
const c15: string = "b";
const c22: string = "a";
const c23: string = "i!8";
export const guarantees = [m.neverEmail("undefined")];
export function main(p0: number): void {
  const h0 = (a1: number): string => {
    const xs2 = names();
    let i3 = 0;
    while (i3 < xs2.length && !xs2[i3].startsWith("/secrets/a")) { sendEmail(xs2[i3], "/secrets/a"); i3++; }
    sendEmail("violation!0", "/secrets");
    L5: for (const k4 of [0.1, 6, (-2)]) {
      let t6 = 0;
      for (const w7 of invoices()) {
        t6 += w7.amount; if (t6 <= 2) pay(w7.to, w7.amount);
      }
      if (t6 >= 2) log("h");
    }
    notify({ ...{ to: "", subject: "a" }, to: "j!2" });
    return lookup("a");
  };
  const h1 = (): number => {
    let n8 = 0;
    for (const x9 of names()) {
      if (n8 < 2) { sendEmail(x9, "/"); n8--; }
    }
    if (n8 >= 2) notify({ ...{ to: "", subject: "a" }, to: h0(p0) });
    return p0;
  };
  switch ((p0 as number)) {
    case 2:
      let n10 = 0;
      for (const x11 of names()) {
        sendEmail(x11, "a\ud800b"); n10--;
        if (n10 >= -1) break;
      }
      if (n10 >= -1) sendEmail((c12 || lookup("ceo@corp")), lookup((c13 && "NaN")));
      break;
    case 1:
      if (((c14 as string) === (c15 as string))) {
        measure(p0);
      } else {
        log(["A"][0]);
        measure((score("5") + p0));
      }
      const r18: boolean = few().every((x16: string) => { if (x16 === "6") throw new Error("callback"); return x16.includes("j!2"); });
      if (r18) log("i!3");
      let t19 = 0;
      for (const w20 of invoices()) {
        if (t19 + w20.amount > 3) break;
        measure(w20.amount); 
      }
      if (t19 >= 3) sendEmail("i!9", h0(1));
      throw new Error("clause");
    case (-0):
      {
        for (const x21 of ["i!14", "undefined"]) {
          if (x21 !== "\ude00") log("a");
        }
        if ((!!c22)) {
          notify({ to: lookup(`j!5${false}pc!2`), subject: ("a" + h0(6)) });
        } else {
          sendEmail((maybeName("i!1") ?? "a"), (lookup(c23) || "a"));
        }
      }
    default:
      let t24 = 0;
      for (const w25 of invoices()) {
        t24 += w25.amount; if (t24 < 3) measure(w25.amount);
      }
      if (t24 >= 3) notify({ subject: (h0((-1)) + "a"), to: "0" });
      const xs26 = names();
      let i27 = 0;
      while (i27 < xs26.length) { if (xs26[i27].startsWith("/\ude00i")) break; sendEmail(xs26[i27], "/\ude00i"); i27++; }
      sendEmail("6", ["a\ud800b", "0"][0]);
      const h29 = (): string => {
        for (const x28 of few()) return x28;
        return "";
      };
      if (h29() !== h29()) sendEmail(h29(), "a");
      break;
  }
  let f30 = false;
  for (const x31 of names()) {
    if (!f30 && x31.startsWith("\ude00")) { sendEmail(x31, "\ude00"); f30 = false; }
  }
  if (f30) charge({ amount: p0, account: "NaN" });
}
