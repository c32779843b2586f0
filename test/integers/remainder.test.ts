/**
 * `%` of an integer by a literal whole number, and `Math.floor`/`ceil`/`trunc` of an integer
 * divided by one (core/prover/exec/integers.ts `intRemainder`, `roundedQuotient`): Int terms,
 * with JavaScript's signs (the remainder takes the dividend's, -0 included). Verdicts decided from
 * JavaScript's semantics; IMPORTS are prepended (body line 1 is file line 3).
 */
import { prove, proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "the hour of the clock is from 0 to 23", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const hour = Math.floor(Date.now() / 3_600_000) % 24;
  if (hour > 23 || hour < -23 || !Number.isInteger(hour)) sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: the clock may be before 1970, and the remainder takes its sign", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const hour = Math.floor(Date.now() / 3_600_000) % 24;
  if (hour < 0) sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: -7 % 3 is -1 (a length minus a literal)", verdict: "violated", line: 5, match: /xs=\[\]/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  if ((xs.length - 7) % 3 === -1 && xs.length === 0) sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: a zero remainder of a negative dividend is -0", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  if (1 / ((xs.length - 3) % 3) === -Infinity) sendEmail("ceo@corp", "x");
}` },
  { name: "control: the remainder of a length by 2 is 0 or 1", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[]): void {
  const r = xs.length % 2;
  if (r !== 0 && r !== 1) sendEmail("a", "x");
}` },
  { name: "adversarial: Math.floor of a negative quotient rounds down (-3.5 is -4), trunc toward zero", verdict: "violated", line: 5, match: /xs=\[\]/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  if (Math.floor((xs.length - 7) / 2) === -4 && Math.trunc((xs.length - 7) / 2) === -3 && Math.ceil((xs.length - 7) / 2) === -3) sendEmail("ceo@corp", "x");
}` },
  { name: "control: half a length, rounded down, is at most the length", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[]): void {
  const half = Math.floor(xs.length / 2);
  if (half > xs.length || half * 2 + (xs.length % 2) !== xs.length) sendEmail("a", "x");
}` },
  { name: "% of a number that may be a fraction is refused", verdict: "refused", line: 5, match: /`%` is modelled on integers/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(amount: number): void {
  if (amount % 2 === 1) sendEmail("a", "x");
}` },
  { name: "% by a length the path has not ruled out zero for is refused (x % 0 is NaN)", verdict: "refused", line: 5, match: /ruled out a zero divisor/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[], ys: string[]): void {
  if (xs.length % ys.length === 1) sendEmail("a", "x");
}` },
  { name: "round robin: agents[i % agents.length] after an early return is an agent", verdict: "proved", body: `export const guarantees = [m.neverEmail("nobody")];
export function main(agents: string[], tickets: string[]): void {
  if (agents.length === 0) return;
  if (agents.some((a) => a === "nobody")) return;
  for (let i = 0; i < tickets.length; i++) {
    const who = agents[i % agents.length];
    if (who !== undefined) sendEmail(who, tickets[i]!);
  }
}` },
  { name: "adversarial: round robin over more tickets than agents reaches the first agent again", verdict: "violated", line: 9, match: /agents=\["[^"]*"\]/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(agents: string[]): void {
  if (agents.length === 0) return;
  const tickets = ["t1", "t2"];
  for (let i = 0; i < tickets.length; i++) {
    const who = agents[i % agents.length]!;
    if (who === agents[0]) sendEmail(who, tickets[i]!);
  }
}` },
  { name: "control: two agents split two tickets, one each", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(agents: string[]): void {
  if (agents.length !== 2 || agents[0] === agents[1]) return;
  const tickets = ["t1", "t2"];
  for (let i = 0; i < tickets.length; i++) {
    const who = agents[i % agents.length]!;
    if (who === agents[0]) sendEmail(who, tickets[i]!);
  }
}` },
  { name: "adversarial: a remainder by a negative divisor takes the dividend's sign", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[]): void {
  const d = 2 - xs.length;
  if (d < 0 && 7 % d === 1 && (-7) % d === -1) sendEmail("a", "x");
}` },
  { name: "control: a remainder by a positive length is below it", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[], n: string[]): void {
  if (n.length > 0) {
    const r = xs.length % n.length;
    if (r < 0 || r >= n.length) sendEmail("a", "x");
  }
}` },
  { name: "adversarial: a zero remainder of a negative dividend by a length is -0", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[]): void {
  if (xs.length === 0) return;
  if (1 / ((0 - xs.length) % xs.length) === -Infinity) sendEmail("a", "x");
}` },
  { name: "a test ruling out zero on another path only is not enough", verdict: "refused", line: 6, match: /ruled out a zero divisor/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[], n: string[], b: boolean): void {
  if (b && n.length === 0) return;
  if (xs.length % n.length === 1) sendEmail("a", "x");
}` },
];

describe("remainders and rounded quotients of integers", () => proveCases(cases, prove));
