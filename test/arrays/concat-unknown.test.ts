/**
 * Arrays of unknown length joined (core/prover/exec/locals.ts `joinParts`): `[...a, ...b]`,
 * `out.push(...xs)`, `flat()` of a literal array of them, `concat`, and `flatMap` over a literal
 * array whose callback returns a tool result or a filter of one; and `map` over a literal array to
 * arrays. Element i of the join is a's while
 * i < a.length, b's at i − a.length after. Verdicts decided from JavaScript's semantics before
 * running the prover; IMPORTS are prepended (body line 1 is file line 3).
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "adversarial: two tool results joined may share an address", verdict: "violated", line: 6, body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const all = [...contacts(), ...contacts()];
  for (const to of all) sendEmail(to, "x");
}` },
  { name: "the Set of a join holds each address once", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const all = [...contacts(), ...contacts()];
  for (const to of new Set(all)) sendEmail(to, "x");
}` },
  { name: "a join's length is the sum of the lengths", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const a = contacts();
  const b = fewContacts();
  const all = [...a, ...b];
  if (all.length !== a.length + b.length) sendEmail("x", "length");
  if (a.length > 0 && all[0] !== a[0]) sendEmail("x", "first");
  if (b.length > 0 && all[all.length - 1] !== b[b.length - 1]) sendEmail("x", "last");
}` },
  { name: "adversarial: a join may be longer than its bounded part", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const all = [...contacts(), ...fewContacts()];
  if (all.length > 3) sendEmail("x", "long");
}` },
  { name: "push(...xs) of a tool result onto an owned array, then a literal", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const out: string[] = [];
  out.push(...contacts());
  out.push("end");
  if (out[out.length - 1] !== "end") sendEmail("x", "order");
}` },
  { name: "adversarial: push(...xs) of a tool result: the first element is not always the literal", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const out: string[] = ["start"];
  out.push(...contacts());
  if (out[out.length - 1] !== "start") sendEmail("x", "grew");
}` },
  { name: "push(...filter) per element of a literal array: a digest sent once", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  const lines: string[] = [];
  for (const p of ["a", "b"]) {
    const hits = contacts().filter((c) => c.startsWith(p)).map((c) => p + ":" + c);
    lines.push(...hits);
  }
  if (lines.length > 0) sendEmail("ops", String(lines.length));
}` },
  { name: "adversarial: the digest sent per prefix", verdict: "violated", line: 9, match: /at most 1 email|At most 1 emails/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  const lines: string[] = [];
  for (const p of ["a", "b"]) {
    const hits = contacts().filter((c) => c.startsWith(p));
    lines.push(...hits);
    if (lines.length > 0) sendEmail("ops", String(lines.length));
  }
}` },
  { name: "flatMap over a literal array of tool results' filters, de-duplicated", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const all = ["a", "b"].flatMap((p) => contacts().filter((c) => c.startsWith(p)));
  for (const to of new Set(all)) sendEmail(to, "x");
}` },
  { name: "adversarial: flatMap without de-duplication", verdict: "violated", line: 6, body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const all = ["a", "b"].flatMap((p) => contacts().filter((c) => c.startsWith(p)));
  for (const to of all) sendEmail(to, "x");
}` },
  { name: "map over a literal array to tool results, then flatMap of each", verdict: "violated", line: 7, body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const lists = ["a", "b"].map((p) => contacts());
  const all = lists.flatMap((l) => l);
  for (const to of all) sendEmail(to, "x");
}` },
  { name: "control: the same, de-duplicated", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const lists = ["a", "b"].map((p) => contacts());
  const all = lists.flatMap((l) => l);
  for (const to of [...new Set(all)]) sendEmail(to, "x");
}` },
  // `flat()` and `concat` (arrays.ts): arrays spliced in, plain values kept.
  { name: "flat of two tool results: the length is the sum, the ends are theirs", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const a = contacts();
  const b = fewContacts();
  const all = [a, b].flat();
  if (all.length !== a.length + b.length) sendEmail("x", "length");
  if (a.length > 0 && all[0] !== a[0]) sendEmail("x", "first");
  if (b.length > 0 && all[all.length - 1] !== b[b.length - 1]) sendEmail("x", "last");
}` },
  { name: "adversarial: flat of a tool result twice may repeat an address", verdict: "violated", line: 5, body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  for (const to of [contacts(), contacts()].flat()) sendEmail(to, "x");
}` },
  { name: "flat of tool results, de-duplicated by a Set", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  for (const to of new Set([contacts(), fewContacts()].flat(1))) sendEmail(to, "x");
}` },
  { name: "flat keeps plain elements and splices arrays, one level", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const all = ["a", ["b", "c"], [], "d"].flat();
  if (all.length !== 4 || all[1] !== "b" || all[3] !== "d") sendEmail("x", "shape");
}` },
  { name: "adversarial: flat of a literal with a tool result: the literal is not always last", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const all = [["start"], contacts()].flat();
  if (all[all.length - 1] !== "start") sendEmail("x", "grew");
}` },
  { name: "refused: flat deeper than one level", verdict: "refused", line: 5, match: /default depth/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  for (const to of [contacts(), [["x"]]].flat(2)) sendEmail(String(to), "x");
}` },
  { name: "flat flattens one level: a nested array stays one element", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const all = [["a"], [["b", "c"]]].flat();
  if (all.length !== 2 || all[0] !== "a") sendEmail("x", "shape");
}` },
  { name: "adversarial: flat flattens one level only: two elements, not three", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const all = [["a"], [["b", "c"]]].flat();
  if (all.length === 2) sendEmail("x", "shape");
}` },
  { name: "concat: a tool result, then a literal and another result; the literal follows the first", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const a = contacts();
  const all = a.concat("mid", fewContacts());
  if (all[a.length] !== "mid") sendEmail("x", "mid");
  if (all.length < a.length + 1) sendEmail("x", "short");
}` },
  { name: "adversarial: concat of two tool results may be longer than the bounded one", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if (fewContacts().concat(contacts()).length > 3) sendEmail("x", "long");
}` },
  { name: "adversarial: concat repeats what both hold", verdict: "violated", line: 6, body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const a = fewContacts();
  for (const to of a.concat(a)) sendEmail(to, "x");
}` },
  { name: "refused: concat of a value that may be undefined", verdict: "refused", line: 6, match: /may be undefined/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const first = contacts()[0];
  for (const to of ["a"].concat(first)) if (to !== undefined) sendEmail(to, "x");
}` },
  { name: "refused: joining strings and records", verdict: "refused", match: /different kinds/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const all = [...contacts(), ...rows()];
  for (const x of all) if (typeof x === "string") sendEmail(x, "x");
}` },
];

describe("arrays of unknown length joined", () => proveCases(cases));
