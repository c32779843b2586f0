/**
 * Strings and conversions (core/prover/exec/strings.ts): `String(x)`, `Number(x)`, `toFixed`,
 * `toLowerCase`/`toUpperCase`, `trim`/`trimStart`/`trimEnd`, `split`, `replace`/`replaceAll` and
 * `Date.now()`. Each verdict was decided from JavaScript's semantics before running the prover;
 * each adversarial case (a corner a careless model gets wrong) has a benign twin. IMPORTS are
 * prepended: body line 1 is file line 3.
 */
import { TRIM_RANGES } from "../../core/prover/exec/strings";
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  // ── String(x) ──
  { name: "String of an integer input's length is its digits", verdict: "violated", line: 5, match: /to="3"/, body: `export const guarantees = [m.neverEmail("3")];
export function main(s: string): void {
  sendEmail(String(s.length), "x");
}` },
  { name: "control: String of a length never starts with a minus", verdict: "proved", body: `export const guarantees = [m.neverEmail("-1")];
export function main(s: string): void {
  sendEmail(String(s.length - 0), "x");
}` },
  { name: "adversarial: String(-0) is \"0\"", verdict: "violated", line: 5, body: `export const guarantees = [m.neverEmail("0")];
export function main(): void {
  sendEmail(String(-0), "x");
}` },
  { name: "String(undefined) and String(true)", verdict: "violated", line: 5, match: /to="undefinedtrue"/, body: `export const guarantees = [m.neverEmail("undefinedtrue")];
export function main(): void {
  sendEmail(String(undefined) + String(true), "x");
}` },
  { name: "String of a boolean input", verdict: "violated", line: 5, match: /b=false/, body: `export const guarantees = [m.neverEmail("false")];
export function main(b: boolean): void {
  sendEmail(String(b), "x");
}` },
  { name: "String of a number that may be a fraction: proved where its digits do not matter (test/strings/conversions.test.ts)", verdict: "proved", body: `export const guarantees = [m.nothing()];
export function main(n: number): void {
  log(String(n));
}` },
  // ── Number(x) ──
  { name: "Number of literal strings: JavaScript's grammar", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if (Number("") !== 0 || Number(" 12 ") !== 12 || Number("1e3") !== 1000 || Number("0x10") !== 16) sendEmail("a", "x");
  if (Number("+5") !== 5 || Number("-5") !== -5 || !Number.isNaN(Number("١٢")) || !Number.isNaN(Number("12px"))) sendEmail("a", "x");
}` },
  { name: "adversarial: Number(\"0x10\") is 16, not NaN", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if (Number("0x10") === 16) sendEmail("a", "x");
}` },
  { name: "Number of a boolean input", verdict: "violated", line: 5, match: /b=true/, body: `export const guarantees = [m.noPaymentOver(1)];
export function main(b: boolean): void {
  pay("a", Number(b) + 0.5);
}` },
  { name: "control: Number of a boolean is at most 1", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(1.5)];
