/**
 * Sorted copies of arrays (inplace.ts `callSortedCopy`): `xs.slice().sort(cmp)`, `[...xs].sort(cmp)`
 * and `Array.from(xs).sort(cmp)` of a literal array or of a tool result an `ensures` bounds, with
 * the comparators whose order is a total preorder (`a.amount - b.amount` on integers, the string
 * comparison), as the stable order JavaScript gives; `sort` of a new array a method returned
 * (`xs.filter(…).sort(…)`); and `reduce` without an initial value. Each adversarial case has a
 * benign twin.
 * IMPORTS and the layer's import are prepended: body line 1 is file line 4.
 */
import { prove, proveCases, type ProveCase } from "../prover/prove-helpers";

const LAYER = `import { trusted, ensures } from "clauz3";

export interface Invoice { readonly payee: string; readonly amount: number }

/** At most four invoices, integral amounts in (0, 1000]. */
export const fourInvoices = trusted(
  ensures((r: Invoice[]) => r.length <= 4),
  ensures((r: Invoice[]) => r.every((inv) => Number.isInteger(inv.amount) && inv.amount > 0 && inv.amount <= 1000)),
  function fourInvoices(): Invoice[] { return []; },
);
/** Any number of invoices with integral amounts. */
export const manyInvoices = trusted(
  ensures((r: Invoice[]) => r.every((inv) => Number.isInteger(inv.amount) && inv.amount > 0 && inv.amount <= 1000)),
  function manyInvoices(): Invoice[] { return []; },
);
export interface Offer { readonly payee: string; readonly amount: number; readonly stops: number }
/** At most four offers, integral amounts in (0, 1000] and stops from 0 to 3. */
export const offers = trusted(
  ensures((r: Offer[]) => r.length <= 4),
  ensures((r: Offer[]) => r.every((o) => Number.isInteger(o.amount) && o.amount > 0 && o.amount <= 1000 && Number.isInteger(o.stops) && o.stops >= 0 && o.stops <= 3)),
  function offers(): Offer[] { return []; },
);
/** At most four offers whose numbers may be anything. */
export const looseOffers = trusted(ensures((r: Offer[]) => r.length <= 4), function looseOffers(): Offer[] { return []; });
/** At most four invoices whose amounts may be anything (NaN too). */
export const looseInvoices = trusted(ensures((r: Invoice[]) => r.length <= 4), function looseInvoices(): Invoice[] { return []; });
`;
const run = (body: string) => prove(`import { fourInvoices, manyInvoices, looseInvoices, offers, looseOffers } from "./tools/inv/trusted/layer";\n` + body, { "tools/inv/trusted/layer.ts": LAYER });

const BUDGET = (cmp: string, copy: (xs: string) => string = (xs) => `${xs}.slice()`) => `export const guarantees = [m.neverEmail("ceo@corp"), m.spendAtMost(500)];
export function main(): void {
  const invs = fourInvoices();
  const sorted = ${copy("invs")}.sort(${cmp});
  let spent = 0;
  for (const inv of sorted) {
    if (spent + inv.amount > 500) break;
    pay(inv.payee, inv.amount);
    spent += inv.amount;
  }
  if (spent === 0 && invs.some((inv) => inv.amount <= 500)) sendEmail("ceo@corp", "nothing paid");
}`;

