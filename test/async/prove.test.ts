/**
 * Async programs over async tools (issue 10): awaits in program order are modelled exactly like
 * synchronous calls; every other use of a promise is refused on its node. Expected verdicts
 * follow JavaScript's semantics (lines count the two import lines: body line 1 is file line 3).
 */
import { describe, expect, it } from "vitest";
import { problems } from "../prover/prove-helpers";
import { proveAsync } from "./layer";

type Case = { name: string; body: string; verdict: "proved" | "violated" | "refused"; line?: number; match?: RegExp };

const benign: Case[] = [
  { name: "an awaited call is modelled like a synchronous one", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(1), m.neverEmail("ceo@corp")];
export async function main(to: string): Promise<void> {
  if (to !== "ceo@corp") await sendEmail(to, "hello");
}` },
  { name: "a sequence of awaits in program order", verdict: "proved", body: `export const guarantees = [m.nobodyTwice(), m.emailsAtLeast(2)];
export async function main(a: string, b: string): Promise<void> {
  await sendEmail(a, "1");
  if (a !== b) await sendEmail(b, "2");
  else await sendEmail(a + "x", "2");
}` },
  { name: "an awaited result is the tool's T with its ensures", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100)];
export async function main(account: string): Promise<void> {
  const b = await balance(account);
  if (b > 0 && b <= 100) await pay(account, b);
}` },
  { name: "for…of over an awaited array result, awaiting inside the loop", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(): Promise<void> {
  for (const to of await contacts()) {
    if (to === "ceo@corp") continue;
    await sendEmail(to, "news");
  }
}` },
  { name: "a tool declared to return Promise<T> without async is awaited too (its ensures bounds the unrolling)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export async function main(): Promise<void> {
  for (const to of await fewContacts()) await sendEmail(to, "hi");
}` },
  { name: "an awaited async helper, its return value and its calls", verdict: "proved", body: `export const guarantees = [m.spendAtMost(50)];
async function settle(account: string, amount: number): Promise<number> {
  if (!(amount > 0 && amount <= 50)) return 0;
  await pay(account, amount);
  return amount;
}
export async function main(account: string, amount: number): Promise<void> {
  const paid = await settle(account, amount);
  if (paid === 0) await sendEmail(account, "nothing paid");
}` },
  { name: "a const async arrow returning the tool's promise", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(to: string): Promise<void> {
  const notify = async (who: string) => sendEmail(who, "hi");
  if (to !== "ceo@corp") await notify(to);
}` },
  { name: "a record from an awaited array result", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(10)];
export async function main(): Promise<void> {
  for (const inv of await invoices()) {
    if (inv.total > 0 && inv.total <= 10) await pay(inv.payee, inv.total);
  }
}` },
  { name: "a synchronous tool called without await in an async main", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export async function main(to: string): Promise<void> {
  syncLog(to, "a");
  await sendEmail(to, "b");
}` },
];

const violated: Case[] = [
  { name: "an awaited send to the forbidden address", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(to: string): Promise<void> {
  await sendEmail(to, "hello");
}` },
  { name: "a failing requires of an awaited call", verdict: "violated", line: 5, match: /amount must be positive/, body: `export const guarantees = [m.nothing()];
export async function main(account: string, amount: number): Promise<void> {
  await pay(account, amount);
}` },
  { name: "an await inside a loop over a tool result pays without a bound", verdict: "violated", line: 6, body: `export const guarantees = [m.noPaymentOver(100)];
export async function main(): Promise<void> {
  for (const inv of await invoices()) {
    if (inv.total > 0) await pay(inv.payee, inv.total);
  }
}` },
  { name: "an async helper's calls count at the await", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(1)];
async function twice(to: string): Promise<void> {
  await sendEmail(to, "1");
  await sendEmail(to, "2");
}
export async function main(to: string): Promise<void> {
  await twice(to);
}` },
];

const refused: Case[] = [
  { name: "an un-awaited tool call (fire-and-forget) still sends: refused", verdict: "refused", line: 5, match: /not awaited/, body: `export const guarantees = [m.emailsAtMost(0)];
export async function main(to: string): Promise<void> {
  sendEmail(to, "hello");
}` },
  { name: "a tool called in an async helper that is not awaited: refused at the helper call", verdict: "refused", line: 8, match: /async helper is not awaited/, body: `export const guarantees = [m.emailsAtMost(0)];
async function notify(to: string): Promise<void> {
  await sendEmail(to, "hi");
}
export async function main(to: string): Promise<void> {
  notify(to);
}` },
  { name: "a promise stored and awaited after another call: refused where it is made", verdict: "refused", line: 5, match: /not awaited/, body: `export const guarantees = [m.nobodyTwice()];
export async function main(a: string, b: string): Promise<void> {
  const first = sendEmail(a, "1");
  await sendEmail(b, "2");
  await first;
}` },
  { name: "a non-async helper returning a tool's promise: the call inside is refused", verdict: "refused", line: 5, match: /not awaited/, body: `export const guarantees = [m.emailsAtMost(0)];
