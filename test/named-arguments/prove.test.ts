/**
 * Agent programs over tools of one object of named arguments (issue 10): object literals
 * (shorthand, computed values, spreads of known literals), destructuring of tool results, property
 * reads, optional chaining and `??` on results that may be undefined. Expected verdicts follow
 * JavaScript's semantics (lines count the two import lines: body line 1 is file line 3); everything
 * object-shaped that could hide a call or a value is refused on its node.
 */
import { describe, expect, it } from "vitest";
import { problems } from "../prover/prove-helpers";
import { proveNamed } from "./layer";

type Case = { name: string; body: string; verdict: "proved" | "violated" | "refused"; line?: number; match?: RegExp };

const benign: Case[] = [
  { name: "array destructuring of an array of unknown length, each element tested", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  const [first, second] = xs;
  if (first !== undefined && second !== undefined && second !== "ceo@corp" && second.includes("@")) sendEmail({ to: second, subject: first, body: "" });
}` },
  { name: "a method call in an optional chain: the branch where it holds has the value defined", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(name: string): Promise<void> {
  const inv = await findInvoice({ payee: name });
  if (inv?.payee.endsWith("@corp.com")) sendEmail({ to: inv.payee, subject: "s", body: "" });
}` },
  { name: "a shorthand object literal behind a guard", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string): void {
  if (to !== "ceo@corp" && to.includes("@")) sendEmail({ to, subject: "hi", body: "x" });
}` },
  { name: "destructuring an awaited result, computed values in the literal", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100)];
export async function main(id: string): Promise<void> {
  if (id === "") return;
  const { total, payee } = await getInvoice({ id });
  if (total > 0 && total <= 100) await pay({ account: payee, amount: total, memo: "inv " + id });
}` },
  { name: "a spread of a known literal whose property is overridden", verdict: "proved", body: `export const guarantees = [m.bodiesAvoid("secret")];
export function main(to: string, text: string): void {
  const base = { subject: "hi", body: text };
  if (to.includes("@")) sendEmail({ ...base, to, body: "fixed" });
}` },
  { name: "an object built in a variable and by a helper", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp"), m.emailsAtLeast(2)];
function message(to: string) {
  return { to, subject: "s", body: "b" };
}
export function main(): void {
  const msg = { to: "ops@corp", subject: "s", body: "b" };
  sendEmail(msg);
  sendEmail(message("dev@corp"));
}` },
  { name: "a possibly-undefined result tested before its property is read", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(name: string): Promise<void> {
  const inv = await findInvoice({ payee: name });
  if (inv !== undefined && inv.payee !== "ceo@corp" && inv.payee.includes("@")) sendEmail({ to: inv.payee, subject: "s", body: "" });
}` },
  { name: "a possibly-undefined record tested by truthiness with && (in an if, a const and a ternary)", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp"), m.emailsAtMost(3)];
export async function main(name: string): Promise<void> {
  const inv = await findInvoice({ payee: name });
  if (inv && inv.payee !== "ceo@corp" && inv.payee.includes("@")) sendEmail({ to: inv.payee, subject: "s", body: "" });
  const ok = inv && inv.total > 0;
  if (ok) sendEmail({ to: "ops@corp", subject: "paid", body: "" });
  const to = inv && inv.payee.endsWith("@corp") && inv.payee !== "ceo@corp" ? inv.payee : "ops@corp";
  sendEmail({ to, subject: "s", body: "" });
}` },
  { name: "?? with a safe fallback on a possibly-undefined string", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(name: string): void {
  const to = findAddress(name) ?? "ops@corp";
  if (to !== "ceo@corp" && to.includes("@")) sendEmail({ to, subject: "s", body: "" });
}` },
  { name: "optional chaining then ?? on a record that may be undefined", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(10)];
export async function main(name: string): Promise<void> {
  const inv = await findInvoice({ payee: name });
  const total = inv?.total ?? 0;
  if (total > 0 && total <= 10) await pay({ account: name, amount: total, memo: "" });
}` },
  { name: "destructuring the sync form, with renaming and a nested read", verdict: "proved", body: `export const guarantees = [m.neverPay("ceo@corp")];
