/**
 * `for (const [i, x] of xs.entries())` (loops.ts): each element with its index, over literal
 * arrays, arrays an `ensures` bounds and arrays of unknown length. Each adversarial case has a
 * benign twin. IMPORTS are prepended: body line 1 is file line 3.
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "a literal array's entries: index 1 is its second element", verdict: "violated", line: 5, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const [i, x] of ["a@corp", "ceo@corp"].entries()) if (i === 1) sendEmail(x, "s");
}` },
  { name: "a literal array's entries: index 0 is its first element", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const [i, x] of ["a@corp", "ceo@corp"].entries()) if (i === 0) sendEmail(x, "s");
}` },
  { name: "bounded tool array: the indices below 2 are at most two emails", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(): void {
  for (const [i, x] of fewContacts().entries()) if (i < 2) sendEmail(x, "s");
}` },
  { name: "adversarial: bounded tool array: index 2 exists when it has three elements", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(): void {
  for (const [i, x] of fewContacts().entries()) if (i <= 2) sendEmail(x, "s");
}` },
  { name: "unknown length: the pair's index names its element", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  for (const [i, x] of xs.entries()) if (xs[i] !== x || i < 0) sendEmail("ceo@corp", "s");
}` },
  { name: "adversarial: unknown length: the next element may equal this one", verdict: "violated", line: 5, match: /xs=\[/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  for (const [i, x] of xs.entries()) if (xs[i + 1] === x) sendEmail("ceo@corp", "s");
}` },
  { name: "adversarial: unknown length: the index in a template names the file", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("u1@corp")];
export function main(xs: string[]): void {
  for (const [i, x] of xs.entries()) sendEmail(\`u\${i}@corp\`, x);
}` },
  { name: "unknown length: the index in a template is never negative", verdict: "proved", body: `export const guarantees = [m.neverEmail("u-1@corp")];
export function main(xs: string[]): void {
  for (const [i, x] of xs.entries()) sendEmail(\`u\${i}@corp\`, x);
}` },
  { name: "adversarial: unknown length: more writes than the bound", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  for (const [i, x] of xs.entries()) sendEmail(\`u\${i}@corp\`, x);
}` },
  { name: "the pair as one value: p[0] and p[1]", verdict: "violated", line: 5, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const p of ["ceo@corp", "b@corp"].entries()) if (p[0] === 0) sendEmail(p[1], "s");
}` },
  { name: "the pair as one value: p[0] is never 2 of two elements", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const p of ["a@corp", "ceo@corp"].entries()) if (p[0] === 2) sendEmail(p[1], "s");
}` },
  { name: "break on the index over an unknown length", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  for (const [i, x] of xs.entries()) { if (i >= 1) break; if (x !== "ceo@corp") sendEmail(x, "s"); }
}` },
  { name: "an array's entries() outside a for…of is refused", verdict: "refused", line: 5, match: /for…of/, body: `export const guarantees = [m.nothing()];
export function main(xs: string[]): void {
  const it = xs.entries(); console.log(it);
}` },
  // Session 45: entries() of a filtered array numbers its kept elements (callbacks.ts `compactView`;
  // over an array of unknown length, over the filter's count, counted.ts).
  { name: "entries() of a filter over a literal array: the kept elements numbered from 0", verdict: "violated", line: 5, match: /SendEmail\(to="c", subject="1"/, body: `export const guarantees = [m.neverEmail("c")];
export function main(): void {
  for (const [i, x] of ["a", "", "c"].filter((y) => y !== "").entries()) sendEmail(x, \`\${i}\`);
}` },
  { name: "entries() of a filter over a bounded array: an index is below the count of kept elements", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const kept = fewContacts().filter((y) => y !== "");
  for (const [i, x] of kept.entries()) if (i >= kept.length || x === "") sendEmail("ceo@corp", x);
}` },
  { name: "entries() of a filter over an array of unknown length: every kept element passed the test", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  for (const [i, x] of xs.filter((y) => y !== "ceo@corp").entries()) sendEmail(x, \`\${i}\`);
}` },
  { name: "adversarial: entries() of a filter over an array of unknown length: the first kept is at index 0", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  for (const [i, x] of xs.filter((y) => y !== "").entries()) if (i === 0) sendEmail(x, "first");
}` },
];

describe("xs.entries() in for…of", () => proveCases(cases));