export function main(b: boolean): void {
  pay("a", Number(b) + 0.5);
}` },
  { name: "adversarial: Number of a possibly-undefined value is NaN there (no throw)", verdict: "violated", line: 7, match: /b=false/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(b: boolean): void {
  const x = b ? "5" : undefined;
  const n = Number(x);
  if (n !== n) sendEmail("a", "x");
}` },
  { name: "control: Number of a possibly-undefined value where it is defined", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(b: boolean): void {
  const x = b ? "5" : undefined;
  const n = Number(x);
  if (b && n !== 5) sendEmail("a", "x");
}` },
  // ── toFixed ──
  { name: "toFixed of a literal rounds as JavaScript does", verdict: "violated", line: 5, match: /to="1.00"/, body: `export const guarantees = [m.neverEmail("1.00")];
export function main(): void {
  sendEmail((1.005).toFixed(2) === "1.00" ? "1.00" : "other", "x");
}` },
  { name: "toFixed of an integer: its digits and zeros", verdict: "violated", line: 5, match: /to="-2.00"/, body: `export const guarantees = [m.neverEmail("-2.00")];
export function main(s: string): void {
  sendEmail((1 - s.length).toFixed(2), "x");
}` },
  { name: "control: toFixed(0) of a length has no point", verdict: "proved", body: `export const guarantees = [m.internalAtMost(0)];
export function main(s: string): void {
  if (s.length.toFixed(0).includes(".")) sendEmail("x@corp", "x");
}` },
  { name: "toFixed of a number that may be a fraction: proved where its digits do not matter", verdict: "proved", body: `export const guarantees = [m.nothing()];
export function main(n: number): void {
  log(n.toFixed(2));
}` },
  // ── toLowerCase / toUpperCase ──
  { name: "toUpperCase of a literal: ß becomes SS", verdict: "violated", line: 5, match: /to="STRASSE"/, body: `export const guarantees = [m.neverEmail("STRASSE")];
export function main(): void {
  sendEmail("straße".toUpperCase(), "x");
}` },
  { name: "toLowerCase of a literal: İ becomes two code units", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if ("İ".toLowerCase().length !== 2) sendEmail("a", "x");
}` },
  { name: "toLowerCase of an unknown string: proved where its text does not matter", verdict: "proved", body: `export const guarantees = [m.nothing()];
export function main(s: string): void {
  if (s.toLowerCase() === "ceo@corp") log("x");
}` },
  // ── trim ──
  { name: "trim of an unknown string: a padded address reaches it", verdict: "violated", line: 5, match: /to=".*ceo@corp.*"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string): void {
  if (to !== "ceo@corp") sendEmail(to.trim(), "x");
}` },
  { name: "control: checking after trim", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string): void {
  const t = to.trim();
  if (t !== "ceo@corp") sendEmail(t, "x");
}` },
  { name: "adversarial: trim removes a no-break space and a line separator", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if ("\\u00a0a\\u2028".trim() === "a") sendEmail("a", "x");
}` },
  { name: "adversarial: trim keeps a zero-width space (U+200B)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s === "\\u200b" && s.trim() === "") sendEmail("a", "x");
}` },
  { name: "trim of a symbolic string made only of spaces is empty", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if ((s === " \\t\\ufeff" || s === "\\u3000") && s.trim() !== "") sendEmail("a", "x");
}` },
  { name: "trimStart keeps the end, trimEnd keeps the start", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s === " a " && (s.trimStart() !== "a " || s.trimEnd() !== " a")) sendEmail("a", "x");
}` },
  { name: "trim never lengthens, and a trimmed string has no space at its ends", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const t = s.trim();
  if (t.length > s.length || t.startsWith(" ") || t.endsWith("\\n")) sendEmail("a", "x");
}` },
  { name: "trim in a loop over an input array", verdict: "violated", line: 5, match: /ceo@corp/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  for (const t of to) if (!t.startsWith("ceo")) sendEmail(t.trim(), "x");
}` },
  { name: "control: trim in a loop, checked after", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  for (const t of to) { const u = t.trim(); if (!u.startsWith("ceo")) sendEmail(u, "x"); }
}` },
  { name: "control: one string trimmed in each iteration, in a callback and after it is one text", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string, to: string[]): void {
  const first = s.trim();
  const all = to.map((x) => x + s.trim());
  for (let i = 0; i < 3; i++) if (s.trim() !== first) sendEmail("a", "x");
  if (all.length > 0 && s.trim() !== first) sendEmail("b", "x");
}` },
  { name: "adversarial: trim and trimStart of one string in each iteration are not one text", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  for (let i = 0; i < 3; i++) if (s.trim() !== s.trimStart()) sendEmail("a", "x");
}` },
  { name: "adversarial: two strings trimmed in each iteration are not one text", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string, b: string): void {
  for (let i = 0; i < 3; i++) if (a.trim() === "x" && b.trim() !== "x") sendEmail("a", "x");
}` },
  { name: "adversarial: trim in a map callback, two elements may trim differently", verdict: "violated", line: 5, body: `export const guarantees = [m.oneRecipient()];
export function main(to: string[]): void {
  for (const t of to.map((x) => x.trim())) sendEmail(t, "x");
}` },
  { name: "adversarial: trim in a loop, two iterations may trim differently", verdict: "violated", line: 5, body: `export const guarantees = [m.oneRecipient()];
export function main(to: string[]): void {
  for (const x of to) sendEmail(x.trim(), "x");
}` },
  { name: "adversarial: trim in a forEach callback, two elements may trim differently", verdict: "violated", line: 5, body: `export const guarantees = [m.nobodyTwice()];
export function main(to: string[]): void {
  to.forEach((x) => sendEmail(x.trim(), "x"));
}` },
  { name: "control: trim in a map callback, checked after", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  for (const t of to.map((x) => x.trim())) if (t !== "ceo@corp") sendEmail(t, "x");
}` },
  // ── split ──
  { name: "split of a literal by a literal", verdict: "violated", line: 5, match: /to="b"/, body: `export const guarantees = [m.neverEmail("b")];
