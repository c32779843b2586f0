/**
 * `await Promise.all(xs.map(async (x) => tool(…)))` (all-map.ts, `awaitAllMap`), and the arrow
 * that is not `async` but returns one call of an async tool: every element's call is made before any settles; a failed `requires` rejects only its element's promise. Lines
 * count the two import lines of the async test layer (body line 1 is file line 3).
 */
import { problems } from "../prover/prove-helpers";
import { proveAsync } from "../async/layer";

const cases: { name: string; body: string; verdict: "proved" | "violated" | "refused"; line?: number; match?: RegExp }[] = [
  { name: "every element's call happens", verdict: "violated", line: 5, match: /xs=\[(.*, )?"ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  await Promise.all(xs.map(async (x) => sendEmail(x, "1")));
}` },
  { name: "a filtered array: only kept elements are mailed", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  await Promise.all(xs.filter((x) => x !== "ceo@corp").map(async (x) => await sendEmail(x, "1")));
}` },
  { name: "a literal array: exactly its calls", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2), m.emailsAtLeast(2)];
export async function main(): Promise<void> {
  await Promise.all(["a", "b"].map(async (x) => sendEmail(x, "1")));
}` },
  { name: "a failed requires does not stop the later elements' calls", verdict: "violated", line: 5, match: /Pay\(account="b", amount=5\)/, body: `export const guarantees = [m.noPaymentOver(4)];
export async function main(x: number): Promise<void> {
  await Promise.all(["a", "b"].map(async (to, i) => pay(to, i === 0 ? x : 5)));
}` },
  { name: "inside a try, a rejected element does not stop the later elements' calls (unknown length)", verdict: "violated", match: /noPaymentOver\(limit=4\) is violated/, body: `export const guarantees = [m.noPaymentOver(4)];
export async function main(xs: number[]): Promise<void> {
  if (xs.indexOf(0) !== 0) return;
  try { await Promise.all(xs.map(async (x) => pay("acct", x))); } catch { }
}` },
  { name: "an unknown number of calls exceeds a count", verdict: "violated", match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(2)];
export async function main(xs: string[]): Promise<void> {
  await Promise.all(xs.map(async (x) => sendEmail(x, "1")));
}` },
  // Callbacks with several awaits, or arguments that call: the callbacks' calls interleave once the
  // first await is reached, so their events are one order among those a run may have (bags and
  // integer sums do not care; Float64 sums and fluents do).
  { name: "a callback with two awaits: every element's two calls happen", verdict: "violated", line: 5, match: /emailsAtMost\(n=3\) is violated/, body: `export const guarantees = [m.emailsAtMost(3)];
export async function main(): Promise<void> {
  await Promise.all(["a", "b"].map(async (x) => { await sendEmail(x, "1"); await sendEmail(x, "2"); }));
}` },
  { name: "a callback with two awaits over a literal array: exactly its calls", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(4), m.emailsAtLeast(4)];
