/**
 * Sets and Maps the program builds (core/prover/exec/collections.ts): `add`, `has`, `delete`,
 * `set`, `get`, `size`, `clear`, `for…of` in insertion order, SameValueZero keys. Each verdict was
 * decided from JavaScript's semantics before running the prover; adversarial cases have benign
 * twins. IMPORTS are prepended: body line 1 is file line 3.
 */
import { describe } from "vitest";
import { proveCases, type ProveCase } from "../prover/prove-helpers";


const SET_MAP_CASES: ProveCase[] = [
  // ── de-duplicating recipients ──
  { name: "dedupe over a literal array: two distinct recipients", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2), m.nobodyTwice()];
export function main(): void {
  const seen = new Set<string>();
  for (const c of ["a@x", "b@x", "a@x"]) if (!seen.has(c)) { seen.add(c); sendEmail(c, "hi"); }
}` },
  { name: "adversarial: a send skipped by `has` is still counted when it happens", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  const seen = new Set<string>();
  for (const c of ["a@x", "b@x", "a@x"]) if (!seen.has(c)) { seen.add(c); sendEmail(c, "hi"); }
}` },
  { name: "adversarial: dedupe of symbolic recipients may send twice to the same one only if they differ", verdict: "violated", match: /SendEmail/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(a: string, b: string): void {
  const seen = new Set<string>();
  for (const c of [a, b, a]) if (!seen.has(c)) { seen.add(c); sendEmail(c, "hi"); }
}` },
  { name: "control: dedupe of symbolic recipients never emails anyone twice", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(2), m.nobodyTwice()];
export function main(a: string, b: string): void {
  const seen = new Set<string>();
  for (const c of [a, b, a, b]) if (!seen.has(c)) { seen.add(c); sendEmail(c, "hi"); }
}` },
  { name: "dedupe of twelve symbolic recipients stays small: each slot's presence is named, not nested", verdict: "proved", body: `export const guarantees = [m.nobodyTwice(), m.emailsAtMost(12)];
export function main(a: string, b: string, c: string, d: string, e: string, f: string, g: string, h: string, i: string, j: string, k: string, l: string): void {
  const seen = new Set<string>();
  for (const x of [a, b, c, d, e, f, g, h, i, j, k, l]) { if (seen.has(x)) continue; seen.add(x); sendEmail(x, "hi"); }
}` },
  { name: "adversarial twin: twelve distinct recipients are twelve emails", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(11)];
