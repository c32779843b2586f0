/**
 * Prover semantics of the new forms, each with a proved and a violated twin, exact lines (IMPORTS
 * take two lines, so body line 1 is file line 3) and counterexample values.
 */
import { problems, prove } from "./layer";

vi.setConfig({ testTimeout: 0 });

const cases: { name: string; body: string; verdict: "proved" | "violated" | "refused"; line?: number; match?: RegExp }[] = [
  // ── sharesValueWith ──
  { name: "join: the same message to both", verdict: "proved", body: `export const guarantees = [c.sameContent("bob", "ann")];
export function main(m: string): void { sendEmail("bob", m); sendEmail("ann", m); }` },
  { name: "join: a branch sends to one of them only (reported on the guarantee)", verdict: "violated", line: 3, match: /sameContent\(a="bob", b="ann"\) is violated.*main\(m="[^"]*", x=(true|false)\)/, body: `export const guarantees = [c.sameContent("bob", "ann")];
export function main(m: string, x: boolean): void { if (x) sendEmail("bob", m); else sendEmail("ann", m); }` },
  { name: "join: keys compared with ===, not just reachability", verdict: "violated", line: 3, body: `export const guarantees = [c.sameContent("bob", "ann")];
export function main(m: string): void { sendEmail("bob", m); sendEmail("ann", m + "."); }` },
  { name: "join: one event on both sides pairs with itself", verdict: "proved", body: `export const guarantees = [c.callMatchesEvent("bob", "bob")];
export function main(m: string): void { sendEmail("bob", m); }` },
  { name: "join: an effect relation against an event relation", verdict: "violated", line: 3, body: `export const guarantees = [c.callMatchesEvent("bob", "ann")];
export function main(m: string): void { sendEmail("bob", m); sendEmail("ann", "other"); }` },
  { name: "join: a pair in two iterations of one loop", verdict: "proved", body: `export const guarantees = [c.copiedTo("bob")];
export function main(ms: string[]): void {
  for (const m of ms) { sendEmail("bob", m); sendEmail("carl", m); }
  if (ms.length === 0) { sendEmail("bob", ""); sendEmail("eve", ""); }
}` },
  { name: "join: the pair only when an input array is non-empty", verdict: "violated", line: 3, match: /main\(ms=\[\]\)/, body: `export const guarantees = [c.copiedTo("bob")];
export function main(ms: string[]): void { for (const m of ms) { sendEmail("bob", m); sendEmail("carl", m); } }` },
  { name: "join: a pair inside a loop only on an unreachable path", verdict: "violated", line: 3, body: `export const guarantees = [c.sameContent("bob", "ann")];
export function main(ms: string[]): void {
  for (const m of ms) { sendEmail("bob", m); if (m.length < 0) sendEmail("ann", m); }
  if (ms.length === 0) { sendEmail("bob", "x"); sendEmail("ann", "x"); }
}` },
  { name: "join: found with includes over an input", verdict: "proved", body: `export const guarantees = [c.sameContent("bob", "ann")];
export function main(ms: string[]): void {
  sendEmail("bob", "hi");
  if (ms.includes("hi")) { for (const m of ms) { if (m === "hi") sendEmail("ann", m); } } else sendEmail("ann", "hi");
}` },
  { name: "join: a precondition that fails stops the pair", verdict: "violated", line: 3, body: `export const guarantees = [c.sameContent("bob", "ann")];
export function main(m: string, n: number): void { sendEmail("bob", m); pay("x", n); sendEmail("ann", m); }` },
  // ── allSameValue and its deprecated name ──
  { name: "allSameValue: one recipient", verdict: "proved", body: `export const guarantees = [c.oneRecipient()];
export function main(m: string): void { sendEmail("a", m); sendEmail("a", m + "!"); }` },
  { name: "allSameValue: two recipients", verdict: "violated", line: 5, body: `export const guarantees = [c.oneRecipient()];
export function main(a: string): void {
  sendEmail("x", "1"); sendEmail(a, "2");
}` },
  { name: "sharesValue (deprecated) decides as allSameValue", verdict: "violated", line: 5, body: `export const guarantees = [c.oneRecipientOld()];
export function main(a: string): void {
  sendEmail("x", "1"); sendEmail(a, "2");
}` },
  // ── element promises ──
  { name: "elements: every listed name starts with the prefix", verdict: "proved", body: `export const guarantees = [c.readsOnlyUnder("APP_")];
export function main(): void { for (const n of listEnv("APP_")) readEnv(n); }` },
  { name: "elements: the promise is about its own prefix argument", verdict: "violated", line: 5, match: /ReadEnv\(name="AP[^"]*"\).*listEnv@5:\d+ → \["AP/, body: `export const guarantees = [c.readsOnlyUnder("APP_")];
export function main(): void {
  for (const n of listEnv("AP")) readEnv(n);
}` },
  { name: "elements: a tool without a promise", verdict: "violated", line: 5, body: `export const guarantees = [c.readsOnlyUnder("APP_")];
export function main(): void {
  for (const n of drafts()) readEnv(n);
}` },
  { name: "elements: fields of interface elements (precondition and guarantee)", verdict: "proved", body: `export const guarantees = [c.positivePayments()];
export function main(): void { for (const inv of openInvoices()) pay(inv.account, inv.amount); }` },
  { name: "elements: a field the promise does not mention", verdict: "violated", line: 5, match: /Pay\(account="", amount=[^)]*\)/, body: `export const guarantees = [c.namedAccounts()];
export function main(): void {
  for (const inv of openInvoices()) pay(inv.account, inv.amount);
}` },
  { name: "elements: unrolled exactly (a length bound in another ensures)", verdict: "proved", body: `export const guarantees = [c.namedAccounts(), c.positivePayments()];
export function main(): void { for (const inv of fewInvoices()) pay(inv.account, inv.amount); }` },
  { name: "elements: the element an includes finds", verdict: "proved", body: `export const guarantees = [c.readsOnlyUnder("APP_")];
export function main(x: string): void { if (listEnv("APP_").includes(x)) readEnv(x); }` },
  { name: "elements: a value that is not in the list", verdict: "violated", line: 5, body: `export const guarantees = [c.readsOnlyUnder("APP_")];
export function main(x: string): void {
  if (!listEnv("APP_").includes(x)) readEnv(x);
}` },
  { name: "elements: a loop over the result inside a loop over an input", verdict: "proved", body: `export const guarantees = [c.readsOnlyUnder("APP_")];
export function main(ps: string[]): void { for (const p of ps) { for (const n of listEnv("APP_" + p)) readEnv(n); } }` },
  { name: "elements: each call's promise is about that call's own argument", verdict: "violated", line: 5, body: `export const guarantees = [c.readsOnlyUnder("APP_")];
export function main(ps: string[]): void {
  for (const p of ps) { for (const n of listEnv(p)) readEnv(n); }
}` },
  { name: "elements: a choice between two promised results keeps both promises", verdict: "proved", body: `export const guarantees = [c.readsOnlyUnder("APP_")];
export function main(f: boolean): void { const xs = f ? listEnv("APP_") : listEnv("APP_X"); for (const n of xs) readEnv(n); }` },
  { name: "elements: a choice with an unpromised result", verdict: "violated", line: 5, match: /main\(f=false\)/, body: `export const guarantees = [c.readsOnlyUnder("APP_")];
export function main(f: boolean): void {
  const xs = f ? listEnv("APP_") : drafts(); for (const n of xs) readEnv(n);
}` },
];

describe("contract language: prover semantics", () => {
  it.each(cases)("$name", async ({ body, verdict, line, match }) => {
    const v = await prove(body);
    const found = problems(v);
    expect(v.verdict, JSON.stringify(found, null, 1)).toBe(verdict);
    if (line !== undefined) expect(found.map((f) => f.line)).toContain(line);
    if (match) expect(found.map((f) => f.text).join("\n")).toMatch(match);
  });
});

describe("element promises the prover refuses", () => {
  const broken = (ensuresText: string, ret = "string[]") => `import { trusted, ensures } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, type ContractSpec } from "clauz3/spec";
export class ReadEnv extends Event { constructor(readonly name: string) { super(); } }
export const readEnv = trusted(performs((name: string) => new ReadEnv(name)), function readEnv(name: string): string { return ""; });
export const listEnv = trusted(${ensuresText}, function listEnv(prefix: string): ${ret} { return [] as never; });
export const readsOnlyUnder = contract({ description: "Only {prefix}." }, (prefix: string): ContractSpec => ReadEnv.all((e) => e.name.startsWith(prefix)));
export const sendEmail = 0, drafts = 0, openInvoices = 0, fewInvoices = 0, pay = 0;
`;
  it("an every beside another conjunct: refused, never assumed or dropped", async () => {
    const v = await prove(`export const guarantees = [c.readsOnlyUnder("APP_")];
export function main(): void { for (const n of listEnv("APP_")) readEnv(n); }`, broken(`ensures((r: string[], prefix: string) => r.length >= 0 && r.every((n) => n.startsWith(prefix)))`));
    expect(v.verdict).toBe("refused");
  });
});
