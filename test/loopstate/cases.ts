/**
 * Programs with loop-carried state and their expected verdicts, decided from JavaScript's semantics
 * (shared by the prover tests and the replay of their counterexamples).
 */
export interface LoopCase {
  readonly name: string;
  readonly verdict: "proved" | "violated" | "refused";
  /** A line (file line: body line + 3) that a result that is not proved points at. */
  readonly line?: number;
  readonly match?: RegExp;
  readonly body: string;
}

const budget = (check: string, update = "total += inv.amount;", limit = 2000) => `export const guarantees = [m.spendAtMost(${limit})];
export async function main(): Promise<void> {
  let total = 0;
  for (const inv of await openInvoices()) {
    if (${check}) { pay(inv.payee, inv.amount); ${update} }
  }
}`;

const counter = (check: string, update = "sent++;", limit = 2) => `export const guarantees = [m.emailsAtMost(${limit})];
export function main(to: string[]): void {
  let sent = 0;
  for (const t of to) {
    if (${check}) { sendEmail(t, "news"); ${update} }
  }
}`;

const found = (check: string, update = "done = true;") => `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  let done = false;
  for (const c of contacts()) {
    if (${check}) { sendEmail(c, "offer"); ${update} }
  }
}`;

/** A counter beside text parsing in the body (`split`, `trim`, `parseFloat`, `Math.round`): the invariant holds whatever the texts and floats are. */
const parsed = (limit: number, check = `n >= ${limit}`) => `export const guarantees = [m.emailsAtMost(${limit})];
export function main(lines: string[]): void {
  let n = 0;
  for (const line of lines) {
    if (${check}) break;
    const [who, amount] = line.split("=").map((s) => s.trim());
    if (!who || !amount) continue;
    const cents = Math.round(Number.parseFloat(amount) * 100);
    if (!Number.isFinite(cents) || cents < 100) continue;
    sendEmail(who, "offer");
    n++;
  }
}`;

export const LOOP_CASES: readonly LoopCase[] = [
  // ── a counter beside parsing: the invariant checks' skeletons (loop-invariants.ts) ──
  { name: "parsing: at most three offers, counted beside `split`, `trim`, `parseFloat` and `Math.round`", verdict: "proved", body: parsed(3) },
  // ── the budget loop ──
  { name: "budget: pay while the total stays within the limit", verdict: "proved", body: budget("total + inv.amount <= 2000") },
  { name: "budget: the check against 2001 (off by one)", verdict: "violated", match: /spendAtMost/, body: budget("total + inv.amount <= 2001") },
  { name: "budget: `<` is stricter, still within the limit", verdict: "proved", body: budget("total + inv.amount < 2000") },
  { name: "budget: the total is never updated", verdict: "violated", body: budget("total + inv.amount <= 2000", "") },
  { name: "budget: the total grows by the wrong amount (1 per payment)", verdict: "violated", body: budget("total + inv.amount <= 2000", "total += 1;") },
  { name: "budget: the check reads the total before this invoice is added", verdict: "violated", body: budget("total <= 2000") },
  { name: "budget: the total is updated before the check (every amount is positive)", verdict: "proved", body: `export const guarantees = [m.spendAtMost(2000)];
export async function main(): Promise<void> {
  let total = 0;
  for (const inv of await openInvoices()) {
    total += inv.amount;
    if (total <= 2000) pay(inv.payee, inv.amount);
  }
}` },
  { name: "budget: break when the next invoice would pass the limit", verdict: "proved", body: `export const guarantees = [m.spendAtMost(2000)];
export async function main(): Promise<void> {
  let total = 0;
  for (const inv of await openInvoices()) {
    if (total + inv.amount > 2000) break;
    pay(inv.payee, inv.amount);
    total += inv.amount;
  }
}` },
  { name: "budget: break after the payment that passes the limit", verdict: "violated", body: `export const guarantees = [m.spendAtMost(2000)];
export async function main(): Promise<void> {
  let total = 0;
  for (const inv of await openInvoices()) {
    pay(inv.payee, inv.amount);
    total += inv.amount;
    if (total >= 2000) break;
  }
}` },
  // ── counters ──
  { name: "counter: at most two emails", verdict: "proved", body: counter("sent < 2") },
  { name: "counter: `sent <= 2` sends three", verdict: "violated", line: 8, body: counter("sent <= 2") },
  { name: "counter: the counter is never incremented", verdict: "violated", line: 8, body: counter("sent < 2", "") },
  { name: "counter: counting down from a literal", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(to: string[]): void {
  let left = 3;
  for (const t of to) {
    if (left > 0 && t.endsWith("@corp")) { sendEmail(t, "news"); left -= 1; }
  }
}` },
  { name: "counter: break once the count is reached", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  let sent = 0;
  for (const t of to) {
    sendEmail(t, "news");
    sent++;
    if (sent >= 2) break;
  }
}` },
  { name: "counter: a labelled break of the loop itself stops it (adv37 C3)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  let sent = 0;
  outer: for (const t of to) {
    sendEmail(t, "news");
    sent++;
    if (sent >= 2) break outer;
  }
}` },
  { name: "adversarial: after a labelled break no later iteration runs, so a throw only they reach does not hide the code after the loop", verdict: "violated", line: 12, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  let n = 0;
  outer: for (const t of to) {
    n++;
    if (t === "stop") break outer;
    if (t === "" && to[0] === "stop") throw new Error("unreachable");
  }
  if (to[0] === "stop" && to.length > 1 && to[1] === "") sendEmail("ceo@corp", "stopped");
}` },
  { name: "counter: break one too late", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  let sent = 0;
  for (const t of to) {
    sendEmail(t, "news");
    sent++;
    if (sent > 2) break;
  }
}` },
  // ── found flags ──
  { name: "found flag: at most one offer", verdict: "proved", body: found("!done && c.endsWith(\"@corp\")") },
  { name: "found flag: the flag is never set", verdict: "violated", body: found("!done && c.endsWith(\"@corp\")", "") },
  { name: "found flag: the flag is reset instead of set", verdict: "violated", body: found("!done && c.endsWith(\"@corp\")", "done = false;") },
  { name: "found flag: `break` after the first match", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  for (const c of contacts()) {
    if (c.endsWith("@corp")) { sendEmail(c, "offer"); break; }
  }
}` },
  { name: "found flag: `continue` where `break` was meant", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  for (const c of contacts()) {
    if (c.endsWith("@corp")) { sendEmail(c, "offer"); continue; }
  }
}` },
  // ── the state after the loop ──
  { name: "after the loop: the total is within the limit", verdict: "proved", body: `export const guarantees = [m.neverEmail("cfo@corp")];
