import { AsyncResource } from "node:async_hooks";

// Each test imports a fresh clauz3 runtime (vi.resetModules), as a new process would: the
// process's unowned calls start empty, and the agent module's top level runs on import.
type Runtime = typeof import("clauz3");
type Layer = typeof import("./load/layer");

async function fresh(): Promise<{ rt: Runtime; layer: Layer }> {
  vi.resetModules();
  const rt = await import("clauz3");
  const layer = await import("./load/layer");
  return { rt, layer };
}

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

describe("enforce: calls made while the program loads", () => {
  it("a guarantee broken by a call at module load stops the run before main runs", async () => {
    const { rt, layer } = await fresh();
    const agent = await import("./load/sends-at-load");
    expect(layer.sent).toEqual(["eve@evil.example:1"]); // nothing could stop it: no run had started
    const e = thrown(() => rt.enforce(agent.guarantees, agent.main)) as InstanceType<Runtime["GuaranteeViolationError"]>;
    expect(e).toBeInstanceOf(rt.GuaranteeViolationError);
    expect(e.phase).toBe("load");
    expect(e.tool).toBe("send");
    expect(e.contract).toBe("neverSendTo");
    expect(e.message).toBe(
      'send: refused before main ran (the calls made while the program loaded count): neverSendTo: Send("eve@evil.example", 1) breaks Send.all(…)',
    );
    expect(agent.ran).toEqual([]);
  });

  it("a load-time call wrapped in record() is still the process's call", async () => {
    const { rt } = await fresh();
    const agent = await import("./load/hides-in-record");
    expect(() => rt.enforce(agent.guarantees, agent.main)).toThrow(rt.GuaranteeViolationError);
    expect(agent.ran).toEqual([]);
  });

  it("load-time calls count toward the prefix checks before each call and the whole-run checks at the end", async () => {
    const { rt, layer } = await fresh();
    const agent = await import("./load/spends-at-load");
    // 7 at load + 3 in main = 10: kept; the load-time call is reported with the run.
    const { trace, loaded } = rt.enforce(agent.guarantees, () => agent.main(3));
    expect(loaded.map((o) => o.toJSON())).toEqual([
      { effect: "send", to: "bob@example.com", amount: 7 },
      { event: "Send", to: "bob@example.com", amount: 7 },
    ]);
    expect(trace).toHaveLength(2);
    // 7 at load + 4 in main = 11: broken when main returns.
    const over = thrown(() => rt.enforce(agent.guarantees, function main() { agent.main(4); })) as InstanceType<Runtime["GuaranteeViolationError"]>;
    expect(over.phase).toBe("return");
    expect(over.contract).toBe("spendAtMost");
    expect(over.message).toMatch(/Send\.sum\(…\) is 11, expected atMost\(10\)$/);
    // One send at load + two in main breaks atMostSends(2) before the second call of main.
    const third = thrown(() => rt.enforce(agent.guarantees, () => { agent.main(1); agent.main(1); })) as InstanceType<Runtime["IncompleteRunError"]>;
    expect(third).toBeInstanceOf(rt.IncompleteRunError);
    expect((third.cause as Error).message).toMatch(/atMostSends: Send\.count\(\) is 3, expected atMost\(2\)$/);
    expect(layer.sent).toEqual(["bob@example.com:7", "carol@example.com:3", "carol@example.com:4", "carol@example.com:1"]);
  });

  it("with a mark taken before the import, only the calls after it are charged", async () => {
    const { rt, layer } = await fresh();
    layer.send("eve@evil.example", 1); // the host's own call, before the mark
    const since = rt.traceMark();
    expect(rt.enforce([layer.neverSendTo("eve@evil.example")], () => "ok", { since }).result).toBe("ok");
    layer.send("eve@evil.example", 2); // after the mark: charged
    expect(() => rt.enforce([layer.neverSendTo("eve@evil.example")], () => "ok", { since })).toThrow(rt.GuaranteeViolationError);
    // Without a mark, every unowned call of the process is charged.
    expect(() => rt.enforce([layer.atMostSends(1)], () => "ok")).toThrow(/Send\.count\(\) is 2, expected atMost\(1\)/);
    expect(() => rt.enforce([], () => 0, { since: {} as ReturnType<Runtime["traceMark"]> })).toThrow(/expects a mark made by traceMark/);
  });

  it("calls owned by a finished run are not charged to later runs; unowned calls are", async () => {
    const { rt, layer } = await fresh();
    rt.enforce([layer.atMostSends(1)], () => layer.send("a@example.com", 1));
    expect(rt.enforce([layer.atMostSends(1)], () => layer.send("b@example.com", 1)).loaded).toEqual([]);
    // A record() outside any run does not own its calls for the process.
    rt.record(() => layer.send("c@example.com", 1));
    expect(() => rt.enforce([layer.atMostSends(1)], () => layer.send("d@example.com", 1))).toThrow(rt.IncompleteRunError);
    expect(layer.sent).toEqual(["a@example.com:1", "b@example.com:1", "c@example.com:1"]);
  });

  it("a function that leaks out of a run and is called outside makes unowned calls", async () => {
    const { rt, layer } = await fresh();
    let leaked: (() => void) | undefined;
    rt.enforce([layer.neverSendTo("eve@evil.example")], () => {
      leaked = () => layer.send("eve@evil.example", 1);
    });
    leaked!(); // no run in its context: nothing refuses it, but the process remembers it
    expect(() => rt.enforce([layer.neverSendTo("eve@evil.example")], () => 0)).toThrow(rt.GuaranteeViolationError);
  });

  it("a call that lost its async context while a run is in flight is charged to that run", async () => {
    const { rt, layer } = await fresh();
    const outside = new AsyncResource("outside-any-run");
    const e = await rt
      .enforce([layer.neverSendTo("eve@evil.example")], async () => {
        await Promise.resolve();
        // Runs the callback in the context captured outside the run: no run owns the call.
        outside.runInAsyncScope(() => layer.send("eve@evil.example", 1));
      })
      .catch((error: unknown) => error);
    expect(e).toBeInstanceOf(rt.IncompleteRunError);
    expect((e as InstanceType<Runtime["IncompleteRunError"]>).cause).toBeInstanceOf(rt.GuaranteeViolationError);
    expect(layer.sent).toEqual([]);
  });
});
