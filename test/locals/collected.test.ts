/**
 * Arrays a loop over an array of unknown length collects with `push` (core/prover/exec/collected.ts):
 * after the loop, the filtered view of the iterations that pushed, in iteration order. Each verdict
 * was decided from JavaScript's semantics before running the prover; counterexamples of the
 * violated cases are found among runs with short arrays. Line numbers count the three prepended
 * import lines (body line 1 is file line 4).
 */
import { describe, expect, it } from "vitest";
import { problems, prove, proveCases, type ProveCase } from "../prover/prove-helpers";
import { LOOP_EXTRA, LOOP_IMPORT } from "../loopstate/layer";

const run = (body: string) => prove(LOOP_IMPORT + body, LOOP_EXTRA);

const CASES: readonly ProveCase[] = [
  {
    name: "proved: the addresses kept by an `if` are emailed after the loop, never the excluded one",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(to: string[]): void {
  const ok: string[] = [];
  for (const t of to) { if (t !== "ceo") ok.push(t); }
  for (const t of ok) sendEmail(t, "hi");
}`,
  },
  {
    name: "violated: the kept addresses are trimmed when pushed (\" ceo\" becomes \"ceo\")",
    verdict: "violated",
    line: 8,
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(to: string[]): void {
  const ok: string[] = [];
  for (const t of to) { if (t !== "ceo") ok.push(t.trim()); }
  for (const t of ok) sendEmail(t, "hi");
}`,
  },
  {
    name: "proved: `continue` skips the push; both branches of an `if` push once",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(to: string[]): void {
  const picked: string[] = [];
  for (const t of to) {
    if (t === "") continue;
    if (t.startsWith("x")) picked.push("x-team"); else picked.push(t === "ceo" ? "ops" : t);
  }
  for (const p of picked) sendEmail(p, "hi");
}`,
  },
  {
    name: "proved: a collected array is never longer than the one it came from",
    verdict: "proved",
    body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  const bad: string[] = [];
  for (const t of to) if (t.startsWith("x")) bad.push(t);
  if (bad.length > to.length) sendEmail("ops", "impossible");
}`,
  },
  {
    name: "violated: the summary is sent only when something was collected (at least one email promised)",
    verdict: "violated",
    match: /emailsAtLeast|[Aa]t least/,
    body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(to: string[]): void {
  const bad: string[] = [];
  for (const t of to) if (t.startsWith("x")) bad.push(t);
  if (bad.length > 0) sendEmail("ops", bad.join(", "));
}`,
  },
  {
    name: "violated: the first collected element keeps iteration order (the first address is the CEO's)",
    verdict: "violated",
    line: 9,
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(to: string[]): void {
  const all: string[] = [];
  for (const t of to) all.push(t);
  const first = all[0];
  if (first !== undefined && all.length > 1) sendEmail(first, "you are first");
}`,
  },
  {
    name: "proved: the payees a budget loop paid (with `break`) are emailed; spending stays within the budget",
    verdict: "proved",
    body: `export const guarantees = [m.spendAtMost(2000)];
export async function main(): Promise<void> {
  let total = 0;
  const paid: string[] = [];
  for (const inv of await openInvoices()) {
    if (total + inv.amount > 2000) break;
    pay(inv.payee, inv.amount);
    total += inv.amount;
    paid.push(inv.payee);
  }
  for (const p of paid) sendEmail(p, "paid");
}`,
  },
  {
    name: "violated: every paid payee is emailed, more than three emails are possible (a count over a loop of unknown length is reported on the guarantee)",
    verdict: "violated",
    line: 4,
    match: /amount: 1 \}, \{ payee/,
    body: `export const guarantees = [m.emailsAtMost(3)];
export async function main(): Promise<void> {
  const paid: string[] = [];
  for (const inv of await openInvoices()) {
    if (inv.amount > 500) continue;
    pay(inv.payee, inv.amount);
    paid.push(inv.payee);
  }
  for (const p of paid) {
    sendEmail(p, "paid");
  }
}`,
  },
  {
    name: "violated: a collected pair of records, each an element's payee and amount, is paid again after the loop",
    verdict: "violated",
    line: 8,
    body: `export const guarantees = [m.noPaymentOver(999)];
export async function main(): Promise<void> {
  const big: { payee: string; amount: number }[] = [];
  for (const inv of await openInvoices()) if (inv.amount >= 900) big.push({ payee: inv.payee, amount: inv.amount });
  for (const b of big) pay(b.payee, b.amount);
}`,
  },
  // ── refused on the node, with what to write instead ──
  {
    name: "refused: the array is read inside the loop that collects it",
    verdict: "refused",
    line: 8,
    match: /read inside the loop that collects it/,
    body: `export const guarantees = [m.emailsAtMost(3)];
export function main(to: string[]): void {
  const ok: string[] = [];
  for (const t of to) {
    if (ok.length < 3) ok.push(t);
  }
  for (const t of ok) sendEmail(t, "hi");
}`,
  },
  {
    name: "refused: one iteration pushes twice",
    verdict: "refused",
    line: 7,
    match: /more than one element/,
    body: `export const guarantees = [m.emailsAtMost(3)];
export function main(to: string[]): void {
  const ok: string[] = [];
  for (const t of to) { ok.push(t); if (t === "a") ok.push(t); }
  for (const t of ok) sendEmail(t, "hi");
}`,
  },
  {
    name: "refused: the array is not empty when the loop starts",
    verdict: "refused",
    line: 7,
    match: /not an empty array literal/,
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(to: string[]): void {
  const ok: string[] = ["ops"];
  for (const t of to) { if (t !== "ceo") ok.push(t); }
  for (const t of ok) sendEmail(t, "hi");
}`,
  },
  {
    name: "refused: the collecting loop is inside a `try` (the catch would see the pushes of an iteration that threw)",
    verdict: "refused",
    line: 9,
    match: /inside a `try`/,
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(to: string[]): void {
  const ok: string[] = [];
  try {
    for (const t of to) {
      ok.push(t);
      if (t === "ceo") throw new Error("stop");
    }
  } catch {
    for (const t of ok) sendEmail(t, "partial");
  }
}`,
  },
  {
    name: "refused: a loop nested in another loop over an array of unknown length collects",
    verdict: "refused",
    line: 8,
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(groups: string[], to: string[]): void {
  for (const g of groups) {
    const ok: string[] = [];
    for (const t of to) if (t !== g) ok.push(t);
    for (const t of ok) sendEmail(t, g);
  }
}`,
  },
];

describe("arrays collected by a loop over an array of unknown length", () => {
  proveCases(CASES, run);

  it("an iteration that throws after its push stops the run: nothing after the loop sees its element", async () => {
    const v = await run(`export const guarantees = [m.neverEmail("boom")];
export function main(to: string[]): void {
  const ok: string[] = [];
  for (const t of to) {
    ok.push(t);
    if (t === "boom") throw new Error("stop");
  }
  for (const t of ok) sendEmail(t, "hi");
}`);
    const ps = problems(v);
    // The throw is reachable (line 9); the guarantee holds: the run that meets "boom" never gets to the emails.
    expect(ps.map((p) => p.kind), JSON.stringify(ps)).toEqual(["throw"]);
    expect(ps[0]!.line).toBe(9);
  }, 600_000);
});