export async function main(): Promise<void> {
  let total = 0;
  for (const inv of await openInvoices()) {
    if (total + inv.amount <= 2000) { pay(inv.payee, inv.amount); total += inv.amount; }
  }
  if (total > 2000) sendEmail("cfo@corp", "over budget");
}` },
  { name: "after the loop: the total can reach the limit", verdict: "violated", line: 10, body: `export const guarantees = [m.neverEmail("cfo@corp")];
export async function main(): Promise<void> {
  let total = 0;
  for (const inv of await openInvoices()) {
    if (total + inv.amount <= 2000) { pay(inv.payee, inv.amount); total += inv.amount; }
  }
  if (total >= 2000) sendEmail("cfo@corp", "budget used");
}` },
  { name: "precondition: the remainder paid is positive", verdict: "proved", body: `export const guarantees = [m.spendAtMost(2000)];
export async function main(): Promise<void> {
  let total = 0;
  for (const inv of await openInvoices()) {
    if (total + inv.amount <= 2000) { pay(inv.payee, inv.amount); total += inv.amount; }
    else if (total < 2000) { pay(inv.payee, 2000 - total); total = 2000; }
  }
}` },
  { name: "precondition: the remainder may be zero", verdict: "violated", line: 9, match: /amount must be positive/, body: `export const guarantees = [m.spendAtMost(2000)];
export async function main(): Promise<void> {
  let total = 0;
  for (const inv of await openInvoices()) {
    if (total + inv.amount <= 2000) { pay(inv.payee, inv.amount); total += inv.amount; }
    else if (total <= 2000) { pay(inv.payee, 2000 - total); total = 2000; }
  }
}` },
  { name: "a count that skips some sends: breaking emailsAtMost(5) takes six elements (the search goes to six)", verdict: "violated", line: 9, match: /at most 6 elements/, body: `export const guarantees = [m.emailsAtMost(5)];
export function main(): void {
  let sent = 0;
  for (const c of contacts()) {
    if (sent >= 5) break;
    sendEmail(c, "welcome");
    if (c.endsWith("@gold")) sent++;
  }
}` },
  { name: "control: the same count over every send holds", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(5)];
export function main(): void {
  let sent = 0;
  for (const c of contacts()) {
    if (sent >= 5) break;
    sendEmail(c, "welcome");
    sent++;
  }
}` },
  // ── refused: what no invariant settles ──
  { name: "refused: a total of amounts that may be fractions", verdict: "refused", line: 8, match: /exact integer/, body: `export const guarantees = [m.spendAtMost(2000)];
export function main(): void {
  let total = 0;
  for (const inv of roughInvoices()) {
    if (total + inv.amount <= 2000) { pay(inv.payee, inv.amount); total += inv.amount; }
  }
}` },
  // Its benign twin is the case above (the amount paid as it is: refused, nothing found among short runs).
  { name: "a total of fractions is refused, but a payment it guards may fail its precondition: found among short runs (0.25 pays -0.25)", verdict: "violated", line: 8, match: /amount must be positive/, body: `export const guarantees = [m.spendAtMost(2000)];
export function main(): void {
  let total = 0;
  for (const inv of roughInvoices()) {
    if (total + inv.amount <= 2000) { pay(inv.payee, inv.amount - 0.5); total += inv.amount; }
  }
}` },
  { name: "an update by a number nobody bounds: a negative score sends a third", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  let points = 0;
  for (const t of to) {
    if (points < 2) { sendEmail(t, "news"); points += score(t); }
  }
}` },
  { name: "refused: an update by a number nobody bounds", verdict: "refused", line: 8, match: /exact integer/, body: `export const guarantees = [m.emailsAtMost(9)];