const cases: ProveCase[] = [
  { name: "smallest first under a budget with break: something is paid whenever one invoice fits", verdict: "proved", body: BUDGET("(a, b) => a.amount - b.amount") },
  { name: "the same with [...invs]", verdict: "proved", body: BUDGET("(a, b) => a.amount - b.amount", (xs) => `[...${xs}]`) },
  { name: "the same with Array.from(invs) and a block comparator", verdict: "proved", body: BUDGET("(a, b) => { return a.amount - b.amount; }", (xs) => `Array.from(${xs})`) },
  { name: "adversarial: largest first breaks at once when the largest does not fit", verdict: "violated", match: /SendEmail|ceo@corp/, body: BUDGET("(a, b) => b.amount - a.amount") },
  { name: "adversarial: no sort at all breaks at once when the first does not fit", verdict: "violated", body: BUDGET("(a, b) => 0 * (a.amount - b.amount)").replace(".sort((a, b) => 0 * (a.amount - b.amount))", "") },
  { name: "the sorted copy is ascending", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const s = fourInvoices().slice().sort((a, b) => a.amount - b.amount);
  for (let i = 0; i + 1 < 4; i++) { const x = s[i], y = s[i + 1]; if (x !== undefined && y !== undefined && x.amount > y.amount) sendEmail("ceo@corp", "x"); }
}` },
  { name: "adversarial: the copy sorted descending is not ascending", verdict: "violated", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const s = fourInvoices().slice().sort((a, b) => b.amount - a.amount);
  for (let i = 0; i + 1 < 4; i++) { const x = s[i], y = s[i + 1]; if (x !== undefined && y !== undefined && x.amount > y.amount) sendEmail("ceo@corp", "x"); }
}` },
  { name: "the copy keeps the length", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const invs = fourInvoices();
  const s = [...invs].sort((a, b) => a.amount - b.amount);
  if (s.length !== invs.length) sendEmail("ceo@corp", "x");
}` },
  { name: "stable: of two equal amounts the earlier stays first", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const invs = fourInvoices();
  const s = invs.slice().sort((a, b) => a.amount - b.amount);
  const x = invs[0], y = invs[1], f = s[0];
  if (invs.length === 2 && x !== undefined && y !== undefined && f !== undefined && x.amount === y.amount && f.payee !== x.payee) sendEmail("ceo@corp", "x");
}` },
  { name: "stable: of two equal amounts the later is never first", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const invs = fourInvoices();
  const s = invs.slice().sort((a, b) => a.amount - b.amount);
  const x = invs[0], y = invs[1], f = s[0];
  if (invs.length === 2 && x !== undefined && y !== undefined && f !== undefined && x.amount === y.amount && f.payee === y.payee && x.payee !== y.payee) sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: of two different amounts the smaller is first, wherever it was", verdict: "violated", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const invs = fourInvoices();
  const s = invs.slice().sort((a, b) => a.amount - b.amount);
  const x = invs[0], y = invs[1], f = s[0];
  if (invs.length === 2 && x !== undefined && y !== undefined && f !== undefined && x.amount > y.amount && f.payee === y.payee && x.payee !== y.payee) sendEmail("ceo@corp", "x");
}` },
  { name: "the original is not changed by sorting a copy", verdict: "violated", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const invs = fourInvoices();
  const s = invs.slice().sort((a, b) => a.amount - b.amount);
  const x = invs[0], y = invs[1];
  if (s.length > 0 && x !== undefined && y !== undefined && x.amount > y.amount) sendEmail("ceo@corp", "x");
}` },
  { name: "strings: a sorted copy of a bounded list is ascending", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const s = fewContacts().slice().sort();
  if (s[0] === "b" && s[1] === "a") sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: strings sorted descending by the comparison", verdict: "violated", line: 7, match: /SendEmail\(to="c"/, body: `export const guarantees = [m.neverEmail("c")];
export function main(): void {
  const s = [...["a", "c", "b"]].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  const first = s[0]; if (first !== undefined) sendEmail(first, "x");
}` },
  { name: "a literal array's sorted copy", verdict: "violated", line: 7, match: /SendEmail\(to="c"/, body: `export const guarantees = [m.neverEmail("c")];
export function main(): void {
  const s = ["b", "c", "a"].slice().sort();
  const last = s[2]; if (last !== undefined) sendEmail(last, "x");
}` },
  // Amounts that may be NaN: where one is, the engine's order is its own, so the sorted copy is
  // some permutation of the invoices (inplace.ts `anyPermutation`); violations are confirmed by
  // a run without NaN.
  { name: "amounts that may be NaN: the sorted copy still holds each invoice once", verdict: "proved", body: `export const guarantees = [m.spendAtMost(4)];
export function main(): void {
  const s = looseInvoices().slice().sort((a, b) => a.amount - b.amount);
  for (const inv of s) pay(inv.payee, 1);
}` },
  { name: "adversarial: amounts that may be NaN, the cheapest paid: a run without NaN breaks the cap", verdict: "violated", line: 7, body: `export const guarantees = [m.noPaymentOver(100)];
export function main(): void {
  const [first] = looseInvoices().slice().sort((a, b) => a.amount - b.amount);
  if (first !== undefined && first.amount > 0) pay(first.payee, first.amount);
}` },
  { name: "adversarial: a guarantee only a NaN amount breaks is refused, never proved", verdict: "refused", match: /NaN/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const [first] = looseInvoices().slice().sort((a, b) => a.amount - b.amount);
  if (first !== undefined && Number.isNaN(first.amount)) sendEmail("a", "x");
}` },
  // `(a, b) => (a < b ? -1 : 1)` never returns 0: a strict order where the keys are distinct, the
  // engine's own where two are equal (inplace.ts `distinctOnly`, `anyPermutation`).
  { name: "two-way comparator: distinct literal strings in ascending order", verdict: "violated", line: 7, match: /SendEmail\(to="c"/, body: `export const guarantees = [m.neverEmail("c")];
export function main(): void {
  const s = ["b", "c", "a"].slice().sort((a, b) => (a < b ? -1 : 1));
  const last = s[2]; if (last !== undefined) sendEmail(last, "x");
}` },
  { name: "two-way comparator with `>=`: descending, the first is the largest", verdict: "violated", line: 7, match: /SendEmail\(to="c"/, body: `export const guarantees = [m.neverEmail("c")];
export function main(): void {
  const s = ["b", "c", "a"].slice().sort((a, b) => (a >= b ? -1 : 1));
  const first = s[0]; if (first !== undefined) sendEmail(first, "x");
}` },
  { name: "two-way comparator: of distinct keys the smallest is first, proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("b")];
export function main(): void {
  const s = ["b", "c", "a"].slice().sort((p, q) => (q < p ? 1 : -1));
  const first = s[0]; if (first !== undefined) sendEmail(first, "x");
}` },
  { name: "adversarial: two equal keys under a two-way comparator: either may come first, never proved", verdict: "refused", match: /inconsistent/, body: `export const guarantees = [m.neverEmail("y")];
export function main(): void {
  const s = [{ k: "a", to: "x" }, { k: "a", to: "y" }].slice().sort((p, q) => (p.k < q.k ? -1 : 1));
  const first = s[0]; if (first !== undefined) sendEmail(first.to, "x");
}` },
  { name: "two-way comparator on amounts that may tie: each invoice still paid once", verdict: "proved", body: `export const guarantees = [m.spendAtMost(4)];
export function main(): void {
  const s = fourInvoices().slice().sort((a, b) => (a.amount < b.amount ? -1 : 1));
  for (const inv of s) pay(inv.payee, 1);
}` },
  { name: "adversarial: two-way comparator, descending: the dearest invoice is paid", verdict: "violated", line: 7, body: `export const guarantees = [m.noPaymentOver(100)];
export function main(): void {
  const [first] = fourInvoices().slice().sort((a, b) => (a.amount < b.amount ? 1 : -1));
  if (first !== undefined) pay(first.payee, first.amount);
}` },
  { name: "adversarial: two-way comparator: a guarantee only tied keys could break is refused, never proved", verdict: "refused", match: /inconsistent/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const invs = fourInvoices();
  const s = invs.slice().sort((a, b) => (a.amount < b.amount ? -1 : 1));
  const x = invs[0], y = invs[1], f = s[0];
  if (x !== undefined && y !== undefined && f !== undefined && x.amount === y.amount && x.payee !== y.payee && f.payee === y.payee) sendEmail("ceo@corp", "x");
}` },
  { name: "two-way comparator over an array of unknown length: the first is one of the invoices", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(1000)];
export function main(): void {
  const [first] = manyInvoices().slice().sort((a, b) => (a.payee < b.payee ? -1 : 1));
  if (first !== undefined) pay(first.payee, first.amount);
}` },
  { name: "refused: a comparator of another shape (mixed keys)", verdict: "refused", line: 6, match: /shape/, body: `export const guarantees = [m.spendAtMost(500)];
export function main(): void {
  const s = fourInvoices().slice().sort((a, b) => a.amount - b.payee.length);
  for (const inv of s) pay(inv.payee, 1);
}` },
  // A tool's result is the program's own copy (runtime/result-copy.ts): sorting it in place changes
  // no other result (session 45; refused before).
  { name: "sorting the tool's array itself, in place", verdict: "proved", body: `export const guarantees = [m.spendAtMost(500)];
export function main(): void {
  const invs = fourInvoices(); invs.sort((a, b) => a.amount - b.amount);
  for (const inv of invs) pay(inv.payee, 1);
}` },
  { name: "adversarial: a tool's array sorted in place descending: the first is the dearest", verdict: "violated", line: 9, body: `export const guarantees = [m.noPaymentOver(500)];
export function main(): void {
  const invs = fourInvoices();
  invs.sort((a, b) => b.amount - a.amount);
  const first = invs[0];
  if (first !== undefined) pay(first.payee, first.amount);
}` },
  { name: "sorting one call's result in place leaves another call's result as it was", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const a = fourInvoices();
  const b = fourInvoices();
  const before = b[0];
  a.sort((x, y) => x.amount - y.amount);
  const after = b[0];
  if (before !== undefined && after !== undefined && (after.amount !== before.amount || after.payee !== before.payee)) sendEmail("ceo@corp", "changed");
}` },
  { name: "a tool's result sorted where it is returned: the smallest of an array of unknown length comes first", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(1000)];
export function main(): void {
  const [first] = manyInvoices().sort((a, b) => a.amount - b.amount);
  if (first !== undefined) pay(first.payee, first.amount);
}` },
  // ── sort of a new array a method returned (`filter`, `map`, `slice(a, b)`): no name holds it ──
  { name: "the cheapest of the filtered invoices: `filter(…).sort(…)[0]` is the smallest kept amount", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(300)];
export function main(): void {
  const best = fourInvoices().filter((inv) => inv.amount <= 300).sort((a, b) => a.amount - b.amount)[0];
  if (best !== undefined) pay(best.payee, best.amount);
}` },
  { name: "adversarial: the filtered invoices sorted descending: the first may be a large one, filtered by another bound", verdict: "violated", line: 7, body: `export const guarantees = [m.noPaymentOver(300)];
export function main(): void {
  const top = fourInvoices().filter((inv) => inv.payee !== "x").sort((a, b) => b.amount - a.amount)[0];
  if (top !== undefined) pay(top.payee, top.amount);
}` },
  { name: "adversarial: sorting `filter`'s result does not reorder the invoices it came from", verdict: "violated", line: 8, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const invs = fourInvoices();
  const sorted = invs.filter((inv) => inv.amount > 0).sort((a, b) => a.amount - b.amount);
  if (invs.length === 2 && sorted[0]!.amount !== invs[0]!.amount) sendEmail("ceo@corp", "reordered");
}` },
  // ── sorted copies of arrays of unknown length: the same elements in some order (inplace.ts `anyOrder`) ──
  { name: "unknown length: the first of the sorted copy is one of the elements", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(1000)];
export function main(): void {
  const best = manyInvoices().slice().sort((a, b) => a.amount - b.amount)[0];
  if (best !== undefined) pay(best.payee, best.amount);
}` },
  { name: "adversarial: unknown length: one more than the first element's amount", verdict: "violated", line: 7, body: `export const guarantees = [m.noPaymentOver(1000)];
export function main(): void {
  const best = manyInvoices().slice().sort((a, b) => a.amount - b.amount)[0];
  if (best !== undefined) pay(best.payee, best.amount + 1);
}` },
  { name: "unknown length: `filter(…).sort(…).slice(0, 1)` pays one kept invoice", verdict: "proved", body: `export const guarantees = [m.spendAtMost(500), m.noPaymentOver(300)];
export function main(): void {
  const s = manyInvoices().filter((inv) => inv.amount <= 300).sort((a, b) => a.amount - b.amount);
  for (const inv of s.slice(0, 1)) pay(inv.payee, inv.amount);
}` },
  { name: "adversarial: unknown length: the first two of the sorted copy are two emails", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  const s = [...manyInvoices()].sort((a, b) => b.amount - a.amount);
  for (const inv of s.slice(0, 2)) sendEmail(inv.payee, "paid");
}` },
  { name: "unknown length: the sorted copy keeps the length and every payee", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const invs = manyInvoices();
  const s = [...invs].sort((a, b) => a.amount - b.amount);
  if (s.length !== invs.length) sendEmail("ceo@corp", "length");
  if (invs.some((inv) => inv.payee === "vip") && !s.some((inv) => inv.payee === "vip")) sendEmail("ceo@corp", "lost");
}` },
  { name: "unknown length: an order-dependent guarantee is not proved (the order is not stated), never wrongly", verdict: "refused", line: 4, match: /sort/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const s = manyInvoices().slice().sort((a, b) => a.amount - b.amount);
  const x = s[0], y = s[1];
  if (x !== undefined && y !== undefined && x.amount > y.amount) sendEmail("ceo@corp", "x");
}` },
  { name: "adversarial: unknown length: sorted descending, the first is larger than the second", verdict: "violated", line: 8, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const s = manyInvoices().slice().sort((a, b) => b.amount - a.amount);
  const x = s[0], y = s[1];
  if (x !== undefined && y !== undefined && x.amount > y.amount) sendEmail("ceo@corp", "x");
}` },
  { name: "refused: a sort of unknown length inside a loop over an array of unknown length", verdict: "refused", line: 7, match: /inside a loop/, body: `export const guarantees = [m.spendAtMost(500)];
export function main(): void {
  for (const inv of manyInvoices()) {
    const s = [...manyInvoices()].sort((a, b) => a.amount - b.amount);
    if (s[0] !== undefined) pay(s[0].payee, 1);
  }
}` },
  // ── sorting in place a new array a method returned, its result read on the spot ──
  { name: "in place: a filtered array of unknown length sorted, its first element read on the spot", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(300)];
