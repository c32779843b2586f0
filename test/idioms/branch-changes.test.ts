/**
 * Changes made inside one alternative of `&&`, `||`, `??` and `?:` (core/prover/exec/state.ts
 * `alternatives`): each alternative runs on its own copy of the variables, so a push, a shift or a
 * Set's delete in one happens on its path only (assignments inside expressions are refused).
 * Verdicts decided from JavaScript's semantics; IMPORTS are prepended: body line 1 is file line 3.
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "a push on the right of && happens only where the left is true", verdict: "violated", line: 8, body: `export const guarantees = [m.neverEmail("boss@corp")];
export function main(flag: boolean): void {
  const out: string[] = [];
  flag && out.push("x@corp");
  if (out.length === 0) {
    sendEmail("boss@corp", "empty");
  }
}` },
  { name: "control: with the same test after it, the boss is never emailed", verdict: "proved", body: `export const guarantees = [m.neverEmail("boss@corp")];
export function main(flag: boolean): void {
  const out: string[] = [];
  flag && out.push("x@corp");
  if (out.length === 0 && flag) {
    sendEmail("boss@corp", "empty");
  }
}` },
  { name: "a push on the right of || in a condition happens only where the left is false", verdict: "violated", line: 8, body: `export const guarantees = [m.neverEmail("boss@corp")];
export function main(flag: boolean): void {
  const out: string[] = [];
  if (flag || out.push("x@corp") > 5) log("never");
  if (out.length === 0) {
    sendEmail("boss@corp", "empty");
  }
}` },
  { name: "each arm of ?: pushes once: one element either way", verdict: "proved", body: `export const guarantees = [m.neverEmail("boss@corp")];
export function main(flag: boolean): void {
  const out: string[] = [];
  const n = flag ? out.push("a@corp") : out.push("b@corp");
  if (out.length !== 1 || n !== 1) {
    sendEmail("boss@corp", "two");
  }
}` },
  { name: "the arm of ?: that ran decides what is left", verdict: "violated", line: 8, body: `export const guarantees = [m.neverEmail("b@corp")];
export function main(flag: boolean): void {
  const queue = ["a@corp", "b@corp"];
  flag ? queue.shift() : queue.pop();
  for (const q of queue) {
    sendEmail(q, "left");
  }
}` },
  { name: "a delete on the right of && happens only where it runs", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(flag: boolean): void {
  const blocked = new Set<string>(["a@corp"]);
  const gone = flag && blocked.delete("a@corp");
  if (!gone && !blocked.has("a@corp")) {
    sendEmail("a@corp", "x");
  }
}` },
  { name: "a push on the right of ?? happens only where the left is undefined", verdict: "violated", line: 8, body: `export const guarantees = [m.neverEmail("boss@corp")];
export function main(xs: string[]): void {
  const notes: string[] = [];
  xs.at(0) ?? notes.push("none");
  if (notes.length === 0) {
    sendEmail("boss@corp", "had one");
  }
}` },
];

describe("changes inside one alternative of &&, ||, ?? and ?:", () => proveCases(cases));
