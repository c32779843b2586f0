/**
 * `encodeURIComponent(s)` (exec/uri.ts): known strings by JavaScript; unknown strings throw a
 * URIError exactly on a lone surrogate, map unreserved text to itself, and are otherwise checked
 * against JavaScript. Each adversarial case has a benign twin. IMPORTS are prepended: body line 1
 * is file line 3.
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "adversarial: an input may hold a lone surrogate: a reachable throw", verdict: "violated", line: 5, match: /URIError|lone surrogate/, body: `export const guarantees = [m.nothing()];
export function main(id: string): void {
  sendEmail(encodeURIComponent(id) + "@corp", "s");
}` },
  { name: "a well-formed input does not throw (a lone surrogate is excluded first)", verdict: "proved", body: `export const guarantees = [m.nothing()];
export function main(id: string): void {
  if (id.length === 1 && id >= "a" && id <= "z") sendEmail(encodeURIComponent(id) + "@corp", "s");
}` },
  { name: "inside a try, the URIError is caught and the catch runs", verdict: "violated", line: 5, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(id: string): void {
  try { log(encodeURIComponent(id)); } catch { sendEmail("ceo@corp", "failed"); }
}` },
  { name: "the prefix survives encoding: only URLs under it", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(id: string): void {
  try { sendEmail("u/" + encodeURIComponent(id), "s"); } catch { log("bad id"); }
}` },
  { name: "adversarial: unreserved text is itself, so the address can be reached", verdict: "violated", match: /SendEmail\(to="ceo/, body: `export const guarantees = [m.neverEmail("ceo")];
export function main(id: string): void {
  try { sendEmail(encodeURIComponent(id), "s"); } catch { log("bad id"); }
}` },
  { name: "an encoded text never holds a space or an @", verdict: "proved", body: `export const guarantees = [m.neverEmail("a b"), m.neverEmail("a@b")];
export function main(id: string): void {
  try { sendEmail(encodeURIComponent(id), "s"); } catch { log("bad id"); }
}` },
  { name: "adversarial: an encoded space is %20 (checked against JavaScript)", verdict: "violated", match: /SendEmail\(to="a%20b"/, body: `export const guarantees = [m.neverEmail("a%20b")];
export function main(id: string): void {
  try { sendEmail(encodeURIComponent(id), "s"); } catch { log("bad id"); }
}` },
  { name: "no input is encoded as a lower-case escape", verdict: "proved", body: `export const guarantees = [m.neverEmail("%c3%a9")];
export function main(id: string): void {
  try { sendEmail(encodeURIComponent(id), "s"); } catch { log("bad id"); }
}` },
  { name: "a known string by JavaScript", verdict: "violated", line: 5, match: /SendEmail\(to="a%2Fb%20%C3%A9"/, body: `export const guarantees = [m.neverEmail("a%2Fb%20%C3%A9")];
export function main(): void {
  sendEmail(encodeURIComponent("a/b é"), "s");
}` },
  { name: "adversarial: a known lone surrogate throws", verdict: "violated", line: 5, match: /URIError|lone surrogate/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  log(encodeURIComponent("\\ud83d"));
}` },
  { name: "a known surrogate pair does not throw", verdict: "proved", body: `export const guarantees = [m.neverEmail("x")];
export function main(): void {
  sendEmail(encodeURIComponent("\\ud83d\\ude00"), "s");
}` },
  { name: "over an array of unknown length, a lone surrogate in any element throws", verdict: "violated", line: 5, match: /URIError|lone surrogate/, body: `export const guarantees = [m.nothing()];
export function main(ids: string[]): void {
  for (const id of ids) log("u/" + encodeURIComponent(id));
}` },
  { name: "a number is refused with what to write instead", verdict: "refused", line: 5, match: /String\(n\)/, body: `export const guarantees = [m.nothing()];
export function main(n: number): void {
  log(encodeURIComponent(n));
}` },
];

describe("encodeURIComponent", () => proveCases(cases));
