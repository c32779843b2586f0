import { problems, prove } from "./prove-helpers";

/** Each case: a program body, the expected program verdict, and (for failures) the file line of the first problem. */
const cases: { name: string; body: string; verdict: "proved" | "violated" | "refused"; line?: number; match?: RegExp }[] = [
  // ── relations ──
  { name: "all: guarded send proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string): void { if (to !== "ceo@corp") sendEmail(to, "hi"); }` },
  { name: "all: unguarded send violated with the recipient", verdict: "violated", line: 5, match: /to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string): void {
  sendEmail(to, "hi");
}` },
  { name: "count atMost: two sends under 2 proved", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(a: string, b: string): void { sendEmail(a, "x"); if (a !== b) sendEmail(b, "y"); }` },
  { name: "count atMost: three sends violated", verdict: "violated", match: /emailsAtMost\(n=2\)/, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(a: string): void { sendEmail(a, "1"); sendEmail(a, "2"); if (a.length > 3) sendEmail(a, "3"); }` },
  { name: "count atLeast: branch may skip", verdict: "violated", body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(a: string): void { if (a === "x") sendEmail(a, "1"); }` },
  { name: "count atLeast: always sends", verdict: "proved", body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(a: string): void { if (a === "x") sendEmail(a, "1"); else sendEmail("other", "2"); }` },
  { name: "count equals", verdict: "proved", body: `export const guarantees = [m.emailsExactly(2)];
export function main(a: string): void { for (const s of ["1", "2"]) sendEmail(a, s); }` },
  { name: "distinct: same literal twice", verdict: "violated", line: 6, body: `export const guarantees = [m.nobodyTwice()];
export function main(a: string): void {
  sendEmail("x@corp", "1");
  sendEmail("x@corp", "2");
}` },
  { name: "distinct: two inputs may be equal", verdict: "violated", body: `export const guarantees = [m.nobodyTwice()];
export function main(a: string, b: string): void { sendEmail(a, "1"); sendEmail(b, "2"); }` },
  { name: "distinct: guarded by inequality", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(a: string, b: string): void { sendEmail(a, "1"); if (a !== b) sendEmail(b, "2"); }` },
  { name: "distinct: loop over input array (two iterations)", verdict: "violated", body: `export const guarantees = [m.nobodyTwice()];
export function main(to: string[]): void { for (const t of to) sendEmail(t, "hi"); }` },
  { name: "sharesValue: one recipient", verdict: "proved", body: `export const guarantees = [m.oneRecipient()];
export function main(a: string): void { sendEmail(a, "1"); sendEmail(a, "2"); }` },
  { name: "sharesValue: two recipients", verdict: "violated", body: `export const guarantees = [m.oneRecipient()];
export function main(a: string, b: string): void { sendEmail(a, "1"); sendEmail(b, "2"); }` },
  // ── inputs of records (the runner checks JSON inputs against these types: core/approval/inputs.ts) ──
  { name: "input records: a field checked before the send proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
interface Note { to: string; text: string }
export function main(notes: Note[]): void { for (const n of notes) if (n.to !== "ceo@corp") sendEmail(n.to, n.text); }` },
  { name: "input records: the wrong field checked violated, with the record shown", verdict: "violated", line: 7, match: /notes=\[\{ to: "ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
interface Note { to: string; text: string }
export function main(notes: Note[]): void {
  for (const n of notes) {
    if (n.text !== "ceo@corp") sendEmail(n.to, n.text);
  }
}` },
  { name: "input record: a number field within the limit proved", verdict: "proved", body: `export const guarantees = [m.spendAtMost(100)];
export function main(order: { to: string; cents: number }): void { if (order.cents > 0 && order.cents <= 100) pay(order.to, order.cents); }` },
  { name: "input of arrays in records stays refused", verdict: "refused", match: /has type .* which is not modelled/, body: `export const guarantees = [m.spendAtMost(100)];
export function main(order: { to: string; lines: number[][] }): void { pay(order.to, 1); }` },
  // ── the index a callback gets over a filtered array counts the kept elements, not the base's ──
  { name: "index over a bounded filtered view: forEach's i counts kept elements (violated: the only kept one is at 0)", verdict: "violated", match: /xs0=\["", " "\]|sendsAtLeast/, body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(xs0: string[]): void {
  const xs = xs0.slice(0, 3);
  if (xs.length !== 2 || xs[0] !== "" || xs[1] === "") { sendEmail("fallback", "s"); return; }
  xs.filter((x) => x !== "").forEach((x, i) => { if (i === 1) sendEmail(x, "s"); });
}` },
  { name: "index over a bounded filtered view: reduce's index counts kept elements (violated)", verdict: "violated", body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(xs0: string[]): void {
  const xs = xs0.slice(0, 3);
  if (xs.length !== 2 || xs[0] !== "" || xs[1] === "") { sendEmail("fallback", "s"); return; }
  const last = xs.filter((x) => x !== "").reduce((acc, x, i) => acc + i, 0);
  if (last === 1) sendEmail("x", "s");
}` },
  { name: "index over a bounded filtered view, the first kept one at 0 (proved)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(1), m.emailsAtLeast(1)];
export function main(xs0: string[]): void {
  const kept = xs0.slice(0, 4).filter((x) => x !== "");
  if (kept.length === 0) { sendEmail("fallback", "s"); return; }
  kept.forEach((x, i) => { if (i === 0) sendEmail(x, "s"); });
}` },
  { name: "index over a filtered array of unknown length: stated (0 to the base index), violations confirmed among short runs", verdict: "violated", match: /Found among runs/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[]): void { xs.filter((x) => x !== "").forEach((x, i) => { if (i === 1) sendEmail(x, "s"); }); }` },
  { name: "index over a filtered array of unknown length, not deciding the guarantee: proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void { xs.filter((x) => x !== "ceo@corp").forEach((x, i) => sendEmail(x, \`#\${i}\`)); }` },
  { name: "findIndex over a filtered array of unknown length is refused", verdict: "refused", match: /which `findIndex` returns/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[]): void { if (xs.filter((x) => x !== "").findIndex((x) => x === "a") === 1) sendEmail("a", "s"); }` },
  // ── a Set built from an array of unknown length (exec/unique.ts): a view keeping first occurrences ──
  { name: "new Set(xs) iterated: each value once (proved)", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(xs: string[]): void { for (const to of new Set(xs)) sendEmail(to, "s"); }` },
  { name: "[...new Set(xs)] then trimmed: two values may trim alike (violated)", verdict: "violated", body: `export const guarantees = [m.nobodyTwice()];
export function main(xs: string[]): void { for (const to of [...new Set(xs)]) sendEmail(to.trim(), "s"); }` },
  { name: "the length of [...new Set(xs)] counts distinct values (violated where two equal give one)", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[]): void { if ([...new Set(xs)].length === 1 && xs.length === 2) sendEmail("b", "s"); }` },
  // adv35: a Set stores -0 as +0; six wrong proofs read -0 back out of `new Set(xs)`.
  { name: "new Set(xs) of an input [-0] holds +0: 1 / x is Infinity (violated)", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: number[]): void {
  const a = xs[0];
  if (xs.length !== 1 || a === undefined || a !== 0 || 1 / a > 0) return;
  for (const x of new Set(xs)) if (1 / x > 0) sendEmail("a", "s");
}` },
  { name: "[...new Set(xs)][0] of an input [-0] is +0 (violated)", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: number[]): void {
  const a = xs[0];
  if (xs.length !== 1 || a === undefined || a !== 0 || 1 / a > 0) return;
  const f = [...new Set(xs.filter((v) => v === 0))][0];
  if (f !== undefined && 1 / f === Infinity) sendEmail("a", "s");
}` },
  { name: "nothing read out of new Set(xs) is -0 (proved)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: number[]): void { for (const x of new Set(xs)) if (x === 0 && 1 / x < 0) sendEmail("a", "s"); }` },
  { name: "Set.forEach of a Set built from an array is refused (its callback gets the value twice, not an index)", verdict: "refused", match: /`forEach` of a Set built from an array/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[]): void { new Set(xs).forEach((v, k) => { if (k === "a") sendEmail(v, "s"); }); }` },
  // ── a counter loop over an array run twice (the outside reviewer's while_reenter) ──
  { name: "while over an array index, run again by an unrolled loop: the counter is not 0 the second time (refused)", verdict: "refused", match: /`i` after the loop over `xs`/, body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(xs: string[]): void {
  if (xs.length === 0) sendEmail("fallback@corp", "s");
  let i = 0;
  for (const round of [1, 2]) { while (i < xs.length) { if (round === 2) sendEmail(xs[i], "s"); i++; } }
}` },
  { name: "while over a counter a helper captured is not lowered (refused)", verdict: "refused", body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(xs: string[]): void {
  if (xs.length === 0) sendEmail("fallback@corp", "s");
  let i = 0;
  function drain(send: boolean): void { while (i < xs.length) { if (send) sendEmail(xs[i], "s"); i++; } }
  drain(false);
  drain(true);
}` },
  { name: "sum: within limit", verdict: "proved", body: `export const guarantees = [m.spendAtMost(100)];
export function main(x: number): void { if (x > 0 && x <= 50) { pay("a", x); pay("b", x); } }` },
  { name: "sum: over limit", verdict: "violated", body: `export const guarantees = [m.spendAtMost(100)];
export function main(x: number): void { if (x > 0 && x <= 60) { pay("a", x); pay("b", x); } }` },
  { name: "sum covers subclasses (Refund is a Pay)", verdict: "violated", body: `export const guarantees = [m.spendAtMost(100)];
export function main(): void { pay("a", 60); refund("b", 60); }` },
  { name: "empty over a subclass", verdict: "violated", line: 4, body: `export const guarantees = [m.noRefunds()];
export function main(): void { pay("a", 1); refund("b", 1); }` },
  { name: "where + count", verdict: "violated", body: `export const guarantees = [m.internalAtMost(1)];
export function main(): void { sendEmail("a@corp", "1"); sendEmail("b@corp", "2"); sendEmail("c@home", "3"); }` },
  { name: "array param of contract", verdict: "proved", body: `export const guarantees = [m.onlyTo(["a@x", "b@x"])];
export function main(pick: boolean): void { sendEmail(pick ? "a@x" : "b@x", "s"); }` },
  { name: "effect relation over tool parameters", verdict: "violated", body: `export const guarantees = [m.subjectsNonEmpty()];
export function main(s: string): void { sendEmail("a", s); }` },
  { name: "allOf via contract calls", verdict: "violated", match: /safeMail/, body: `export const guarantees = [m.safeMail("x", 1)];
export function main(): void { sendEmail("a", "1"); sendEmail("b", "2"); }` },
  { name: "noGuarantees entry", verdict: "proved", body: `export const guarantees = [m.nothing()];
export function main(): void { sendEmail("a", "1"); }` },
  { name: "contract over an event no tool performs is refused", verdict: "refused", match: /vacuous/, body: `export const guarantees = [m.noUnused()];
export function main(): void {}` },
  // ── JavaScript semantics ──
  { name: "0.1 + 0.2 is not 0.3", verdict: "violated", body: `export const guarantees = [m.noPaymentOver(0.3)];
export function main(): void { pay("a", 0.1 + 0.2); }` },
  { name: "absorption: 1e16 + 1 === 1e16", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(1e16)];
export function main(): void { pay("a", 1e16 + 1); }` },
  { name: "NaN passes a negated guard", verdict: "violated", match: /NaN/, body: `export const guarantees = [m.noPaymentOver(100)];
export function main(x: number): void { if (!(x > 100)) refund("a", x); }` },
  { name: "NaN excluded by a direct guard", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100)];
