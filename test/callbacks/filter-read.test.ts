/**
 * The result of `filter` over a bounded array read as an array (compactView in
 * core/prover/exec/callbacks.ts): its length, `join`, `at`, `slice` and `includes` see the kept
 * elements in order (over an array of unknown length: filter-count.test.ts); and the callbacks'
 * third parameter, the array itself. Each case's
 * verdict and line were decided from JavaScript's semantics before running the prover; body line
 * 1 is file line 3.
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "length of a filter over at most 3 contacts is at most 3: proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(): void {
  const corp = fewContacts().filter((c) => c.endsWith("@corp"));
  if (corp.length > 3) sendEmail("x", "four");
}` },
  { name: "two kept contacts reach the send: violated, with two @corp contacts", verdict: "violated", line: 6, match: /@corp.*@corp/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const corp = fewContacts().filter((c) => c.endsWith("@corp"));
  if (corp.length >= 2) sendEmail("boss", \`\${corp.length} corp contacts\`);
}` },
  { name: "length counts only kept elements: a literal array with one match", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(p: string): void {
  const kept = ["a", "b", "c"].filter((x) => x === p);
  if (kept.length > 1) sendEmail("x", "y");
}` },
  { name: "a literal array with one match, the count reached: violated", verdict: "violated", line: 6, match: /p="b"/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(p: string): void {
  const kept = ["a", "b", "c"].filter((x) => x !== p);
  if (kept.length === 2 && kept.at(0) === "a" && kept.join("") === "ac") sendEmail("x", "y");
}` },
  { name: "the first kept element is the first that passes, in order: proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("b@corp")];
export function main(): void {
  const kept = fewContacts().filter((c) => c.startsWith("a"));
  const first = kept.at(0);
  if (first !== undefined) sendEmail(first, "hi");
}` },
  { name: "join of the kept elements: a dropped element never appears (proved)", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(): void {
  const kept = fewContacts().filter((c) => c !== "ceo@corp");
  if (kept.length === 2 && kept.join(",") === "ceo@corp,ceo@corp") sendEmail("x", "y");
}` },
  { name: "join of the kept elements in order: violated with the two kept and one dropped", verdict: "violated", line: 6, match: /"ab"/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const kept = fewContacts().filter((c) => c !== "ab");
  if (kept.length === 2 && kept.join("+") === "a+b") sendEmail("x", "y");
}` },
  { name: "includes on the kept elements: a dropped element is not there (proved)", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(): void {
  const kept = fewContacts().filter((c) => c !== "ceo@corp");
  if (kept.includes("ceo@corp")) sendEmail("x", "y");
}` },
  { name: "slice of the kept elements, then its length: violated when three are kept", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const kept = fewContacts().filter((c) => c.length > 1);
  if (kept.slice(1).length === 2) sendEmail("x", "y");
}` },
  { name: "the length of a filter over an array of unknown length (counted.ts, test/callbacks/filter-count.test.ts): violated with two kept", verdict: "violated", line: 6, match: /@corp.*@corp/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const kept = contacts().filter((c) => c.endsWith("@corp"));
  if (kept.length > 1) sendEmail("x", "y");
}` },
  // Session 45: the callback's third parameter is the array the method was called on.
  { name: "the array parameter: keep the first of each address (findIndex over the array), each emailed once", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const unique = fewContacts().filter((c, i, all) => all.findIndex((o) => o === c) === i);
  for (const to of unique) sendEmail(to, "x");
}` },
  { name: "adversarial: the array parameter: `<=` keeps every repeat", verdict: "violated", line: 6, body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const unique = fewContacts().filter((c, i, all) => all.indexOf(c) <= i);
  for (const to of unique) sendEmail(to, "x");
}` },
  { name: "the array parameter: keep the last of each address (lastIndexOf), each emailed once", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const unique = fewContacts().filter((c, i, all) => all.lastIndexOf(c) === i);
  for (const to of unique) sendEmail(to, "x");
}` },
  { name: "the array parameter of some/every reads the receiver, also a filter's result", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const kept = fewContacts().filter((c) => c.length > 1);
  if (kept.some((c, i, all) => all.length !== kept.length || all[i] !== c)) sendEmail("x", "y");
}` },
  { name: "adversarial: the array parameter of map is the source array: its length", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  for (const n of fewContacts().map((c, i, all) => all.length)) if (n === 3) sendEmail("x", String(n));
}` },
  { name: "refused: the array parameter cannot be changed", verdict: "refused", line: 5, body: `export const guarantees = [m.nothing()];
export function main(): void {
  fewContacts().forEach((c, i, all) => { all.push(c); });
}` },
];

describe("reading the result of filter over a bounded array", () => {
  proveCases(cases);
});
