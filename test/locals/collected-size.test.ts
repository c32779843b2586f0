/**
 * The size of an array or Set a loop over an array of unknown length collects, read in the loop's
 * own body (`if (done.size >= 10) break;`, core/prover/exec/collected.ts): the loop carries it as
 * a ghost counter (loopstate.ts), 0 when the loop starts and one more after each iteration that
 * added, for a Set only an addition of a key no earlier iteration added. Each verdict was decided
 * from JavaScript's semantics before running the prover; each adversarial program has a benign
 * twin. Line numbers count the three prepended import lines (body line 1 is file line 4).
 */
import { describe } from "vitest";
import { prove, proveCases, type ProveCase } from "../prover/prove-helpers";
import { LOOP_EXTRA, LOOP_IMPORT } from "../loopstate/layer";

const run = (body: string) => prove(LOOP_IMPORT + body, LOOP_EXTRA);

const CASES: readonly ProveCase[] = [
  {
    name: "proved: pushed while the array has fewer than three elements, it has at most three after the loop",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(to: string[]): void {
  const ok: string[] = [];
  for (const t of to) {
    if (ok.length < 3) ok.push(t);
  }
  if (ok.length > 3) sendEmail("ceo", "impossible");
}`,
  },
  {
    name: "proved: pushed and emailed while the array has fewer than three elements",
    verdict: "proved",
    body: `export const guarantees = [m.emailsAtMost(3)];
export function main(to: string[]): void {
  const ok: string[] = [];
  for (const t of to) {
    if (ok.length < 3) {
      ok.push(t);
      sendEmail(t, "hi");
    }
  }
}`,
  },
  {
    name: "violated: `<= 3` lets a fourth element in",
    verdict: "violated",
    body: `export const guarantees = [m.emailsAtMost(3)];
export function main(to: string[]): void {
  const ok: string[] = [];
  for (const t of to) {
    if (ok.length <= 3) ok.push(t);
  }
  for (const t of ok) sendEmail(t, "hi");
}`,
  },
  {
    name: "proved: each address once, at most two, the Set's size checked before each send (the refund-returns loop)",
    verdict: "proved",
    body: `export const guarantees = [m.emailsAtMost(2), m.nobodyTwice()];
export function main(to: string[]): void {
  const done = new Set<string>();
  for (const t of to) {
    if (done.size >= 2) break;
    if (done.has(t)) continue;
    sendEmail(t, "hi");
    done.add(t);
  }
}`,
  },
  {
    name: "violated: without `has`, adding an address again does not grow the Set (\"a\", \"a\", \"a\" sends three)",
    verdict: "violated",
    body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  const done = new Set<string>();
  for (const t of to) {
    if (done.size >= 2) break;
    sendEmail(t, "hi");
    done.add(t);
  }
}`,
  },
  {
    name: "proved: the same loop without `has` over an array: every push counts",
    verdict: "proved",
    body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  const done: string[] = [];
  for (const t of to) {
    if (done.length >= 2) break;
    sendEmail(t, "hi");
    done.push(t);
  }
}`,
  },
  {
    name: "violated: the size read after this iteration's addition, with no `has`: an address added again leaves it at 1 (\"\", \"\", \"\" sends three)",
    verdict: "violated",
    line: 10,
    body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  const done = new Set<string>();
  for (const t of to) {
    done.add(t);
    if (done.size > 2) break;
    sendEmail(t, "hi");
  }
}`,
  },
  {
    name: "proved: the size read after this iteration's addition includes it",
    verdict: "proved",
    body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  const done = new Set<string>();
  for (const t of to) {
    if (done.has(t)) continue;
    done.add(t);
    if (done.size > 2) break;
    sendEmail(t, "hi");
  }
}`,
  },
  {
    name: "violated: read after the addition, `> 2` still lets the third address be emailed when the test follows the send",
    verdict: "violated",
    body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  const done = new Set<string>();
  for (const t of to) {
    sendEmail(t, "hi");
    done.add(t);
    if (done.size > 2) break;
  }
}`,
  },
  {
    name: "proved: a key that may be undefined (`split`'s first part) is tested only where it is a non-empty string",
    verdict: "proved",
    body: `export const guarantees = [m.nobodyTwice()];
export function main(lines: string[]): void {
  const seen = new Set<string>();
  for (const line of lines) {
    const [who] = line.split("=");
    if (!who || seen.has(who)) continue;
    sendEmail(who ?? "", "hi");
    seen.add(who ?? "");
  }
}`,
  },
  {
    name: "violated: the Set holds whole lines, the test asks for the name (\"a=1\", \"a=2\" email \"a\" twice)",
    verdict: "violated",
    body: `export const guarantees = [m.nobodyTwice()];
export function main(lines: string[]): void {
  const seen = new Set<string>();
  for (const line of lines) {
    const [who] = line.split("=");
    if (!who || seen.has(who)) continue;
    sendEmail(who, "hi");
    seen.add(line);
  }
}`,
  },
  {
    name: "refused: the size of a Set of numbers inside the loop",
    verdict: "refused",
    line: 10,
    match: /strings only/,
    body: `export const guarantees = [m.emailsAtMost(2)];
export function main(xs: number[]): void {
  const done = new Set<number>();
  for (const x of xs) {
    if (done.size >= 2) break;
    sendEmail("ops", "hi");
    done.add(x);
  }
}`,
  },
  {
    name: "refused: the length written inside the loop",
    verdict: "refused",
    match: /read inside the loop that collects it/,
    body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  const done: string[] = [];
  for (const t of to) {
    if (done.length >= 2) done.length = 0;
    sendEmail(t, "hi");
    done.push(t);
  }
}`,
  },
];

describe("the size of what a loop collects, read in its body", () => {
  proveCases(CASES, run);
});
