/**
 * Arrays the program builds itself (core/prover/exec/locals.ts): push, pop, unshift, shift on an
 * owned `const`, literal arrays whose length differs by path (values.ts `merge`), and spread.
 * Each verdict was decided from JavaScript's semantics before running the prover; adversarial
 * cases have benign twins. IMPORTS are prepended: body line 1 is file line 3.
 */
import { describe } from "vitest";
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  // ── push in straight-line and unrolled code ──
  { name: "push then join: the joined text is sent", verdict: "violated", line: 7, match: /SendEmail\(to="a, ceo@corp"/, body: `export const guarantees = [m.neverEmail("a, ceo@corp")];
export function main(): void {
  const out: string[] = [];
  out.push("a"); out.push("ceo@corp");
  sendEmail(out.join(", "), "x");
}` },
  { name: "control: push order matters for join", verdict: "proved", body: `export const guarantees = [m.neverEmail("a, ceo@corp")];
export function main(): void {
  const out: string[] = [];
  out.push("ceo@corp"); out.push("a");
  sendEmail(out.join(", "), "x");
}` },
  { name: "push returns the new length", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const out: string[] = ["a"];
  if (out.push("b", "c") === 3) sendEmail("x", "y");
}` },
  { name: "control: push's length is not the old length", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const out: string[] = ["a"];
  if (out.push("b") === 1) sendEmail("x", "y");
}` },
  { name: "adversarial: a conditional push changes the length by path", verdict: "violated", match: /xs=\[/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(xs: string[]): void {
  const out: string[] = [];
  for (const x of ["a", "b", "c"]) if (xs.includes(x)) out.push(x);
  for (const y of out) sendEmail(y, "x");
}` },
  { name: "control: a conditional push then loop, bounded by the literal array", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  const out: string[] = [];
  for (const x of ["a", "b", "c"]) if (xs.includes(x)) out.push(x);
  for (const y of out) sendEmail(y, "x");
}` },
  { name: "filtered pushes keep the filter", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(c: boolean): void {
  const out: string[] = [];
  for (const x of ["a", "ceo@corp", "b"]) if (x !== "ceo@corp" || c && x.length > 99) out.push(x);
  for (const y of out) sendEmail(y, "x");
  sendEmail(out.join(";"), "all");
}` },
  { name: "adversarial: the element read after a conditional push is the pushed one", verdict: "violated", line: 7, match: /ceo@corp/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(c: boolean): void {
  const out: string[] = ["a"];
  if (c) out.push("ceo@corp");
  const last = out.at(-1); if (last !== undefined) sendEmail(last, "x");
}` },
  { name: "control: at(0) after a conditional push is the first element", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(c: boolean): void {
  const out: string[] = ["a"];
  if (c) out.push("ceo@corp");
  const first = out.at(0); if (first !== undefined) sendEmail(first, "x");
}` },
  { name: "adversarial: length after conditional pushes on two paths", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: boolean, b: boolean): void {
  const out: number[] = [];
  if (a) { out.push(1); out.push(2); } else out.push(3);
  if (b) out.push(4); if (out.length === 3) sendEmail("x", "y");
}` },
  { name: "control: that length is never 4", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: boolean, b: boolean): void {
  const out: number[] = [];
  if (a) { out.push(1); out.push(2); } else out.push(3);
  if (b) out.push(4); if (out.length === 4 || out.length === 0) sendEmail("x", "y");
}` },
  { name: "a sum over a built array", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(60)];
export function main(a: boolean): void {
  const amounts: number[] = [10];
  if (a) amounts.push(50);
  let total = 0;
  for (const x of amounts) total += x;
  if (total > 0) pay("acct", total);
}` },
  { name: "adversarial: that sum reaches 60 only with the push", verdict: "violated", line: 9, body: `export const guarantees = [m.noPaymentOver(59)];
export function main(a: boolean): void {
  const amounts: number[] = [10];
  if (a) amounts.push(50);
  let total = 0;
  for (const x of amounts) total += x;
  if (total > 0) pay("acct", total);
}` },
  // ── pop, unshift, shift ──
  { name: "pop returns the last element and removes it", verdict: "violated", line: 7, match: /SendEmail\(to="a"/, body: `export const guarantees = [m.neverEmail("a")];
export function main(): void {
  const out = ["a", "b"];
  const b = out.pop();
  if (b === "b") for (const x of out) sendEmail(x, "x");
}` },
  { name: "pop of an empty array is undefined", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const out: string[] = [];
  const v = out.pop(); if (v !== undefined) sendEmail(v, "x");
}` },
  { name: "adversarial: pop after a conditional push may be defined", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(c: boolean): void {
  const out: string[] = [];
  if (c) out.push("z");
  const v = out.pop(); if (v !== undefined) sendEmail(v, "x");
}` },
  { name: "control: pop twice after one conditional push is undefined", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(c: boolean): void {
  const out: string[] = [];
  if (c) out.push("z");
  out.pop(); const v = out.pop(); if (v !== undefined) sendEmail(v, "x");
}` },
  { name: "unshift puts elements first", verdict: "violated", line: 6, match: /SendEmail\(to="z"/, body: `export const guarantees = [m.neverEmail("z")];
export function main(): void {
  const out = ["a"]; out.unshift("z");
  const f = out.at(0); if (f !== undefined) sendEmail(f, "x");
}` },
  { name: "unshift on a built array of unknown length, then shift", verdict: "proved", body: `export const guarantees = [m.neverEmail("z")];
export function main(c: boolean): void {
  const out = ["a"]; if (c) out.push("b");
  out.unshift("z"); const first = out.shift();
  if (first === "z") for (const x of out) sendEmail(x, "x");
}` },
  { name: "adversarial: shift on a built array moves the next one first", verdict: "violated", line: 7, match: /SendEmail\(to="b"/, body: `export const guarantees = [m.neverEmail("b")];
export function main(c: boolean): void {
  const out = ["a"]; if (c) out.push("b");
  out.shift();
  const f = out.at(0); if (f !== undefined) sendEmail(f, "x");
}` },
  // A queue drained by `shift()!` while its length is positive (h54 i59, i60; h53 i59, i60): the
  // loop's test is a conjunct of the path's condition, so the element read is defined there.
  { name: "a queue of distinct inputs drained while its length is positive, at most three", verdict: "proved", body: `export const guarantees = [m.nobodyTwice(), m.emailsAtMost(3)];
export function main(xs: string[]): void {
  const queue = [...new Set(xs.slice(0, 6))];
  const done: string[] = [];
  let n = 0;
  while (queue.length > 0 && n < 3) {
    const to = queue.shift()!;
    n++;
    sendEmail(to, "hi");
    done.push(to);
  }
  log(done.join(","));
}` },
  { name: "its twin puts each one back once: a second email to the same address", verdict: "violated", match: /nobodyTwice/, body: `export const guarantees = [m.nobodyTwice()];
export function main(xs: string[]): void {
  const queue = [...new Set(xs.slice(0, 6))];
  let n = 0;
  while (queue.length > 0 && n < 3) {
    const to = queue.shift()!;
    n++;
    sendEmail(to, "hi");
    if (n === 1) queue.push(to);
  }
}` },
  { name: "without the length test, the element read may be undefined: pushing it is refused", verdict: "refused", match: /may be undefined is not modelled here/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  const queue = [...xs.slice(0, 6)];
  const done: string[] = [];
  for (let n = 0; n < 3; n++) {
    const to = queue.shift()!;
    done.push(to);
  }
  for (const d of done) sendEmail(d, "x");
}` },
  // ── spread ──
  { name: "spread concatenates literal arrays", verdict: "violated", line: 6, match: /SendEmail\(to="a,b,c"/, body: `export const guarantees = [m.neverEmail("a,b,c")];
export function main(): void {
  const a = ["a"]; const b = ["b", "c"];
  sendEmail([...a, ...b].join(","), "x");
}` },
  { name: "spread of a built array of unknown length keeps the order", verdict: "violated", line: 7, match: /SendEmail\(to="x,y"/, body: `export const guarantees = [m.neverEmail("x,y")];
export function main(c: boolean): void {
  const a: string[] = []; if (c) a.push("y");
  const all = ["x", ...a];
  sendEmail(all.join(","), "x");
}` },
  { name: "control: the spread array never holds y first", verdict: "proved", body: `export const guarantees = [m.neverEmail("y,x")];
export function main(c: boolean): void {
  const a: string[] = []; if (c) a.push("y");
  const all = ["x", ...a, ...a];
  sendEmail(all.join(","), "x");
}` },
  // Refused before session 43; arrays of unknown length now join (locals.ts joinParts).
  { name: "spread of an input array: the literal after it is the last element", verdict: "proved", body: `export const guarantees = [m.neverEmail("b")];
export function main(xs: string[]): void {
  const all = [...xs, "a"]; sendEmail(all[all.length - 1]!, "last");
}` },
  { name: "adversarial: spread of an input array: its elements come first", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("b")];
export function main(xs: string[]): void {
  const all = [...xs, "a"]; sendEmail(all[0]!, "first");
}` },
  { name: "spread of a string is refused", verdict: "refused", line: 5, match: /code points/, body: `export const guarantees = [m.nothing()];
export function main(s: string): void {
  const all = [...s]; log(all.join(","));
}` },
  { name: "a spread copy does not see later pushes", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const a = ["a"]; const b = [...a]; a.push("b");
  if (b.length !== 1 || a.length !== 2) sendEmail("x", "y");
}` },
  // ── refusals: aliases, escapes, loops of unknown length, unmodelled mutators ──
  { name: "adversarial: pushing through an alias is refused", verdict: "refused", line: 5, match: /array literal/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const a: string[] = []; const b = a; b.push("x");
  log(a.join(","));
}` },
  { name: "adversarial: an alias taken before the push is refused", verdict: "refused", line: 5, match: /stored, passed or captured/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const a: string[] = []; const b = a; a.push("x");
  log(b.join(","));
}` },
  { name: "adversarial: an alias through a conditional is refused", verdict: "refused", line: 5, match: /stored, passed or captured/, body: `export const guarantees = [m.nothing()];
export function main(c: boolean): void {
  const a: string[] = []; const b = c ? a : ["z"]; a.push("x");
  log(b.join(","));
}` },
  { name: "adversarial: an array passed to a helper is refused", verdict: "refused", line: 6, match: /stored, passed or captured/, body: `export const guarantees = [m.nothing()];
function add(xs: string[]): void { log(xs.join("")); }
export function main(): void {
  const a: string[] = []; add(a); a.push("x");
}` },
  { name: "adversarial: a record holding the array is refused", verdict: "refused", line: 5, match: /stored, passed or captured/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const a: string[] = []; const r = { items: a }; a.push("x"); log(r.items.join(","));
}` },
  { name: "adversarial: pushing inside a callback is refused", verdict: "refused", line: 5, match: /captured from outside/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const out: string[] = []; ["a", "b"].forEach((x) => { out.push(x); });
  log(out.join(","));
}` },
  // Pushes in a loop over an array of unknown length collect a view (collected.ts, test/locals/collected.test.ts);
  // an array read while the loop collects it is refused.
  { name: "pushing inside a loop over an array of unknown length, reading the array there (other than `includes` and `length`), is refused", verdict: "refused", line: 6, match: /read inside the loop that collects it/, body: `export const guarantees = [m.nothing()];
export function main(xs: string[]): void {
  const out: string[] = [];
  for (const x of xs) if (x !== "" && out.indexOf(x) < 0) out.push(x);
  log(out.join(","));
}` },
  { name: "pushing onto an input is refused", verdict: "refused", line: 5, match: /array literal/, body: `export const guarantees = [m.nothing()];
export function main(xs: string[]): void {
  xs.push("a");
}` },
  { name: "pushing onto a let is refused", verdict: "refused", line: 5, match: /not a `const`/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  let out: string[] = []; out.push("a"); log(out.join(""));
}` },
  { name: "adversarial: pushing while iterating is refused", verdict: "refused", line: 5, match: /iterates/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const out = ["a"]; for (const x of out) { if (out.length < 3) out.push(x); }
}` },
  { name: "fill is refused (sort, splice, reverse and index assignment: test/collections/inplace.test.ts)", verdict: "refused", line: 5, match: /in place/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const out = [2, 1]; out.fill(0); log(out.join(","));
}` },
  { name: "copyWithin is refused", verdict: "refused", line: 5, match: /in place/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const out = [2, 1]; out.copyWithin(0, 1); log(out.join(","));
}` },
  { name: "index assignment past the end of a built array is refused", verdict: "refused", match: /holes/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const out = [2, 1]; out[3] = 3; out.push(4); log(out.join(","));
}` },
  { name: "pushing a possibly-undefined value is refused", verdict: "refused", line: 5, match: /undefined/, body: `export const guarantees = [m.nothing()];
