import { GuaranteeViolationError, ToolCall, enforce, record, trusted } from "clauz3";
import { Event, performs } from "clauz3/events";
import { allOf, contract, type ContractSpec } from "clauz3/spec";

class Charge extends Event {
  constructor(readonly account: string, readonly amount: number) { super(); }
}

const charged: [string, number][] = [];
const charge = trusted(
  performs((account: string, amount: number) => new Charge(account, amount)),
  function charge(account: string, amount: number): void {
    charged.push([account, amount]);
  },
);

const atMostCharges = contract(function atMostCharges(n: number): ContractSpec {
  return Charge.count().atMost(n);
});

describe("enforce (runtime backstop)", () => {
  beforeEach(() => {
    charged.length = 0;
  });

  it("runs the body and returns its result and trace when nothing is broken", () => {
    const { result, trace } = enforce([atMostCharges(2)], () => {
      charge("a", 1);
      charge("b", 2);
      return "done";
    });
    expect(result).toBe("done");
    expect(trace).toHaveLength(4);
    expect(charged).toEqual([["a", 1], ["b", 2]]);
  });

  it("stops the call that would break a guarantee, before its implementation runs", () => {
    let error: unknown;
    const { trace } = enforce([atMostCharges(2)], () => {
      try {
        charge("a", 1);
        charge("b", 2);
        charge("c", 3);
        charge("d", 4);
      } catch (e) {
        error = e;
      }
    });
    expect(error).toBeInstanceOf(GuaranteeViolationError);
    const e = error as GuaranteeViolationError;
    expect(e.tool).toBe("charge");
    expect(e.contract).toBe("atMostCharges");
    expect(e.message).toBe("charge: refused at run time: atMostCharges: Charge.count() is 3, expected atMost(2)");
    expect(charged).toEqual([["a", 1], ["b", 2]]);
    // The refused call is not in the trace.
    expect(trace.filter((o) => o instanceof ToolCall)).toHaveLength(2);
  });

  it("enforces all, empty and distinct on the prefix of the run", () => {
    const spec = allOf(Charge.all((c) => c.amount <= 100), Charge.distinct((c) => c.account));
    expect(() => enforce([spec], () => charge("a", 101))).toThrow(GuaranteeViolationError);
    expect(() => enforce([spec], () => { charge("a", 1); charge("a", 2); })).toThrow(/share the key "a"/);
    expect(() => enforce([Charge.where((c) => c.account === "x").empty()], () => charge("x", 1))).toThrow(
      GuaranteeViolationError,
    );
    expect(charged).toEqual([["a", 1]]);
  });

  it("does not enforce guarantees that only hold for a whole run (atLeast, sum)", () => {
    const { trace } = enforce([Charge.count().atLeast(2), Charge.sum((c) => c.amount).atMost(0)], () => charge("a", 5));
    expect(trace).toHaveLength(2);
    expect(charged).toEqual([["a", 5]]);
  });

  it("a nested record() inside the body cannot hide a call from the backstop", () => {
    expect(() =>
      enforce([atMostCharges(1)], () => {
        charge("a", 1);
        record(() => charge("b", 2));
      }),
    ).toThrow(GuaranteeViolationError);
    expect(charged).toEqual([["a", 1]]);
  });

  it("record() alone never refuses", () => {
    record(() => {
      charge("a", 1);
      charge("a", 1);
    });
    expect(charged).toHaveLength(2);
  });
});
