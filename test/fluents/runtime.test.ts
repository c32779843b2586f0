/** Fluents on concrete runs: writes recorded in order after a call's events, `check`, and the backstop at the end of `main`. */
import { enforce, GuaranteeViolationError, IncompleteRunError, record, trusted } from "clauz3";
import { Event, fluent, FluentUpdate, performs, updates } from "clauz3/events";
import { check, contract, type ContractSpec } from "clauz3/spec";

class DoorOpened extends Event {
  constructor(readonly door: string) { super(); }
}
const Locked = fluent("Locked", { key: String, value: Boolean, initial: false });
const Level = fluent("Level", { key: Number, value: Number, initial: 0 });

let failNext = false;
const lock = trusted(updates((door: string) => Locked.set(door, true)), function lock(door: string): void {
  if (failNext) { failNext = false; throw new Error(`jammed: ${door}`); }
});
const unlock = trusted(performs((door: string) => new DoorOpened(door)), updates((door: string) => Locked.set(door, false)), function unlock(door: string): void {});
const lockBoth = trusted(updates(({ door }) => [Locked.set(door, true), Locked.set("hall", true)]), function lockBoth(req: { door: string }): void {});
const setLevel = trusted(updates((at: number, level: number) => Level.set(at, level)), function setLevel(at: number, level: number): void {});
const asyncLock = trusted(updates((door: string) => Locked.set(door, true)), async function asyncLock(door: string): Promise<void> {
  if (door === "jam") throw new Error("jammed");
});

const frontLocked = contract({ description: "The front door is locked at the end." }, (): ContractSpec => Locked.final.at("front").equals(true));
const allLocked = contract({ description: "Every door touched is locked at the end." }, (): ContractSpec => Locked.final.all((e) => e.value));

beforeEach(() => {
  failNext = false;
});

describe("the trace", () => {
  it("records each write after the call's events, in the builder's order", () => {
    const { trace } = record(() => { unlock("front"); lockBoth({ door: "back" }); });
    expect(trace.map(String)).toEqual([
      'unlock(door="front")', 'DoorOpened("front")', 'Locked.set("front", false)',
      'lockBoth(door="back")', 'Locked.set("back", true)', 'Locked.set("hall", true)',
    ]);
    expect(trace[2]).toBeInstanceOf(FluentUpdate);
    expect(Object.isFrozen(trace[2])).toBe(true);
  });

  it("marks the keys of a call that failed as unknown", () => {
    failNext = true;
    const { trace } = record(() => { try { lock("front"); } catch { /* the program goes on */ } });
    expect(trace.map(String)).toEqual(['lock(door="front")', 'Locked.set("front", true)', 'Locked.set("front", unknown)']);
  });
});

describe("check: final state", () => {
  const run = (body: () => void) => record(body).trace;

  it("final.at(k).equals(v): the last write wins", () => {
    expect(check(frontLocked(), run(() => { unlock("front"); lock("front"); }))).toEqual([]);
    const v = check(frontLocked(), run(() => { lock("front"); unlock("front"); }));
    expect(v).toHaveLength(1);
    expect(v[0]!.message).toBe('Locked ends with false at "front" (its last write Locked.set("front", false)), expected true');
  });

  it("a key never written keeps the initial value", () => {
    const v = check(frontLocked(), run(() => lock("back")));
    expect(v[0]!.message).toBe('Locked ends with false at "front" (it was never written (initial value)), expected true');
    expect(v[0]!.witnesses).toEqual([]);
  });

  it("final.all(p): every written key with its final value", () => {
    expect(check(allLocked(), run(() => { unlock("a"); lockBoth({ door: "a" }); }))).toEqual([]);
    expect(check(allLocked(), [])).toEqual([]);
    const v = check(allLocked(), run(() => { lock("a"); unlock("b"); lock("c"); unlock("a"); }));
    expect(v.map((x) => x.message)).toEqual([
      'Locked ends with false at "a" (its last write Locked.set("a", false)), which breaks Locked.final.all(…)',
      'Locked ends with false at "b" (its last write Locked.set("b", false)), which breaks Locked.final.all(…)',
    ]);
  });

  it("keys are compared with === (NaN matches no write; -0 is 0)", () => {
    const atMost = Level.final.all((e) => e.value <= 5);
    expect(check(atMost, run(() => { setLevel(NaN, 9); }))).toEqual([]); // the NaN key keeps 0
    expect(check(atMost, run(() => { setLevel(0, 9); setLevel(-0, 1); }))).toEqual([]);
    expect(check(atMost, run(() => { setLevel(1, 9); }))).toHaveLength(1);
    expect(check(Level.final.at(0).equals(3), run(() => { setLevel(-0, 3); }))).toEqual([]);
  });

  it("a key whose last write failed keeps no guarantee", () => {
    failNext = true;
    const trace = run(() => { try { lock("front"); } catch { /* ignored */ } });
    expect(check(frontLocked(), trace)[0]!.message).toMatch(/ends with unknown \(the call that last wrote it failed\) at "front"/);
    expect(check(allLocked(), trace)).toHaveLength(1);
    // A later successful write decides again.
    failNext = true;
    expect(check(frontLocked(), run(() => { try { lock("front"); } catch { /* ignored */ } lock("front"); }))).toEqual([]);
  });
});

describe("the backstop decides final state when main returns", () => {
  it("passes a run that ends locked, even if it unlocked on the way", () => {
    expect(() => enforce([frontLocked()], () => { lock("front"); unlock("front"); lock("front"); })).not.toThrow();
  });

  it("fails a run that ends unlocked, at the end, not before a call", () => {
    let after = false;
    const e = (() => {
      try {
        enforce([frontLocked()], () => { lock("front"); unlock("front"); after = true; });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(after).toBe(true);
    expect(e).toBeInstanceOf(GuaranteeViolationError);
    expect((e as GuaranteeViolationError).phase).toBe("return");
  });

  it("an incomplete run establishes no final state", () => {
    expect(() => enforce([frontLocked()], () => { lock("front"); throw new Error("stop"); })).toThrow(IncompleteRunError);
    failNext = true;
    let thrown: unknown;
    try {
      enforce([frontLocked()], () => { try { lock("front"); } catch { lock("front"); } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(IncompleteRunError);
    expect((thrown as IncompleteRunError).unestablished).toHaveLength(1);
  });

  it("async tools: writes recorded at the call, checked when the run is quiet", async () => {
    await expect(enforce([allLocked()], async () => { await Promise.all([asyncLock("a"), asyncLock("b")]); })).resolves.toBeDefined();
    await expect(enforce([allLocked()], async () => { unlock("c"); await asyncLock("a"); })).rejects.toThrow(GuaranteeViolationError);
  });

  it("refuses a builder that returns something other than writes", () => {
    const bad = trusted(updates((door: string) => door as never), function bad(door: string): void {});
    expect(() => bad("x")).toThrow(/updates builder of bad returned something other than Fluent.set/);
  });

  it("refuses a fluent declared with a wrong initial value", () => {
    expect(() => fluent("Bad", { key: String, value: Boolean, initial: 0 as never })).toThrow(/initial must be a boolean/);
  });
});
