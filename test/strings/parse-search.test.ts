/**
 * `s.lastIndexOf(text)` (word equations, core/prover/exec/strings.ts `callLastIndexOf`) and
 * `parseInt`/`parseFloat` (conversions checked against JavaScript at every model,
 * core/prover/conversions.ts `parseKind`). Verdicts decided from JavaScript's semantics before
 * running the prover; each adversarial case has a benign twin. IMPORTS are prepended: body line 1
 * is file line 3.
 */
import { describe } from "vitest";
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const lastIndexOf: ProveCase[] = [
  { name: "lastIndexOf of an unknown text: a port after the last colon of a text with two", verdict: "violated", line: 6, match: /s="/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const at = s.lastIndexOf(":");
  if (at >= 0 && s.slice(at + 1) === "22" && s.slice(0, at).includes(":")) sendEmail("a", "x");
}` },
  { name: "control: no colon after the last one, the one found is a colon, -1 only when there is none", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const at = s.lastIndexOf(":");
  if (at >= 0 && s.slice(at + 1).includes(":")) sendEmail("a", "x");
  if (at >= 0 && s.charAt(at) !== ":") sendEmail("b", "x");
  if ((at < 0) !== !s.includes(":")) sendEmail("c", "x");
}` },
  { name: "adversarial: occurrences overlap (\"aaa\".lastIndexOf(\"aa\") is 1)", verdict: "violated", line: 5, match: /s="aaa"/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s.length === 3 && s.startsWith("aaa") && s.lastIndexOf("aa") === 1) sendEmail("a", s);
}` },
  { name: "control: the overlapping occurrence is the last one, never the first", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s === "aaa" && s.lastIndexOf("aa") !== 1) sendEmail("a", s);
}` },
  { name: "known texts by JavaScript: code units, \"\" at the end", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if ("a:b:c".lastIndexOf(":") !== 3 || "😀:".lastIndexOf(":") !== 2 || "abc".lastIndexOf("x") !== -1 || s.lastIndexOf("") !== s.length) sendEmail("a", "x");
}` },
  { name: "adversarial: lastIndexOf counts UTF-16 code units", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s.startsWith("😀") && s.lastIndexOf(":") === 2) sendEmail("a", "x");
}` },
  { name: "lastIndexOf in a loop over an array of unknown length: an extension after the last dot", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(names: string[]): void {
  for (const n of names) {
    const dot = n.lastIndexOf(".");
    if (dot > 0 && n.slice(dot) === ".exe") sendEmail(n, "x");
  }
}` },
  { name: "control: the extension after the last dot holds no dot", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(names: string[]): void {
  for (const n of names) {
    const dot = n.lastIndexOf(".");
    if (dot >= 0 && n.slice(dot + 1).includes(".")) sendEmail(n, "x");
  }
}` },
  { name: "refused: a position, and a text the prover does not know", verdict: "refused", line: 5, match: /position|does not know/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string, t: string): void {
  if (s.lastIndexOf(":", 3) > 0 || s.lastIndexOf(t) > 0) sendEmail("a", "x");
}` },
];

const parse: ProveCase[] = [
  { name: "parseInt and parseFloat of known texts: JavaScript's grammar", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if (parseInt("12px", 10) !== 12 || !Number.isNaN(parseInt("px")) || parseInt("0x1A") !== 26 || parseInt("0x1A", 10) !== 0) sendEmail("a", "x");
  if (parseInt(" -7.9") !== -7 || parseInt("101", 2) !== 5 || Number.parseInt("z", 36) !== 35 || parseInt("9", 8) === parseInt("9", 8)) sendEmail("b", "x");
  if (parseFloat("1.5e3x") !== 1500 || parseFloat("-Infinityx") !== -Infinity || !Number.isNaN(Number.parseFloat(".e1"))) sendEmail("c", "x");
}` },
  { name: "parseInt of an unknown text may be NaN, which no comparison excludes", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const n = parseInt(s, 10);
  if (!(n >= 0) && !(n < 0)) sendEmail("a", s);
}` },
  { name: "control: a finite parseInt is an integer", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const n = Number.parseInt(s, 10);
  if (Number.isFinite(n) && !Number.isInteger(n)) sendEmail("a", s);
}` },
  { name: "adversarial: parseInt of 309 digits is Infinity, a number that is not an integer", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const n = parseInt(s, 10);
  if (n === n && !Number.isInteger(n)) sendEmail("a", "x");
}` },
  { name: "adversarial: texts other than \"12\" read as 12 (\"12px\")", verdict: "violated", line: 5, match: /s="/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (parseInt(s, 10) === 12 && s !== "12") sendEmail("a", s);
}` },
  { name: "a port parsed with parseInt and checked as a whole number in range is paid at most 65535", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(65535)];
export function main(s: string): void {
  const port = parseInt(s.slice(s.lastIndexOf(":") + 1), 10);
  if (port >= 1 && port <= 65535) pay("a", port);
}` },
  { name: "adversarial: parseFloat keeps fractions", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const x = parseFloat(s);
  if (x > 0 && x < 1) sendEmail("a", s);
}` },
  { name: "parseInt of a value that may be undefined reads \"undefined\" (NaN in radix 10)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(b: boolean): void {
  const x = b ? "7" : undefined;
  const n = parseInt(x as string, 10);
  if (n === n && n !== 7) sendEmail("a", "x");
}` },
  { name: "refused: a radix that is not a literal, and a number argument", verdict: "refused", line: 5, match: /radix|not a string/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string, r: number): void {
  if (parseInt(s, r) > 0 || parseInt(r as unknown as string) > 0) sendEmail("a", "x");
}` },
];

describe("lastIndexOf of a string", () => {
  proveCases(lastIndexOf);
});

describe("parseInt and parseFloat", () => {
  proveCases(parse);
});
