/**
 * Narrowing a value that may be undefined by the test that guards it (core/prover/exec/narrowing.ts):
 * after `if (!who) continue;`, on the right of `!who || …`, in a ternary's branch, the variable is
 * read as its defined value; a test that does not prove it defined (`||` taken, `&&` not taken,
 * `=== undefined` taken) narrows nothing (`null` itself is refused, elsewhere). Each verdict was decided from JavaScript's
 * semantics before running the prover; each adversarial program has a benign twin.
 */
import { describe } from "vitest";
import { proveCases, type ProveCase } from "./prove-helpers";

const CASES: readonly ProveCase[] = [
  {
    name: "proved: a key that may be undefined, skipped when falsy, is added to a Set and emailed once (h53 i37's shape)",
    verdict: "proved",
    body: `export const guarantees = [m.nobodyTwice(), m.neverEmail("")];
export function main(lines: string[]): void {
  const seen = new Set<string>();
  for (const line of lines) {
    const who = line.split("=").map((s) => s.trim()).find((s) => s.startsWith("@"));
    if (!who || seen.has(who)) continue;
    sendEmail(who, "hi");
    seen.add(who);
  }
}`,
  },
  {
    name: "violated: `||` taken proves nothing: the branch where `who` may be undefined emails the fallback",
    verdict: "violated",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(lines: string[]): void {
  const who = lines.find((l) => l.startsWith("@"));
  if (!who || who === "@x") sendEmail(who ?? "ceo", "hi");
}`,
  },
  {
    name: "violated: `&&` not taken proves nothing: the else branch may hold undefined",
    verdict: "violated",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(lines: string[]): void {
  const who = lines.find((l) => l.startsWith("@"));
  if (who && who.length > 3) sendEmail(who, "hi"); else sendEmail(who ?? "ceo", "hi");
}`,
  },
  {
    name: "proved: `!== undefined` narrows the branch, and the branch it excludes never emails the fallback",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(lines: string[]): void {
  const who = lines.find((l) => l.startsWith("@"));
  if (who !== undefined) sendEmail(who, "hi");
}`,
  },
  {
    name: "violated: `=== undefined` taken: the fallback is emailed there",
    verdict: "violated",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(lines: string[]): void {
  const who = lines.find((l) => l.startsWith("@"));
  if (who === undefined) sendEmail(who ?? "ceo", "hi");
}`,
  },
  {
    name: "proved: `== undefined` returns early, and the rest reads the value as defined",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(lines: string[]): void {
  const who = lines.find((l) => l.startsWith("@"));
  if (who == undefined) return;
  sendEmail(who, "hi");
}`,
  },
  {
    name: "proved: a ternary on the value reads it as defined in its first branch",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("")];
export function main(lines: string[]): void {
  const who = lines.find((l) => l.startsWith("@"));
  const to = who ? who : "anon";
  sendEmail(to, "hi");
}`,
  },
  {
    name: "violated: `!== undefined` lets the empty string through (\"\" is defined, not truthy)",
    verdict: "violated",
    body: `export const guarantees = [m.neverEmail("")];
export function main(lines: string[]): void {
  const who = lines.find((l) => l.length < 2);
  const to = who !== undefined ? who : "anon";
  sendEmail(to, "hi");
}`,
  },
  {
    name: "violated: after both branches go on, the value is again one that may be undefined (the fallback is emailed)",
    verdict: "violated",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(lines: string[]): void {
  const who = lines.find((l) => l.startsWith("@"));
  if (who) log(who);
  sendEmail(who ?? "ceo", "hi");
}`,
  },
  {
    name: "proved: `who && send(who)` as a statement",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("")];
export function main(lines: string[]): void {
  const who = lines.find((l) => l.startsWith("@"));
  who && sendEmail(who, "hi");
}`,
  },
];

describe("narrowing a value that may be undefined by its test", () => {
  proveCases(CASES);
});
