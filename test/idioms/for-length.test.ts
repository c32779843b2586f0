/**
 * `for (let i = 0; i < xs.length; i++)` over an array of at most N elements (`slice(0, N)`, a
 * tool whose `ensures` bounds it), and `i < Math.min(N, xs.length)`: unrolled up to N, each iteration where the test holds
 * (loops.ts). Each adversarial case has a benign twin. IMPORTS are prepended: body line 1 is file line 3.
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  // Over an array of unknown length: the iterations of `for (const [i] of xs.entries())` (loops.ts `counterOverArray`).
  { name: "a counter loop over an input of unknown length, guarded: proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  for (let i = 0; i < xs.length; i++) if (xs[i] !== "ceo@corp") sendEmail(xs[i] ?? "", "s");
}` },
  { name: "adversarial: a counter loop over an input of unknown length reaches every element", verdict: "violated", line: 5, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  for (let i = 0; i < xs.length; i++) sendEmail(xs[i] ?? "", "s");
}` },
  { name: "the counter is each element's index (never negative, never the length)", verdict: "proved", body: `export const guarantees = [m.neverEmail("-1"), m.emailsAtMost(0)];
export function main(xs: string[]): void {
  for (let i = 0; i < xs.length; i++) {
    if (xs[i] === undefined || i >= xs.length) sendEmail(\`\${i}\`, "s");
  }
}` },
  { name: "a counter loop with carried state and a break over a tool result of unknown length", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3), m.neverEmail("stop")];
export function main(): void {
  const cs = contacts();
  let sent = 0;
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i]!;
    if (c === "stop") break;
    if (sent < 3) {
      sendEmail(c, "s");
      sent++;
    }
  }
}` },
  { name: "adversarial: a counter the body also changes is not an index (refused)", verdict: "refused", line: 5, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  for (let i = 0; i < xs.length; i++) { sendEmail(xs[i] ?? "", "s"); i++; }
}` },
  { name: "i < Math.min(3, xs.length) over an input of any length: at most three emails", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  for (let i = 0; i < Math.min(3, xs.length); i++) sendEmail(xs[i] ?? "", "s");
}` },
  { name: "adversarial: i < Math.min(3, xs.length) runs three times when the input is long enough", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(xs: string[]): void {
  for (let i = 0; i < Math.min(3, xs.length); i++) sendEmail(xs[i] ?? "", "s");
}` },
  { name: "adversarial: i < Math.min(3, xs.length) stops at the input's length (undefined is never read)", verdict: "proved", body: `export const guarantees = [m.neverEmail("none")];
export function main(xs: string[]): void {
  for (let i = 0; i < Math.min(3, xs.length); i++) if (xs[i] === undefined) sendEmail("none", "s");
}` },
  { name: "a bound with no literal or bounded length in Math.min is refused, saying what to write", verdict: "refused", line: 5, match: /Math\.min\(N, xs\.length\)/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[], n: number): void {
  for (let i = 0; i < Math.min(n, xs.length); i++) sendEmail(xs[i] ?? "", "s");
}` },
  { name: "the first three of an input: at most three emails", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  const first = xs.slice(0, 3);
  for (let i = 0; i < first.length; i++) sendEmail(first[i] ?? "", "s");
}` },
  { name: "adversarial: the first three of an input are three emails when it is long enough", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(xs: string[]): void {
  const first = xs.slice(0, 3);
  for (let i = 0; i < first.length; i++) sendEmail(first[i] ?? "", "s");
}` },
  { name: "adversarial: i <= length reads one past the end (undefined)", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("none")];
export function main(xs: string[]): void {
  const first = xs.slice(0, 3);
  for (let i = 0; i <= first.length; i++) sendEmail(first[i] ?? "none", "s");
}` },
  { name: "i < length never reads past the end", verdict: "proved", body: `export const guarantees = [m.neverEmail("none")];
export function main(xs: string[]): void {
  const first = xs.slice(0, 3);
  for (let i = 0; i < first.length; i++) { const x = first[i]; if (x === undefined) sendEmail("none", "s"); }
}` },
  { name: "an empty input sends nothing: at least one email is violated", verdict: "violated", line: 3, match: /xs=\[\]/, body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(xs: string[]): void {
  const first = xs.slice(0, 3);
  for (let i = 0; i < first.length; i++) sendEmail(first[i] ?? "", "s");
}` },
  { name: "a bounded tool array: element i is the tool's element i", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const cs = fewContacts();
  for (let i = 0; i < cs.length; i++) { const c = cs[i]; if (c !== undefined && c !== "ceo@corp") sendEmail(c, \`\${i}\`); }
}` },
  { name: "adversarial: a bounded tool array may hold the address", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const cs = fewContacts();
  for (let i = 0; i < cs.length; i++) { const c = cs[i]; if (c !== undefined) sendEmail(c, \`\${i}\`); }
}` },
  { name: "the index stays below the bound: the subject is never 3", verdict: "proved", body: `export const guarantees = [m.subjectsNonEmpty(), m.emailsAtMost(3)];
export function main(): void {
  const cs = fewContacts();
  for (let i = 0; i < cs.length; i++) sendEmail(cs[i] ?? "x", \`\${i}\`);
}` },
  { name: "break after the first: at most one email", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(xs: string[]): void {
  const first = xs.slice(0, 3);
  for (let i = 0; i < first.length; i++) { sendEmail(first[i] ?? "", "s"); break; }
}` },
  { name: "adversarial: a step of 2 over at most three elements is two emails", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(xs: string[]): void {
  const first = xs.slice(0, 3);
  for (let i = 0; i < first.length; i += 2) sendEmail(first[i] ?? "", "s");
}` },
  { name: "adversarial: the bound is read again at each test (a reassigned array)", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(xs: string[]): void {
  let first = xs.slice(0, 1);
  for (let i = 0; i < first.length; i++) { sendEmail(first[i] ?? "", "s"); first = xs.slice(0, 3); }
}` },
  { name: "the bound read again: a shorter array ends the loop", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(xs: string[]): void {
  let first = xs.slice(0, 3);
  for (let i = 0; i < first.length; i++) { sendEmail(first[i] ?? "", "s"); first = xs.slice(0, 1); }
}` },
  // `i <= xs.length`: every index, then once more at the length (loops.ts `counterOverArray`).
  { name: "i <= xs.length over an array of unknown length runs once more: three elements send four emails", verdict: "violated", line: 5, match: /xs=\["", "", ""\]/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  for (let i = 0; i <= xs.length; i++) sendEmail(xs[i] ?? "", "s");
}` },
  { name: "i <= xs.length: the last iteration is at the length, exactly once", verdict: "proved", body: `export const guarantees = [m.emailsExactly(1)];
export function main(xs: string[]): void {
  for (let i = 0; i <= xs.length; i++) if (i === xs.length) sendEmail("done", "s");
}` },
  { name: "adversarial: i <= xs.length reads one element past the end", verdict: "violated", line: 5, match: /may be undefined/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  for (let i = 0; i <= xs.length; i++) sendEmail(xs[i]!.trim(), "s");
}` },
  { name: "i <= xs.length with a break is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  for (let i = 0; i <= xs.length; i++) { if (xs[i] === "stop") break; sendEmail("a", "s"); }
}` },
  { name: "an array of unknown length as the bound, emailed: at most 3 is violated by four elements", verdict: "violated", line: 5, match: /xs=\["", "", "", ""\]/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  for (let i = 0; i < xs.length; i++) sendEmail(xs[i] ?? "", "s");
}` },
  // A counter test in a later conjunct (loops.ts `conjunctCaps`): `i < xs.length && i < 2`.
  { name: "`i < cs.length && i < 2` over at most three contacts: at most two sends", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(): void {
  const cs = fewContacts();
  for (let i = 0; i < cs.length && i < 2; i++) sendEmail(cs[i]!, "pack");
}` },
  { name: "adversarial: `i < cs.length && i <= 2` sends three", verdict: "violated", line: 6, match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(): void {
  const cs = fewContacts();
  for (let i = 0; i < cs.length && i <= 2; i++) sendEmail(cs[i]!, "pack");
}` },
  { name: "adversarial: a call in the conjunct before the counter still runs when the counter is past (a third email)", verdict: "violated", match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(): void {
  for (let i = 0; sendEmail("a", "poll") === undefined && i < 2; i++) log("x");
}` },
  // A `const` bound before the loop: the static bound of what it holds (names it reads are consts too).
  { name: "const n = Math.min(xs.length, 3) before the loop: at most three emails", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  const n = Math.min(xs.length, 3);
  for (let i = 0; i < n; i++) sendEmail(xs[i] ?? "", \`\${i + 1}/\${n}\`);
}` },
  { name: "adversarial: the same bound of 4 under a cap of three emails", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  const n = Math.min(4, xs.length);
  for (let i = 0; i < n; i++) sendEmail(xs[i] ?? "", "s");
}` },
  { name: "adversarial: a `let` bound is not static (it may change before the loop)", verdict: "refused", line: 7, match: /not a literal/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  let n = Math.min(xs.length, 3);
  if (xs.length > 9) n = xs.length;
  for (let i = 0; i < n; i++) sendEmail(xs[i] ?? "", "s");
}` },
  { name: "adversarial: a const bound computed from a `let` is not static", verdict: "refused", line: 8, match: /not a literal/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  let k = 3;
  if (xs.length > 9) k = 50;
  const n = Math.min(k, 40);
  for (let i = 0; i < n; i++) sendEmail(xs[i] ?? "", "s");
}` },
  // Over a filter's result: a bounded base bounds it (loops.ts `staticBound`); over a base of
  // unknown length, the array of its kept elements over a ghost count (counted.ts).
  { name: "a counter loop over a filter of a bounded array: proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp"), m.emailsAtMost(3)];
export function main(): void {
  const pro = fewContacts().filter((c) => c !== "ceo@corp");
  for (let i = 0; i < pro.length; i++) sendEmail(pro[i]!, "s");
}` },
  { name: "adversarial: the same loop without the filter's test", verdict: "violated", line: 6, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const pro = fewContacts().filter((c) => c !== "boss@corp");
  for (let i = 0; i < pro.length; i++) sendEmail(pro[i]!, "s");
}` },
  { name: "adversarial: i <= pro.length over a filter reads past its end", verdict: "violated", line: 6, match: /may be undefined/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const pro = fewContacts().filter((c) => c !== "boss@corp");
  for (let i = 0; i <= pro.length; i++) sendEmail(pro[i]!, "s");
}` },
  { name: "a counter loop over a filter of an array of unknown length: proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const pro = contacts().filter((c) => c.includes("@") && c !== "ceo@corp");
  for (let i = 0; i < pro.length; i++) sendEmail(pro[i]!, "s");
}` },
  { name: "adversarial: over a filter of unknown length, the kept elements are reached", verdict: "violated", line: 6, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const pro = contacts().filter((c) => c.includes("@"));
  for (let i = 0; i < pro.length; i++) sendEmail(pro[i]!, "s");
}` },
  { name: "control: the counter over a filter of unknown length counts the kept elements only", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const pro = contacts().filter((c) => c.length > 3);
  for (let i = 0; i < pro.length; i++) if (pro[i]!.length <= 3) sendEmail("a", "s");
}` },
  // A bound that is an integer of known magnitude (loops.ts `integerBound`, session 42).
  { name: "a counter below an integer known to be at most 3 runs at most 3 times", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  const n = xs.length % 4;
  for (let i = 0; i < n; i++) sendEmail("a", String(i));
}` },
  { name: "adversarial: it does run 3 times for some input", verdict: "violated", line: 6, match: /xs=\[[^\]]*,[^\]]*,[^\]]*\]/, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(xs: string[]): void {
  const n = xs.length % 4;
  for (let i = 0; i < n; i++) sendEmail("a", String(i));
}` },
  { name: "adversarial: i <= n runs once more", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  const n = xs.length % 4;
  for (let i = 0; i <= n; i++) sendEmail("a", String(i));
}` },
  { name: "a bound of unknown magnitude is still refused", verdict: "refused", line: 6, match: /loop bound is not a literal/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(xs: string[]): void {
  const n = xs.length;
  for (let i = 0; i < n; i++) sendEmail("a", String(i));
}` },
];

describe("for (let i = 0; i < xs.length; i++) over a bounded array, Math.min bounds, and arrays of unknown length", () => proveCases(cases));
