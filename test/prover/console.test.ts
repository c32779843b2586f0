/**
 * `console.log` and its kin (issue 10): no events, but the arguments are evaluated, so a tool
 * called inside one still happens; anything else on `console`, or a `console` that is not the
 * global one, is refused. Expected verdicts follow JavaScript's semantics.
 */
import { describe, expect, it } from "vitest";
import { problems, prove } from "./prove-helpers";

const cases: { name: string; body: string; verdict: "proved" | "violated" | "refused"; line?: number; match?: RegExp }[] = [
  // ── benign ──
  { name: "logging strings, numbers, arrays and possibly-undefined values performs nothing", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string, n: number, xs: string[]): void {
  console.log("sending to", to, n, xs);
  console.info(\`count \${xs.length}\`);
  let who: string | undefined;
  if (n > 1) who = to;
  console.warn(who);
  console.error(n > 2);
  console.debug();
}` },
  { name: "a log between calls keeps their order and guards", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(a: string, b: string): void {
  sendEmail(a, "1");
  console.log("sent", a);
  if (a !== b) sendEmail(b, "2");
}` },
  // ── adversarial: the arguments are evaluated ──
  { name: "a tool called inside console.log still performs its event", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string): void {
  console.log(sendEmail(to, "hidden in a log"));
}` },
  { name: "a helper called inside console.error still runs", verdict: "violated", line: 4, body: `export const guarantees = [m.neverEmail("ceo@corp")];
function notify(to: string): string { sendEmail(to, "x"); return to; }
export function main(to: string): void {
  console.error("notified", notify(to));
}` },
  { name: "a failing precondition inside console.log is reported", verdict: "violated", line: 5, match: /amount must be positive/, body: `export const guarantees = [m.nothing()];
export function main(amount: number): void {
  console.log(pay("acct", amount));
}` },
  // ── adversarial: only the global console, only the modelled methods ──
  { name: "console.table is refused", verdict: "refused", line: 5, match: /console\.table/, body: `export const guarantees = [m.nothing()];
export function main(xs: string[]): void {
  console.table(xs);
}` },
  { name: "a console alias is refused", verdict: "refused", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string): void {
  const c = console;
  c.log(to);
}` },
  { name: "assigning console.log is refused", verdict: "refused", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string): void {
  console.log = (s: string) => sendEmail(s, "x");
  console.log(to);
}` },
  { name: "a local helper named console is not the global one", verdict: "refused", body: `export const guarantees = [m.emailsAtMost(0)];
function log(s: string): void { sendEmail(s, "x"); }
export function main(to: string): void {
  const console = { log };
  console.log(to);
}` },
];

describe("console", () => {
  it.each(cases)("$name", async ({ body, verdict, line, match }) => {
    const v = await prove(body);
    const found = problems(v);
    expect(v.verdict, JSON.stringify(found, null, 1)).toBe(verdict);
    if (line !== undefined) expect(found[0]?.line).toBe(line);
    if (match) expect(found.map((f) => f.text).join("\n")).toMatch(match);
  });
});
