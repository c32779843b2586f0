/**
 * Labeled statements: `continue outer` and `break outer` from an inner loop end at the loop the
 * label names, and `break label` leaves a labeled block (state.ts `labelsOf`, `passedOn`). The
 * jump's path leaves every loop in between; out of a loop over an array of unknown length it is
 * refused, but for a `continue` of the loop whose body that loop ends. Each adversarial case has a benign twin. IMPORTS are prepended: body line 1 is file line 3.
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "continue outer after the first send: at most one email per outer element", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(a: string[], b: string[]): void {
  outer: for (const x of a.slice(0, 3)) {
    for (const y of b.slice(0, 5)) {
      if (y === "") continue;
      sendEmail(x, y);
      continue outer;
    }
  }
}` },
  { name: "adversarial: an unlabeled continue goes on with the inner loop (twin of the above)", verdict: "violated", line: 8, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(a: string[], b: string[]): void {
  outer: for (const x of a.slice(0, 3)) {
    for (const y of b.slice(0, 5)) {
      if (y === "") continue outer;
      sendEmail(x, y);
      continue;
    }
  }
}` },
  { name: "break outer stops both loops: no send after the blocked address", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string[], b: string[]): void {
  scan: for (const x of a.slice(0, 2)) {
    for (const y of b.slice(0, 2)) {
      if (x === "ceo@corp" || y === "ceo@corp") break scan;
      sendEmail(x, y);
      sendEmail(y, x);
    }
  }
}` },
  { name: "break outer after the first send: one email in all", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(a: string[]): void {
  scan: for (const x of a.slice(0, 2)) {
    for (const y of ["p", "q"]) {
      sendEmail(x, y);
      break scan;
    }
  }
}` },
  { name: "adversarial: a plain break leaves only the inner loop, and the outer loop sends again (twin of the above)", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(a: string[]): void {
  scan: for (const x of a.slice(0, 2)) {
    for (const y of ["p", "q"]) {
      sendEmail(x, y);
      break;
    }
  }
}` },
  { name: "break out of a labeled block skips the rest of the block only", verdict: "violated", line: 10, match: /SendEmail\(to="after"/, body: `export const guarantees = [m.neverEmail("after")];
export function main(n: number): void {
  check: {
    if (n > 3) break check;
    sendEmail("inside", "x");
  }
  if (n > 3) log("skipped");
  sendEmail("after", "x");
}` },
  { name: "control: break out of a labeled block: the statement after the breaks never runs (NaN included)", verdict: "proved", body: `export const guarantees = [m.neverEmail("never")];
export function main(n: number): void {
  check: {
    if (n > 3) break check;
    if (!(n > 3)) break check;
    sendEmail("never", "x");
  }
  sendEmail("after", "x");
}` },
  { name: "a labeled continue in a counted for and a switch inside it", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(kind: string): void {
  rounds: for (let i = 0; i < 2; i++) {
    switch (kind) {
      case "skip": continue rounds;
      default: break;
    }
    sendEmail("a", "round");
  }
}` },
  { name: "adversarial: break with the switch's own label leaves the switch, not the loop", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  for (let i = 0; i < 2; i++) {
    pick: switch (i) { case 0: break pick; default: break pick; }
    sendEmail("a", "round");
  }
}` },
  // Session 45: `continue outer` out of a loop over an array of unknown length that ends the outer
  // body is a `break` of it (loops.ts `nothingFollows`); anything else is refused.
  { name: "continue outer out of a loop of unknown length that ends the outer body: one email per outer element", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(a: string[], b: string[]): void {
  outer: for (const x of a.slice(0, 3)) {
    for (const y of b) {
      sendEmail(x, y);
      continue outer;
    }
  }
}` },
  { name: "adversarial: the same with four outer elements and a cap of three", verdict: "violated", line: 8, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(a: string[], b: string[]): void {
  outer: for (const x of a.slice(0, 4)) {
    for (const y of b) {
      if (y === "") continue;
      sendEmail(x, y);
      continue outer;
    }
  }
}` },
  { name: "refused: both loops of unknown length (the inner one's `continue outer` is state carried in a nested loop)", verdict: "refused", line: 10, match: /nested inside another loop/, body: `export const guarantees = [m.nobodyTwice()];
export function main(a: string[]): void {
  outer: for (const x of new Set(a)) {
    if (x === "") continue;
    for (const y of contacts()) {
      if (y.startsWith(x)) {
        sendEmail(x, y);
        continue outer;
      }
    }
  }
}` },
  { name: "adversarial: an unlabeled continue there emails a key once per match", verdict: "violated", line: 9, body: `export const guarantees = [m.nobodyTwice()];
export function main(a: string[]): void {
  outer: for (const x of new Set(a)) {
    if (x === "") continue;
    for (const y of contacts()) {
      if (y.startsWith(x)) {
        sendEmail(x, y);
        continue;
      }
    }
  }
}` },
  { name: "a labeled jump out of a loop of unknown length that skips the rest of the outer body is refused", verdict: "refused", line: 8, match: /out of a loop over an array of unknown length/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(a: string[], b: string[]): void {
  outer: for (const x of a.slice(0, 3)) {
    for (const y of b) {
      sendEmail(x, y);
      continue outer;
    }
    sendEmail(x, "none");
  }
}` },
  { name: "break outer out of a loop of unknown length is refused", verdict: "refused", line: 8, match: /out of a loop over an array of unknown length/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(a: string[], b: string[]): void {
  outer: for (const x of a.slice(0, 3)) {
    for (const y of b) {
      sendEmail(x, y);
      break outer;
    }
  }
}` },
];

proveCases(cases);