export function main(to: string[]): void {
  let points = 0;
  for (const t of to) {
    if (points < 2) { sendEmail(t, "news"); points += score(t); }
  }
}` },
  { name: "refused: a second loop starts from the first loop's count", verdict: "refused", line: 11, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[], cc: string[]): void {
  let sent = 0;
  for (const t of to) {
    if (sent < 1) { sendEmail(t, "news"); sent++; }
  }
  for (const t of cc) {
    if (sent < 2) { sendEmail(t, "news"); sent++; }
  }
}` },
  { name: "a second loop reusing the count sends too many", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[], cc: string[]): void {
  let sent = 0;
  for (const t of to) {
    if (sent < 2) { sendEmail(t, "news"); sent++; }
  }
  for (const t of cc) {
    if (sent < 3) { sendEmail(t, "news"); sent++; }
  }
}` },
  { name: "refused: a string computed from the element carried across iterations (not the element itself, test/loopstate/picked.test.ts)", verdict: "refused", line: 8, match: /only integer and boolean/, body: `export const guarantees = [m.emailsAtMost(9)];
export function main(to: string[]): void {
  let last = "";
  for (const t of to) {
    if (t !== last) { sendEmail(t, "news"); last = t.trim(); }
  }
}` },
  { name: "refused: a doubling counter (no bound for every length)", verdict: "refused", line: 8, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  let n = 1;
  for (const t of to) {
    if (n < 4) sendEmail(t, "news"); n = n * 2;
  }
}` },
  { name: "refused: carried state inside a try", verdict: "refused", line: 9, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[]): void {
  let sent = 0;
  try {
    for (const t of to) {
      if (sent < 2) { sendEmail(t, "news"); sent++; }
    }
  } catch { log("failed"); }
}` },
  { name: "adversarial: a carried integer that becomes -0 (0 * -1) is told apart by 1 / x (odd lengths)", verdict: "violated", line: 10, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  let sign = 0;
  for (const t of to) {
    sign = sign * -1;
  }
  if (1 / sign < 0) sendEmail("ceo@corp", "negative zero");
}` },
  { name: "adversarial: a flag set before the check it guards", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  let done = false;
  for (const c of contacts()) {
    done = c.endsWith("@corp");
    if (done) sendEmail(c, "offer");
  }
}` },
  { name: "adversarial: a call in a loop nested in the counting loop happens many times per iteration", verdict: "violated", body: `export const guarantees = [m.emailsAtMost(2)];
export function main(to: string[], cc: string[]): void {
  let sent = 0;
  for (const t of to) {
    if (sent < 2) { for (const c of cc) sendEmail(c, t); sent++; }
  }
}` },
  // ── benign controls ──
  { name: "control: a counter beside a guarantee it does not affect", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  let sent = 0;
  for (const t of to) {
    if (t !== "ceo@corp" && sent < 10) { sendEmail(t, "news"); sent++; }
  }
}` },
  { name: "control: a lower bound is not met on an empty list", verdict: "violated", body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(to: string[]): void {
  let sent = 0;
  for (const t of to) {
    if (sent < 2) { sendEmail(t, "news"); sent++; }
  }
}` },
  { name: "control: a loop without carried state is proved as before", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string[]): void {
  for (const t of to) if (t !== "ceo@corp") sendEmail(t, "news");
}` },
];

/**
 * Twins of the parsing counter that break their guarantee: violated in JavaScript (two lines that
 * parse), which the search among short runs may or may not find within the budget (two parsed
 * lines, each through `split`, `trim` and `parseFloat`), so the test asks only that they are never
 * proved: the skeleton's models drop invariant candidates, they never add one.
 */
export const LOOP_NOT_PROVED: readonly { readonly name: string; readonly body: string }[] = [
  { name: "parsing: the same loop stops at two, the guarantee says one", body: parsed(1, "n >= 2") },
  { name: "parsing: the counter is checked before it can reach the limit (`n > 1`)", body: parsed(1, "n > 1") },
  { name: "parsing: the counter is never incremented", body: parsed(1).replace("    n++;\n", "") },
];