function later(to: string): Promise<void> {
  return sendEmail(to, "x");
}
export async function main(to: string): Promise<void> {
  await later(to);
}` },
  { name: ".then chains: refused", verdict: "refused", line: 5, match: /\.then/, body: `export const guarantees = [m.emailsAtMost(1)];
export async function main(to: string): Promise<void> {
  await balance(to).then((b) => sendEmail(to, String(b)));
}` },
  { name: "Promise.race: refused", verdict: "refused", line: 5, match: /Promise\.race/, body: `export const guarantees = [m.nothing()];
export async function main(a: string): Promise<void> {
  await Promise.race([balance(a), balance(a + "x")]);
}` },
  { name: "await of a value that is not a promise: refused", verdict: "refused", line: 5, match: /not the call of an async/, body: `export const guarantees = [m.nothing()];
export async function main(a: string): Promise<void> {
  const x = await a;
  await sendEmail(x, "1");
}` },
  { name: "await of a synchronous tool: refused", verdict: "refused", line: 5, match: /does not return a promise/, body: `export const guarantees = [m.nothing()];
export async function main(a: string): Promise<void> {
  await syncLog(a, "1");
}` },
  { name: "a top-level await of a tool call: refused", verdict: "refused", body: `export const guarantees = [m.emailsAtMost(0)];
await sendEmail("a", "top level");
export async function main(): Promise<void> {}` },
  { name: "a tool's promise stored at module level: refused", verdict: "refused", body: `export const guarantees = [m.emailsAtMost(0)];
export const pending = sendEmail("a", "top level");
export async function main(): Promise<void> {
  await pending;
}` },
  { name: "an awaited call in a condition of an if: modelled", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export async function main(a: string): Promise<void> {
  if ((await balance(a)) >= 0) await sendEmail(a, "x");
}` },
  { name: "for await: refused", verdict: "refused", line: 5, body: `export const guarantees = [m.nothing()];
export async function main(): Promise<void> {
  for await (const to of await contacts()) await sendEmail(to, "x");
}` },
];

const all: Case[] = [
  { name: "Promise.all of two awaited sends: both happen", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2), m.emailsAtLeast(2)];
export async function main(a: string, b: string): Promise<void> {
  await Promise.all([sendEmail(a, "1"), sendEmail(b, "2")]);
}` },
  { name: "Promise.all of two sends breaks at most one, at the second call", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(1)];
export async function main(a: string, b: string): Promise<void> {
  await Promise.all([sendEmail(a, "1"), sendEmail(b, "2")]);
}` },
  { name: "a failing requires in Promise.all does not stop the calls after it", verdict: "violated", line: 5, match: /neverEmail|ceo@corp/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(account: string): Promise<void> {
  await Promise.all([pay(account, 0), sendEmail("ceo@corp", "x")]);
}` },
  { name: "the results of Promise.all, by literal index, keep their ensures", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100)];
export async function main(a: string, b: string): Promise<void> {
  const rs = await Promise.all([balance(a), balance(b)]);
  const x = rs[0];
  if (x > 0 && x <= 100) await pay(a, x);
}` },
  { name: "the sum over Promise.all's calls is the sum in array order (the trace's order)", verdict: "violated", line: 6, body: `export const guarantees = [m.spendAtMost(10)];
export async function main(a: string, x: number): Promise<void> {
  if (!(x > 0 && x <= 5)) return;
  await Promise.all([pay(a, x), pay(a, x), pay(a, 1)]);
}` },
  { name: "Promise.all(xs.map(async …)): every element's call (test/callbacks/all.test.ts)", verdict: "violated", match: /emailsAtMost/, body: `export const guarantees = [m.emailsAtMost(2)];
export async function main(xs: string[]): Promise<void> {
  await Promise.all(xs.map(async (x) => sendEmail(x, "1")));
}` },
  { name: "an argument that calls something inside Promise.all: refused", verdict: "refused", line: 5, match: /calls or awaits something/, body: `export const guarantees = [m.nothing()];
export async function main(a: string): Promise<void> {
  await Promise.all([sendEmail(a, "1"), sendEmail(a.toUpperCase(), "2")]);
}` },
  { name: "a synchronous tool in Promise.all: refused", verdict: "refused", line: 5, match: /implementation is `async`/, body: `export const guarantees = [m.nothing()];
export async function main(a: string): Promise<void> {
  await Promise.all([sendEmail(a, "1"), syncLog(a, "2")]);
}` },
  { name: "a Promise.all that is not awaited: refused", verdict: "refused", line: 5, match: /awaited at once/, body: `export const guarantees = [m.nothing()];
export async function main(a: string): Promise<void> {
  const both = Promise.all([sendEmail(a, "1"), sendEmail(a, "2")]);
  await both;
}` },
];

describe("async programs", () => {
  it.each([...benign, ...violated, ...refused, ...all])("$name", async ({ body, verdict, line, match }) => {
    const v = await proveAsync(body);
    const found = problems(v);
    expect(v.verdict, JSON.stringify(found, null, 1)).toBe(verdict);
    if (line !== undefined) expect(found[0]?.line).toBe(line);
    if (match) expect(found.map((f) => f.text).join("\n")).toMatch(match);
  });
});
