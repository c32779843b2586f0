/**
 * Arrays as the values of a Map the program builds (core/prover/exec/map-arrays.ts): grouping with
 * `m.get(k)!.push(x)` after `if (!m.has(k)) m.set(k, [])`, `m.get(k)?.push(x)`, and `const list =
 * m.get(k) ?? []; list.push(x); m.set(k, list);`. The model copies values, so every case where
 * another reference to a stored array is live when it changes is refused. Verdicts decided from
 * JavaScript's semantics before running the prover; IMPORTS are prepended (body line 1 is file line 3).
 */
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const TICKETS = `const tickets = [{ who: a, id: "t1" }, { who: b, id: "t2" }, { who: c, id: "t3" }];`;

const cases: ProveCase[] = [
  { name: "group with has/set then get!.push: one email per requester", verdict: "proved", body: `export const guarantees = [m.nobodyTwice(), m.emailsAtMost(3)];
export function main(a: string, b: string, c: string): void {
  ${TICKETS}
  const byWho = new Map<string, string[]>();
  for (const t of tickets) {
    if (!byWho.has(t.who)) byWho.set(t.who, []);
    byWho.get(t.who)!.push(t.id);
  }
  for (const [who, ids] of byWho) sendEmail(who, ids.join(", "));
}` },
  { name: "adversarial: an email per ticket of a group reaches a requester twice", verdict: "violated", line: 11, match: /a="[^"]*", b="[^"]*"/, body: `export const guarantees = [m.nobodyTwice()];
export function main(a: string, b: string, c: string): void {
  ${TICKETS}
  const byWho = new Map<string, string[]>();
  for (const t of tickets) {
    if (!byWho.has(t.who)) byWho.set(t.who, []);
    byWho.get(t.who)!.push(t.id);
  }
  for (const [who, ids] of byWho) for (const id of ids) sendEmail(who, id);
}` },
  { name: "get ?? [], push, set back: a group's size is its tickets", verdict: "violated", line: 12, match: /SendEmail\(to="[^"]*", subject="t1, t2/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string, b: string, c: string): void {
  ${TICKETS}
  const byWho = new Map<string, string[]>();
  for (const t of tickets) {
    const list = byWho.get(t.who) ?? [];
    list.push(t.id);
    byWho.set(t.who, list);
  }
  for (const [who, ids] of byWho) if (ids.length >= 2) sendEmail(who, ids.join(", "));
}` },
  { name: "control: no group holds more tickets than there are", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string, b: string, c: string): void {
  ${TICKETS}
  const byWho = new Map<string, string[]>();
  for (const t of tickets) {
    const list = byWho.get(t.who) ?? [];
    list.push(t.id);
    byWho.set(t.who, list);
  }
  let total = 0;
  for (const [, ids] of byWho) total += ids.length;
  if (total !== 3) sendEmail("a", "lost a ticket");
}` },
  { name: "get?.push where nothing was set stores nothing", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string, b: string, c: string): void {
  ${TICKETS}
  const byWho = new Map<string, string[]>();
  for (const t of tickets) byWho.get(t.who)?.push(t.id);
  for (const [who] of byWho) sendEmail(who, "x");
}` },
  { name: "adversarial: get! of a key that may not be set throws", verdict: "violated", line: 7, match: /undefined/, body: `export const guarantees = [m.nothing()];
export function main(a: string): void {
  const byWho = new Map<string, string[]>();
  byWho.set("x", []);
  byWho.get(a)!.push("y");
}` },
  { name: "adversarial: a snapshot taken before the push sees it (refused)", verdict: "refused", line: 8, match: /modelled as copies/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const byWho = new Map<string, string[]>();
  byWho.set(a, []);
  const snap = byWho.get(a)!;
  byWho.get(a)!.push("x");
  if (snap.length === 1) sendEmail("a", "aliased");
}` },
  { name: "adversarial: a list used after it is stored back reaches the Map (refused)", verdict: "refused", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const byWho = new Map<string, string[]>();
  const list = byWho.get(a) ?? [];
  list.push("x");
  byWho.set(a, list);
  list.push("y");
  if (byWho.get(a)!.length === 2) sendEmail("a", "aliased");
}` },
  { name: "the list read on the spot after it is stored back: a digest per ticket, growing", verdict: "violated", line: 11, match: /a="[^"]*", b="[^"]*"/, body: `export const guarantees = [m.nobodyTwice()];
export function main(a: string, b: string, c: string): void {
  ${TICKETS}
  const byWho = new Map<string, string[]>();
  for (const t of tickets) {
    const list = byWho.get(t.who) ?? [];
    list.push(t.id);
    byWho.set(t.who, list);
    sendEmail(t.who, \`\${list.length}: \${list.join(", ")}\`);
  }
}` },
  { name: "control: the list read after the store holds what the Map holds", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string, b: string, c: string): void {
  ${TICKETS}
  const byWho = new Map<string, string[]>();
  for (const t of tickets) {
    const list = byWho.get(t.who) ?? [];
    list.push(t.id);
    byWho.set(t.who, list);
    if (list.length !== byWho.get(t.who)!.length) sendEmail("a", "copy");
  }
}` },
  { name: "adversarial: the list read after another push into the same Map (refused)", verdict: "refused", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const byWho = new Map<string, string[]>();
  const list = byWho.get(a) ?? [];
  list.push("x");
  byWho.set(a, list);
  byWho.get(a)!.push("y");
  if (list.length === 2) sendEmail("a", "aliased");
}` },
  { name: "adversarial: two pushes between the read and the store (refused)", verdict: "refused", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const byWho = new Map<string, string[]>();
  const list = byWho.get(a) ?? [];
  list.push("x");
  list.push("y");
  byWho.set(a, list);
}` },
  { name: "adversarial: a named array stored, then pushed to, reaches the Map (refused)", verdict: "refused", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const byWho = new Map<string, string[]>();
  const xs: string[] = [];
  byWho.set(a, xs);
  xs.push("x");
  if (byWho.get(a)!.length === 1) sendEmail("a", "aliased");
}` },
  { name: "adversarial: pushing while a for…of over the Map holds its arrays (refused)", verdict: "refused", line: 8, match: /modelled as copies/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const byWho = new Map<string, string[]>();
  byWho.set(a, ["x"]);
  for (const [k, v] of byWho) {
    byWho.get(k)!.push("y");
    if (v.length === 2) sendEmail("a", "aliased");
  }
}` },
  { name: "adversarial: arrays spread out of the Map before a push (refused)", verdict: "refused", line: 8, match: /modelled as copies/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const byWho = new Map<string, string[]>();
  byWho.set(a, []);
  const all = [...byWho.values()];
  byWho.get(a)!.push("x");
  if (all[0]!.length === 1) sendEmail("a", "aliased");
}` },
  { name: "control: reads on the spot before a push keep nothing", verdict: "violated", line: 9, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const byWho = new Map<string, string[]>();
  byWho.set(a, []);
  const before = byWho.get(a)?.length ?? 0;
  byWho.get(a)!.push("x");
  if (before === 0 && byWho.get(a)!.length === 1) sendEmail("a", "exact");
}` },
  { name: "adversarial: a push whose argument reads the Map (refused)", verdict: "refused", line: 7, match: /arguments read/, body: `export const guarantees = [m.nothing()];
export function main(a: string): void {
  const byWho = new Map<string, string[]>();
  byWho.set(a, []);
  byWho.get(a)!.push(String(byWho.size));
}` },
];

describe("arrays as the values of a Map", () => proveCases(cases));