export function main(xs: string[]): void {
  const out: string[] = []; const f = xs.at(0); out.push(f as string); log(out.join(""));
}` },
  { name: "a helper may build and return its own array", verdict: "violated", line: 10, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
function pick(flag: boolean): string[] {
  const out: string[] = ["a"];
  if (flag) out.push("ceo@corp");
  return out;
}
export function main(flag: boolean): void {
  for (const x of pick(flag)) sendEmail(x, "x");
}` },
  { name: "adversarial: nested conditional pushes (a literal array meets a built one)", verdict: "violated", line: 7, match: /SendEmail\(to="a-b"/, body: `export const guarantees = [m.neverEmail("a-b")];
export function main(p: boolean, q: boolean): void {
  const out: string[] = ["a"];
  if (p) { if (q) out.push("b"); } else out.push("c");
  sendEmail(out.join("-"), "x");
}` },
  { name: "control: a-c needs p false", verdict: "proved", body: `export const guarantees = [m.neverEmail("a-c")];
export function main(p: boolean, q: boolean): void {
  const out: string[] = ["a"];
  if (p) { if (q) out.push("b"); } else out.push("c");
  if (p) sendEmail(out.join("-"), "x");
}` },
  { name: "numbers joined and reduced", verdict: "violated", line: 8, match: /Pay\(account="1\+2", amount=3\)/, body: `export const guarantees = [m.noPaymentOver(2)];
export function main(c: boolean): void {
  const ns: number[] = [1];
  if (c) ns.push(2);
  const total = ns.reduce((a, b) => a + b, 0);
  pay(ns.join("+"), total);
}` },
  { name: "records pushed and read back", verdict: "violated", line: 7, match: /Pay\(account="bob", amount=500\)/, body: `export const guarantees = [m.noPaymentOver(100)];
export function main(big: boolean): void {
  const due: { to: string; amount: number }[] = [{ to: "al", amount: 5 }];
  if (big) due.push({ to: "bob", amount: 500 });
  for (const d of due) pay(d.to, d.amount);
}` },
  { name: "control: records pushed under a guard", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100)];
