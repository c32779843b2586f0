import { EnsuresError, RequiresError, ToolCall, ToolFailedError, ensures, record, requires, toolInfo, trusted } from "clauz3";
import { Event, effect, performs } from "clauz3/events";
import { check } from "clauz3/spec";

class Send extends Event {
  constructor(readonly to: string) { super(); }
}
class Pay extends Event {
  constructor(readonly to: string, readonly amount: number) { super(); }
}

describe("trusted tools", () => {
  let ran: unknown[][] = [];
  beforeEach(() => {
    ran = [];
  });

  const pay = trusted(
    // The builder names a subset of the tool's parameters, in another order.
    performs((amount: number, to: string) => [new Send(to), new Pay(to, amount)]),
    requires((amount: number) => amount > 0, "amount must be positive"),
    function pay(to: string, memo: string, amount: number): string {
      ran.push([to, memo, amount]);
      return `paid ${amount} to ${to}`;
    },
  );

  it("behaves like its implementation", () => {
    expect(pay("bob", "rent", 5)).toBe("paid 5 to bob");
    expect(ran).toEqual([["bob", "rent", 5]]);
    expect(pay.name).toBe("pay");
    expect(pay.length).toBe(3);
  });

  it("records the tool call, then its events, in call order", () => {
    const { result, trace } = record(() => {
      pay("bob", "rent", 5);
      return pay("eve", "gift", 7);
    });
    expect(result).toBe("paid 7 to eve");
    expect(trace).toHaveLength(6);
    const call = trace[0];
    expect(call).toBeInstanceOf(ToolCall);
    expect((call as ToolCall).tool).toBe(pay);
    expect((call as ToolCall).toolName).toBe("pay");
    expect((call as ToolCall).fields).toEqual({ to: "bob", memo: "rent", amount: 5 });
    expect(Object.isFrozen(call)).toBe(true);
    expect((trace[1] as Send).equals(new Send("bob"))).toBe(true);
    expect((trace[2] as Pay).toJSON()).toEqual({ event: "Pay", to: "bob", amount: 5 });
    expect(trace.map((o) => o.toJSON())).toEqual([
      { effect: "pay", to: "bob", memo: "rent", amount: 5 },
      { event: "Send", to: "bob" },
      { event: "Pay", to: "bob", amount: 5 },
      { effect: "pay", to: "eve", memo: "gift", amount: 7 },
      { event: "Send", to: "eve" },
      { event: "Pay", to: "eve", amount: 7 },
    ]);
  });

  it("records nothing outside record(), and each record() starts fresh", () => {
    pay("bob", "x", 1);
    expect(record(() => 0).trace).toEqual([]);
  });

  it("a nested record() sees only its own calls; the enclosing one sees all of them", () => {
    const outer = record(() => {
      pay("a", "x", 1);
      const inner = record(() => pay("b", "x", 2));
      expect(inner.trace.filter((o) => o instanceof ToolCall).map((o) => (o as ToolCall).fields.to)).toEqual(["b"]);
      pay("c", "x", 3);
    });
    expect(outer.trace.filter((o) => o instanceof ToolCall).map((o) => (o as ToolCall).fields.to)).toEqual(["a", "b", "c"]);
  });

  it("pops the recorder when the body throws", () => {
    expect(() => record(() => { pay("a", "x", 1); throw new Error("boom"); })).toThrow("boom");
    expect(record(() => 1).trace).toEqual([]);
  });

  it("knows its name, parameters and performs declaration", () => {
    const info = toolInfo(pay);
    expect(info?.name).toBe("pay");
    expect(info?.parameters).toEqual(["to", "memo", "amount"]);
    expect(info?.performs).toBeDefined();
    expect(toolInfo(() => 1)).toBeUndefined();
    expect(toolInfo("pay")).toBeUndefined();
  });

  it("a failing requires throws RequiresError naming tool, arguments and message before the implementation runs", () => {
    let error: unknown;
    const { trace } = record(() => {
      try {
        pay("bob", "rent", -3);
      } catch (e) {
        error = e;
      }
    });
    expect(error).toBeInstanceOf(RequiresError);
    const e = error as RequiresError;
    expect(e.tool).toBe("pay");
    expect(e.args).toEqual({ to: "bob", memo: "rent", amount: -3 });
    expect(e.requirement).toBe("amount must be positive");
    expect(e.message).toBe('pay(to="bob", memo="rent", amount=-3): precondition failed: amount must be positive');
    expect(e.name).toBe("RequiresError");
    expect(ran).toEqual([]);
    expect(trace).toEqual([]);
  });

  it("a requires without a message reports the predicate source", () => {
    const half = trusted(
      requires((n: number) => n % 2 === 0),
      function half(n: number): number {
        ran.push([n]);
        return n / 2;
      },
    );
    expect(half(4)).toBe(2);
    expect(() => half(3)).toThrow(/half\(n=3\): precondition failed: .*n % 2 === 0/);
    expect(ran).toEqual([[4]]);
  });

  it("every requires must hold; a truthy non-boolean is not true", () => {
    const f = trusted(
      requires((a: string) => a.length > 0, "a"),
      requires((b: string) => (b as unknown as boolean), "b"),
      function f(a: string, b: string): string {
        ran.push([a, b]);
        return a + b;
      },
    );
    expect(() => f("", "x")).toThrow(/precondition failed: a$/);
    expect(() => f("x", "y")).toThrow(/precondition failed: b$/);
    expect(ran).toEqual([]);
  });

  it("ensures checks the result, with tool parameters after the result", () => {
    const clamp = trusted(
      ensures((result: number, hi: number) => result <= hi, "result is at most hi"),
      function clamp(value: number, hi: number): number {
        return value + 0 * hi; // wrong on purpose: never clamps
      },
    );
    expect(clamp(3, 5)).toBe(3);
    let error: unknown;
    try {
      clamp(9, 5);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnsuresError);
    expect((error as EnsuresError).tool).toBe("clamp");
    expect((error as EnsuresError).result).toBe(9);
    expect((error as EnsuresError).args).toEqual({ value: 9, hi: 5 });
    expect((error as EnsuresError).message).toBe("clamp(value=9, hi=5) returned 9: postcondition failed: result is at most hi");
  });

  it("ensures checks an async result when the promise settles", async () => {
    const fetchCount = trusted(
      ensures((result: number) => result >= 0, "non-negative"),
      async function fetchCount(n: number): Promise<number> {
        return n;
      },
    );
    await expect(fetchCount(2)).resolves.toBe(2);
    await expect(fetchCount(-1)).rejects.toBeInstanceOf(EnsuresError);
  });

  it("hands each call's result to the caller as its own copy, and checks ensures on that copy", async () => {
    interface Room { readonly id: string; readonly seats: number; readonly tags: string[] }
    const shared: Room[] = [{ id: "b", seats: 40, tags: ["lab"] }, { id: "a", seats: 20, tags: [] }];
    const rooms = trusted(
      ensures((r: Room[]) => r.every((x) => x.seats > 0), "seats are positive"),
      function rooms(): Room[] { return shared; },
    );
    const first = rooms();
    // The program sorts and extends its copy: neither the tool's array nor the next result changes.
    first.sort((a, b) => a.seats - b.seats);
    first[0]!.tags.push("changed");
    expect(first.map((r) => r.id)).toEqual(["a", "b"]);
    expect(shared.map((r) => r.id)).toEqual(["b", "a"]);
    expect(shared[1]!.tags).toEqual([]);
    const second = rooms();
    expect(second).not.toBe(first);
    expect(second.map((r) => r.id)).toEqual(["b", "a"]);
    // The tool changes its array after returning: the result the caller holds, checked by ensures, stays.
    shared[0] = { id: "z", seats: -1, tags: [] };
    expect(second[0]!.seats).toBe(40);
    expect(() => rooms()).toThrow(EnsuresError);
    // An async tool's resolved value is copied too; objects reached twice stay one object, cycles stay cycles.
    const node: { name: string; self?: unknown; twice?: unknown[] } = { name: "n" };
    node.self = node;
    const pair = [1, 2];
    node.twice = [pair, pair];
    const tree = trusted(async function tree(): Promise<typeof node> { return node; });
    const got = await tree();
    expect(got).not.toBe(node);
    expect(got.self).toBe(got);
    expect(got.twice![0]).toBe(got.twice![1]);
    expect(got.twice![0]).not.toBe(pair);
    // Class instances keep their identity (a Date, a Buffer, an object of the layer's own class).
    const when = new Date(0);
    const stamp = trusted(function stamp(): { at: Date } { return { at: when }; });
    expect(stamp().at).toBe(when);
  });

  it("an implementation that throws something other than an Error throws a ToolFailedError with it as the cause; Errors pass as they are", async () => {
    const boom = new RangeError("out of range");
    const fails = trusted(function fails(what: string): void {
      if (what === "error") throw boom;
      throw what === "object" ? { toString: () => "never called" } : what;
    });
    const failsAsync = trusted(async function failsAsync(what: string): Promise<void> {
      throw what === "error" ? boom : Symbol(what);
    });
    expect(() => fails("error")).toThrow(boom);
    let caught: unknown;
    try {
      fails("text");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolFailedError);
    expect((caught as ToolFailedError).cause).toBe("text");
    expect(String(caught)).toBe("ToolFailedError: fails failed, throwing a value that is not an Error: text");
    expect(() => fails("object")).toThrow("fails failed, throwing a value that is not an Error: an object");
    await expect(failsAsync("error")).rejects.toBe(boom);
    const rejected = await failsAsync("s").catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(ToolFailedError);
    expect(typeof (rejected as ToolFailedError).cause).toBe("symbol");
    expect((rejected as Error).message).toBe("failsAsync failed, throwing a value that is not an Error: Symbol(s)");
  });

  it("refuses a second performs, a missing implementation and unknown declarations", () => {
    expect(() =>
      trusted(performs((a: string) => new Send(a)), performs((a: string) => new Send(a)), function twice(a: string) {
        return a;
      }),
    ).toThrow(/declares performs\(\.\.\.\) twice/);
    expect(() => (trusted as (...a: unknown[]) => unknown)(performs((a: string) => new Send(a)))).toThrow(/implementation function last/);
    expect(() => (trusted as (...a: unknown[]) => unknown)({ nope: 1 }, function g() {})).toThrow(/accepts only performs/);
  });

  it("refuses a builder parameter the tool does not have, and a builder returning a non-event", () => {
    const bad = trusted(performs((dest: string) => new Send(dest)), function bad(src: string) {
      return src;
    });
    expect(() => bad("x")).toThrow(/bad has no parameter "dest"/);
    const notEvent = trusted(performs((a: string) => ({ a }) as unknown as Event), function notEvent(a: string) {
      ran.push([a]);
      return a;
    });
    expect(() => notEvent("x")).toThrow(/returned a non-event/);
    expect(ran).toEqual([]);
  });

  it("effect(tool) is the relation of its calls, with parameters as fields", () => {
    const { trace } = record(() => {
      pay("bob", "rent", 5);
      pay("eve", "gift", 50);
    });
    expect(check(effect(pay).all((c) => c.amount < 100), trace)).toEqual([]);
    const [v] = check(effect(pay).all((c) => c.memo !== "gift"), trace);
    expect(v?.message).toBe('pay(to="eve", memo="gift", amount=50) breaks effect(pay).all(…)');
    expect(v?.witnesses).toEqual([trace[3]]);
    expect(check(effect(pay).count().equals(2), trace)).toEqual([]);
    expect(check(effect(pay).sum((c) => c.amount).equals(55), trace)).toEqual([]);
    expect(() => effect(() => 1)).toThrow(/expects a trusted tool/);
  });
});