export function main(): void {
  const ok = manyInvoices().filter((inv) => inv.amount <= 300);
  const best = ok.sort((a, b) => a.amount - b.amount)[0];
  if (best !== undefined) pay(best.payee, best.amount);
}` },
  { name: "adversarial: in place: sorted as a statement, then its first element plus one", verdict: "violated", line: 9, body: `export const guarantees = [m.noPaymentOver(300)];
export function main(): void {
  const ok = manyInvoices().filter((inv) => inv.amount <= 300);
  ok.sort((a, b) => a.amount - b.amount);
  const first = ok[0];
  if (first !== undefined) pay(first.payee, first.amount + 1);
}` },
  { name: "adversarial: in place on a bounded copy: sorted descending, the largest is paid", verdict: "violated", line: 8, body: `export const guarantees = [m.noPaymentOver(500)];
export function main(): void {
  const copy = fourInvoices().slice();
  const top = copy.sort((a, b) => b.amount - a.amount)[0];
  if (top !== undefined) pay(top.payee, top.amount);
}` },
  { name: "in place on a bounded copy: sorted ascending, read by index and by length", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const copy = fourInvoices().slice();
  const n = copy.sort((a, b) => a.amount - b.amount).length;
  const x = copy[0], y = copy[1];
  if (n > 1 && x !== undefined && y !== undefined && x.amount > y.amount) sendEmail("ceo@corp", "x");
}` },
  { name: "refused: in place, a filtered array another name holds", verdict: "refused", line: 7, match: /another name/, body: `export const guarantees = [m.noPaymentOver(300)];
export function main(): void {
  const ok = manyInvoices().filter((inv) => inv.amount <= 300);
  const same = ok;
  ok.sort((a, b) => a.amount - b.amount);
  if (same[0] !== undefined) pay(same[0].payee, 1);
}` },
  { name: "refused: in place, the sorted array stored under another name", verdict: "refused", line: 7, match: /another name/, body: `export const guarantees = [m.noPaymentOver(300)];
export function main(): void {
  const ok = manyInvoices().filter((inv) => inv.amount <= 300);
  const sorted = ok.sort((a, b) => a.amount - b.amount);
  if (sorted[0] !== undefined) pay(sorted[0].payee, 1);
}` },
  // ── reduce without an initial value: the first element present is the accumulator; empty throws ──
  { name: "reduce without an initial value picks the cheapest of the bounded invoices (guarded by length)", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(1000)];
