/**
 * A Map a loop over an array of unknown length builds (core/prover/exec/collected-maps.ts): its keys
 * are carried exactly (`has`, `size`, insertion order: a key set again keeps its place), its values
 * are any of their type wherever read, so a proof holds for every length and a violation is reported
 * only once a run with short arrays shows it. Verdicts decided from JavaScript's semantics before
 * running the prover; IMPORTS are prepended (body line 1 is file line 3).
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const cases: ProveCase[] = [
  { name: "a Map used as a set of who was emailed: nobody twice", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const sent = new Map<string, number>();
  for (const r of rows()) {
    if (sent.has(r.to)) continue;
    sendEmail(r.to, "hi");
    sent.set(r.to, r.amount);
  }
}` },
  { name: "adversarial: the has test guards the set, not the send", verdict: "violated", line: 8, body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const sent = new Map<string, number>();
  for (const r of rows()) {
    if (!sent.has(r.to)) sent.set(r.to, r.amount);
    sendEmail(r.to, "hi");
  }
}` },
  { name: "totals per key, then one email per key", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const totals = new Map<string, number>();
  for (const r of rows()) totals.set(r.to, (totals.get(r.to) ?? 0) + r.amount);
  for (const [to, total] of totals) sendEmail(to, String(total));
}` },
  { name: "adversarial: a value-dependent payment over the limit is found among short runs", verdict: "violated", line: 7, match: /Found among runs/, body: `export const guarantees = [m.noPaymentOver(100)];
export function main(): void {
  const totals = new Map<string, number>();
  for (const r of rows()) totals.set(r.to, (totals.get(r.to) ?? 0) + r.amount);
  for (const [to, total] of totals) if (total > 100) pay(to, total);
}` },
  { name: "a guarantee that holds whatever the values are is proved", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(100)];
export function main(): void {
  const totals = new Map<string, number>();
  for (const r of rows()) totals.set(r.to, (totals.get(r.to) ?? 0) + r.amount);
  for (const [to, total] of totals) if (total > 0 && total <= 100) pay(to, total);
}` },
  { name: "adversarial: a count per key read in the body lets an address through twice", verdict: "violated", line: 8, body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const counts = new Map<string, number>();
  for (const to of contacts()) {
    const prev = counts.get(to) ?? 0;
    if (prev < 2) sendEmail(to, "x");
    counts.set(to, prev + 1);
  }
}` },
  { name: "a count per key is not tracked: the correct twin is refused, not proved", verdict: "refused", match: /Map a loop over an array of unknown length built is read here/, body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const counts = new Map<string, number>();
  for (const to of contacts()) {
    const prev = counts.get(to) ?? 0;
    if (prev < 1) sendEmail(to, "x");
    counts.set(to, prev + 1);
  }
}` },
  { name: "the size in the body counts keys, not sets: duplicates pass a size budget", verdict: "violated", line: 9, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const seen = new Map<string, boolean>();
  for (const to of contacts()) {
    if (seen.size >= 3) break;
    seen.set(to, true);
    sendEmail(to, "x");
  }
}` },
  { name: "a size budget over new keys only holds", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const seen = new Map<string, boolean>();
  for (const to of contacts()) {
    if (seen.size >= 3) break;
    if (seen.has(to)) continue;
    seen.set(to, true);
    sendEmail(to, "x");
  }
}` },
  { name: "after the loop: the size is the number of distinct keys", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const rs = rows();
  const totals = new Map<string, number>();
  for (const r of rs) totals.set(r.to, r.amount);
  if (totals.size > rs.length) sendEmail("a", "more keys than rows");
}` },
  { name: "after the loop: has is exact", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const rs = rows();
  const totals = new Map<string, number>();
  for (const r of rs) totals.set(r.to, r.amount);
  if (totals.has(a) !== rs.some((r) => r.to === a)) sendEmail("a", "wrong key");
}` },
  { name: "after the loop: get is undefined exactly where the key is not there", verdict: "violated", line: 8, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const totals = new Map<string, number>();
  for (const r of rows()) totals.set(r.to, r.amount);
  const t = totals.get(a);
  if (t !== undefined) sendEmail(a, "found");
}` },
  { name: "every key is some row's", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const rs = rows();
  const last = new Map<string, number>();
  for (const r of rs) last.set(r.to, r.amount);
  for (const k of last.keys()) if (!rs.some((r) => r.to === k)) sendEmail("a", "stranger");
}` },
  { name: "adversarial: the first key is not the last row's", verdict: "violated", line: 9, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const rs = rows();
  const last = new Map<string, number>();
  for (const r of rs) last.set(r.to, r.amount);
  const first = [...last.keys()][0];
  if (rs.length > 0 && first !== rs[rs.length - 1]!.to) sendEmail("a", "order");
}` },
  { name: "top three by total: sorted entries by a[1], sliced", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3), m.nobodyTwice()];
export function main(): void {
  const totals = new Map<string, number>();
  for (const r of rows()) totals.set(r.to, (totals.get(r.to) ?? 0) + r.amount);
  const top = [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
  for (const [to] of top) sendEmail(to, "top");
}` },
  { name: "adversarial: ties at the cutoff give more than three", verdict: "violated", line: 9, match: /Found among runs whose arrays have at most 4/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const totals = new Map<string, number>();
  for (const r of rows()) totals.set(r.to, (totals.get(r.to) ?? 0) + r.amount);
  const sorted = [...totals.entries()].sort((a, b) => b[1] - a[1]);
  const cutoff = sorted[2]?.[1] ?? 0;
  for (const [to, total] of sorted) if (total >= cutoff) sendEmail(to, "top");
}` },
  { name: "the value's own calls still happen", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
function note(to: string): number {
  sendEmail(to, "noted");
  return 1;
}
export function main(): void {
  const m2 = new Map<string, number>();
  for (const to of contacts()) m2.set(to, note(to));
}` },
  { name: "grouping with get ?? [], push, set: one email per key", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const byTo = new Map<string, number[]>();
  for (const r of rows()) {
    const list = byTo.get(r.to) ?? [];
    list.push(r.amount);
    byTo.set(r.to, list);
  }
  for (const [to, amounts] of byTo) sendEmail(to, amounts.join(", "));
}` },
  { name: "adversarial: grouping, then one email per grouped element", verdict: "violated", line: 10, body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const byTo = new Map<string, string[]>();
  for (const r of rows()) {
    if (!byTo.has(r.to)) byTo.set(r.to, []);
    byTo.get(r.to)!.push(String(r.amount));
  }
  for (const [to, subjects] of byTo) for (const subject of subjects) sendEmail(to, subject);
}` },
  { name: "grouping by a spread copy: one email per key", verdict: "proved", body: `export const guarantees = [m.nobodyTwice(), m.emailsAtMost(5)];
export function main(): void {
  const byTo = new Map<string, string[]>();
  for (const r of rows()) byTo.set(r.to, [...(byTo.get(r.to) ?? []), String(r.amount)]);
  const top = [...byTo.entries()].slice(0, 5);
  for (const [to, subjects] of top) sendEmail(to, subjects.length + " payments");
}` },
  { name: "what is pushed into a group is still evaluated", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
function note(to: string): string {
  sendEmail(to, "noted");
  return to;
}
export function main(): void {
  const byTo = new Map<string, string[]>();
  for (const to of contacts()) {
    if (!byTo.has(to)) byTo.set(to, []);
    byTo.get(to)!.push(note(to));
  }
}` },
  { name: "refused: number keys", verdict: "refused", match: /string keys only/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const byAmount = new Map<number, string>();
  for (const r of rows()) byAmount.set(r.amount, r.to);
  for (const [, to] of byAmount) sendEmail(to, "x");
}` },
  { name: "refused: records with an array inside as values", verdict: "refused", match: /values are modelled for strings, numbers, booleans/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const byTo = new Map<string, { ids: string[] }>();
  for (const r of rows()) byTo.set(r.to, { ids: [String(r.amount)] });
  for (const [to, v] of byTo) sendEmail(to, v.ids.join(","));
}` },
  { name: "refused: two sets in one iteration", verdict: "refused", match: /more than one element/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const seen = new Map<string, number>();
  for (const r of rows()) {
    seen.set(r.to, 1);
    seen.set(r.to + "!", 2);
  }
  for (const [to] of seen) sendEmail(to, "x");
}` },
  { name: "refused: a set after the loop", verdict: "refused", match: /not tracked after the loop/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const seen = new Map<string, number>();
  for (const r of rows()) seen.set(r.to, 1);
  seen.set("x", 2);
  for (const [to] of seen) sendEmail(to, "x");
}` },
  { name: "refused: a Map that is not empty when the loop starts", verdict: "refused", match: /not empty when the loop starts/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const seen = new Map<string, number>();
  seen.set("boss", 0);
  for (const r of rows()) seen.set(r.to, 1);
  for (const [to] of seen) sendEmail(to, "x");
}` },
  { name: "refused: a delete in the loop", verdict: "refused", match: /is read inside the loop/, body: `export const guarantees = [m.nothing()];
export function main(): void {
  const seen = new Map<string, number>();
  for (const r of rows()) {
    seen.set(r.to, 1);
    if (r.amount < 0) seen.delete(r.to);
  }
  for (const [to] of seen) sendEmail(to, "x");
}` },
  { name: "optional element access: sorted[0]?.[1] of a literal Map's entries", verdict: "violated", line: 8, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const totals = new Map<string, number>([["a", 3], ["b", 5]]);
  const sorted = [...totals.entries()].sort((x, y) => y[1] - x[1]);
  const best = sorted[0]?.[1] ?? 0;
  if (best === 5) sendEmail("a", "best");
}` },
];

describe("a Map a loop over an array of unknown length builds", () => proveCases(cases));
