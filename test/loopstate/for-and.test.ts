/**
 * `for (let i = 0; i < xs.length && C; i++)` over an array of unknown length (core/prover/exec/
 * loops.ts `counterOverArray`): the iterations of `for (let i = 0; i < xs.length; i++) { if (!(C))
 * break; … }`, C tested at the start of each iteration (the `&&` reaches it only below the length),
 * as while.ts lowers `while (i < xs.length && C)`. C may read the size of a Set the loop collects
 * (its carried size, collected.ts). Verdicts decided from JavaScript's semantics before running
 * the prover; IMPORTS are prepended (body line 1 is file line 3).
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "a size budget in the loop's test: at most ten, each once", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(10), m.nobodyTwice()];
export function main(waitlist: string[]): void {
  const sent = new Set<string>();
  for (let i = 0; i < waitlist.length && sent.size < 10; i++) {
    const to = waitlist[i]!.trim();
    if (sent.has(to)) continue;
    sendEmail(to, "back in stock");
    sent.add(to);
  }
}` },
  { name: "adversarial: without the has test an address is emailed twice", verdict: "violated", line: 8, body: `export const guarantees = [m.nobodyTwice()];
export function main(waitlist: string[]): void {
  const sent = new Set<string>();
  for (let i = 0; i < waitlist.length && sent.size < 10; i++) {
    const to = waitlist[i]!.trim();
    sendEmail(to, "back in stock");
    sent.add(to);
  }
}` },
  { name: "adversarial: <= lets one more through (found where it can be: a budget of 1)", verdict: "violated", line: 9, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(waitlist: string[]): void {
  const sent = new Set<string>();
  for (let i = 0; i < waitlist.length && sent.size <= 1; i++) {
    const to = waitlist[i]!.trim();
    if (sent.has(to)) continue;
    sendEmail(to, "x");
    sent.add(to);
  }
}` },
  { name: "a counter in the test: at most three", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const rs = rows();
  let n = 0;
  for (let i = 0; i < rs.length && n < 3; i++) {
    const r = rs[i]!;
    if (r.amount <= 0) continue;
    sendEmail(r.to, "x");
    n++;
  }
}` },
  { name: "adversarial: the counter is not raised on every send", verdict: "violated", line: 10, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const rs = rows();
  let n = 0;
  for (let i = 0; i < rs.length && n < 3; i++) {
    const r = rs[i]!;
    if (r.amount <= 0) continue;
    sendEmail(r.to, "x");
    if (r.amount > 100) n++;
  }
}` },
  { name: "the test's calls happen only below the length", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
function stillOpen(): boolean {
  sendEmail("ops", "checked");
  return true;
}
export function main(): void {
  const xs: string[] = [];
  for (let i = 0; i < xs.length && stillOpen(); i++) log(xs[i]!);
}` },
  { name: "adversarial: the test runs once per element", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(1)];
function stillOpen(): boolean {
  sendEmail("ops", "checked");
  return true;
}
export function main(): void {
  const xs = contacts();
  for (let i = 0; i < xs.length && stillOpen(); i++) log(xs[i]!);
}` },
  { name: "an inclusive bound with a literal cap in the test is unrolled by the cap", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const xs = contacts();
  let n = 0;
  for (let i = 0; i <= xs.length && n < 3; i++) { sendEmail("a", "x"); n++; }
}` },
];

describe("a counter loop over an array of unknown length with an extra test", () => proveCases(cases));
