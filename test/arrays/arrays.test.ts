/**
 * Array methods and builders (core/prover/exec/arrays.ts), `Object.keys/values/entries`
 * (objects.ts) and patterns in `for…of` heads (loops.ts). Each verdict was decided from
 * JavaScript's semantics before running the prover; each adversarial case (a corner of the
 * semantics a careless model gets wrong) has a benign twin. IMPORTS are prepended: body line 1 is
 * file line 3.
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  // ── xs[i] (expressions.ts, arrays.ts elementAt) ──
  { name: "xs[i] at a callback's index is its element", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  xs.forEach((x, i) => { if (xs[i] !== x) sendEmail("ceo@corp", "x"); });
}` },
  { name: "adversarial: xs[i + 1] is the next element, which may equal this one", verdict: "violated", line: 5, match: /xs=\[/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  xs.forEach((x, i) => { if (xs[i + 1] === x) sendEmail("ceo@corp", "x"); });
}` },
  { name: "adversarial: xs[i + 1] past the last element is undefined", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  xs.forEach((x, i) => { if (xs[i + 1] === undefined) sendEmail("ceo@corp", x); });
}` },
  { name: "adversarial: a tool array's element 0 is undefined when it is empty", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const first = contacts()[0]; if (first === undefined) sendEmail("ceo@corp", "x");
}` },
  { name: "a negative index names no element (not the last one)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const v = contacts()[-1]; if (v !== undefined) sendEmail(v, "x");
}` },
  { name: "elements of another array at a callback's index (arrays of one length)", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const xs = fewContacts();
  const tags = xs.map((x) => x + "!");
  xs.forEach((x, i) => { const t = tags[i]; if (t !== undefined && t !== x + "!") sendEmail("ceo@corp", t); });
}` },
  { name: "a map result of unknown length at a callback's index is the mapped element", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  const ys = xs.map((x) => x + "!");
  xs.forEach((x, i) => { const y = ys[i]; if (y !== x + "!") sendEmail("ceo@corp", "x"); });
}` },
  { name: "adversarial: a map result at the next index is the next element's", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  const ys = xs.map((x) => x + "!");
  xs.forEach((x, i) => { const y = ys[i + 1]; if (y === x + "!") sendEmail("ceo@corp", "x"); });
}` },
  { name: "a fractional literal index is refused", verdict: "refused", line: 5, match: /integer index/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const v = contacts()[0.5]; if (v !== undefined) sendEmail(v, "x");
}` },
  // ── at ──
  { name: "at(-1) of a literal array is its last element", verdict: "violated", line: 5, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const last = ["a", "ceo@corp"].at(-1); if (last !== undefined) sendEmail(last, "x");
}` },
  { name: "at past the end is undefined", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const v = ["a", "b"].at(2); if (v !== undefined) sendEmail(v, "x");
  const w = ["a", "b"].at(-3); if (w !== undefined) sendEmail(w, "x");
}` },
  { name: "at(-0.5) truncates to 0 (the first element)", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const v = ["ceo@corp", "b"].at(-0.5); if (v !== undefined) sendEmail(v, "x");
}` },
  { name: "adversarial: at(NaN) reads element 0", verdict: "violated", line: 5, match: /i="?NaN/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(i: number): void {
  if (i !== i) { const v = ["ceo@corp", "b"].at(i); if (v !== undefined) sendEmail(v, "x"); }
}` },
  { name: "control: at(NaN) of another array reads its element 0", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(i: number): void {
  if (i !== i) { const v = ["b", "ceo@corp"].at(i); if (v !== undefined) sendEmail(v, "x"); }
}` },
  { name: "adversarial: a symbolic fraction truncates toward zero", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(i: number): void {
  if (i > 0.5 && i < 1) { const v = ["ceo@corp", "b"].at(i); if (v !== undefined) sendEmail(v, "x"); }
}` },
  { name: "control: a symbolic index in [1, 2) reads element 1", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(i: number): void {
  if (i >= 1 && i < 2) { const v = ["ceo@corp", "b"].at(i); if (v !== undefined) sendEmail(v, "x"); }
}` },
  { name: "at(0) of an input, guarded", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  const f = to.at(0); if (f !== undefined && f !== "ceo@corp") sendEmail(f, "x");
}` },
  { name: "at(-1) of an input: its last element", verdict: "violated", line: 5, match: /to=\[(.*, )?"ceo@corp"\]/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  const l = to.at(-1); if (l !== undefined) sendEmail(l, "x");
}` },
  { name: "at(-Infinity) of an input is undefined", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[], i: number): void {
  if (i === -Infinity || i === Infinity) { const v = to.at(i); if (v !== undefined) sendEmail("a", "x"); }
}` },
  { name: "at(i) of an input with an unknown index can be defined", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[], i: number): void {
  const v = to.at(i); if (v !== undefined) sendEmail(v, "x");
}` },
  // ── indexOf / lastIndexOf / includes ──
  { name: "lastIndexOf finds the last match", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  if (["a", "b", "a"].lastIndexOf("a") === 2) sendEmail("ceo@corp", "x");
}` },
  { name: "indexOf finds the first match", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  if (["a", "b", "a"].indexOf("a") === 2 || ["a"].indexOf("z") !== -1) sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: indexOf never finds NaN", verdict: "violated", line: 5, match: /x="?NaN/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(x: number): void {
  if ([x].indexOf(x) === -1) sendEmail("ceo@corp", "x");
}` },
  { name: "control: includes finds NaN (SameValueZero)", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(x: number): void {
  if (![x].includes(x)) sendEmail("ceo@corp", "x");
}` },
  { name: "indexOf of an input: the element at the index found is the value", verdict: "proved", body: `export const guarantees = [m.onlyTo(["ceo@corp"])];
export function main(to: string[]): void {
  const i = to.indexOf("ceo@corp");
  if (i >= 0) { const v = to.at(i); if (v !== undefined) sendEmail(v, "x"); }
}` },
  { name: "indexOf of an input is the first match: index 0 means element 0 matches", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  if (to.indexOf("a") === 0 && to.at(0) !== "a") sendEmail("b", "x");
}` },
  { name: "indexOf of an input can be past 0", verdict: "violated", match: /to=\[.*"a"/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  if (to.indexOf("a") > 0) sendEmail("b", "x");
}` },
  { name: "adversarial: lastIndexOf of an input is the last match", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  if (to.at(0) === "a" && to.at(1) === "a" && to.lastIndexOf("a") === 0) sendEmail("b", "x");
}` },
  { name: "control: indexOf of an input is the first match, not the last", verdict: "violated", match: /to=\["a", "a"/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  if (to.at(0) === "a" && to.at(1) === "a" && to.indexOf("a") === 0) sendEmail("b", "x");
}` },
  { name: "lastIndexOf of an input: the element at the index found is the value", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  const i = to.lastIndexOf("a");
  if (i >= 0 && to.at(i) !== "a") sendEmail("b", "x");
}` },
  { name: "adversarial: NaN is never found in an input by indexOf", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: number[]): void {
  if (xs.indexOf(NaN) >= 0) sendEmail("b", "x");
}` },
  { name: "control: NaN is found in an input by includes", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: number[]): void {
  if (xs.includes(NaN)) sendEmail("b", "x");
}` },
  { name: "indexOf with a start position is refused", verdict: "refused", line: 5, match: /start position/, body: `export const guarantees = [m.nothing()];
export function main(to: string[]): void {
  if (to.indexOf("a", 1) >= 0) sendEmail("b", "x");
}` },
  // ── slice ──
  { name: "slice(0, 1) of a literal array", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const t of ["a", "ceo@corp", "b"].slice(0, 1)) sendEmail(t, "x");
}` },
  { name: "slice(-2) of a literal array", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const t of ["a", "ceo@corp", "b"].slice(-2)) sendEmail(t, "x");
}` },
  { name: "slice(1) of an input skips the first element only", verdict: "violated", line: 6, match: /to=\[.+, (.*, )?"ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  if (to.at(0) !== "ceo@corp") return;
  for (const t of to.slice(1)) sendEmail(t, "x");
}` },
  { name: "slice(0, 2) of an input: at most two elements", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  for (const t of to.slice(0, 2)) sendEmail(t, "x");
}` },
  { name: "slice(0, 2) of an input: two elements", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(to: string[]): void {
  for (const t of to.slice(0, 2)) sendEmail(t, "x");
}` },
  { name: "slice(-1) of an input: at most one element, the last", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(to: string[]): void {
  to.slice(-1).forEach((t) => { if (t === to.at(-1)) sendEmail(t, "x"); else sendEmail("a", "b"); });
}` },
  { name: "adversarial: a slice's length is never negative", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  if (to.slice(1).length < 0 || to.slice(5, 2).length !== 0 || to.slice(-3, 1).length > 1) sendEmail("ceo@corp", "x");
}` },
  { name: "control: a slice of an input may be empty", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  if (to.slice(1).length === 0) sendEmail("ceo@corp", "x");
}` },
  { name: "slice with an end that is undefined runs to the end", verdict: "violated", line: 6, match: /SendEmail\(to="c"/, body: `export const guarantees = [m.neverEmail("c")];
export function main(): void {
  const end = undefined;
  for (const t of ["a", "b", "c"].slice(1, end)) sendEmail(t, "x");
}` },
  { name: "a slice's elements are the array's, shifted", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  const rest = to.slice(1); const v = rest.at(0);
  if (v !== undefined && v !== to.at(1)) sendEmail("ceo@corp", "x");
}` },
  { name: "slice of an input up to an unknown end", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[], n: number): void {
  for (const t of to.slice(0, n)) sendEmail(t, "x");
}` },
  { name: "slice of a literal array with an unknown bound is refused", verdict: "refused", line: 5, match: /literal bounds/, body: `export const guarantees = [m.nothing()];
export function main(n: number): void {
  for (const t of ["a", "b"].slice(n)) sendEmail(t, "x");
}` },
  // ── flatMap ──
  { name: "flatMap over a literal array splices each array", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(4), m.emailsAtLeast(4)];
export function main(): void {
  for (const t of ["a", "b"].flatMap((x) => [x, x + "@corp"])) sendEmail(t, "x");
}` },
  { name: "flatMap: the spliced values are sent", verdict: "violated", line: 5, match: /SendEmail\(to="b@corp"/, body: `export const guarantees = [m.neverEmail("b@corp")];
export function main(): void {
  for (const t of ["a", "b"].flatMap((x) => [x, x + "@corp"])) sendEmail(t, "x");
}` },
  { name: "flatMap: a plain value is one element, and calls in the callback happen", verdict: "violated", line: 6, match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const ys = ["a", "b"].flatMap((x) => { sendEmail(x, "s"); return x + "!"; });
  for (const y of ys) sendEmail(y, "x");
}` },
  { name: "flatMap over an input is refused", verdict: "refused", line: 5, match: /literal arrays only/, body: `export const guarantees = [m.nothing()];
export function main(to: string[]): void {
  for (const t of to.flatMap((x) => [x])) sendEmail(t, "x");
}` },
  // ── Object.keys / values / entries ──
  { name: "Object.values of an object literal", verdict: "violated", line: 6, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const o = { a: "x@corp", b: "ceo@corp" };
  for (const v of Object.values(o)) sendEmail(v, "s");
}` },
  { name: "adversarial: Object.keys puts integer keys first, ascending", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  if (Object.keys({ b: 1, 2: 1, 1: 1 }).at(0) === "1") sendEmail("ceo@corp", "x");
}` },
  { name: "control: Object.keys's first key is not the first written", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  if (Object.keys({ b: 1, 2: 1, 1: 1 }).at(0) === "b") sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: a property written again keeps its place", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const base = { a: 1, b: 2 }; const o = { ...base, a: 3 };
  if (Object.keys(o).at(0) === "a" && Object.values(o).at(0) === 3) sendEmail("ceo@corp", "x");
}` },
  { name: "control: a property written again does not move to the end", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const base = { a: 1, b: 2 }; const o = { ...base, a: 3 };
  if (Object.keys(o).at(-1) === "a") sendEmail("ceo@corp", "x");
}` },
  { name: "Object.entries destructured in the loop head, guarded", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const [k, v] of Object.entries({ ceo: "ceo@corp", cfo: "cfo@corp" })) if (k !== "ceo") sendEmail(v, k);
}` },
  { name: "Object.entries destructured in the loop head, guarded wrongly", verdict: "violated", line: 5, match: /SendEmail\(to="ceo@corp", subject="ceo"\)/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const [k, v] of Object.entries({ ceo: "ceo@corp", cfo: "cfo@corp" })) if (k !== "cfo") sendEmail(v, k);
}` },
  { name: "Object.keys of a tool result is refused (it may carry more properties)", verdict: "refused", line: 5, match: /built from a literal/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  for (const r of rows()) for (const k of Object.keys(r)) log(k);
}` },
  { name: "Object.keys of objects whose key order depends on a branch is refused", verdict: "refused", line: 6, match: /built from a literal/, body: `export const guarantees = [m.nothing()];
export function main(c: boolean): void {
  const o = c ? { a: 1, b: 2 } : { b: 2, a: 1 };
  if (Object.keys(o).at(0) === "a") sendEmail("ceo@corp", "x");
}` },
  // ── Array.from ──
  { name: "Array.from({ length: 3 }, cb) runs the callback for 0, 1, 2", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3), m.emailsAtLeast(3), m.neverEmail("u3")];
export function main(): void {
  Array.from({ length: 3 }, (_, i) => "u" + i).forEach((t) => sendEmail(t, "x"));
}` },
  { name: "Array.from({ length: 3 }, cb): the last index is 2", verdict: "violated", line: 5, match: /SendEmail\(to="u2"/, body: `export const guarantees = [m.neverEmail("u2")];
export function main(): void {
  Array.from({ length: 3 }, (_, i) => "u" + i).forEach((t) => sendEmail(t, "x"));
}` },
  { name: "Array.from of an input is a copy", verdict: "violated", line: 5, match: /to=\["ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  for (const t of Array.from(to)) sendEmail(t, "x");
}` },
  { name: "Array.from with a length nothing bounds is refused", verdict: "refused", line: 5, match: /does not keep it at most 16/, body: `export const guarantees = [m.nothing()];
export function main(n: number): void {
  for (const t of Array.from({ length: n }, () => "a")) sendEmail(t, "x");
}` },
  { name: "Array.from with a length the path bounds: one element per unit", verdict: "violated", line: 6, match: /n=4|n=5|n=6|n=7/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(n: number): void {
  if (!Number.isInteger(n) || n <= 0 || n > 7) return;
  for (const t of Array.from({ length: n }, (_, i) => "u" + i)) sendEmail(t, "x");
}` },
  { name: "control: the bound kept by the path holds", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(7), m.neverEmail("u7")];
export function main(n: number): void {
  if (!Number.isInteger(n) || n <= 0 || n > 7) return;
  for (const t of Array.from({ length: n }, (_, i) => "u" + i)) sendEmail(t, "x");
}` },
  { name: "adversarial: a fractional length is cut (2.5 gives two elements), NaN and negatives give none", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2), m.neverEmail("u2")];
export function main(n: number): void {
  if (n > 2.9) return;
  Array.from({ length: n }, (_, i) => "u" + i).forEach((t) => sendEmail(t, "x"));
}` },
  { name: "adversarial: a fractional length 2.5 still makes the second element", verdict: "violated", line: 6, match: /to="u1"/, body: `export const guarantees = [m.neverEmail("u1")];
export function main(n: number): void {
  if (n > 2.5) return;
  Array.from({ length: n }, (_, i) => "u" + i).forEach((t) => sendEmail(t, "x"));
}` },
  { name: "adversarial: the callback's calls happen only for elements that exist", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(n: number): void {
  if (n > 2) return;
  Array.from({ length: n }, (_, i) => { sendEmail("a", "x"); return i; });
}` },
  { name: "Array.from of a string is refused", verdict: "refused", line: 5, match: /code points/, body: `export const guarantees = [m.nothing()];
export function main(s: string): void {
  for (const t of Array.from(s)) sendEmail(t, "x");
}` },
  // ── patterns in for…of heads ──
  { name: "for (const { to, amount } of rows()), unguarded", verdict: "violated", line: 5, match: /noPaymentOver|Pay\(/, body: `export const guarantees = [m.noPaymentOver(100)];
export function main(): void {
  for (const { to, amount } of rows()) if (amount > 0) pay(to, amount);
}` },
  { name: "for (const { to, amount } of rows()), guarded", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100)];
export function main(): void {
  for (const { to, amount: a } of rows()) if (a > 0 && a <= 100) pay(to, a);
}` },
  { name: "a default in a for…of pattern: the property is always there, so the default never runs", verdict: "proved", body: `export const guarantees = [m.nothing()];
export function main(): void {
  for (const { to = "x" } of rows()) log(to);
}` },
  { name: "an array pattern over literal pairs", verdict: "violated", line: 5, match: /SendEmail\(to="ceo@corp", subject="x"\)/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const [a, b] of [["ceo@corp", "x"], ["b", "y"]]) sendEmail(a, b);
}` },
  { name: "a callback's element destructured, unguarded", verdict: "violated", line: 5, match: /Pay\(/, body: `export const guarantees = [m.noPaymentOver(100)];
export function main(): void {
  rows().forEach(({ to, amount }) => { if (amount > 0) pay(to, amount); });
}` },
  { name: "a callback's element destructured, guarded", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100)];
export function main(): void {
  rows().filter(({ amount }) => amount > 0 && amount <= 100).forEach(({ to, amount: a }) => pay(to, a));
}` },
  { name: "Object.entries with a destructuring callback", verdict: "violated", line: 5, match: /SendEmail\(to="ceo@corp", subject="ceo"\)/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  Object.entries({ ceo: "ceo@corp", cfo: "cfo@corp" }).forEach(([k, v]) => sendEmail(v, k));
}` },
  { name: "a default in a callback's pattern: the property is always there, so the default never runs", verdict: "proved", body: `export const guarantees = [m.nothing()];
export function main(): void {
  rows().forEach(({ to = "x" }) => log(to));
}` },
  // Defaults in patterns (objects.ts `withDefault`): the default runs exactly where the element is `undefined`.
  { name: "a default past the end of an array of unknown length is used", verdict: "violated", line: 6, match: /xs=\[\]/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  const [first = "ceo@corp"] = xs;
  sendEmail(first, "x");
}` },
  { name: "an empty string is not undefined: the default does not run", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const [first = "ceo@corp"] = ["", "b"];
  sendEmail(first, "x");
}` },
  { name: "adversarial: a default that calls a tool through a helper runs where the element is missing", verdict: "violated", line: 6, match: /xs=\[\]/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(xs: string[]): void {
  const [first = fallback()] = xs;
  sendEmail(first, "x");
}
function fallback(): string {
  sendEmail("ops@corp", "no recipient");
  return "ops@corp";
}` },
  { name: "its twin: at most two emails, the default's only where the list is empty", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(xs: string[]): void {
  const [first = fallback(), second = "b@corp"] = xs;
  sendEmail(first, second);
}
function fallback(): string {
  sendEmail("ops@corp", "no recipient");
  return "ops@corp";
}` },
  { name: "an array pattern over an array of unknown length: the element is undefined past its end", verdict: "violated", line: 5, match: /`first` may be undefined/, body: `export const guarantees = [m.nothing()];
export function main(to: string[]): void {
  const [first] = to; log(first);
}` },
  { name: "an array pattern over an array of unknown length, tested", verdict: "proved", body: `export const guarantees = [m.nothing()];
export function main(to: string[]): void {
  const [first, second] = to; if (first !== undefined && second !== undefined) log(first + second);
}` },
];

describe("array methods, Object.keys/values/entries, Array.from, for…of patterns", () => {
  proveCases(cases);
});