export async function main(id: string): Promise<void> {
  const { payee: who, total } = invoiceNow(id);
  if (who !== "ceo@corp" && total > 0) await pay({ memo: "m", amount: total, account: who });
}` },
  { name: "a helper that destructures its object parameter", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
function notify({ to, subject }: { to: string; subject: string }): void {
  if (to !== "ceo@corp" && to.includes("@")) sendEmail({ to, subject, body: "" });
}
export function main(to: string): void {
  notify({ to, subject: "s" });
}` },
  { name: "an element promise over a named argument", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const n of namesUnder({ prefix: "pub-" })) if (n.includes("@")) sendEmail({ to: n, subject: "s", body: "" });
}` },
];

const violated: Case[] = [
  { name: "array destructuring of an array of unknown length: past its end the element is undefined", verdict: "violated", line: 6, match: /undefined/, body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(xs: string[]): void {
  const [to] = xs;
  sendEmail({ to, subject: "s", body: "" });
}` },
  { name: "a method call in an optional chain is undefined where the chain short-circuits", verdict: "violated", line: 3, body: `export const guarantees = [m.emailsAtLeast(1)];
export async function main(name: string): Promise<void> {
  const inv = await findInvoice({ payee: name });
  if (inv?.payee.startsWith("a") !== undefined) sendEmail({ to: "a@b", subject: "s", body: "" });
}` },
  { name: "a method call's result in an optional chain, with a default where it short-circuits", verdict: "violated", line: 7, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(name: string): Promise<void> {
  const inv = await findInvoice({ payee: name });
  const to = inv?.payee.trim() ?? "ceo@corp";
  sendEmail({ to, subject: "s", body: "" });
}` },
  { name: "adversarial: the arguments of a short-circuited call are not evaluated (their call does not happen)", verdict: "violated", line: 3, body: `export const guarantees = [m.emailsAtLeast(1)];
export async function main(name: string): Promise<void> {
  const inv = await findInvoice({ payee: name });
  inv?.payee.includes(String(sendEmail({ to: "a@b", subject: "s", body: "" })));
}` },
  { name: "&& on a record that may be undefined gives its right side where it is defined", verdict: "violated", line: 7, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(name: string): Promise<void> {
  const inv = await findInvoice({ payee: name });
  const to = inv && inv.payee;
  if (to && to.includes("@")) sendEmail({ to, subject: "s", body: "" });
}` },
  { name: "&& on a record that may be undefined: undefined where it is, so the fallback is sent", verdict: "violated", line: 7, match: /SendEmail\(to="ops@corp"/, body: `export const guarantees = [m.neverEmail("ops@corp")];
export async function main(name: string): Promise<void> {
  const inv = await findInvoice({ payee: name });
  const total = inv && inv.total;
  if (total === undefined) sendEmail({ to: "ops@corp", subject: "none", body: "" });
}` },
  { name: "a helper that destructures its object parameter, unguarded", verdict: "violated", line: 5, match: /main\(to="ceo@corp"\)/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
const notify = ({ to: who, subject }: { to: string; subject: string }): void => {
  if (who.includes("@")) sendEmail({ to: who, subject, body: "" });
};
export function main(to: string): void {
  notify({ subject: "s", to });
}` },
  { name: "a shorthand property with no guard", verdict: "violated", line: 5, match: /main\(to="ceo@corp"\)/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string): void {
  if (to.includes("@")) sendEmail({ to, subject: "hi", body: "x" });
}` },
  { name: "a spread of a known literal carries its values", verdict: "violated", line: 6, match: /body="secret"/, body: `export const guarantees = [m.bodiesAvoid("secret")];
export function main(to: string, text: string): void {
  const extra = { subject: "s", body: text };
  if (to.includes("@")) sendEmail({ ...extra, to });
}` },
  { name: "the ?? fallback is taken when the result is undefined", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(name: string): void {
  const to = findAddress(name) ?? "ceo@corp";
  if (to.includes("@")) sendEmail({ to, subject: "s", body: "" });
}` },
  { name: "an optional chain that is undefined compares unequal", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(name: string): Promise<void> {
  const inv = await findInvoice({ payee: name });
  if (inv?.payee !== "x@corp") sendEmail({ to: inv?.payee ?? "ceo@corp", subject: "s", body: "" });
}` },
  { name: "a property of a possibly-undefined result read after ?. is defined only on some paths", verdict: "violated", line: 7, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(name: string): Promise<void> {
  const inv = await findInvoice({ payee: name });
  const t = inv?.total;
  if (t !== undefined && t > 5) sendEmail({ to: "ceo@corp", subject: "s", body: "" });
}` },
  { name: "a failing requires read through the whole object", verdict: "violated", line: 5, match: /amount must be positive/, body: `export const guarantees = [m.nothing()];
export async function main(amount: number): Promise<void> {
  await pay({ account: "a", amount, memo: "" });
}` },
  { name: "an element promise over a named argument that allows the address", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const n of namesUnder({ prefix: "ceo" })) if (n.includes("@")) sendEmail({ to: n, subject: "s", body: "" });
}` },
];