export async function main(): Promise<void> {
  await Promise.all(["a", "b"].map(async (x) => { await sendEmail(x, "1"); await sendEmail(x, "2"); }));
}` },
  { name: "a callback with two awaits over an array of unknown length: the second call's argument comes from the first element", verdict: "violated", line: 7, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  await Promise.all(xs.map(async (x) => {
    const b = await balance(x);
    await sendEmail(b > 10 ? x : "ops@corp", "balance");
  }));
}` },
  { name: "control: the same guarded", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  await Promise.all(xs.map(async (x) => {
    const b = await balance(x);
    if (x !== "ceo@corp") await sendEmail(b > 10 ? x : "ops@corp", "balance");
  }));
}` },
  { name: "an argument that calls a helper", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  const tag = (s: string): string => s + "!";
  await Promise.all(xs.map(async (x) => sendEmail(tag(x), "1")));
}` },
  { name: "an argument that awaits a tool", verdict: "violated", line: 5, match: /emailsAtMost\(n=1\) is violated/, body: `export const guarantees = [m.emailsAtMost(1)];
export async function main(): Promise<void> {
  await Promise.all(["a", "b"].map(async (x) => sendEmail(x, String(await balance(x)))));
}` },
  { name: "a sum of integers over interleaving calls: exact in any order", verdict: "proved", body: `export const guarantees = [m.spendAtMost(6)];
export async function main(): Promise<void> {
  await Promise.all([1, 2].map(async (n) => { await pay("a", n); await pay("b", n); }));
}` },
  { name: "a sum of numbers that may be fractions over interleaving calls is refused (its Float64 total depends on the order)", verdict: "refused", match: /not associative/, body: `export const guarantees = [m.spendAtMost(6)];
export async function main(x: number, y: number): Promise<void> {
  await Promise.all([x, y].filter((n) => n > 0).map(async (n) => { await pay("a", n); await pay("b", n); }));
}` },
  { name: "an argument that calls a built-in is modelled", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp"), m.noPaymentOver(5)];
export async function main(xs: string[], ns: number[]): Promise<void> {
  await Promise.all(xs.map(async (x) => sendEmail(x.slice(0, 3), "1")));
  await Promise.all(ns.filter((n) => n > 0).map(async (n) => pay("acct", Math.min(n, 5))));
}` },
  { name: "a built-in in an argument: the results still count", verdict: "violated", line: 5, match: /noPaymentOver/, body: `export const guarantees = [m.noPaymentOver(5)];
export async function main(ns: number[]): Promise<void> {
  await Promise.all(ns.map(async (n) => pay("acct", Math.max(n, 5))));
}` },
  { name: "a destructured element: each record's fields reach its call", verdict: "violated", line: 5, match: /noPaymentOver\(limit=100\) is violated/, body: `export const guarantees = [m.noPaymentOver(100)];
export async function main(): Promise<void> {
  await Promise.all((await invoices()).map(async ({ payee, total }) => pay(payee, total)));
}` },
  { name: "a destructured element of records filtered first: proved", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100), m.neverEmail("ceo@corp")];
export async function main(): Promise<void> {
  const due = (await invoices()).filter((inv) => inv.total > 0 && inv.total <= 100 && inv.payee !== "ceo@corp");
  await Promise.all(due.map(async ({ payee: to, total }) => pay(to, total)));
  await Promise.all(due.map(async ({ payee }, i) => sendEmail(payee, \`#\${i}\`)));
}` },
  { name: "a default in the element's pattern never runs (payee is always there); the payments' precondition may fail", verdict: "violated", line: 5, match: /amount must be positive/, body: `export const guarantees = [m.nothing()];
export async function main(): Promise<void> {
  await Promise.all((await invoices()).map(async ({ payee = "x", total }) => pay(payee, total)));
}` },
  // An arrow that is not `async` but returns one call of an `async` tool (the promise is the element's).
  { name: "not async, returning the call's promise: every element's call happens", verdict: "violated", line: 5, match: /xs=\[(.*, )?"ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  await Promise.all(xs.map((x) => sendEmail(x, "1")));
}` },
  { name: "not async, over a filtered array: only kept elements are mailed", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  await Promise.all(xs.filter((x) => x !== "ceo@corp").map((x) => sendEmail(x, "1")));
}` },
  { name: "not async: a failed requires rejects that element's promise only, the later call still happens", verdict: "violated", line: 5, match: /Pay\(account="b", amount=5\)/, body: `export const guarantees = [m.noPaymentOver(4)];
export async function main(x: number): Promise<void> {
  await Promise.all(["a", "b"].map((to, i) => pay(to, i === 0 ? x : 5)));
}` },
  { name: "refused: not async inside a try (a throw while the arguments are evaluated would stop map there)", verdict: "refused", line: 5, match: /outside a `try`/, body: `export const guarantees = [m.noPaymentOver(4)];
export async function main(xs: number[]): Promise<void> {
  try { await Promise.all(xs.map((x) => pay("acct", x))); } catch { }
}` },
  { name: "not async, with an argument that calls a built-in that cannot throw: every element's call", verdict: "violated", line: 5, match: /ceo@corp/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  await Promise.all(xs.map((x) => sendEmail(x.trim(), "1")));
}` },
  { name: "refused: not async, with an argument that may throw (encodeURIComponent of a lone surrogate)", verdict: "refused", line: 5, match: /may throw/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  await Promise.all(xs.map((x) => sendEmail(encodeURIComponent(x), "1")));
}` },
  { name: "refused: not async, with an argument that may be undefined", verdict: "refused", line: 5, match: /may throw/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  await Promise.all(xs.map((x, i) => sendEmail(xs[i + 1]!.trim(), "1")));
}` },
  { name: "refused: not async, a tool whose implementation is not async (its failed requires would throw inside map)", verdict: "refused", line: 5, match: /must be an `async` arrow/, body: `export const guarantees = [m.nothing()];
export async function main(xs: string[]): Promise<void> {
  await Promise.all(xs.map((x) => fewContacts()));
}` },
  { name: "refused: not async and not awaited (fire-and-forget)", verdict: "refused", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  void Promise.all(xs.map((x) => sendEmail(x, "1")));
}` },
];

describe("Promise.all over map", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const v = await proveAsync(c.body);
      const ps = problems(v);
      expect(v.verdict, JSON.stringify(ps)).toBe(c.verdict);
      if (c.line !== undefined) expect(ps.map((p) => p.line), JSON.stringify(ps)).toContain(c.line);
      if (c.match) expect(ps.map((p) => p.text).join("\n")).toMatch(c.match);
    }, 600_000);
  }
});
