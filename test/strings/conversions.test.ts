/**
 * Conversions with no exact model (core/prover/conversions.ts): the digits of a number that may not
 * be an integer (`${x}`, `String(x)`, `toFixed`, `JSON.stringify`), Unicode case mapping and the
 * JSON text of an unknown string are functions the solver does not know, checked against
 * JavaScript at every model. A proof may not depend on the digits; a counterexample must agree
 * with JavaScript's own result; what cannot be checked (a conversion deciding a branch inside a
 * loop over an array of unknown length) stays refused. Each verdict was decided from JavaScript's
 * semantics before running the prover. Body line 1 is file line 3.
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "a logged amount's digits do not matter to the payment", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100)];
export function main(amount: number): void {
  if (amount > 0 && amount <= 100) pay("acct", amount);
  else log(\`refused \${amount}\`);
}` },
  { name: "a number's digits hold no letter the contract forbids: never an email to \"x\"", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(amount: number): void {
  sendEmail(String(amount / 3), "s");
}` },
  { name: "adversarial: a number's digits may be \"NaN\"", verdict: "violated", line: 5, match: /amount="NaN"/, body: `export const guarantees = [m.neverEmail("NaN")];
export function main(amount: number): void {
  sendEmail(\`\${amount}\`, "s");
}` },
  { name: "adversarial: a violation that does not depend on the digits is found, the digits shown as JavaScript prints them", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("boss")];
export function main(to: string, amount: number): void {
  sendEmail(to, \`due: \${amount * 1.5}\`);
}` },
  { name: "adversarial: toFixed(2) of 0.5 is \"0.50\"", verdict: "violated", line: 5, match: /amount=0\.5/, body: `export const guarantees = [m.neverEmail("0.50")];
export function main(amount: number): void {
  if (amount === 0.5) sendEmail(amount.toFixed(2), "s");
}` },
  { name: "control: toFixed(2) is never \"0.5\" for 0.5", verdict: "proved", body: `export const guarantees = [m.neverEmail("0.5")];
export function main(amount: number): void {
  if (amount === 0.5) sendEmail(amount.toFixed(2), "s");
}` },
  { name: "control: a number from 0 to 10 is never written \"12.5\" (String round-trips: that text has one input)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(amount: number): void {
  if (amount >= 0 && amount <= 10 && \`\${amount}\` === "12.5") sendEmail("x", "s");
}` },
  { name: "adversarial: the same test over 0 to 20 is violated at 12.5", verdict: "violated", line: 5, match: /amount=12\.5/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(amount: number): void {
  if (amount >= 0 && amount <= 20 && \`\${amount}\` === "12.5") sendEmail("x", "s");
}` },
  { name: "control: JSON of a string other than a is never \"a\" in quotes (JSON.parse undoes it)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string): void {
  if (to !== "a" && JSON.stringify(to) === "\\"a\\"") sendEmail("x", "s");
}` },
  { name: "toLowerCase of an input: the branch on its result is checked against JavaScript", verdict: "violated", line: 5, match: /to="ADMIN"|to="[Aa][Dd][Mm][Ii][Nn]"/, body: `export const guarantees = [m.neverEmail("admin")];
export function main(to: string): void {
  if (to.toLowerCase() === "admin") sendEmail(to.toLowerCase(), "s");
}` },
  { name: "control: toUpperCase of a filtered input is never sent lower-case", verdict: "proved", body: `export const guarantees = [m.neverEmail("boss")];
export function main(to: string): void {
  const up = to.toUpperCase();
  if (up !== "boss") sendEmail(up, "s");
}` },
  { name: "adversarial: JSON of an input is quoted, with its text inside", verdict: "violated", line: 5, match: /to="a"/, body: `export const guarantees = [m.neverEmail("\\"a\\"")];
export function main(to: string): void {
  sendEmail(JSON.stringify(to), "s");
}` },
  { name: "control: JSON of an input always starts with a quote", verdict: "proved", body: `export const guarantees = [m.neverEmail("a")];
export function main(to: string): void {
  sendEmail(JSON.stringify(to), "s");
}` },
  { name: "adversarial: JSON escapes a backslash (the model must agree with JavaScript)", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("\\"\\\\\\\\\\"")];
export function main(to: string): void {
  if (to === "\\\\") sendEmail(JSON.stringify(to), "s");
}` },
  { name: "control: the JSON of a backslash is never the backslash quoted as it is", verdict: "proved", body: `export const guarantees = [m.neverEmail("\\"\\\\\\"")];
export function main(to: string): void {
  if (to === "\\\\") sendEmail(JSON.stringify(to), "s");
}` },
  { name: "JSON of a number that may not be an integer: NaN is null", verdict: "violated", line: 5, match: /amount="(NaN|-?Infinity)"/, body: `export const guarantees = [m.neverEmail("null")];
export function main(amount: number): void {
  sendEmail(JSON.stringify(amount), "s");
}` },
  { name: "a conversion deciding a branch inside a loop over an array of unknown length: a run of three elements is checked exactly", verdict: "violated", line: 5, match: /contacts@5:19 → \["BOSS"|contacts@5:19 → \["[Bb][Oo][Ss][Ss]"/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  for (const c of contacts()) if (c.toLowerCase() === "boss") sendEmail(c, "s");
}` },
  { name: "adversarial: the same loop with a guarantee four elements break: found with JavaScript's case mapping", verdict: "violated", line: 5, match: /contacts@5:19 → \[("[bB][oO][sS][sS]"(, )?){4}\]/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  for (const c of contacts()) if (c.toLowerCase() === "boss") sendEmail(c, "s");
}` },
  { name: "a conversion inside a callback over an array of unknown length, where four elements break the guarantee: violated by a run with four (the filter's count, exec/counted.ts)", verdict: "violated", line: 5, match: /"boss", "boss", "boss", "boss"|4 elements/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if (contacts().filter((c) => c.toLowerCase() === "boss").length > 3) sendEmail("x", "s");
}` },
  { name: "the same where only five elements break it: refused (no run with at most four shows it), never proved", verdict: "refused", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if (contacts().filter((c) => c.toLowerCase() === "boss").length > 4) sendEmail("x", "s");
}` },
  { name: "control: the same loop proved when the guarantee does not depend on the branch", verdict: "proved", body: `export const guarantees = [m.neverEmail("boss")];
export function main(): void {
  for (const c of contacts()) if (c.toLowerCase() === "boss" && c !== "boss") sendEmail(c, "s");
}` },
  // JavaScript's result at the program's own literals, and what case mapping keeps (conversions.ts
  // `literalFacts`): a text found in the input is found, case-mapped, in the result.
  { name: "an upper-cased element compared with a protected upper-case literal: the literal is its own upper case", verdict: "proved", body: `export const guarantees = [m.neverEmail("BOSS")];
export function main(): void {
  for (const c of fewContacts()) { if (c.toUpperCase() === "BOSS") continue; sendEmail(c, "s"); }
}` },
  { name: "adversarial: a lower-cased element is never the upper-case literal, so nothing is skipped", verdict: "violated", line: 5, match: /fewContacts@5:19 → \[("[^"]*", )*"BOSS"/, body: `export const guarantees = [m.neverEmail("BOSS")];
export function main(): void {
  for (const c of fewContacts()) { if (c.toLowerCase() === "BOSS") continue; sendEmail(c, "s"); }
}` },
  { name: "an address whose lower case ends with @corp ends with @corp when it already did", verdict: "proved", body: `export const guarantees = [m.internalAtMost(0)];
export function main(to: string): void {
  if (to.toLowerCase().endsWith("@corp")) return;
  sendEmail(to, "s");
}` },
  { name: "adversarial: the upper case of an address never ends with @corp", verdict: "violated", line: 6, body: `export const guarantees = [m.internalAtMost(0)];
export function main(to: string): void {
  if (to.toUpperCase().endsWith("@corp")) return;
  sendEmail(to, "s");
}` },
  { name: "a text mentioned in the input is mentioned, lower-cased, in its lower case", verdict: "proved", body: `export const guarantees = [m.internalAtMost(0)];
export function main(to: string): void {
  if (to.toLowerCase().includes("@corp")) return;
  sendEmail(to, "s");
}` },
  { name: "a domain check on the lower case, the original address emailed: an address in capitals passes it (a model's wanted text is sought in capitals too)", verdict: "violated", line: 6, match: /to="[^"]*@(?!corp")[cC][oO][rR][pP]"/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string): void {
  if (!to.toLowerCase().endsWith("@corp")) return;
  if (!to.endsWith("@corp")) sendEmail(to, "s");
}` },
  { name: "adversarial: a final Σ lowers to ς, not σ (no fact for a text with Σ)", verdict: "violated", line: 6, match: /to="ΑΣ"/, body: `export const guarantees = [m.neverEmail("ΑΣ")];
export function main(to: string): void {
  if (to.toLowerCase().includes("σ")) return;
  sendEmail(to, "s");
}` },
  // ── Number(text): JavaScript's StringToNumber, exact for up to 15 digits ──
  { name: "Number of an unknown text: proved where only its range matters", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100)];
export function main(s: string): void {
  const n = Number(s);
  if (n > 0 && n <= 100) pay("a", n);
}` },
  { name: "Number of an unknown text over the limit: violated, with a text JavaScript reads so", verdict: "violated", line: 6, match: /s="/, body: `export const guarantees = [m.noPaymentOver(100)];
export function main(s: string): void {
  const n = Number(s);
  if (n > 100) pay("a", n);
}` },
  { name: "a text Number reads as 12 is found", verdict: "violated", line: 5, match: /s="12"/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (Number(s) === 12) sendEmail("a", s);
}` },
  { name: "adversarial: texts other than \"12\" read as 12 (\" 12\", \"12.0\", \"0xc\"): never proved that only \"12\" is", verdict: "refused", line: 3, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (Number(s) === 12 && s !== "12") sendEmail("a", s);
}` },
  { name: "adversarial: Number(\"\") is 0, not NaN", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s.length === 0 && Number(s) !== 0) sendEmail("a", s);
}` },
  { name: "adversarial: Number of a text may be NaN, which no comparison excludes", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const n = Number(s);
  if (!(n >= 0) && !(n < 0)) sendEmail("a", s);
}` },
  { name: "control: Number of the same text twice is the same number", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (Number(s) !== Number(s) && Number(s) === Number(s)) sendEmail("a", s);
}` },
];

describe("conversions modelled as functions checked against JavaScript", () => {
  proveCases(cases);
});