export function main(a: string, b: string, c: string, d: string, e: string, f: string, g: string, h: string, i: string, j: string, k: string, l: string): void {
  const seen = new Set<string>();
  for (const x of [a, b, c, d, e, f, g, h, i, j, k, l]) { if (seen.has(x)) continue; seen.add(x); sendEmail(x, "hi"); }
}` },
  { name: "size counts distinct keys", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const s = new Set(["a", "b", "a"]);
  if (s.size === 2) sendEmail("x", "y");
}` },
  { name: "control: size is not the number of adds", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const s = new Set(["a", "b", "a"]);
  if (s.size === 3) sendEmail("x", "y");
}` },
  { name: "size of symbolic keys depends on their equality", verdict: "violated", match: /a=/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string, b: string): void {
  const s = new Set<string>(); s.add(a); s.add(b);
  if (s.size === 1) sendEmail("x", "y");
}` },
  { name: "SameValueZero: NaN is found, -0 and +0 are one key", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const s = new Set<number>([NaN, 0, -0]);
  if (s.has(NaN) && s.size === 2 && s.has(-0)) sendEmail("x", "y");
}` },
  { name: "control: NaN is one key however often it is added", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const s = new Set<number>([NaN, NaN, 0, -0]);
  if (s.size !== 2) sendEmail("x", "y");
}` },
  { name: "-0 is stored as +0 (1 / key is Infinity)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(z: number): void {
  const s = new Set<number>();
  if (z === 0) s.add(z);
  for (const k of s) if (1 / k < 0) sendEmail("x", "y");
}` },
  { name: "delete returns whether the key was there and removes it", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const s = new Set(["a", "b"]);
  if (s.delete("a") && !s.has("a") && !s.delete("a") && s.size === 1) sendEmail("x", "y");
}` },
  { name: "insertion order: a re-added key keeps its place; a deleted then re-added one moves to the end", verdict: "violated", line: 9, match: /to="b,c,a"/, body: `export const guarantees = [m.neverEmail("b,c,a")];
export function main(): void {
  const s = new Set<string>(["a", "b", "c"]);
  s.add("b"); s.delete("a"); s.add("a");
  const out: string[] = [];
  for (const k of s) out.push(k);
  sendEmail(out.join(","), "y");
}` },
  { name: "control: the order is not the order of the last adds", verdict: "proved", body: `export const guarantees = [m.neverEmail("c,b,a")];
export function main(): void {
  const s = new Set<string>(["a", "b", "c"]);
  s.add("b"); s.delete("a"); s.add("a");
  const out: string[] = [];
  for (const k of s) out.push(k);
  sendEmail(out.join(","), "y");
}` },
  { name: "a key added on one branch is there only on that path", verdict: "violated", match: /c=true/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(c: boolean): void {
  const s = new Set<string>(["a"]);
  if (c) s.add("ceo@corp");
  for (const k of s) sendEmail(k, "y");
}` },
  { name: "control: a key added on the other branch is never sent", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(c: boolean): void {
  const s = new Set<string>(["a"]);
  if (c) s.add("b"); else s.add("ceo@corp");
  if (c) for (const k of s) sendEmail(k, "y");
}` },
  { name: "clear empties the set", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const s = new Set(["a"]); s.clear();
  for (const k of s) sendEmail(k, "y");
  if (s.has("a") || s.size > 0) sendEmail("x", "y");
}` },
  { name: "spread of a set with known keys", verdict: "violated", line: 6, match: /to="a\|b"/, body: `export const guarantees = [m.neverEmail("a|b")];
