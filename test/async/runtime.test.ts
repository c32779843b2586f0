/**
 * The runtime with async tools (issue 10): a failing `requires` rejects the call's promise before
 * the implementation starts and records nothing; the backstop stops a call before its
 * implementation runs; two concurrent runs of one program never mix their events; events are in
 * submission order.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { GuaranteeViolationError, RequiresError, ToolCall, enforce, record, requires, trusted, type Occurrence } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, type ContractSpec } from "clauz3/spec";

class Pay extends Event {
  constructor(readonly account: string, readonly amount: number) { super(); }
}

const started: string[] = [];

const pay = trusted(
  performs((account: string, amount: number) => new Pay(account, amount)),
  requires((amount: number) => amount > 0, "amount must be positive"),
  async function pay(account: string, amount: number): Promise<string> {
    started.push(`${account}:${amount}`);
    await sleep(amount % 3); // later calls may finish first
    return `${account}/${amount}`;
  },
);

const noPaymentOver = contract(function noPaymentOver(limit: number): ContractSpec {
  return Pay.all((p) => p.amount <= limit);
});

const paid = (trace: readonly Occurrence[]): string[] =>
  trace.filter((o) => o instanceof ToolCall).map((o) => `${(o as ToolCall).fields.account}:${(o as ToolCall).fields.amount}`);

async function settle<T>(p: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await p };
  } catch (error) {
    return { error };
  }
}

describe("async tools at run time", () => {
  it("a failing requires rejects the promise (no synchronous throw), before the implementation starts, recording nothing", async () => {
    started.length = 0;
    let returned: Promise<string> | undefined;
    const { trace } = record(() => {
      returned = pay("acct", 0);
    });
    expect(returned).toBeInstanceOf(Promise);
    const { error } = await settle(returned!);
    expect(error).toBeInstanceOf(RequiresError);
    expect((error as RequiresError).message).toMatch(/amount must be positive/);
    expect(started).toEqual([]);
    expect(trace).toEqual([]);
  });

  it("the backstop stops an async call before its implementation runs, at the call (awaited or not)", async () => {
    started.length = 0;
    let refusal: unknown;
    const outcome = await settle(
      enforce([noPaymentOver(10)], async () => {
        await pay("a", 5);
        try {
          void pay("b", 50);
        } catch (error) {
          refusal = error;
        }
      }),
    );
    expect(refusal).toBeInstanceOf(GuaranteeViolationError);
    // A run in which a call was refused fails, even when the program caught the refusal.
    expect(outcome.error).toBeInstanceOf(GuaranteeViolationError);
    expect(started).toEqual(["a:5"]);
  });

  it("two concurrent runs of one program record their own calls, in submission order", async () => {
    const program = async (who: string, amounts: number[]): Promise<string[]> => {
      const receipts: string[] = [];
      for (const amount of amounts) receipts.push(await pay(who, amount));
      return receipts;
    };
    const [a, b] = await Promise.all([
      enforce([noPaymentOver(100)], () => program("alice", [2, 1, 3, 5])),
      enforce([noPaymentOver(100)], () => program("bob", [1, 4, 2])),
    ]);
    expect(paid(a.trace)).toEqual(["alice:2", "alice:1", "alice:3", "alice:5"]);
    expect(paid(b.trace)).toEqual(["bob:1", "bob:4", "bob:2"]);
    expect(a.result).toEqual(["alice/2", "alice/1", "alice/3", "alice/5"]);
  });

  it("calls started together are recorded in the order they are made, not the order they finish", async () => {
    const { result, trace } = record(() => Promise.all([pay("slow", 2), pay("fast", 3)]));
    await result;
    expect(paid(trace)).toEqual(["slow:2", "fast:3"]);
  });

  it("in Promise.all a failing requires rejects its own promise and the calls after it still happen", async () => {
    started.length = 0;
    const { result, trace } = record(() => Promise.all([pay("a", 0), pay("b", 3)]));
    await expect(result).rejects.toBeInstanceOf(RequiresError);
    expect(paid(trace)).toEqual(["b:3"]);
    expect(started).toEqual(["b:3"]);
  });

  it("one run breaking its guarantee does not touch another run of the same program in flight", async () => {
    const program = async (amount: number): Promise<void> => {
      await pay("x", 1);
      await sleep(1);
      await pay("x", amount);
    };
    const [bad, good] = await Promise.all([settle(enforce([noPaymentOver(10)], () => program(50))), settle(enforce([noPaymentOver(10)], () => program(2)))]);
    expect(bad.error).toBeDefined();
    expect(good.error).toBeUndefined();
    expect(paid(good.value!.trace)).toEqual(["x:1", "x:2"]);
  });
});