const refused: Case[] = [
  { name: "a getter in an object literal", verdict: "refused", line: 5, match: /getters/, body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(): void {
  const msg = { to: "a@b", subject: "s", get body() { return "x"; } };
  sendEmail(msg);
}` },
  { name: "a method named toString", verdict: "refused", line: 5, match: /Methods, getters and setters/, body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(): void {
  const msg = { to: "a@b", subject: "s", body: "b", toString() { return "x"; } };
  sendEmail(msg);
}` },
  { name: "a computed key that is not a literal", verdict: "refused", line: 5, match: /computed key/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(k: string): void {
  sendEmail({ to: "a@b", subject: "s", body: "b", [k]: "ceo@corp" });
}` },
  { name: "a default in a destructuring pattern that calls a tool: the property is always there, so the call never happens", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(id: string): void {
  const inv = invoiceNow(id);
  const { payee = findAddress("x") ?? "" } = inv;
}` },
  { name: "a spread of a tool result", verdict: "refused", line: 6, match: /Only an object the program built from a literal can be spread/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(id: string): void {
  const inv = invoiceNow(id);
  sendEmail({ ...inv, to: "a@b", subject: "s", body: "" });
}` },
  { name: "a tool result passed as the named arguments", verdict: "refused", line: 5, match: /must be an object the program builds from a literal/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string): void {
  sendEmail(draft(to));
}` },
  { name: "writing a property", verdict: "refused", line: 6, match: /Objects are not changed/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const msg = { to: "a@b", subject: "s", body: "" };
  msg.to = "ceo@corp";
  sendEmail(msg);
}` },
  { name: "the in operator", verdict: "refused", line: 6, match: /`in` looks up the prototype chain/, body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(): void {
  const msg = { to: "a@b", subject: "s", body: "" };
  if ("to" in msg) sendEmail(msg);
}` },
  { name: "a method call in an optional chain whose receiver may be changed is refused", verdict: "refused", line: 7, match: /`push` in an optional chain/, body: `export const guarantees = [m.emailsAtLeast(1)];
export async function main(name: string): Promise<void> {
  const inv = await findInvoice({ payee: name });
  const names = inv ? [inv.payee] : undefined;
  names?.push("x");
}` },
  { name: "array destructuring of a literal array (by position)", verdict: "proved", body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(): void {
  const [to] = ["a@b"];
  sendEmail({ to, subject: "s", body: "" });
}` },
  { name: "a __proto__ key", verdict: "refused", line: 5, match: /`__proto__` changes how JavaScript treats the object/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const msg = { to: "a@b", subject: "s", body: "", __proto__: { to: "ceo@corp" } };
  sendEmail(msg);
}` },
];

describe("named arguments and objects in agent programs", () => {
  for (const c of [...benign, ...violated, ...refused]) {
    it(`${c.verdict}: ${c.name}`, async () => {
      const v = await proveNamed(c.body);
      const found = problems(v);
      expect(v.verdict, JSON.stringify(found)).toBe(c.verdict);
      if (c.line !== undefined) expect(found.map((p) => p.line), JSON.stringify(found)).toContain(c.line);
      if (c.match) expect(found.map((p) => p.text).join("\n")).toMatch(c.match);
    }, 600_000);
  }
});