export function main(): void {
  for (const p of "a,b,,c".split(",")) if (p !== "") sendEmail(p, "x");
}` },
  { name: "split(\"\") splits into UTF-16 code units", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if ("a😀".split("").length !== 3) sendEmail("a", "x");
}` },
  // split of an unknown string (exec/split.ts): the first parts exact, the rest stated facts
  { name: "split of an unknown string: no part holds the separator", verdict: "proved", body: `export const guarantees = [m.neverEmail("a,b")];
export function main(s: string): void {
  for (const p of s.split(",")) sendEmail(p, "x");
}` },
  { name: "split of an unknown string: a part reaches the send", verdict: "violated", line: 5, match: /to="boss"/, body: `export const guarantees = [m.neverEmail("boss")];
export function main(s: string): void {
  for (const p of s.split(",")) sendEmail(p, "x");
}` },
  { name: "adversarial: four parts or more (past the exact first parts), found by a run cut exactly", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s.split(",").length > 3) sendEmail("a", "x");
}` },
  { name: "adversarial: the empty string splits into one empty part", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s === "" && (s.split(",").length !== 1 || s.split(",")[0] !== "")) sendEmail("a", "x");
}` },
  { name: "adversarial: a separator at the end leaves an empty last part", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s.endsWith(",") && s.split(",").at(-1) === "") sendEmail("a", "x");
}` },
  { name: "split(\"\") of an unknown string is refused", verdict: "refused", line: 5, match: /split\(""\)/, body: `export const guarantees = [m.nothing()];
