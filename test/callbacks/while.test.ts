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