export function main(): void {
  const s = new Set(["a", "b", "a"]);
  sendEmail([...s].join("|"), "y");
}` },
  // ── Maps ──
  { name: "Map get of a missing key is undefined", verdict: "violated", line: 8, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const counts = new Map<string, number>();
  counts.set("a", 1);
  const v = counts.get("b");
  if (v === undefined) sendEmail("x", "y");
}` },
  { name: "adversarial: a Map get that may be undefined is reported when used", verdict: "violated", match: /undefined/, body: `export const guarantees = [m.nothing()];
export function main(k: string): void {
  const limits = new Map<string, number>([["a@x", 10]]);
  const v = limits.get(k);
  pay(k, v!);
}` },
  { name: "control: get after has is defined", verdict: "proved", body: `export const guarantees = [m.noPaymentOver(10)];
export function main(k: string): void {
  const limits = new Map<string, number>([["a@x", 10], ["b@x", 5]]);
  const v = limits.get(k);
  if (v !== undefined) pay(k, v);
}` },
  { name: "adversarial: set overwrites the value", verdict: "violated", line: 7, body: `export const guarantees = [m.noPaymentOver(10)];
export function main(): void {
  const limits = new Map<string, number>([["a@x", 10]]);
  limits.set("a@x", 11); limits.set("b@x", 1);
  const v = limits.get("a@x"); if (v !== undefined) pay("a@x", v);
}` },
  { name: "a Map keeps the first insertion's place on overwrite", verdict: "violated", line: 9, match: /to="a=3,b=2"/, body: `export const guarantees = [m.neverEmail("a=3,b=2")];
export function main(): void {
  const mm = new Map<string, number>();
  mm.set("a", 1); mm.set("b", 2); mm.set("a", 3);
  const parts: string[] = [];
  for (const [k, v] of mm) parts.push(k + "=" + v);
  sendEmail(parts.join(","), "y");
}` },
  { name: "counting by key with a symbolic key", verdict: "violated", match: /a=/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const n = new Map<string, number>();
  for (const k of [a, "x", a]) { const old = n.get(k); n.set(k, old === undefined ? 1 : old + 1); }
  if (n.get("x") === 3) sendEmail("x", "y");
}` },
  { name: "control: a count never exceeds the adds", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const n = new Map<string, number>();
  for (const k of [a, "x", a]) { const old = n.get(k); n.set(k, old === undefined ? 1 : old + 1); }
  const x = n.get("x");
  if (x !== undefined && x > 3) sendEmail("x", "y");
}` },
  // ── refused shapes ──
  // A Set carried across a loop over an array of unknown length (collected.ts, test/locals/collected.test.ts).
  { name: "a set carried across iterations of a loop over a tool result: nobody twice (proved)", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  const seen = new Set<string>();
  for (const c of contacts()) {
    if (!seen.has(c)) {
      seen.add(c);
      sendEmail(c, "hi");
    }
  }
}` },
  // A Map of counts carried across a loop over an array of unknown length (h53 i22, i26): its
  // values are not tracked, so a violation that reads them is looked for among runs with short arrays.
  { name: "a Map counted over a tool result, then a send per key counted twice: violated among short runs", verdict: "violated", line: 8, match: /at most \d elements/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const per = new Map<string, number>();
  for (const c of contacts()) per.set(c, (per.get(c) ?? 0) + 1);
  for (const c of ["a@corp", "b@corp"]) {
    if ((per.get(c) ?? 0) >= 2) sendEmail(c, "twice");
  }
}` },
  // Refused before session 43; the Map's keys are now carried (collected-maps.ts), its values any number.
  { name: "its twin, true in every run, is proved", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const per = new Map<string, number>();
  for (const c of contacts()) per.set(c, (per.get(c) ?? 0) + 1);
  for (const c of ["a@corp", "b@corp"]) {
    if ((per.get(c) ?? 0) >= 2) sendEmail(c, "twice");
  }
}` },
  { name: "control: an array collected over a tool result (collected.ts): the third email", verdict: "violated", line: 7, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(): void {
  const out: string[] = [];
  for (const c of contacts()) if (c !== "") out.push(c);
  for (const c of out) sendEmail(c, "hi");
}` },
  { name: "control: reading a set built before a loop over a tool result", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const blocked = new Set(["ceo@corp", "cfo@corp"]);
  for (const c of contacts()) if (!blocked.has(c)) sendEmail(c, "hi");
}` },
  { name: "adversarial: an alias of a set is refused", verdict: "refused", line: 7, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const s = new Set<string>();
  const t = s;
  t.add("a"); s.add("b");
}` },
  { name: "adversarial: a chained add is refused", verdict: "refused", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const s = new Set<string>();
  s.add("a").add("b");
  if (s.size === 2) sendEmail("x", "y");
}` },
  { name: "adversarial: a set changed in a callback is refused", verdict: "refused", body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  const s = new Set<string>();
  ["a", "b"].forEach((x) => s.add(x));
  for (const k of s) sendEmail(k, "y");
}` },
  { name: "adversarial: changing a set while iterating it is refused", verdict: "refused", body: `export const guarantees = [m.emailsAtMost(5)];
export function main(): void {
  const s = new Set<string>(["a"]);
  for (const k of s) { if (k.length < 3) s.add(k + "a"); sendEmail(k, "y"); }
}` },
  { name: "adversarial: forEach on a set is refused", verdict: "refused", body: `export const guarantees = [m.emailsAtMost(5)];
export function main(): void {
  const s = new Set<string>(["a"]);
  s.forEach((k) => sendEmail(k, "y"));
}` },
  { name: "a set of an array of unknown length, iterated: each contact once (exec/unique.ts)", verdict: "proved", body: `export const guarantees = [m.nobodyTwice()];
export function main(): void {
  for (const c of new Set(contacts())) sendEmail(c, "hi");
}` },
  // The size of a Set built from an array of unknown length: its distinct values, counted (unique.ts, counted.ts).
  { name: "adversarial: the size of a set of an array of unknown length may be 2", verdict: "violated", line: 5, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  if (new Set(contacts()).size > 1) sendEmail("a", "hi");
}` },
  { name: "the size of a set of an array of unknown length is at most its length", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const cs = contacts();
  if (new Set(cs).size > cs.length) sendEmail("a", "hi");
}` },
  // `entries()`, `keys()`, `values()` where `for…of` iterates them or a spread copies them.
  { name: "a report of counts from [...m.entries()]: two equal contacts give \"b: 2\" (violated)", verdict: "violated", line: 8, match: /fewContacts@\d+:\d+ → \["b", "b"\]/, body: `export const guarantees = [m.neverEmail("b: 2")];
export function main(): void {
  const counts = new Map<string, number>();
  for (const w of fewContacts()) counts.set(w, (counts.get(w) ?? 0) + 1);
  const lines = [...counts.entries()].map(([k, v]) => \`\${k}: \${v}\`);
  sendEmail(lines.join("\\n"), "report");
}` },
  { name: "the same report never says 4 of at most three contacts (proved)", verdict: "proved", body: `export const guarantees = [m.neverEmail("b: 4")];
export function main(): void {
  const counts = new Map<string, number>();
  for (const w of fewContacts()) counts.set(w, (counts.get(w) ?? 0) + 1);
  for (const v of [...counts.values()]) if (v > 3) sendEmail("b: 4", "impossible");
  const lines = [...counts.entries()].map(([k, v]) => \`\${k}: \${v}\`);
  sendEmail(lines.join("\\n"), "report");
}` },
  { name: "a Set's keys() and entries() in for…of: each kept value, paired with itself (proved)", verdict: "proved", body: `export const guarantees = [m.neverEmail("b")];
export function main(): void {
  const seen = new Set<string>();
  for (const w of fewContacts()) if (w !== "b") seen.add(w);
  for (const k of seen.keys()) sendEmail(k, "hi");
  for (const [k, v] of seen.entries()) if (k !== v) sendEmail("b", "never");
}` },
  // `[...m]` and `[...s]` alone: a Map's pairs, a Set's keys, each where its key is present.
  { name: "[...m] of a Map some keys of which are present: each pair once (violated: \"b\" is emailed)", verdict: "violated", line: 7, match: /SendEmail\(to="b"/, body: `export const guarantees = [m.neverEmail("b")];
export function main(): void {
  const first = new Map<string, string>();
  for (const w of fewContacts()) if (!first.has(w)) first.set(w, w + "!");
  for (const [to, note] of [...first]) sendEmail(to, note);
}` },
  { name: "[...s] of a Set of the kept contacts, mapped: never the excluded one, never twice (proved)", verdict: "proved", body: `export const guarantees = [m.neverEmail("b"), m.nobodyTwice()];
export function main(): void {
  const keep = new Set<string>();
  for (const w of fewContacts()) if (w !== "b") keep.add(w);
  [...keep].map((to) => to.length).forEach((n, i) => { if (n < 0 || i > 2) sendEmail("b", "impossible"); });
  for (const to of [...keep]) sendEmail(to, "hi");
}` },
  // `Array.from(s)` is `[...s]` (session 37, h52 i05), also of a Set built in a loop over an array of unknown length.
  { name: "Array.from of a Set of the kept contacts, sliced: never the excluded one, never twice (proved)", verdict: "proved", body: `export const guarantees = [m.neverEmail("b"), m.nobodyTwice()];
export function main(): void {
  const keep = new Set<string>();
  for (const w of fewContacts()) if (w !== "b") keep.add(w);
  for (const to of Array.from(keep).slice(0, 2)) sendEmail(to, "hi");
}` },
  { name: "Array.from of a Set that keeps \"b\" (violated)", verdict: "violated", line: 7, match: /SendEmail\(to="b"/, body: `export const guarantees = [m.neverEmail("b")];
export function main(): void {
  const keep = new Set<string>();
  for (const w of fewContacts()) if (w !== "a") keep.add(w);
  for (const to of Array.from(keep)) sendEmail(to, "hi");
}` },
  { name: "Array.from of a Map: its pairs (violated: \"b\" is emailed)", verdict: "violated", line: 7, match: /SendEmail\(to="b"/, body: `export const guarantees = [m.neverEmail("b")];
export function main(): void {
  const first = new Map<string, string>();
  for (const w of fewContacts()) if (!first.has(w)) first.set(w, w + "!");
  for (const [to, note] of Array.from(first)) sendEmail(to, note);
}` },
  // Records as a Map's values (a tool's elements, grouped by a key), read, iterated and sorted.
  { name: "a Map of records, one per contact, iterated: never the excluded one (proved)", verdict: "proved", body: `export const guarantees = [m.neverEmail("b"), m.nobodyTwice()];
export function main(): void {
  const byName = new Map<string, { name: string; n: number }>();
  for (const c of fewContacts()) if (!byName.has(c)) byName.set(c, { name: c, n: c.length });
  for (const v of byName.values()) if (v.name !== "b") sendEmail(v.name, \`\${v.n}\`);
}` },
  { name: "the shortest record of such a Map, sorted from its values: \"b\" may be it (violated)", verdict: "violated", line: 8, match: /SendEmail\(to="b"/, body: `export const guarantees = [m.neverEmail("b")];
export function main(): void {
  const byName = new Map<string, { name: string; n: number }>();
  for (const c of fewContacts()) byName.set(c, { name: c, n: c.length });
  const sorted = [...byName.values()].sort((a, b) => a.n - b.n);
  if (sorted.length > 0) sendEmail(sorted[0]!.name, "shortest");
}` },
  { name: "a Map value of a new array (map-arrays.ts)", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const groups = new Map<string, string[]>();
  for (const c of fewContacts()) groups.set(c, [c]);
  for (const [k] of groups) sendEmail(k, "x");
}` },
  { name: "refused: a Map value of an array another name holds", verdict: "refused", match: /where no other name holds it/, body: `export const guarantees = [m.emailsAtMost(3)];
export function main(): void {
  const groups = new Map<string, string[]>();
  const few = fewContacts();
  for (const c of few) groups.set(c, few);
  for (const [k] of groups) sendEmail(k, "x");
}` },
  // `get`/`has` of a key that may be undefined: never held where it is undefined (keys are strings and numbers).
  { name: "has/get of a key that may be undefined, tested in a conditional (a find's result, as TypeScript narrows it) (proved)", verdict: "proved", body: `export const guarantees = [m.neverEmail("b")];
export function main(): void {
  const routes = new Map([["a", "team-a"], ["c", "team-c"]]);
  const word = fewContacts().find((w) => w.startsWith("x"));
  const team = word !== undefined ? routes.get(word) ?? "general" : "general";
  if (word !== undefined && routes.has(word) && team === "general") sendEmail("b", "impossible");
  sendEmail(team, "route");
}` },
  { name: "get of a key that may be undefined: the value where it is held (violated: \"b\" is a value)", verdict: "violated", line: 7, match: /SendEmail\(to="b"/, body: `export const guarantees = [m.neverEmail("b")];
export function main(): void {
  const routes = new Map([["xa", "b"]]);
  const word = fewContacts().find((w) => w.startsWith("x"));
  sendEmail(word === undefined ? "general" : routes.get(word) ?? "general", "route");
}` },
  { name: "refused: an iterator kept in a variable (used up by its first pass)", verdict: "refused", line: 6, match: /used up by one pass/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const m2 = new Map<string, number>([["a", 1]]);
  const it = m2.keys();
  for (const k of it) sendEmail(k, "x");
}` },
  { name: "refused: a Map changed while for…of iterates its entries()", verdict: "refused", match: /changed while a `for…of` iterates it/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const m2 = new Map<string, number>([["a", 1], ["b", 2]]);
  for (const [k] of m2.entries()) m2.delete(k === "a" ? "b" : "a");
  if (m2.size === 0) sendEmail("x", "empty");
}` },
  // ── the size of a Set a loop with a counter collects, its keys trimmed on the way (h53 i03: the
  // count of its keys probed the Set at an index no quantifier bound, and the query named it free) ──
  { name: "control: the size of a Set collected under a cap, logged", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const done = new Set<string>();
  let n = 0;
  for (const r of rows()) {
    if (n >= 3) continue;
    log(r.to.trim());
    done.add(r.to);
    n++;
  }
  log(\`\${done.size} done\`);
}` },
  { name: "a Set collected under a cap of three may hold three keys", verdict: "violated", line: 13, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const done = new Set<string>();
  let n = 0;
  for (const r of rows()) {
    if (n >= 3) continue;
    log(r.to.trim());
    done.add(r.to);
    n++;
  }
  if (done.size === 3) sendEmail("x", "three");
}` },
  // A filter of the Set of trimmed inputs, looped over with a call that reads a tool per element
  // (h54 i63: the trim's facts were read at an index a quantifier binds, and Z3 rejected the query).
  { name: "a filtered Set of trimmed inputs: the excluded address is never emailed", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(ids: string[]): void {
  const unique = [...new Set(ids.map((id) => id.trim()))].filter((id) => id !== "" && id !== "ceo@corp");
  for (const id of unique) {
    if (balance(id) > 10) sendEmail(id, "hi");
  }
}` },
  { name: "its twin without the exclusion emails it", verdict: "violated", line: 7, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(ids: string[]): void {
  const unique = [...new Set(ids.map((id) => id.trim()))].filter((id) => id !== "");
  for (const id of unique) {
    if (balance(id) > 10) sendEmail(id, "hi");
  }
}` },
  // `delete` of a Set built from an array of unknown length (unique.ts setDelete; h54 i69, i70).
  { name: "a Set of an input without one key: that key is never emailed", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  const s = new Set(xs.map((x) => x.trim()));
  s.delete("ceo@corp");
  for (const x of s) sendEmail(x, "hi");
}` },
  { name: "its twin deletes another key", verdict: "violated", line: 7, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  const s = new Set(xs.map((x) => x.trim()));
  s.delete("cfo@corp");
  for (const x of s) sendEmail(x, "hi");
}` },
  { name: "has after delete is false; delete tells whether the key was there", verdict: "violated", match: /xs=\[(.*, )?"a"/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[]): void {
  const s = new Set(xs);
  if (s.delete("a") && !s.has("a")) sendEmail("ops@corp", "a was there");
  if (s.has("a")) sendEmail("ceo@corp", "never");
}` },
  { name: "its twin: after delete the key is never found", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(xs: string[]): void {
  const s = new Set(xs);
  s.delete("a");
  if (s.has("a")) sendEmail("ceo@corp", "never");
}` },
  // ── has of a Set built from an array of unknown length (h53 i25: buyers with a return request) ──
  { name: "has of a Set of a tool's array: some element is the key", verdict: "violated", line: 6, match: /ceo/, body: `export const guarantees = [m.neverEmail("ceo")];
export function main(): void {
  const known = new Set(contacts());
  if (known.has("ceo")) sendEmail("ceo", "you are on the list");
}` },
  { name: "control: has of a Set of the array without the key", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo")];
export function main(): void {
  const known = new Set(contacts().filter((c) => c !== "ceo"));
  if (known.has("ceo")) sendEmail("ceo", "you are on the list");
}` },
  { name: "control: every element of the array is in its Set", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const all = contacts();
  const known = new Set(all);
  for (const c of all) if (!known.has(c)) sendEmail(c, "missing");
}` },
  { name: "adversarial: has finds NaN (SameValueZero), which === never does", verdict: "violated", line: 6, body: `export const guarantees = [m.neverEmail("nan")];
export function main(): void {
  const amounts = new Set(rows().map((r) => r.amount));
  if (amounts.has(NaN)) sendEmail("nan", "a NaN amount");
}` },
  { name: "the size of such a Set counts distinct keys", verdict: "violated", line: 6, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  const known = new Set(contacts());
  if (known.size > 3) sendEmail("a", "many");
}` },
];

describe("Sets and Maps the program builds", () => {
  proveCases(SET_MAP_CASES);
});
