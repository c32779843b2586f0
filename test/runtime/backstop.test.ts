import { GuaranteeViolationError, IncompleteRunError, RecorderError, RequiresError, ToolCall, enforce, record, requires, trusted, type Occurrence } from "clauz3";
import { Event, performs } from "clauz3/events";
import { allOf, contract, type ContractSpec } from "clauz3/spec";

// Every call in this file is made inside an enforce run, so none becomes an unowned call of the
// process (those are charged to every later run; see backstop-load.test.ts).

class Charge extends Event {
  constructor(readonly account: string, readonly amount: number) { super(); }
}

const charged: [string, number][] = [];
const charge = trusted(
  performs((account: string, amount: number) => new Charge(account, amount)),
  requires((amount: number) => amount >= 0, "amount is not negative"),
  function charge(account: string, amount: number): void {
    if (account === "broken") throw new Error("the bank is down");
    charged.push([account, amount]);
  },
);

const atMostCharges = contract(function atMostCharges(n: number): ContractSpec {
  return Charge.count().atMost(n);
});
const atLeastCharges = contract(function atLeastCharges(n: number): ContractSpec {
  return Charge.count().atLeast(n);
});
const spendAtMost = contract(function spendAtMost(n: number): ContractSpec {
  return Charge.sum((c) => c.amount).atMost(n);
});
const smallAndCapped = contract(function smallAndCapped(each: number, total: number): ContractSpec {
  return allOf(Charge.all((c) => c.amount <= each), Charge.sum((c) => c.amount).atMost(total));
});

/** What `f` throws (fails the test when it does not throw). */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