export function main(big: boolean): void {
  const due: { to: string; amount: number }[] = [{ to: "al", amount: 5 }];
  if (big) due.push({ to: "bob", amount: 500 });
  for (const d of due) if (d.amount <= 100) pay(d.to, d.amount);
}` },
  { name: "adversarial: a built array passed to console.log is refused when changed", verdict: "refused", line: 5, match: /stored, passed or captured/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const out: string[] = []; console.log(out); out.push("a");
}` },
  { name: "adversarial: writing the length is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const out = ["a", "b"]; out.length = 0; out.push("c"); log(out.join(""));
}` },
  { name: "a conditional literal array of another length merges", verdict: "violated", line: 6, match: /SendEmail\(/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(c: boolean): void {
  const xs = c ? ["x", "y"] : ["x"];
  for (const v of xs) sendEmail(v, "s");
}` },
  { name: "control: the shorter literal array is one email", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(c: boolean): void {
  const xs = c ? ["x", "y"] : ["x"];
  if (!c) for (const v of xs) sendEmail(v, "s");
}` },
  // `out.push(...more)` (session 42): more's elements appended, as `[...out, ...more]`.
  { name: "push(...more) of a bounded tool result and a filter of it", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(6), m.neverEmail("ceo@corp")];
export function main(): void {
  const out: string[] = [];
  const few = fewContacts();
  out.push(...few.filter((c) => c !== "ceo@corp"));
  out.push(...few.filter((c) => c !== "ceo@corp"), "boss@corp");
  for (const c of out) if (c !== "boss@corp") sendEmail(c, "s");
}` },
  { name: "adversarial: push(...more) appends every element, after what was there", verdict: "violated", line: 7, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const out: string[] = ["first"];
  out.push(...fewContacts());
  if (out[0] === "first") sendEmail(out[out.length - 1]!, "s");
}` },
  { name: "push(...more) of an array of unknown length: its length is the tool result's", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const more = contacts();
  const out: string[] = ["x"];
  out.push(...more);
  if (out.length !== more.length + 1) sendEmail("a", "length");
}` },
  { name: "a filter's result may be shifted and pushed to (a new array)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(): void {
  const queue = fewContacts().filter((c) => c.includes("@"));
  queue.shift();
  for (const c of queue) sendEmail(c, "s");
}` },
];

describe("arrays the program builds: push, pop, unshift, shift, spread", () => {
  proveCases(cases);
});
