/**
 * Array callbacks (core/prover/exec/callbacks.ts): each case's verdict and line were decided from
 * JavaScript's semantics before running the prover. IMPORTS are prepended: body line 1 is file
 * line 3, so a call on the third line of a body is reported on line 5.
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  // ── forEach ──
  { name: "forEach over an input, guarded: proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  to.forEach((t) => { if (t !== "ceo@corp") sendEmail(t, "hi"); });
}` },
  { name: "forEach over an input, unguarded: violated at the call in the callback", verdict: "violated", line: 5, match: /to=\["ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  to.forEach((t) => sendEmail(t, "hi"));
}` },
  { name: "forEach over a literal array: the forbidden call happens only for the second element", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  ["a@corp", "ceo@corp", "b@corp"].forEach((t) => {
    if (t.startsWith("ceo")) sendEmail(t, "hi");
  });
}` },
  { name: "forEach over a literal array: no element reaches the forbidden call", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  ["a@corp", "b@corp"].forEach((t) => { if (t.startsWith("ceo")) sendEmail(t, "hi"); else log(t); });
}` },
  { name: "forEach with the index parameter: counts exactly", verdict: "violated", line: 5, match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  ["a", "b", "c"].forEach((t, i) => { if (i >= 1) sendEmail(t, "x"); });
}` },
  { name: "forEach with a local helper as the callback", verdict: "violated", line: 4, body: `export const guarantees = [m.neverEmail("ceo@corp")];
function greet(t: string): void { sendEmail(t, "hi"); }
export function main(to: string[]): void { to.forEach(greet); }` },
  { name: "nested callbacks over two inputs", verdict: "violated", line: 5, match: /subject=""/, body: `export const guarantees = [m.subjectsNonEmpty()];
export function main(to: string[], subjects: string[]): void {
  to.forEach((t) => subjects.forEach((s) => sendEmail(t, s)));
}` },
  { name: "nested callbacks over two inputs, guarded", verdict: "proved", body: `export const guarantees = [m.subjectsNonEmpty()];
export function main(to: string[], subjects: string[]): void {
  to.forEach((t) => subjects.forEach((s) => { if (s !== "") sendEmail(t, s); }));
}` },
  { name: "a throw in one forEach stops the program before the next forEach (the throw is the only finding)", verdict: "violated", line: 5, match: /^A throw is reachable at plan\.ts:5:45: main\(to=\["ceo@corp"\]\)\.$/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  to.forEach((t) => { if (t === "ceo@corp") throw new Error("no"); });
  to.forEach((t) => sendEmail(t, "x"));
}` },
  // ── map ──
  { name: "map then forEach: the mapped value is what is sent", verdict: "violated", line: 5, match: /to=\["ceo"\]/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  to.map((t) => t + "@corp").forEach((n) => sendEmail(n, "x"));
}` },
  { name: "map then for…of, with a prefix that rules the address out", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  const names = to.map((t) => "x-" + t);
  for (const n of names) sendEmail(n, "x");
}` },
  { name: "a map whose result is discarded still makes its calls", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  to.map((t) => sendEmail(t, "x"));
}` },
  { name: "map over a literal array to literal values", verdict: "violated", line: 5, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const n of ["ceo", "cfo"].map((t) => t + "@corp")) sendEmail(n, "x");
}` },
  { name: "map over a tool result keeps the tool's promise per element", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(0)];
export function main(accounts: string[]): void {
  const bs = accounts.map((a) => balance(a));
  bs.forEach((b) => { if (b < 0) pay("x", 1); });
}` },
  // ── filter ──
  { name: "filter then for…of: only kept elements are sent", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  for (const t of to.filter((t) => t !== "ceo@corp")) sendEmail(t, "hi");
}` },
  { name: "filter keeping the wrong elements", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  for (const t of to.filter((t) => t.endsWith("@corp"))) sendEmail(t, "hi");
}` },
  { name: "filter of a literal array by an input, then forEach", verdict: "violated", line: 5, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(cut: string): void {
  ["a@x", "ceo@corp"].filter((t) => !t.startsWith(cut)).forEach((t) => sendEmail(t, "x"));
}` },
  { name: "filter of a literal array by an input, guarded enough", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(cut: string): void {
  ["a@x", "ceo@corp"].filter((t) => t.startsWith("a") && t !== cut).forEach((t) => sendEmail(t, "x"));
}` },
  { name: "the length of a filtered array of unknown length is read over its count (exec/counted.ts)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(to: string[]): void {
  if (to.filter((t) => t !== "").length > 0) sendEmail("a", "x");
}` },
  { name: "adversarial: a filtered array of unknown length may keep an element", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  if (to.filter((t) => t !== "").length > 0) sendEmail("a", "x");
}` },
  // ── the built-in Boolean as the callback: an element's truthiness ──
  { name: "filter(Boolean) drops the empty strings of an input", verdict: "proved", body: `export const guarantees = [m.neverEmail("")];
export function main(to: string[]): void {
  for (const t of to.filter(Boolean)) sendEmail(t, "hi");
}` },
  { name: "adversarial: filter(Boolean) keeps \"0\" and \" \" (only \"\" is falsy among strings)", verdict: "violated", line: 5, match: /to="0"/, body: `export const guarantees = [m.neverEmail("0")];
export function main(): void {
  for (const t of ["", "0", " "].filter(Boolean)) sendEmail(t, "hi");
}` },
  { name: "adversarial: filter(Boolean) drops 0, -0 and NaN, keeps the rest", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const kept = [0, -0, NaN, 1, -1, 0.5].filter(Boolean);
  if (kept.length !== 3 || kept[0] !== 1 || kept[2] !== 0.5) sendEmail("a", "x");
}` },
  { name: "some(Boolean) and every(Boolean) over an input", verdict: "violated", line: 5, match: /to=\[[^\]]*""/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  if (to.some(Boolean) !== !to.every((t) => !t) || !to.every(Boolean)) sendEmail("a", "x");
}` },
  { name: "a local variable named Boolean is not the built-in: refused as any value that is no function", verdict: "refused", line: 6, match: /callback of `filter`/, body: `export const guarantees = [m.nothing()];
export function main(to: string[]): void {
  const Boolean = 1;
  for (const t of to.filter(Boolean as never)) log(t);
}` },
  // ── some / every / find / findIndex: short-circuit ──
  { name: "some stops at the first decisive element: the call for later elements does not happen", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  ["a", "b", "c"].some((t) => { sendEmail(t, "x"); return t === "a"; });
}` },
  { name: "some decides at the second element: two calls", verdict: "violated", line: 5, match: /SendEmail\(to="b"/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  ["a", "b", "c"].some((t) => { sendEmail(t, "x"); return t === "b"; });
}` },
  { name: "every stops at the first false", verdict: "proved", body: `export const guarantees = [m.neverEmail("c")];
export function main(): void {
  ["a", "b", "c"].every((t) => { sendEmail(t, "x"); return t !== "b"; });
}` },
  { name: "every runs on when every element passes", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("c")];
export function main(): void {
  ["a", "b", "c"].every((t) => { sendEmail(t, "x"); return t !== "z"; });
}` },
  { name: "find stops at the first match, and returns it", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const f = ["a@corp", "ceo@corp"].find((t) => { log(t); return t.endsWith("@corp"); });
  if (f !== undefined) sendEmail(f, "x");
}` },
  { name: "findIndex over a bounded tool result with a call in the callback: exact", verdict: "violated", line: 5, match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(): void {
  fewContacts().findIndex((t) => { sendEmail(t, "x"); return t === "stop"; });
}` },
  { name: "findIndex over a bounded tool result, stopping in time", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const i = fewContacts().findIndex((t) => { sendEmail(t, "x"); return t === "stop"; });
  if (i === -1) log("none");
}` },
  { name: "pure some over an input guards a call", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  if (!to.some((t) => t === "ceo@corp")) to.forEach((t) => sendEmail(t, "x"));
}` },
  { name: "pure every over an input guards a call", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  if (to.every((t) => t.startsWith("a"))) to.forEach((t) => sendEmail(t, "x"));
}` },
  { name: "pure some that does not rule out the address", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  if (to.some((t) => t === "a")) for (const t of to) sendEmail(t, "x");
}` },
  { name: "find over an input: the first match is sent", verdict: "violated", line: 6, match: /to=\["ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  const f = to.find((t) => t.endsWith("@corp"));
  if (f !== undefined) sendEmail(f, "x");
}` },
  { name: "findIndex over an input", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(0)];
export function main(to: string[]): void {
  const i = to.findIndex((t) => t === "x");
  if (i < -1) pay("a", 1);
}` },
  { name: "some with a call in the callback over an array of unknown length is refused", verdict: "refused", line: 5, match: /depends on every earlier element/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(to: string[]): void {
  to.some((t) => { sendEmail(t, "x"); return true; });
}` },
  // ── reduce, join ──
  { name: "reduce over a literal array: the exact total", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(60)];
export function main(): void {
  const total = [10, 20, 30].reduce((t, x) => t + x, 0);
  pay("a", total);
}` },
  { name: "reduce over a literal array: one over the limit", verdict: "violated", line: 6, match: /amount=60/, body: `export const guarantees = [m.noPaymentOver(59)];
export function main(): void {
  const total = [10, 20, 30].reduce((t, x) => t + x, 0);
  pay("a", total);
}` },
  { name: "reduce over a bounded tool result with a call per element", verdict: "violated", line: 5, match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(): void {
  const n = fewContacts().reduce((k, c) => { sendEmail(c, "x"); return k + 1; }, 0);
  if (n > 3) log("many");
}` },
  { name: "reduce building a string over a bounded tool result", verdict: "violated", line: 6, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const to = fewContacts().reduce((acc, c) => acc + c, "");
  sendEmail(to, "x");
}` },
  { name: "reduce over an array of unknown length: not modelled for every length, but a violation is found among short runs", verdict: "violated", line: 6, match: /Pay\(account="a", amount=\d+\)[^\n]*at most 1 element/, body: `export const guarantees = [m.noPaymentOver(60)];
export function main(xs: number[]): void {
  const total = xs.reduce((t, x) => t + x, 0);
  pay("a", total);
}` },
  { name: "reduce over an array of unknown length is refused where no short run breaks the guarantee (numbers that may be fractions)", verdict: "refused", line: 5, match: /carries `t` from element to element, and after an element it may not be an exact integer/, body: `export const guarantees = [m.noPaymentOver(60)];
export function main(xs: number[]): void {
  const total = xs.reduce((t, x) => t + x, 0);
  if (total > 0 && total <= 60) pay("a", total);
}` },
  { name: "join of a literal array", verdict: "violated", line: 5, match: /SendEmail\(to="a@b"/, body: `export const guarantees = [m.neverEmail("a@b")];
export function main(): void {
  sendEmail(["a", "b"].join("@"), "x");
}` },
  // `join` of an array of unknown length: any text (empty for an empty array), violations confirmed
  // by a run with at most four elements joined exactly (folds.ts `unknownJoin`).
  { name: "join of an input, where the guarantee does not depend on the text", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp"), m.emailsAtMost(1)];
export function main(to: string[]): void {
  sendEmail("ops@corp", to.join(","));
}` },
  { name: "join of an input sent as an address: a short run gives the address", verdict: "violated", line: 5, match: /SendEmail\(to="a@b"/, body: `export const guarantees = [m.neverEmail("a@b")];
export function main(to: string[]): void {
  sendEmail(to.join(","), "x");
}` },
  { name: "join of an empty array is the empty text", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  if (to.length === 0 && to.join("-") !== "") sendEmail("a", "x");
}` },
  { name: "a violation that needs more than four elements is refused, never proved", verdict: "refused", match: /join.*at most 4 elements/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  if (to.length > 5 && to.join("") === "x") sendEmail("a", "x");
}` },
  { name: "join in a loop over an array of unknown length", verdict: "violated", line: 6, match: /SendEmail\(to="a-b"/, body: `export const guarantees = [m.neverEmail("a-b")];
export function main(): void {
  for (const c of contacts()) {
    sendEmail(contacts().join("-"), c);
  }
}` },
  // ── refused shapes ──
  { name: "a callback that mutates a captured variable is refused", verdict: "refused", line: 6, match: /captured/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(to: string[]): void {
  let n = 0;
  to.forEach((t) => { n++; });
  if (n < 2) sendEmail("a", "x");
}` },
  { name: "a callback that mutates a captured variable over a literal array is refused too", verdict: "refused", line: 6, match: /captured/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  let n = 0;
  ["a", "b"].forEach((t) => { n += 1; });
  if (n < 2) sendEmail("a", "x");
}` },
  { name: "an async callback is refused", verdict: "refused", line: 5, match: /async/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(to: string[]): void {
  to.forEach(async (t) => { sendEmail(t, "x"); });
}` },
  { name: "thisArg is refused", verdict: "refused", line: 5, match: /thisArg/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(to: string[]): void {
  to.forEach((t) => sendEmail(t, "x"), undefined);
}` },
  { name: "a tool passed as the callback is refused", verdict: "refused", line: 5, match: /used as a value/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(to: string[]): void {
  to.forEach(log);
}` },
];

describe("array callbacks", () => {
  proveCases(cases);
});