export function main(s: string): void {
  for (const p of s.split("")) log(p);
}` },
  // ── charAt, padStart, padEnd ──
  { name: "charAt is the code unit there, \"\" outside (a negative, a fraction truncated, past the end)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s.charAt(-1) !== "" || s.charAt(s.length) !== "" || s.charAt(0.9) !== s.charAt(0) || "a😀".charAt(1) === "😀") sendEmail("a", "x");
}` },
  { name: "charAt(0) of an input is its first code unit", verdict: "violated", line: 5, match: /s="@/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s.charAt(0) === "@") sendEmail("a", "x");
}` },
  { name: "padStart to a length an input reaches leaves it as it is, else fills in front", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const p = s.padStart(5, "ab");
  if (p.length < 5 || (s.length >= 5 && p !== s) || (s === "x" && p !== "ababx") || s.padEnd(3) !== (s.length >= 3 ? s : s + "   ".slice(s.length)) || s.padStart(9, "") !== s) sendEmail("a", "x");
}` },
  { name: "padStart of a number's digits can give a chosen text", verdict: "violated", line: 5, match: /SendEmail\(to="007"/, body: `export const guarantees = [m.neverEmail("007")];
export function main(s: string): void {
  sendEmail(s.padStart(3, "0"), "x");
}` },
  // ── indexOf ──
  { name: "indexOf of an unknown text: a token found after a prefix", verdict: "violated", line: 5, match: /s="\?token=/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s.indexOf("token=") === 1 && s.startsWith("?")) sendEmail("a", "x");
}` },
  { name: "control: indexOf is the first occurrence, -1 when absent, 0 for \"\"", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if ("abcabc".indexOf("c") !== 2 || "abc".indexOf("x") !== -1 || s.indexOf("") !== 0) sendEmail("a", "x");
  if (s.startsWith("ab") && s.indexOf("b") !== 1) sendEmail("b", "x");
  if (s.includes("@") !== (s.indexOf("@") >= 0)) sendEmail("c", "x");
}` },
  { name: "adversarial: indexOf counts UTF-16 code units (a surrogate pair is two)", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if ("😀@".indexOf("@") === 2) sendEmail("a", "x");
}` },
  // ── searches from a position: ToIntegerOrInfinity, clamped to [0, length] ──
  { name: "control: positions clamp, truncate and default as in JavaScript (known texts)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if (!"abcabc".startsWith("c", 2) || "abc".endsWith("c", 2) || !"abc".endsWith("b", 2.9) || "abcabc".indexOf("a", 1) !== 3 || "abc".indexOf("", 9) !== 3) sendEmail("a", "x");
  if (!"abc".startsWith("a", -5) || "abc".includes("a", Infinity) || !"abc".includes("a", NaN) || !"abc".endsWith("c", undefined)) sendEmail("b", "x");
}` },
  { name: "control: a negative position is 0", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s.startsWith("a", -5) !== s.startsWith("a") || s.indexOf("a", -1) !== s.indexOf("a")) sendEmail("a", "x");
}` },
  { name: "control: NaN is 0, an infinite position is past every text, undefined is absent", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s.includes("a", NaN) !== s.includes("a") || s.includes("a", Infinity) || s.endsWith("a", undefined) !== s.endsWith("a")) sendEmail("a", "x");
}` },
  { name: "control: a search from a position that is not a literal finds nothing before it", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  const i = s.indexOf("@", s.length - 2);
  if (i !== -1 && i < s.length - 2) sendEmail("d", "x");
}` },
  { name: "a second occurrence found from past the first", verdict: "violated", line: 5, match: /s="a..a/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s.indexOf("a") === 0 && s.indexOf("a", 1) === 3 && s.length === 4) sendEmail("a", "x");
}` },
  { name: "adversarial: endsWith up to a position ignores the text after it", verdict: "violated", line: 5, match: /to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(s: string): void {
  if (!s.endsWith("@corp", 4)) sendEmail(s, "x");
}` },
  { name: "adversarial: startsWith past the end only matches \"\"", verdict: "violated", line: 5, match: /s=""/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string, t: string): void {
  if (s.startsWith(t, 99) && s.length < 3 && t.length === 0 && s.length === 0) sendEmail("a", "x");
}` },
  // ── replace / replaceAll ──
  { name: "replace replaces the first occurrence only", verdict: "violated", line: 5, match: /to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(s: string): void {
  if (s === "X@corp") sendEmail(s.replace("X", "ceo"), "x");
}` },
  { name: "adversarial: replace leaves the second occurrence", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s === "aXbX" && s.replace("X", "") !== "abX") sendEmail("a", "x");
}` },
  { name: "replaceAll replaces every occurrence", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s === "aXbX" && s.replaceAll("X", "") !== "ab") sendEmail("a", "x");
}` },
  { name: "replaceAll does not rescan what it inserted", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s === "aaa" && s.replaceAll("aa", "a") !== "aa") sendEmail("a", "x");
}` },
  { name: "adversarial: $& in a replacement is the match", verdict: "violated", line: 5, match: /to="\[a\]@corp"|s="a@corp"/, body: `export const guarantees = [m.neverEmail("[a]@corp")];
export function main(s: string): void {
  if (s.endsWith("@corp")) sendEmail(s.replace("a", "[$&]"), "x");
}` },
  { name: "control: $$ is one dollar, $1 stays as written", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s === "ab" && s.replace("a", "$$$1") !== "$$1b") sendEmail("a", "x");
}` },
  { name: "an empty pattern inserts in front", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  if (s === "b" && s.replace("", "a") !== "ab") sendEmail("a", "x");
}` },
  { name: "the match's surroundings ($\`) are refused", verdict: "refused", line: 5, match: /before the match/, body: `export const guarantees = [m.nothing()];
export function main(s: string): void {
  log(s.replace("a", "$\`"));
}` },
  { name: "an unknown replacement is inserted as it is where it has no $", verdict: "violated", line: 5, match: /r="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(r: string): void {
  sendEmail("{who}".replace("{who}", r), "x");
}` },
  { name: "replaceAll with an unknown replacement", verdict: "violated", line: 5, match: /to="aXbXc"/, body: `export const guarantees = [m.neverEmail("aXbXc")];