export function main(): void {
  const invs = fourInvoices();
  if (invs.length === 0) return;
  const cheapest = invs.reduce((best, inv) => (inv.amount < best.amount ? inv : best));
  pay(cheapest.payee, cheapest.amount);
  if (invs.some((inv) => inv.amount < cheapest.amount)) sendEmail("ceo@corp", "not the cheapest");
}` },
  { name: "adversarial: reduce without an initial value over an array that may be empty throws a TypeError", verdict: "violated", line: 7, match: /reduce/, body: `export const guarantees = [m.noPaymentOver(1000)];
export function main(): void {
  const invs = fourInvoices();
  const cheapest = invs.reduce((best, inv) => (inv.amount < best.amount ? inv : best));
  pay(cheapest.payee, cheapest.amount);
}` },
  { name: "adversarial: the largest kept amount is paid, and the payee \"big\" is kept whatever its amount", verdict: "violated", line: 9, match: /big/, body: `export const guarantees = [m.noPaymentOver(500)];
export function main(): void {
  const invs = fourInvoices().filter((inv) => inv.amount <= 500 || inv.payee === "big");
  if (invs.length === 0) return;
  const pick = invs.reduce((a, inv) => (inv.amount > a.amount ? inv : a));
  pay(pick.payee, pick.amount);
}` },
  { name: "reduce without an initial value over numbers: the largest, with the index of the kept elements", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(1000)];
export function main(): void {
  const amounts = fourInvoices().map((inv) => inv.amount);
  if (amounts.length === 0) return;
  const most = amounts.reduce((a, x, i) => (i > 0 && x > a ? x : a));
  pay("p", most);
}` },
  // ── ties broken with `||`: `a.stops - b.stops || a.amount - b.amount` on integer keys ──
  { name: "fewest stops, then cheapest: the first offer has no fewer stops than any, and is the cheapest among those", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const os = offers();
  const best = os.slice().sort((a, b) => a.stops - b.stops || a.amount - b.amount)[0];
  if (best === undefined) return;
  if (os.some((o) => o.stops < best.stops || (o.stops === best.stops && o.amount < best.amount))) sendEmail("ceo@corp", "not the best");
}` },
  { name: "adversarial: the tie-breaker reversed: among equal stops the dearest comes first", verdict: "violated", line: 9, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const os = offers();
  const best = os.filter((o) => o.amount > 0).sort((a, b) => a.stops - b.stops || b.amount - a.amount)[0];
  if (best === undefined) return;
  if (os.some((o) => o.stops === best.stops && o.amount < best.amount)) sendEmail("ceo@corp", "not the cheapest");
}` },
  { name: "refused: ties broken with `||` on numbers that may be NaN or fractions", verdict: "refused", line: 6, match: /integer keys/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const best = looseOffers().slice().sort((a, b) => a.stops - b.stops || a.amount - b.amount)[0];
  if (best !== undefined) sendEmail(best.payee, "best");
}` },
];

describe("sorted copies of arrays", () => proveCases(cases, run));