describe("enforce (runtime backstop)", () => {
  beforeEach(() => {
    charged.length = 0;
  });

  it("runs the body and returns its result and trace when nothing is broken", () => {
    const { result, trace, loaded } = enforce([atMostCharges(2)], () => {
      charge("a", 1);
      charge("b", 2);
      return "done";
    });
    expect(result).toBe("done");
    expect(trace).toHaveLength(4);
    expect(loaded).toEqual([]);
    expect(charged).toEqual([["a", 1], ["b", 2]]);
  });

  it("stops the call that would break a guarantee, before its implementation runs; the run is incomplete", () => {
    const e = thrown(() =>
      enforce([atMostCharges(2)], function main() {
        charge("a", 1);
        charge("b", 2);
        charge("c", 3);
        charge("d", 4);
      }),
    ) as IncompleteRunError;
    expect(e).toBeInstanceOf(IncompleteRunError);
    expect(e.cause).toBeInstanceOf(GuaranteeViolationError);
    expect(e.refusal).toBe(e.cause);
    const v = e.cause as GuaranteeViolationError;
    expect(v.tool).toBe("charge");
    expect(v.contract).toBe("atMostCharges");
    expect(v.phase).toBe("call");
    expect(v.message).toBe("charge: refused at run time: atMostCharges: Charge.count() is 3, expected atMost(2)");
    expect(e.message).toBe(
      "main threw before completing, so the run is incomplete: GuaranteeViolationError: charge: refused at run time: " +
        "atMostCharges: Charge.count() is 3, expected atMost(2). No guarantee of this run needs a complete run; every call made was checked.",
    );
    expect(charged).toEqual([["a", 1], ["b", 2]]);
    // The refused call is not in the trace.
    expect(e.trace.filter((o) => o instanceof ToolCall)).toHaveLength(2);
  });

  it("a run in which a call was refused fails even when the program catches the refusal", () => {
    let caught: unknown;
    const e = thrown(() =>
      enforce([atMostCharges(1)], () => {
        charge("a", 1);
        try {
          charge("b", 2);
        } catch (error) {
          caught = error;
        }
        return "carried on";
      }),
    );
    expect(caught).toBeInstanceOf(GuaranteeViolationError);
    expect(e).toBe(caught);
    expect(charged).toEqual([["a", 1]]);
  });

  it("enforces all, empty and distinct on the prefix of the run", () => {
    const spec = allOf(Charge.all((c) => c.amount <= 100), Charge.distinct((c) => c.account));
    const cause = (f: () => unknown) => (thrown(f) as IncompleteRunError).cause;
    expect(cause(() => enforce([spec], () => charge("a", 101)))).toBeInstanceOf(GuaranteeViolationError);
    expect(() => enforce([spec], () => { charge("a", 1); charge("a", 2); })).toThrow(/share the key "a"/);
    expect(cause(() => enforce([Charge.where((c) => c.account === "x").empty()], () => charge("x", 1)))).toBeInstanceOf(
      GuaranteeViolationError,
    );
    expect(charged).toEqual([["a", 1]]);
  });

  it("checks the prefix parts of an allOf before each call and its whole-run parts at the end", () => {
    // The sum makes the allOf as a whole not prefix-closed; its `all` is still enforced before the call.
    const early = thrown(() => enforce([smallAndCapped(100, 1000)], () => charge("a", 101))) as IncompleteRunError;
    const v = early.cause as GuaranteeViolationError;
    expect(v.phase).toBe("call");
    expect(v.contract).toBe("smallAndCapped");
    expect(v.message).toBe('charge: refused at run time: smallAndCapped: Charge("a", 101) breaks Charge.all(…)');
    expect(charged).toEqual([]);
    // The sum is decided when main returns.
    const late = thrown(() => enforce([smallAndCapped(100, 10)], function main() { charge("a", 6); charge("b", 6); })) as GuaranteeViolationError;
    expect(late).toBeInstanceOf(GuaranteeViolationError);
    expect(late.phase).toBe("return");
    expect(late.contract).toBe("smallAndCapped");
    expect(late.tool).toBe("main");
    expect(late.message).toBe("main returned, but the run broke a guarantee: smallAndCapped: Charge.sum(…) is 12, expected atMost(10)");
    expect(charged).toEqual([["a", 6], ["b", 6]]);
    expect(enforce([smallAndCapped(100, 12)], () => { charge("c", 6); charge("d", 6); return 1; }).result).toBe(1);
  });

  it("enforces the upper side of count().equals and between before each call, the lower side at the end", () => {
    const upper = thrown(() => enforce([Charge.count().equals(1)], () => { charge("a", 1); charge("b", 1); })) as IncompleteRunError;
    expect((upper.cause as GuaranteeViolationError).message).toMatch(/Charge\.count\(\) is 2, expected equals\(1\)$/);
    expect(charged).toEqual([["a", 1]]);
    expect(upper.unestablished).toEqual(["Charge.count().equals(1)"]);
    const lower = thrown(() => enforce([Charge.count().between(2, 3)], () => charge("c", 1))) as GuaranteeViolationError;
    expect(lower.phase).toBe("return");
    expect(lower.message).toMatch(/Charge\.count\(\) is 1, expected between\(2, 3\)$/);
    const between = thrown(() => enforce([Charge.count().between(0, 1)], () => { charge("d", 1); charge("e", 1); })) as IncompleteRunError;
    expect((between.cause as GuaranteeViolationError).phase).toBe("call");
    expect(charged).toEqual([["a", 1], ["c", 1], ["d", 1]]);
  });

  it("checks whole-run guarantees (sum, atLeast, greaterThan, equals, between) when main returns, naming the contract", () => {
    const broken = (spec: ContractSpec, body: () => void): GuaranteeViolationError => {
      const e = thrown(() => enforce([spec], body)) as GuaranteeViolationError;
      expect(e).toBeInstanceOf(GuaranteeViolationError);
      expect(e.phase).toBe("return");
      return e;
    };
    expect(broken(atLeastCharges(2), () => charge("a", 5)).message).toBe(
      "main returned, but the run broke a guarantee: atLeastCharges: Charge.count() is 1, expected atLeast(2)",
    );
    expect(broken(spendAtMost(4), () => charge("a", 5)).contract).toBe("spendAtMost");
    expect(broken(Charge.count().greaterThan(0), () => undefined).message).toMatch(/is 0, expected greaterThan\(0\)$/);
    expect(broken(Charge.sum((c) => c.amount).equals(3), () => { charge("a", 1); charge("b", 1); }).message).toMatch(/is 2, expected equals\(3\)$/);
    expect(broken(Charge.sum((c) => c.amount).between(5, 9), () => charge("a", 1)).message).toMatch(/is 1, expected between\(5, 9\)$/);
    // A sum may exceed its cap on the way and come back under it: only the end counts.
    const net = Charge.sum((c) => (c.account === "refund" ? -c.amount : c.amount)).atMost(4);
    expect(enforce([net, atLeastCharges(2)], () => { charge("a", 9); charge("refund", 6); return "ok"; }).result).toBe("ok");
  });

  it("a run that throws is incomplete: the original error is the cause, and lower bounds and sums are not established", () => {
    const e = thrown(() =>
      enforce([atLeastCharges(1), spendAtMost(100), atMostCharges(5)], function main() {
        charge("a", 1);
        charge("broken", 2);
      }),
    ) as IncompleteRunError;
    expect(e).toBeInstanceOf(IncompleteRunError);
    expect((e.cause as Error).message).toBe("the bank is down");
    expect(e.main).toBe("main");
    // atLeast(1) holds on the partial trace, but the run did not complete: it is not established.
    expect(e.unestablished).toEqual(["atLeastCharges", "spendAtMost"]);
    expect(e.refusal).toBeUndefined();
    expect(e.trace.map((o) => o.toJSON())).toEqual([
      { effect: "charge", account: "a", amount: 1 },
      { event: "Charge", account: "a", amount: 1 },
      { effect: "charge", account: "broken", amount: 2 },
      { event: "Charge", account: "broken", amount: 2 },
    ]);
    expect(e.message).toBe(
      "main threw before completing, so the run is incomplete: Error: the bank is down. " +
        "Not established (they need a complete run): atLeastCharges, spendAtMost.",
    );
  });

  it("a call whose implementation threw leaves the run incomplete even when main catches the error and goes on", () => {
    const e = thrown(() =>
      enforce([atLeastCharges(1)], function main() {
        try {
          charge("broken", 1); // recorded when called; it never returned
        } catch {
          // the program shrugs
        }
        return "done";
      }),
    ) as IncompleteRunError;
    expect(e).toBeInstanceOf(IncompleteRunError);
    expect(e.how).toBe("call-failed");
    expect((e.cause as Error).message).toBe("the bank is down");
    expect(e.unestablished).toEqual(["atLeastCharges"]);
    expect(e.message).toBe(
      "a tool called in main failed (main went on), so the run is incomplete: Error: the bank is down. " +
        "Not established (they need a complete run): atLeastCharges.",
    );
  });

  it("a failed requires or any thrown value makes the run incomplete", () => {
    const failed = thrown(() => enforce([atLeastCharges(0)], () => charge("a", -1))) as IncompleteRunError;
    expect(failed.cause).toBeInstanceOf(RequiresError);
    expect(failed.unestablished).toEqual([]); // atLeast(0) needs nothing
    const odd = thrown(() => enforce([], () => { throw "plain string"; })) as IncompleteRunError;
    expect(odd).toBeInstanceOf(IncompleteRunError);
    expect(odd.cause).toBe("plain string");
    expect(odd.message).toMatch(/incomplete: it threw "plain string"/);
  });

  it("a nested record() inside the body cannot hide a call from the backstop", () => {
    const e = thrown(() =>
      enforce([atMostCharges(1)], () => {
        charge("a", 1);
        record(() => charge("b", 2));
      }),
    ) as IncompleteRunError;
    expect(e.cause).toBeInstanceOf(GuaranteeViolationError);
    expect(charged).toEqual([["a", 1]]);
  });

  it("a recorder whose trace cannot take the call refuses it before any run counts it (no phantom calls)", () => {
    let caught: unknown;
    const e = thrown(() =>
      enforce([atLeastCharges(1)], () => {
        try {
          record(() => charge("a", 1), { trace: Object.freeze([]) as unknown as Occurrence[] });
        } catch (error) {
          caught = error;
        }
      }),
    );
    expect(caught).toBeInstanceOf(RecorderError);
    expect(e).toBe(caught); // a refused call fails the run
    expect(charged).toEqual([]);
    const proxied = thrown(() => enforce([], () => record(() => charge("b", 1), { trace: new Proxy([], {}) }))) as IncompleteRunError;
    expect(proxied.cause).toBeInstanceOf(RecorderError);
    expect(proxied.trace).toEqual([]);
    expect(charged).toEqual([]);
  });

  it("record() inside a run never refuses on its own", () => {
    const { trace } = enforce([], () =>
      record(() => {
        charge("a", 1);
        charge("a", 1);
      }).trace,
    );
    expect(trace).toHaveLength(4);
    expect(charged).toHaveLength(2);
  });

  it("refuses guarantees that are not a list of specifications", () => {
    expect(() => enforce({ length: 1, 0: atMostCharges(1) } as unknown as ContractSpec[], () => 0)).toThrow(/expects an array of guarantees/);
    expect(() => enforce([null as unknown as ContractSpec], () => 0)).toThrow(/guarantees\[0\] is not a guarantee/);
    expect(() => enforce([{ kind: "sometimes" } as unknown as ContractSpec], () => 0)).toThrow(/guarantees\[0\] is not a guarantee/);
    expect(charged).toEqual([]);
  });

  it("reads each guarantee once: a getter cannot answer the checks before calls and at the end differently", () => {
    let reads = 0;
    const shifty = {
      kind: "compare",
      relation: (Charge.count().atMost(1) as Extract<ContractSpec, { kind: "compare" }>).relation,
      aggregate: { kind: "count" },
      get comparison() {
        reads++;
        return reads === 1 ? "atMost" : "atLeast";
      },
      bounds: [1],
    } as unknown as ContractSpec;
    const e = thrown(() => enforce([shifty], () => { charge("a", 1); charge("b", 1); })) as IncompleteRunError;
    expect(e.cause).toBeInstanceOf(GuaranteeViolationError);
    expect(reads).toBe(1);
    expect(charged).toEqual([["a", 1]]);
  });
});