export function main(r: string): void {
  if (r.length === 1) sendEmail("a-b-c".replaceAll("-", r), "x");
}` },
  { name: "control: an unknown replacement in a text no guarantee reads", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(name: string): void {
  sendEmail("team@corp", "Dear {name}".replace("{name}", name));
}` },
  { name: "control: an unknown replacement of a pattern that is not there leaves the text", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(r: string): void {
  if ("abc".replace("x", r) !== "abc") sendEmail("a", "x");
}` },
  { name: "adversarial: an unknown replacement's $& expands (never proved: no run without $ shows it)", verdict: "refused", line: 3, match: /replacement holds a `\$`/, body: `export const guarantees = [m.neverEmail("ab")];
export function main(r: string): void {
  if (r === "$&b") sendEmail("a".replace("a", r), "x");
}` },
  { name: "adversarial: an unknown replacement's $$ is one dollar (never proved)", verdict: "refused", line: 3, match: /replacement holds a `\$`/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(r: string): void {
  if (r === "$$" && "a".replace("a", r) === "$") sendEmail("a", "x");
}` },
  { name: "a replacer function is refused", verdict: "refused", line: 5, match: /Functions as values/, body: `export const guarantees = [m.nothing()];
export function main(s: string): void {
  log(s.replace("a", () => "b"));
}` },
  { name: "replaceAll with an empty pattern on an unknown string is refused", verdict: "refused", line: 5, match: /empty pattern/, body: `export const guarantees = [m.nothing()];
export function main(s: string): void {
  log(s.replaceAll("", "-"));
}` },
  { name: "replaceAll with an empty pattern on a literal", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if ("ab".replaceAll("", "-") !== "-a-b-") sendEmail("a", "x");
}` },
  // ── calls conversions could hide ──
  { name: "adversarial: String of an object whose toString sends mail is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  log(String({ toString() { sendEmail("a", "x"); return "t"; } }));
}` },
  { name: "adversarial: Number of an object whose valueOf sends mail is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  pay("a", Number({ valueOf() { sendEmail("a", "x"); return 1; } }));
}` },
  { name: "adversarial: a replacement function is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  log(s.replace("a", () => { sendEmail("a", "x"); return "b"; }));
}` },
  { name: "a regular expression pattern is refused", verdict: "refused", line: 5, body: `export const guarantees = [m.nothing()];
export function main(s: string): void {
  log(s.replace(/a/g, "b"));
}` },
  { name: "a local function named String is a helper, not the conversion", verdict: "violated", line: 6, match: /to="mine"/, body: `export const guarantees = [m.neverEmail("mine")];
export function main(): void {
  const String = (x: number): string => "mine";
  sendEmail(String(1), "x");
}` },
  { name: "a tool called inside a conversion's argument still happens", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(s: string): void {
  log(String(s.trim().length) + String(sendEmail(s, "x")));
}` },
  // ── Date.now() ──
  { name: "Date.now() is unknown: a deadline check can pass", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if (Date.now() > 1700000000000) sendEmail("a", "x");
}` },
  { name: "adversarial: two reads of the clock may differ", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const a = Date.now(); const b = Date.now(); if (a !== b) sendEmail("a", "x");
}` },
  { name: "control: one read of the clock equals itself, and is an integer", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const a = Date.now(); if (a !== a || !Number.isInteger(a)) sendEmail("a", "x");
}` },
  { name: "new Date() is refused with what to write", verdict: "refused", line: 5, match: /Date\.now\(\)/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const d = new Date(); log(String(d));
}` },
];

describe("strings and conversions", () => {
  it("the trimmed code units are JavaScript's", () => {
    const ws: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (String.fromCharCode(c).trim() === "") ws.push(c);
    expect(TRIM_RANGES.flatMap(([lo, hi]) => Array.from({ length: hi - lo + 1 }, (_, k) => lo + k))).toEqual(ws);
  });
  proveCases(cases);
});
