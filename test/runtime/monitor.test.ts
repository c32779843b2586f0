import fc from "fast-check";
import { Event } from "clauz3/events";
import { allOf, contract, type ContractSpec } from "clauz3/spec";
import { checkPrefix, isPrefixClosed, needsCompleteRun } from "../../runtime/check";
import { PrefixMonitor } from "../../runtime/monitor";
import type { Occurrence } from "../../runtime/occurrence";

class Mail extends Event {
  constructor(readonly to: string, readonly size: number) { super(); }
}
class Urgent extends Mail {}
class Note extends Event {
  constructor(readonly text: string) { super(); }
}

const TO = ["a", "b", "c"] as const;
const oddKey = (m: Mail): unknown => (m.size === 3 ? Number.NaN : m.size === 2 ? -0 : m.size === 1 ? 0 : m.to);
const named = contract(function named(spec: ContractSpec): ContractSpec {
  return spec;
});

const leaf: fc.Arbitrary<ContractSpec> = fc.oneof(
  fc.constantFrom(...TO).map((t) => Mail.all((m) => m.to !== t)),
  fc.constantFrom(...TO).map((t) => Mail.where((m) => m.to === t).empty()),
  fc.constant(Urgent.empty()),
  fc.integer({ min: -1, max: 4 }).map((n) => Mail.count().atMost(n)),
  fc.integer({ min: 0, max: 4 }).map((n) => Urgent.count().lessThan(n)),
  fc.integer({ min: 0, max: 4 }).map((n) => Mail.count().equals(n)),
  fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 4 })).map(([lo, hi]) => Mail.count().between(lo, hi)),
  fc.integer({ min: 0, max: 4 }).map((n) => Mail.count().atLeast(n)),
  fc.integer({ min: 0, max: 9 }).map((n) => Mail.sum((m) => m.size).atMost(n)),
  fc.constant(Mail.distinct((m) => m.to)),
  fc.constant(Mail.where((m) => m.size > 1).sharesValue((m) => m.to)),
  // Keys that === and a Map disagree on: NaN equals nothing, -0 === 0.
  fc.constant(Mail.distinct(oddKey)),
  fc.constant(Mail.sharesValue(oddKey)),
  fc.constant(Urgent.sharesValue((m) => m.to)),
  fc.constant(Note.all((n) => n.text.length < 3)),
);
const spec: fc.Arbitrary<ContractSpec> = fc.oneof(
  leaf,
  fc.array(leaf, { minLength: 1, maxLength: 3 }).map((parts) => allOf(...parts)),
  leaf.map((s) => named(s)),
);
const occurrence: fc.Arbitrary<Occurrence> = fc.oneof(
  fc.tuple(fc.constantFrom(...TO), fc.integer({ min: 0, max: 3 })).map(([t, n]) => new Mail(t, n)),
  fc.tuple(fc.constantFrom(...TO), fc.integer({ min: 0, max: 3 })).map(([t, n]) => new Urgent(t, n)),
  fc.string({ maxLength: 4 }).map((t) => new Note(t)),
);

describe("PrefixMonitor (the backstop's incremental check before each call)", () => {
  it("refuses exactly the calls checkPrefix on the whole trace refuses, with the same first violation", () => {
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 3 }), fc.array(fc.array(occurrence, { minLength: 1, maxLength: 3 }), { maxLength: 8 }), (entries, calls) => {
        const monitor = new PrefixMonitor(entries);
        const performed: Occurrence[] = [];
        for (const call of calls) {
          const next = [...performed, ...call];
          const expected = entries.map((e) => checkPrefix(e, next)[0]).find((v) => v !== undefined);
          const actual = monitor.violation(call);
          expect(actual?.message).toBe(expected?.message);
          expect(actual?.contract).toBe(expected?.contract);
          expect(actual?.witnesses).toEqual(expected?.witnesses);
          if (actual) continue; // refused: the call does not happen
          monitor.absorb(call);
          performed.push(...call);
        }
      }),
      { numRuns: 600 },
    );
  });

  it("splits count comparisons into a prefix-closed upper side and a lower side that needs a complete run", () => {
    expect(isPrefixClosed(Mail.count().atMost(2))).toBe(true);
    expect(isPrefixClosed(Mail.count().equals(0))).toBe(true);
    expect(isPrefixClosed(Mail.count().between(0, 3))).toBe(true);
    expect(isPrefixClosed(Mail.count().atLeast(0))).toBe(true);
    expect(isPrefixClosed(Mail.count().greaterThan(-1))).toBe(true);
    expect(needsCompleteRun(Mail.count().equals(2))).toBe(true);
    expect(needsCompleteRun(Mail.count().between(1, 3))).toBe(true);
    expect(needsCompleteRun(Mail.count().greaterThan(0))).toBe(true);
    expect(needsCompleteRun(Mail.count().atLeast(Number.NaN))).toBe(true);
    expect(needsCompleteRun(Mail.sum((m) => m.size).atMost(3))).toBe(true);
    expect(needsCompleteRun(allOf(Mail.all(() => true), Mail.sum((m) => m.size).atMost(3)))).toBe(true);
    expect(needsCompleteRun(named(Mail.distinct((m) => m.to)))).toBe(false);
    // The upper side of equals is checked on a prefix; the lower side is not.
    expect(checkPrefix(Mail.count().equals(2), [new Mail("a", 1)])).toEqual([]);
    expect(checkPrefix(Mail.count().equals(0), [new Mail("a", 1)])).toHaveLength(1);
  });
});
