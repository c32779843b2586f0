/**
 * Encodings that keep small, realistic programs decidable (issue 10/14): each is exactly the
 * semantics it replaces, so every benign case here has an adversarial twin that must still fail.
 * - `every`/`some`/`find` over a bounded or literal array: the "an earlier element decided" term
 *   is no longer repeated inside itself (it doubled with every element).
 * - `includes`/`indexOf`/`lastIndexOf` over a bounded array: element by element, no quantifier.
 * - reads at literal indices of an array merged where paths meet are named, not repeated.
 * - `replaceAll(p, r)` with a non-empty `r` sharing no code unit with `p` leaves no `p`.
 */
import { describe } from "vitest";
import { proveCases } from "./prove-helpers";

const FOURTEEN = Array.from({ length: 14 }, (_, i) => `s + "${i}"`).join(", ");

describe("every/some over many elements", () => {
  proveCases([
    { name: "every over fourteen elements decides the guard", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const xs = [${FOURTEEN}];
  if (!xs.every((x) => x.length > 0)) sendEmail("a@corp", "x");
}` },
    { name: "adversarial: every over fourteen elements, the last one fails", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const xs = [${FOURTEEN}];
  if (!xs.every((x) => !x.endsWith("13"))) sendEmail("a@corp", "x");
}` },
    { name: "some stops at the first hit (find agrees)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const xs = [${FOURTEEN}];
  if (xs.some((x) => x.endsWith("7")) !== (xs.find((x) => x.endsWith("7")) !== undefined)) sendEmail("a@corp", "x");
}` },
    { name: "adversarial: every over a bounded tool result can fail on its third element", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const xs = fewContacts();
  if (!xs.every((x) => x.includes("@"))) sendEmail("a@corp", "x");
}` },
  ]);
});

describe("searching bounded arrays", () => {
  proveCases([
    { name: "a list of the addresses already emailed keeps each recipient once", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const seen: string[] = [];
  for (const c of fewContacts()) {
    if (seen.includes(c)) continue;
    sendEmail(c, "x");
    seen.push(c);
  }
}` },
    { name: "adversarial: remembering another value than the one sent", verdict: "violated", line: 8, body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const seen: string[] = [];
  for (const c of fewContacts()) {
    if (seen.includes(c)) continue;
    sendEmail(c, "x");
    seen.push(c + "!");
  }
}` },
    { name: "indexOf and includes agree", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const xs = fewContacts();
  const i = xs.indexOf(s);
  if (i >= 0 && !xs.includes(s)) sendEmail("a@corp", "x");
  if (i < 0 && xs.includes(s)) sendEmail("a@corp", "x");
}` },
    { name: "adversarial: the first and the last match differ", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const xs = fewContacts();
  if (xs.indexOf(s) !== xs.lastIndexOf(s)) sendEmail("a@corp", "x");
}` },
  ]);
});

describe("replaceAll that redacts", () => {
  proveCases([
    { name: "a redacted word cannot reappear", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const t = "page: " + s.replaceAll("secret", "******");
  if (t.includes("secret")) sendEmail("a@corp", "x");
}` },
    { name: "a redaction inside a callback over an array of unknown length", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if (contacts().some((c) => c.replaceAll("x", "y").includes("x"))) sendEmail("a@corp", "x");
}` },
    { name: "adversarial: an empty replacement joins the pieces into the word again", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s === "sesecretcret" && s.replaceAll("secret", "").includes("secret")) sendEmail("a@corp", "x");
}` },
    { name: "adversarial: a replacement sharing a character rebuilds the pattern", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s === "aabb" && s.replaceAll("ab", "a").includes("ab")) sendEmail("a@corp", "x");
}` },
  ]);
});

describe("Math.min and Math.max of integers stay integers", () => {
  proveCases([
    { name: "a capped total of lengths is bounded", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  let total = 0;
  for (const c of fewContacts()) total += Math.min(c.length, 5);
  if (total > 15) sendEmail("a@corp", "x");
}` },
    { name: "adversarial: Math.max does not cap", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  let total = 0;
  for (const c of fewContacts()) total += Math.max(c.length, 5);
  if (total > 15) sendEmail("a@corp", "x");
}` },
    { name: "adversarial: the minimum of 0 and -0 is -0 (1 / it is -Infinity)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const z = s === "a" ? 0 : -0;
  if (1 / Math.min(0, z) > 0 && s !== "a") sendEmail("a@corp", "x");
  if (1 / Math.max(z, -0) < 0 && s === "a") sendEmail("a@corp", "x");
}` },
  ]);
});
