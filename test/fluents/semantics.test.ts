/**
 * Prover semantics of fluents (final state), each with proved and violated twins. IMPORTS take two
 * lines, so body line 1 is file line 3: final-state guarantees are reported on the guarantee (line 3),
 * refusals on the node they name.
 */
import { problems, prove } from "./layer";

vi.setConfig({ testTimeout: 0 });

const cases: { name: string; body: string; verdict: "proved" | "violated" | "refused"; line?: number; match?: RegExp }[] = [
  // ── program order ──
  { name: "at: the door locked", verdict: "proved", body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(): void { lock("front"); }` },
  { name: "at: never written keeps the initial value", verdict: "violated", line: 3, match: /lockedAtEnd\(door="front"\) is violated/, body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(): void { lock("back"); }` },
  { name: "order: unlock then lock", verdict: "proved", body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(): void { unlock("front"); lock("front"); }` },
  { name: "order: lock then unlock (the last write wins)", verdict: "violated", line: 3, body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(): void { lock("front"); unlock("front"); }` },
  { name: "keys compared with ===", verdict: "violated", line: 3, match: /main\(d="(?!front")/, body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(d: string): void { lock(d); }` },
  { name: "a key equal on every path", verdict: "proved", body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(d: string): void { if (d === "front") lock(d); else lock("front"); }` },
  // ── early return, branches ──
  { name: "early return before the lock", verdict: "violated", line: 3, match: /main\(x=true\)/, body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(x: boolean): void { if (x) return; lock("front"); }` },
  { name: "an unlock after an early return never happens", verdict: "proved", body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(x: boolean): void {
  lock("front");
  if (x) return;
  if (!x) return;
  unlock("front");
}` },
  { name: "an unlock after a conditional return happens on the other path", verdict: "violated", line: 3, match: /main\(x=false\)/, body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(x: boolean): void { lock("front"); if (x) return; unlock("front"); }` },
  { name: "two updates on different branches, one unlocks", verdict: "violated", line: 3, match: /main\(x=false\)/, body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(x: boolean): void { if (x) lock("front"); else unlock("front"); }` },
  { name: "two updates on different branches, both lock", verdict: "proved", body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(x: boolean): void { if (x) lock("front"); else lockAll({ door: "front" }); }` },
  { name: "an object tool's second write (a literal key)", verdict: "proved", body: `export const guarantees = [h.lockedAtEnd("hall")];
export function main(d: string): void { unlock("hall"); lockAll({ door: d }); }` },
  // ── final.all ──
  { name: "all: every flag set on is set off later", verdict: "proved", body: `export const guarantees = [h.noFlagLeftOn()];
export function main(x: boolean): void { setFlag("a", true); if (x) setFlag("b", false); setFlag("a", false); }` },
  { name: "all: a flag left on", verdict: "violated", line: 3, match: /main\(x=true\)/, body: `export const guarantees = [h.noFlagLeftOn()];
export function main(x: boolean): void { setFlag("a", false); if (x) setFlag("b", true); }` },
  { name: "all: a flag written with an input value", verdict: "violated", line: 3, match: /on=true/, body: `export const guarantees = [h.noFlagLeftOn()];
export function main(name: string, on: boolean): void { setFlag(name, on); }` },
  { name: "all: two keys that may be equal (the later write decides)", verdict: "proved", body: `export const guarantees = [h.noFlagLeftOn()];
export function main(a: string, b: string): void { setFlag(a, true); setFlag(b, false); if (a !== b) setFlag(a, false); }` },
  { name: "all: numbers, a guarded level", verdict: "proved", body: `export const guarantees = [h.levelAtMost(5)];
export function main(n: number): void { setLevel(1, 9); if (n <= 5) setLevel(1, n); else setLevel(1, 0); }` },
  { name: "all: numbers, an unguarded level", verdict: "violated", line: 3, body: `export const guarantees = [h.levelAtMost(5)];
export function main(n: number): void { setLevel(1, n); }` },
  { name: "at: the last write to a file is the approved text", verdict: "proved", body: `export const guarantees = [h.lastWriteIs("config.json", "approved")];
export function main(draft: string): void { writeFile("config.json", draft); writeFile("config.json", "approved"); }` },
  { name: "at: the approved text is overwritten by a draft", verdict: "violated", line: 3, body: `export const guarantees = [h.lastWriteIs("config.json", "approved")];
export function main(draft: string): void { writeFile("config.json", "approved"); writeFile("config.json", draft); }` },
  // ── loops over arrays of unknown length ──
  { name: "loop: every door touched is locked", verdict: "proved", body: `export const guarantees = [h.everyDoorLocked()];
export function main(doors: string[]): void { for (const d of doors) { if (d.length > 3) lock(d); } }` },
  { name: "loop: an unlock after the loop", verdict: "violated", line: 3, body: `export const guarantees = [h.everyDoorLocked()];
export function main(doors: string[]): void { for (const d of doors) lock(d); unlock("front"); }` },
  { name: "loop: a loop may unlock the front door", verdict: "violated", line: 3, match: /doors=\[.*"front"/, body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(doors: string[]): void { lock("front"); for (const d of doors) unlock(d); }` },
  { name: "loop: the lock after the loop wins", verdict: "proved", body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(doors: string[]): void { for (const d of doors) unlock(d); lock("front"); }` },
  { name: "loop: the front door only if the input holds it", verdict: "violated", line: 3, body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(doors: string[]): void { for (const d of doors) lock(d); }` },
  { name: "loop: doors from a tool, and the hall locked in every iteration", verdict: "proved", body: `export const guarantees = [h.everyDoorLocked(), h.lockedAtEnd("hall")];
export function main(): void { lock("hall"); for (const d of listDoors()) { lock(d); lock("hall"); } }` },
  { name: "loop: two values for one fluent in one loop (refused on the second call)", verdict: "refused", line: 5, match: /different values in one loop/, body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(doors: string[]): void {
  for (const d of doors) { lock(d); unlock(d); }
}` },
  { name: "loop: a value that changes per iteration (refused)", verdict: "refused", line: 5, match: /may differ from one iteration/, body: `export const guarantees = [h.noFlagLeftOn()];
export function main(names: string[]): void {
  for (const n of names) setFlag(n, n.length > 2);
}` },
  { name: "loop: nested loops over inputs (refused)", verdict: "refused", line: 5, match: /nested loops/, body: `export const guarantees = [h.everyDoorLocked()];
export function main(a: string[], b: string[]): void {
  for (const x of a) for (const y of b) lock(x + y);
}` },
  { name: "loop: a value carried from one iteration to the next (refused: the written value differs by iteration)", verdict: "refused", line: 4, match: /writes a value/, body: `export const guarantees = [h.noFlagLeftOn()];
export function main(names: string[]): void { let on = false; for (const n of names) { setFlag(n, on); on = true; } }` },
  { name: "loop: break before an unlock (`break` is modelled: the unlock of \"a\" comes first)", verdict: "violated", match: /names=\["a"\]/, body: `export const guarantees = [h.lockedAtEnd("a")];
export function main(names: string[]): void { lock("a"); for (const n of names) { if (n === "stop") break; unlock(n); } }` },
  { name: "loop: a literal array is unrolled (two values are fine)", verdict: "violated", line: 3, body: `export const guarantees = [h.lockedAtEnd("a")];
export function main(): void { for (const d of ["a", "b"]) { lock(d); unlock(d); } }` },
  // ── try/catch: a tool that fails ──
  { name: "try: a lock that may fail leaves the door unknown", verdict: "violated", line: 3, body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(): void { try { lock("front"); } catch { console.log("failed"); } }` },
  { name: "try: a failed unlock, then a lock outside the try", verdict: "proved", body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(): void { try { unlock("front"); } catch { console.log("failed"); } lock("front"); }` },
  { name: "try: the catch locks again, but that call may fail too", verdict: "violated", line: 3, body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(): void { try { lock("front"); } catch { try { lock("front"); } catch { console.log("twice"); } } }` },
  // ── callbacks ──
  { name: "callback: forEach over an input locks every door", verdict: "proved", body: `export const guarantees = [h.everyDoorLocked()];
export function main(doors: string[]): void { doors.forEach((d) => lock(d)); }` },
  { name: "callback: forEach unlocks", verdict: "violated", line: 3, match: /doors=\[/, body: `export const guarantees = [h.everyDoorLocked()];
export function main(doors: string[]): void { doors.forEach((d) => unlock(d)); }` },
  { name: "callback: a helper called on a literal array", verdict: "violated", line: 3, body: `export const guarantees = [h.lockedAtEnd("a")];
const close = (d: string): void => { lock(d); unlock("a"); };
export function main(): void { ["a", "b"].forEach(close); }` },
  // ── agents do not write fluents ──
  { name: "agent code cannot write a fluent directly", verdict: "refused", line: 5, match: /outside a contract/, body: `export const guarantees = [h.lockedAtEnd("front")];
export function main(): void {
  h.Locked.set("front", true);
}` },
  { name: "a write in a callback of Promise.all with several statements (their calls may interleave): refused", verdict: "refused", line: 4, match: /callback of `Promise.all` that does more than make one call/, body: `export const guarantees = [h.lockedAtEnd("front")];
export async function main(): Promise<void> { await Promise.all(["front", "back"].map(async (d) => { unlock(d); lock(d); })); }` },
];

describe.each(cases)("$name", ({ body, verdict, line, match }) => {
  it(verdict, async () => {
    const v = await prove(body);
    const found = problems(v);
    if (verdict === "proved") {
      expect(found).toEqual([]);
      return;
    }
    const hit = found.find((p) => p.verdict === verdict);
    expect(hit, JSON.stringify(found)).toBeDefined();
    if (line !== undefined) expect(hit!.line, JSON.stringify(found)).toBe(line);
    if (match) expect(hit!.text).toMatch(match);
  });
});
