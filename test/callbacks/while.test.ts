/**
 * `while` and `do…while` with an evident bound (core/prover/exec/while.ts): unrolled like `for`;
 * any other condition refused on its node. IMPORTS are prepended: body line 1 is file line 3.
 */
import { problems, prove } from "../prover/prove-helpers";

const cases: { name: string; body: string; verdict: "proved" | "violated" | "refused"; line?: number; match?: RegExp }[] = [
  { name: "while counting to a literal: exactly three sends", verdict: "proved", body: `export const guarantees = [m.emailsExactly(3)];
export function main(to: string): void {
  let i = 0;
  while (i < 3) { sendEmail(to, "x"); i++; }
}` },
  { name: "while counting one too far", verdict: "violated", line: 6, match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string): void {
  let i = 0;
  while (i <= 2) { sendEmail(to, "x"); i++; }
}` },
  { name: "do…while runs the body before the first test", verdict: "violated", line: 6, match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string): void {
  let i = 5;
  do { sendEmail(to, "x"); i++; } while (i < 3);
}` },
  { name: "continue in do…while goes to the test", verdict: "proved", body: `export const guarantees = [m.emailsExactly(2)];
export function main(to: string): void {
  let i = 0;
  do { i++; if (i === 2) continue; sendEmail(to, "x"); } while (i < 3);
}` },
  { name: "while (true) with a break on the counter", verdict: "proved", body: `export const guarantees = [m.emailsExactly(4)];
export function main(to: string): void {
  let i = 0;
  while (true) { if (i === 4) break; sendEmail(to, "x"); i += 1; }
}` },
  { name: "a break on an input leaves early on some paths", verdict: "violated", match: /emailsAtLeast/, body: `export const guarantees = [m.emailsAtLeast(3)];
export function main(to: string): void {
  let i = 0;
  while (i < 3) { if (to === "x") break; sendEmail(to, "x"); i++; }
}` },
  { name: "a while on an input is refused on its condition", verdict: "refused", line: 6, match: /not decided before every iteration/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(n: number): void {
  let i = 0;
  while (i < n) { sendEmail("a", "x"); i++; }
}` },
  { name: "a do…while on a tool result is refused on its condition", verdict: "refused", line: 7, match: /do…while/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  do {
    sendEmail("a", "x");
  } while (balance("a") > 10);
}` },
  // ── a counter over an array of unknown length: `for (let i = 0; i < xs.length; i++) { if (!C) break; … }` ──
  { name: "while over an array's index until a blank: every send has a non-blank address", verdict: "proved", body: `export const guarantees = [m.neverEmail("")];
export function main(): void {
  const xs = contacts();
  let i = 0;
  while (i < xs.length && xs[i] !== "") { sendEmail(xs[i], "x"); i++; }
}` },
  { name: "while over an array's index: the element reaches the send", verdict: "violated", line: 7, match: /contacts@5:\d+ → \["boss"/, body: `export const guarantees = [m.neverEmail("boss")];
export function main(): void {
  const xs = contacts();
  let i = 0;
  while (i < xs.length && xs[i] !== "") { sendEmail(xs[i], "x"); i++; }
}` },
  { name: "adversarial: the loop stops at the first blank: the element after it is not reached in any short run (never violated; the break's invariant is too weak to prove it)", verdict: "refused", match: /no run with arrays of at most 4 elements breaks it/, body: `export const guarantees = [m.neverEmail("boss")];
export function main(xs: string[]): void {
  if (xs.length !== 3 || xs[1] !== "" || xs[0] === "boss") return;
  let i = 0;
  while (i < xs.length && xs[i] !== "") { sendEmail(xs[i], "x"); i += 1; }
}` },
  { name: "control: the element before the blank is reached", verdict: "violated", line: 7, match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[]): void {
  if (xs.length !== 3 || xs[1] !== "") return;
  let i = 0;
  while (i < xs.length && xs[i] !== "") { sendEmail("a", "x"); ++i; }
}` },
  { name: "a break in the body ends the loop as well", verdict: "proved", body: `export const guarantees = [m.neverEmail("boss")];
export function main(): void {
  const xs = contacts();
  let i = 0;
  while (i < xs.length) { if (xs[i] === "boss") break; sendEmail(xs[i], "x"); i++; }
}` },
  { name: "adversarial: a continue would skip the step (the loop would not end): refused", verdict: "refused", line: 7, match: /not decided before every iteration/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const xs = contacts();
  let i = 0;
  while (i < xs.length) { if (xs[i] === "") continue; sendEmail(xs[i], "x"); i++; }
}` },
  { name: "adversarial: the counter read after the loop is refused (its value there is not modelled)", verdict: "refused", line: 7, match: /not decided before every iteration/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const xs = contacts();
  let i = 0;
  while (i < xs.length && xs[i] !== "") { i++; }
  sendEmail(String(i), "x");
}` },
  { name: "adversarial: a counter that does not start at 0 is refused", verdict: "refused", line: 7, match: /not decided before every iteration/, body: `export const guarantees = [m.neverEmail("boss")];
export function main(): void {
  const xs = contacts();
  let i = 1;
  while (i < xs.length) { sendEmail(xs[i], "x"); i++; }
}` },
  { name: "adversarial: a body that steps the counter twice is refused", verdict: "refused", line: 7, match: /not decided before every iteration/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const xs = contacts();
  let i = 0;
  while (i < xs.length) { i++; sendEmail("a", "x"); i++; }
}` },
  // A counter against a literal in any conjunct bounds the loop (`found === undefined && attempt < 3`).
  { name: "retry up to three times until found: at most three sends", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(flags: boolean[]): void {
  let attempt = 0;
  let found = false;
  while (!found && attempt < 3 && attempt < flags.length) {
    sendEmail("a", "try");
    found = flags[attempt] ?? false;
    attempt++;
  }
}` },
  { name: "adversarial: retry while attempt <= 3 (four sends)", verdict: "violated", line: 8, match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(flags: boolean[]): void {
  let attempt = 0;
  let found = false;
  while (!found && attempt <= 3) {
    sendEmail("a", "try");
    found = flags[attempt] ?? false;
    attempt++;
  }
}` },
  { name: "adversarial: the conjunct before the counter still runs when the counter is past its bound (a third send)", verdict: "violated", line: 6, match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(): void {
  let n = 0;
  while (sendEmail("a", "poll") === undefined && n < 2) n++;
}` },
  { name: "refused: no conjunct counts against a bound", verdict: "refused", line: 6, match: /not decided before every iteration/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(flags: boolean[]): void {
  let found = false;
  while (!found) { sendEmail("a", "try"); found = flags[0] ?? true; }
}` },
];

describe("while and do…while", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const v = await prove(c.body);
      const ps = problems(v);
      expect(v.verdict, JSON.stringify(ps)).toBe(c.verdict);
      if (c.line !== undefined) expect(ps.map((p) => p.line), JSON.stringify(ps)).toContain(c.line);
      if (c.match) expect(ps.map((p) => p.text).join("\n")).toMatch(c.match);
    }, 600_000);
  }
});
