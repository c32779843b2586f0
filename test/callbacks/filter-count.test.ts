/**
 * The result of `filter` over an array of unknown length read as an array (counted.ts): its length
 * is the ghost count of kept elements, element m the one kept with m kept before it, so `length`,
 * indexing and `slice` are exact. Each case's verdict and line were decided from JavaScript's
 * semantics before running the prover; body line 1 is file line 3.
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "the count never exceeds the source's length: proved", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const all = contacts();
  const corp = all.filter((c) => c.endsWith("@corp"));
  if (corp.length > all.length || corp.length < 0) sendEmail("x", "y");
}` },
  { name: "two kept contacts reach the send (count off by one): violated with two @corp contacts", verdict: "violated", line: 6, match: /@corp.*@corp/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const corp = contacts().filter((c) => c.endsWith("@corp"));
  if (corp.length >= 2) sendEmail("boss", \`\${corp.length} corp contacts\`);
}` },
  { name: "nothing dropped: the count is the length, violated when no contact is the ceo", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const all = contacts();
  const rest = all.filter((c) => c !== "ceo@corp");
  if (rest.length === all.length && all.length === 2) sendEmail("x", "y");
}` },
  { name: "a dropped contact makes the count smaller: not proved (it takes an induction over the count), and no short run breaks it: refused", verdict: "refused", match: /count of a `filter`/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const all = contacts();
  const rest = all.filter((c) => c !== "ceo@corp");
  if (all.includes("ceo@corp") && rest.length === all.length) sendEmail("x", "y");
}` },
  { name: "at most ten of the kept ones (slice(0, 10)): proved", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(10), m.neverEmail("ceo@corp")];
export function main(): void {
  const rest = contacts().filter((c) => c !== "ceo@corp");
  for (const c of rest.slice(0, 10)) sendEmail(c, "hi");
}` },
  { name: "slice bounds wrong (three of the kept ones against a limit of two): violated", verdict: "violated", line: 5, match: /@corp/, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(): void {
  for (const c of contacts().filter((c) => c.endsWith("@corp")).slice(0, 3)) sendEmail(c, "hi");
}` },
  { name: "slice(1) skips only the first kept element: violated for a@corp kept second", verdict: "violated", line: 6, match: /a@corp/, body: `export const guarantees = [m.neverEmail("a@corp")];
export function main(): void {
  const corp = contacts().filter((c) => c.endsWith("@corp"));
  for (const c of corp.slice(1)) sendEmail(c, "hi");
}` },
  { name: "the count used as a bound on the source: the ceo may be among them (violated)", verdict: "violated", line: 7, match: /ceo@corp/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const all = contacts();
  const n = all.filter((c) => c !== "ceo@corp").length;
  for (const c of all.slice(0, n)) sendEmail(c, "hi");
}` },
  { name: "the count used as a bound on the kept ones: proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const all = contacts();
  const rest = all.filter((c) => c !== "ceo@corp");
  for (const c of rest.slice(0, rest.length - 1)) sendEmail(c, "hi");
}` },
  { name: "the last kept element is kept: proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const rest = contacts().filter((c) => c !== "ceo@corp");
  const last = rest[rest.length - 1];
  if (last !== undefined) sendEmail(last, "hi");
}` },
  { name: "one past the last kept element is undefined: proved", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const rest = contacts().filter((c) => c !== "ceo@corp");
  if (rest[rest.length] !== undefined) sendEmail("x", "y");
}` },
  { name: "the kept elements in order: the first kept is not the source's first when it was dropped (violated)", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const all = contacts();
  const rest = all.filter((c) => c !== "ceo@corp");
  if (rest.length > 0 && all.length > 0 && rest[0] !== all[0]) sendEmail("x", "y");
}` },
  { name: "a filter of a filter: the count of both conditions (violated with one contact of each kind)", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const both = contacts().filter((c) => c.endsWith("@corp")).filter((c) => c.startsWith("a"));
  if (both.length === 1) sendEmail("x", "y");
}` },
  { name: "a filter of a filter keeps no element the first dropped: proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const both = contacts().filter((c) => c !== "ceo@corp").filter((c) => c.endsWith("@corp"));
  const first = both.at(0);
  if (first !== undefined) sendEmail(first, "hi");
}` },
  { name: "the count of rows over 100: the amount of the first kept row is over 100 (proved)", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(0)];
export function main(): void {
  const big = rows().filter((r) => r.amount > 100);
  if (big.length > 0 && big[0]!.amount <= 100) pay("x", 5);
}` },
  { name: "a filter made inside a loop over an array of unknown length is counted per iteration: two equal contacts reach the send", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  for (const c of contacts()) {
    const same = contacts().filter((x) => x === c);
    if (same.length > 1) sendEmail("x", "y");
  }
}` },
  { name: "control: per iteration, the count never exceeds that iteration's source", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  for (const c of contacts()) {
    const all = contacts();
    const same = all.filter((x) => x === c);
    if (same.length > all.length) sendEmail("x", "y");
  }
}` },
  { name: "per iteration: the first kept element of each iteration's list passes that iteration's test", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(): void {
  for (const c of contacts()) {
    const corp = contacts().filter((x) => x.endsWith("@corp") && x !== c);
    if (corp.length > 0 && (corp[0] === c || corp[0] === "x")) sendEmail(corp[0]!, "y");
  }
}` },
  { name: "a filter made outside a loop, read first inside it and then after it: one count (proved)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  const all = contacts();
  const corp = all.filter((c) => c.endsWith("@corp"));
  for (const t of to) {
    if (corp.length > all.length) sendEmail(t, "x");
  }
  if (corp.length > all.length) sendEmail("a", "y");
}` },
  { name: "adversarial: the same count read after the loop reaches two", verdict: "violated", line: 10, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  const all = contacts();
  const corp = all.filter((c) => c.endsWith("@corp"));
  for (const t of to) {
    if (corp.length > all.length) sendEmail(t, "x");
  }
  if (corp.length >= 2) sendEmail("a", "y");
}` },
  { name: "a count made in a map's callback over an array of unknown length, read after it: two equal contacts reach the send", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const counts = contacts().map((c) => ({ c, n: contacts().filter((x) => x === c).length }));
  for (const f of counts) {
    if (f.n > 1) sendEmail(f.c, "y");
  }
}` },
  { name: "the counts made in a map's callback, filtered and read by length", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const counts = contacts().map((c) => ({ c, n: contacts().filter((x) => x === c).length }));
  const many = counts.filter((f) => f.n > 1);
  if (many.length > 0) sendEmail("x", "y");
}` },
];

describe("reading the result of filter over an array of unknown length", () => {
  proveCases(cases);
});
