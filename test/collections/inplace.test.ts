/**
 * In-place changes of arrays the program owns (core/prover/exec/inplace.ts): `out[i] = v`,
 * `splice`, `reverse`, `sort` with the modelled comparators (a stable sorting network), and the
 * refusals (comparators of other shapes, possibly-NaN numbers, arrays of path-dependent length,
 * aliasing results). Verdicts decided from JavaScript's semantics before running the prover.
 * IMPORTS are prepended: body line 1 is file line 3.
 */
import { describe } from "vitest";
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "index assignment replaces an element", verdict: "violated", line: 6, match: /to="a,x,c"/, body: `export const guarantees = [m.neverEmail("a,x,c")];
export function main(): void {
  const out = ["a", "b", "c"]; out[1] = "x";
  sendEmail(out.join(","), "s");
}` },
  { name: "index assignment at the end appends", verdict: "violated", line: 6, match: /to="a,b"/, body: `export const guarantees = [m.neverEmail("a,b")];
export function main(): void {
  const out = ["a"]; out[out.length] = "b";
  sendEmail(out.join(","), "s");
}` },
  { name: "index assignment by an unrolled counter", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string): void {
  const out = ["ceo@corp", "ceo@corp"];
  for (let i = 0; i < 2; i++) out[i] = to === "ceo@corp" ? "x" : to;
  for (const y of out) sendEmail(y, "s");
}` },
  { name: "adversarial: an index past the end is refused (a hole)", verdict: "refused", line: 5, match: /holes/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const out = ["a"]; out[2] = "b"; log(out.join(","));
}` },
  { name: "adversarial: an index the prover does not know is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.nothing()];
export function main(i: number): void {
  const out = ["a", "b"]; out[i] = "c"; log(out.join(","));
}` },
  { name: "adversarial: writing through an alias is refused", verdict: "refused", body: `export const guarantees = [m.nothing()];
export function main(): void {
  const out = ["a", "b"]; const other = out; out[0] = "c"; log(other.join(","));
}` },
  { name: "splice removes and inserts, returning the removed", verdict: "violated", line: 6, match: /to="a,x,y,d\|b,c"/, body: `export const guarantees = [m.neverEmail("a,x,y,d|b,c")];
export function main(): void {
  const out = ["a", "b", "c", "d"]; const gone = out.splice(1, 2, "x", "y");
  sendEmail(out.join(",") + "|" + gone.join(","), "s");
}` },
  { name: "splice with a negative start and no count", verdict: "violated", line: 6, match: /to="a,b\|c,d"/, body: `export const guarantees = [m.neverEmail("a,b|c,d")];
export function main(): void {
  const out = ["a", "b", "c", "d"]; const gone = out.splice(-2);
  sendEmail(out.join(",") + "|" + gone.join(","), "s");
}` },
  { name: "reverse", verdict: "violated", line: 6, match: /to="c,b,a"/, body: `export const guarantees = [m.neverEmail("c,b,a")];
export function main(): void {
  const out = ["a", "b", "c"]; out.reverse();
  sendEmail(out.join(","), "s");
}` },
  { name: "adversarial: reverse's result is the same array (refused)", verdict: "refused", body: `export const guarantees = [m.nothing()];
export function main(): void {
  const out = ["a", "b"]; const r = out.reverse(); out.push("c"); log(r.join(","));
}` },
  { name: "sort numbers ascending: the smallest symbolic amount comes first", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(5)];
export function main(a: string[], b: string[]): void {
  const out = [a.length, 5, b.length]; out.sort((x, y) => x - y);
  const first = out.at(0);
  if (first !== undefined && first > 0) pay("acct", first);
}` },
  { name: "adversarial: sort descending puts the largest first", verdict: "violated", match: /Pay\(/, body: `export const guarantees = [m.noPaymentOver(5)];
export function main(a: string[], b: string[]): void {
  const out = [a.length, 5, b.length]; out.sort((x, y) => y - x);
  const first = out.at(0);
  if (first !== undefined && first > 0) pay("acct", first);
}` },
  { name: "sort strings with the three-way comparator", verdict: "violated", line: 6, match: /to="a,b,c"/, body: `export const guarantees = [m.neverEmail("a,b,c")];
export function main(): void {
  const out = ["c", "a", "b"]; out.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  sendEmail(out.join(","), "s");
}` },
  { name: "sort strings descending, symbolic", verdict: "proved", body: `export const guarantees = [m.neverEmail("a")];
export function main(s: string): void {
  const out = [s, "b"]; out.sort((x, y) => (x > y ? -1 : x < y ? 1 : 0));
  const first = out.at(0);
  if (first !== undefined) sendEmail(first, "s");
}` },
  { name: "default sort of strings is by code units, stable", verdict: "violated", line: 6, match: /to="B,a,é"/, body: `export const guarantees = [m.neverEmail("B,a,é")];
export function main(): void {
  const out = ["é", "a", "B"]; out.sort();
  sendEmail(out.join(","), "s");
}` },
  { name: "adversarial: a comparator that calls a tool is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const out = ["b", "a"]; out.sort((x, y) => { sendEmail(x, y); return x < y ? -1 : 1; });
}` },
  // A comparator that never returns 0 is inconsistent only on equal keys (inplace.ts `distinctOnly`, session 45).
  { name: "a comparator that never returns 0 sorts distinct strings in place", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const out = ["b", "a"]; out.sort((x, y) => (x < y ? -1 : 1)); if (out.join(",") !== "a,b") sendEmail("a", out.join(","));
}` },
  { name: "adversarial: an inconsistent comparator on keys that may be equal: never proved either way", verdict: "refused", match: /inconsistent/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(x: string): void {
  const out = [{ k: x, v: "first" }, { k: "a", v: "second" }]; out.sort((p, q) => (p.k < q.k ? -1 : 1)); if (out[0]!.v === "second" && x === "a") sendEmail("a", "moved");
}` },
  { name: "numbers that may be NaN: sorted in place, the elements are still there", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(x: number): void {
  const out = [x, 1]; out.sort((a, b) => a - b); if (!out.includes(1) || out.length !== 2) sendEmail("a", "x");
}` },
  { name: "adversarial: numbers that may be NaN, a run without NaN puts 1 first", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(x: number): void {
  const out = [x, 1]; out.sort((a, b) => a - b); if (out[0] === 1) sendEmail("a", "x");
}` },
  { name: "adversarial: only a NaN breaks it (the engine keeps [NaN, 1]): refused, never proved", verdict: "refused", match: /NaN/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(x: number): void {
  const out = [x, 1]; out.sort((a, b) => a - b); if (Number.isNaN(out[0]!)) sendEmail("a", "x");
}` },
  { name: "adversarial: default sort of numbers is refused (it compares their texts)", verdict: "refused", line: 5, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const out = [10, 9]; out.sort(); log(String(out.length));
}` },
  // (Session 37) `sort` of an array whose length depends on the path: the network over its present elements.
  { name: "sort of an array whose length depends on the path: \"a\" comes first where it was pushed", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo")];
export function main(c: boolean): void {
  const out: string[] = ["b"]; if (c) out.push("a"); out.sort(); log(out.join(","));
  if (c && out[0] !== "a") sendEmail("ceo", "x");
}` },
  { name: "adversarial: sort of an array whose length depends on the path: \"b\" alone stays first", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("ceo")];
export function main(c: boolean): void {
  const out: string[] = ["b"]; if (c) out.push("a"); out.sort();
  if (out[0] === "b") sendEmail("ceo", "x");
}` },
  { name: "refused: reverse of an array whose length depends on the path", verdict: "refused", body: `export const guarantees = [m.nothing()];
export function main(c: boolean): void {
  const out: string[] = ["b"]; if (c) out.push("a"); out.reverse(); log(out.join(","));
}` },
];

describe("in-place changes of arrays the program owns", () => {
  proveCases(cases);
});