export function main(x: number): void { if (x <= 100) refund("a", x); }` },
  { name: "Infinity is a number", verdict: "violated", body: `export const guarantees = [m.noPaymentOver(1e308)];
export function main(x: number): void { if (x > 0) refund("a", x); }` },
  { name: "UTF-16: emoji has length 2", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(): void { const s = "😀"; if (s.length === 2) sendEmail("ok", "1"); else sendEmail("x", "2"); }` },
  { name: "UTF-16: symbolic length counts code units", verdict: "violated", match: /"\\u{0}|.|\\ud83d/u, body: `export const guarantees = [m.neverEmail("x")];
export function main(s: string): void { if (s.startsWith("😀") && s.length === 2) sendEmail("x", s); }` },
  { name: "template literal", verdict: "violated", body: `export const guarantees = [m.neverEmail("to:a")];
export function main(a: string): void { sendEmail(\`to:\${a}\`, "s"); }` },
  { name: "Math.min caps a payment", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(50)];
export function main(x: number): void { if (x > 0) pay("a", Math.min(x, 50)); }` },
  { name: "Math.min of thirteen numbers names its running result (the text stays linear)", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100)];
export function main(a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number, j: number, k: number, l: number): void { const x = Math.min(a, b, c, d, e, f, g, h, i, j, k, l, 100); if (x > 0) pay("a", x); }` },
  { name: "Math.max of twelve integers stays an integer", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void { const n = contacts().length; const x = Math.max(n, n + 1, n + 2, n + 3, n + 4, n + 5, n + 6, n + 7, n + 8, n + 9, n + 10, 3); if (x < n + 10) sendEmail("a", "x"); }` },
  { name: "Math.min of two integers stays an integer that never exceeds either", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void { const k = Math.min(contacts().length, 2); if (k > 2 || k > contacts().length + 5) sendEmail("a", "x"); }` },
  { name: "adversarial: Math.max of integers reaches its bound", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void { const k = Math.max(contacts().length, 2); if (k === 2) sendEmail("a", "x"); }` },
  { name: "Math.min with NaN is NaN (precondition fails)", verdict: "violated", body: `export const guarantees = [m.noPaymentOver(50)];
export function main(x: number): void { pay("a", Math.min(x, 50)); }` },
  // ── control flow ──
  { name: "short-circuit: call on the right only when reached", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(a: string): void { const ok = a !== "x" && (sendEmail(a, "1"), true); }`.replace("(sendEmail(a, \"1\"), true)", "a.length > 0") },
  { name: "ternary picks the call", verdict: "violated", body: `export const guarantees = [m.neverEmail("x")];
export function main(a: boolean): void { a ? sendEmail("x", "1") : sendEmail("y", "2"); }` },
  { name: "early return protects", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(a: string): void { if (a === "x") return; sendEmail(a, "1"); }` },
  { name: "throw is reported", verdict: "violated", line: 4, body: `export const guarantees = [m.nothing()];
export function main(a: string): void { if (a === "boom") throw new Error("no"); }` },
  { name: "unreachable throw is proved", verdict: "proved", body: `export const guarantees = [m.nothing()];
export function main(a: string): void { if (a === "x" && a !== "x") throw new Error("no"); }` },
  { name: "helper inlined with events", verdict: "violated", line: 4, body: `export const guarantees = [m.neverEmail("x")];
function notify(who: string): void { sendEmail(who, "hi"); }
export function main(): void { notify("x"); }` },
  { name: "helper return value", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
const safe = (who: string): string => (who === "x" ? "admin" : who);
export function main(a: string): void { sendEmail(safe(a), "hi"); }` },
  { name: "switch", verdict: "violated", body: `export const guarantees = [m.neverEmail("x")];
export function main(k: string): void {
  switch (k) {
    case "a": sendEmail("a", "1"); break;
    case "b": sendEmail("x", "2"); break;
    default: break;
  }
}` },
  { name: "for with literal bound counts exactly", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(a: string): void { for (let i = 0; i < 3; i++) sendEmail(a, "s"); }` },
  { name: "let reassignment", verdict: "violated", body: `export const guarantees = [m.neverEmail("x")];
export function main(a: string): void { let to = "safe"; if (a === "go") to = "x"; sendEmail(to, "s"); }` },
  // ── event fields named like a class's static members ──
  { name: "fields named name and length are fields", verdict: "violated", line: 6, match: /Label\(name="b", length=12\)/, body: `export const guarantees = [m.shortLabels("a", 10)];
export function main(): void {
  label("a", 50);
  label("b", 12);
}` },
  { name: "fields named name and length, proved", verdict: "proved", body: `export const guarantees = [m.shortLabels("a", 10)];
export function main(): void { label("a", 50); label("b", 9); }` },
  // ── numbers in strings ──
  { name: "a length in a template prints its digits", verdict: "violated", line: 5, match: /to="n12"/, body: `export const guarantees = [m.neverEmail("n12")];
export function main(a: string): void {
  sendEmail(\`n\${a.length}\`, "s");
}` },
  { name: "a length in a template, guarded", verdict: "proved", body: `export const guarantees = [m.neverEmail("n12")];
export function main(a: string): void { if (a.length !== 12) sendEmail(\`n\${a.length}\`, "s"); }` },
  { name: "a negative integer prints with its sign", verdict: "violated", match: /to="-2"/, body: `export const guarantees = [m.neverEmail("-2")];
export function main(a: string, b: boolean): void { const k = b ? -2 : a.length; sendEmail(\`\${k}\`, "s"); }` },
  { name: "a number that may not be an integer in a template: its digits are never the letter x", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(x: number): void { sendEmail(\`\${x}\`, "s"); }` },
  // ── sums of integer constants (exact as integers) ──
  { name: "integer amounts over a bounded loop stay under the budget", verdict: "proved", body: `export const guarantees = [m.spendAtMost(100)];
export function main(): void { for (const c of fewContacts()) if (c !== "") pay(c, 30); }` },
  { name: "integer amounts over a bounded loop exceed the budget", verdict: "violated", match: /spendAtMost\(limit=100\)/, body: `export const guarantees = [m.spendAtMost(100)];
export function main(): void { for (const c of fewContacts()) if (c !== "") pay(c, 40); }` },
  { name: "a fractional amount keeps Float64 semantics", verdict: "violated", match: /spendAtMost\(limit=0.3\)/, body: `export const guarantees = [m.spendAtMost(0.3)];
export function main(): void { pay("a", 0.1); pay("b", 0.2); }` },
  // ── a choice between two tool-result arrays ──
  { name: "a ternary between two tool-result arrays, guarded loop", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(all: boolean): void {
  const people = all ? contacts() : fewContacts();
  for (const p of people) if (p !== "x") sendEmail(p, "s");
}` },
  { name: "a ternary between two tool-result arrays, unguarded loop", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("x")];
export function main(all: boolean): void {
  const people = all ? contacts() : fewContacts();
  for (const p of people) sendEmail(p, "s");
}` },
  { name: "a ternary between two bounded tool-result arrays counts exactly", verdict: "violated", match: /emailsAtMost\(n=3\)/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(all: boolean): void {
  const people = all ? fewContacts() : fewContacts();
  for (const p of people) sendEmail(p, "s");
  sendEmail("boss", "done");
}` },
  // ── break and continue ──
  { name: "continue skips the rest of a quantified iteration", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(to: string[]): void {
  for (const t of to) {
    if (t === "x") continue;
    sendEmail(t, "s");
  }
}` },
  { name: "continue after the call does not guard it", verdict: "violated", line: 6, match: /"x"/, body: `export const guarantees = [m.neverEmail("x")];
export function main(to: string[]): void {
  for (const t of to) {
    sendEmail(t, "s");
    if (t === "x") continue;
    log(t);
  }
}` },
  { name: "continue in a switch clause inside a quantified loop", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(to: string[]): void {
  for (const t of to) {
    switch (t) {
      case "x": continue;
      default: sendEmail(t, "s");
    }
  }
}` },
  { name: "continue in a literal-bound loop still runs the incrementor", verdict: "violated", match: /emailsAtMost\(n=2\)/, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(a: string): void {
  for (let i = 0; i < 4; i++) {
    if (i === 1) continue;
    sendEmail(a, "s");
  }
}` },
  { name: "break ends an unrolled loop: two sends at most", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(a: string): void {
  for (const s of ["1", "2", "3", "4"]) {
    if (s === "3") break;
    sendEmail(a, s);
  }
}` },
  { name: "break after the limit comes too late", verdict: "violated", match: /emailsAtMost\(n=2\)/, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(a: string): void {
  for (const s of ["1", "2", "3", "4"]) {
    sendEmail(a, s);
    if (s === "3") break;
  }
}` },
  { name: "break carries the variables of the path that left", verdict: "violated", line: 10, match: /to="x"/, body: `export const guarantees = [m.neverEmail("x")];
export function main(a: string): void {
  let to = "safe";
  for (const s of ["1", "2"]) {
    if (s === a) { to = "x"; break; }
    to = "other";
  }
  sendEmail(to, "s");
}` },
  { name: "break in a quantified loop ends it (loop-carried state, docs/control-flow.md): x is never emailed", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(to: string[]): void {
  for (const t of to) {
    if (t === "x") break;
    sendEmail(t, "s");
  }
}` },
  { name: "continue naming the loop's own label, over an array of unknown length, is its plain continue", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(to: string[]): void {
  outer: for (const t of to) {
    if (t === "x") continue outer;
    sendEmail(t, "s");
  }
}` },
  { name: "a break inside a switch clause leaves the switch, not the loop", verdict: "violated", match: /emailsAtMost\(n=1\)/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(a: string): void {
  for (const s of ["1", "2"]) {
    switch (s) {
      case "1": if (a === "stop") break; sendEmail(a, s); break;
      default: sendEmail(a, s);
    }
  }
}` },
  { name: "many splits that do not rejoin exactly stay small (named path conditions)", verdict: "violated", match: /neverEmail/, body: `export const guarantees = [m.neverEmail("x")];
export function main(): void {
  for (const a of fewContacts()) {
    for (const b of fewContacts()) {
      for (const c of fewContacts()) {
        if (a !== b && b !== c) { if (balance(a) > 1) sendEmail(c, "s"); }
      }
    }
  }
}` },
  // ── quantified loops and tool results ──
  { name: "loop over input: all proved with guard", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(to: string[]): void { for (const t of to) if (t !== "x") sendEmail(t, "s"); }` },
  { name: "loop over input: count unbounded", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(to: string[]): void { for (const t of to) sendEmail(t, "s"); }` },
  { name: "loop over bounded tool result: count proved", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void { for (const t of fewContacts()) sendEmail(t, "s"); }` },
  { name: "loop over unbounded tool result: count violated", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void { for (const t of contacts()) sendEmail(t, "s"); }` },
  { name: "loop over records from a tool", verdict: "violated", match: /amount/, body: `export const guarantees = [m.noPaymentOver(100)];
export function main(): void { for (const r of rows()) if (r.amount > 0) pay(r.to, r.amount); }` },
  { name: "loop over records, guarded", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100)];
export function main(): void { for (const r of rows()) if (r.amount > 0 && r.amount <= 100) pay(r.to, r.amount); }` },
  { name: "ensures on a tool result is assumed", verdict: "proved", body: `export const guarantees = [m.nothing()];
export function main(): void { const b = balance("me"); if (b < 0) throw new Error("negative"); }` },
  { name: "throw inside a quantified loop guards later calls (only the throw is reported)", verdict: "violated", line: 4, match: /^A throw is reachable[^\n]*$/, body: `export const guarantees = [m.neverEmail("x")];
export function main(to: string[], a: string): void { for (const t of to) if (t === "x") throw new Error("no"); if (to.includes(a)) sendEmail(a, "s"); }` },
  { name: "throw inside a quantified loop is reachable", verdict: "violated", line: 4, body: `export const guarantees = [m.nothing()];
export function main(to: string[]): void { for (const t of to) if (t === "x") throw new Error("no"); }` },
  { name: "sum over a loop of tool results: counterexample from the bounded search, one element first", verdict: "violated", match: /at most 1 element\b/, body: `export const guarantees = [m.spendAtMost(100)];
export function main(): void { for (const r of rows()) if (r.amount > 0) pay(r.to, r.amount); }` },
  { name: "sum over a loop of tool results that needs two elements: found among runs of at most 2", verdict: "violated", match: /at most 2 elements/, body: `export const guarantees = [m.spendAtMost(100)];
export function main(): void { for (const r of rows()) if (r.amount > 0 && r.amount <= 60) pay(r.to, r.amount); }` },
  { name: "a loop whose carried state is not modelled, a guarantee violated among short runs: the program's throw is checked there too", verdict: "violated", line: 6, match: /^A throw is reachable[^\n]*Found among runs whose arrays have at most 4 elements/m, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(n: number): void {
  let all = "a"; for (const t of contacts()) all = all + t;
  if (n === 1) throw new Error("one");
  sendEmail(all, "x");
}` },
  { name: "sum over a loop that cannot exceed: not proved (refused), never a wrong proof", verdict: "refused", body: `export const guarantees = [m.spendAtMost(100)];
export function main(): void { for (const r of rows()) if (r.amount > 0 && r.amount < 0) pay(r.to, r.amount); }` },
  // ── preconditions ──
  { name: "precondition proved by guard", verdict: "proved", body: `export const guarantees = [m.nothing()];
export function main(x: number): void { if (x > 0) pay("a", x); }` },
  { name: "precondition violated", verdict: "violated", line: 4, match: /amount must be positive/, body: `export const guarantees = [m.nothing()];
export function main(x: number): void { pay("a", x); }` },
];

describe("prover semantics", () => {
  it.each(cases)("$name", async ({ body, verdict, line, match }) => {
    const v = await prove(body);
    const found = problems(v);
    if (process.env.CLAUZ3_DEBUG) for (const f of found) if (f.verdict === "refused") console.error("REFUSED", f.text);
    expect(v.verdict, JSON.stringify(found, null, 1)).toBe(verdict);
    if (line !== undefined) expect(found.map((f) => f.line)).toContain(line);
    if (match) expect(found.map((f) => f.text).join("\n")).toMatch(match);
  });
});

describe("a trusted layer that breaks the layer rules", () => {
  // A second library whose event field is named after a relation query (rule 93009).
  const BROKEN = {
    "tools/other/trusted/layer.ts": `import { trusted } from "clauz3";
import { Event, performs } from "clauz3/events";
export class Tally extends Event { constructor(readonly count: number) { super(); } }
export const tally = trusted(performs((count: number) => new Tally(count)), function tally(count: number): void {});
`,
  };

  it("refuses the programs that reach it", async () => {
    const v = await prove(
      `import { tally } from "./tools/other/trusted/layer";
export const guarantees = [m.neverEmail("x")];
export function main(): void { tally(1); sendEmail("a", "s"); }`,
      BROKEN,
    );
    const found = problems(v);
    expect(v.verdict).toBe("refused");
    expect(found.map((f) => f.text).join("\n")).toMatch(/breaks \d+ layer rule\(s\).*`count`/);
  });

  it("does not refuse a program that never reaches it", async () => {
    const v = await prove(`export const guarantees = [m.neverEmail("x")];
export function main(): void { sendEmail("a", "s"); }`, BROKEN);
    expect(v.verdict, JSON.stringify(problems(v), null, 1)).toBe("proved");
  });
});
