/**
 * The runtime with tools of one object of named arguments (issue 10): the object's properties are
 * recorded as the call's named parameters, builders and predicates take the object (destructured
 * or whole), `requires` is checked before the implementation, the backstop stops a call before it
 * runs, and the implementation gets the checked copy.
 */
import { describe, expect, it } from "vitest";
import { ArgumentError, RequiresError, ToolCall, enforce, ensures, record, requires, trusted, type Occurrence } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, effect, type ContractSpec } from "clauz3/spec";

class SendEmail extends Event {
  constructor(readonly to: string, readonly subject: string) { super(); }
}
class Pay extends Event {
  constructor(readonly account: string, readonly amount: number) { super(); }
}
interface Payment { account: string; amount: number }

const delivered: unknown[] = [];
const sendEmail = trusted(
  performs(({ to, subject }: { to: string; subject: string }) => new SendEmail(to, subject)),
  requires(({ to }: { to: string }) => to.includes("@"), "to must be an address"),
  function sendEmail(msg: { to: string; subject: string; body: string }): void {
    delivered.push(msg);
  },
);
const pay = trusted(
  performs((p: Payment) => new Pay(p.account, p.amount)),
  requires((p: Payment) => p.amount > 0, "amount must be positive"),
  ensures((r: string, p: Payment) => r.startsWith(p.account)),
  async function pay(p: Payment): Promise<string> {
    return `${p.account}/${p.amount}`;
  },
);
const neverEmail = contract(function neverEmail(addr: string): ContractSpec {
  return SendEmail.all((e) => e.to !== addr);
});
const bodiesAvoid = contract(function bodiesAvoid(word: string): ContractSpec {
  return effect<{ body: string }>(sendEmail).all((c) => !c.body.includes(word));
});

const events = (trace: readonly Occurrence[]): string[] =>
  trace.map((o) => (o instanceof ToolCall ? `call ${o.toolName}(${JSON.stringify(o.fields)})` : `${o.constructor.name}(${JSON.stringify(o)})`));

describe("tools of one object of named arguments at run time", () => {
  it("records the properties as named parameters and the events the destructuring builder builds", () => {
    delivered.length = 0;
    const { trace } = record(() => sendEmail({ to: "a@b", subject: "hi", body: "text" }));
    expect(events(trace)).toEqual([
      `call sendEmail({"to":"a@b","subject":"hi","body":"text"})`,
      `SendEmail({"event":"SendEmail","to":"a@b","subject":"hi"})`,
    ]);
    expect(delivered).toEqual([{ to: "a@b", subject: "hi", body: "text" }]);
  });

  it("a builder and predicates that take the whole object, on an async tool", async () => {
    const { trace } = record(() => void pay({ account: "acct", amount: 5 }));
    expect(events(trace)).toEqual([`call pay({"account":"acct","amount":5})`, `Pay({"event":"Pay","account":"acct","amount":5})`]);
    await expect(pay({ account: "acct", amount: 5 })).resolves.toBe("acct/5");
  });

  it("a failing requires stops the call before the implementation and records nothing", async () => {
    delivered.length = 0;
    const { trace, error } = (() => {
      try {
        return { trace: record(() => sendEmail({ to: "nobody", subject: "s", body: "b" })).trace, error: undefined };
      } catch (e) {
        return { trace: [], error: e };
      }
    })();
    expect(error ?? trace).toBeInstanceOf(RequiresError);
    expect(delivered).toEqual([]);
    await expect(pay({ account: "a", amount: 0 })).rejects.toBeInstanceOf(RequiresError);
  });

  it("the backstop stops a call whose property breaks a guarantee, over events and over the tool's named fields", async () => {
    delivered.length = 0;
    // enforce reports the refused call (a GuaranteeViolationError) as the reason the run is incomplete.
    await expect((async () => enforce([neverEmail("ceo@corp")], () => sendEmail({ to: "ceo@corp", subject: "s", body: "b" })))()).rejects.toThrow(/GuaranteeViolationError: sendEmail: refused at run time: neverEmail/);
    await expect((async () => enforce([bodiesAvoid("secret")], () => sendEmail({ to: "a@b", subject: "s", body: "the secret" })))()).rejects.toThrow(/GuaranteeViolationError: sendEmail: refused at run time: bodiesAvoid/);
    expect(delivered).toEqual([]);
    await expect((async () => enforce([bodiesAvoid("secret")], () => sendEmail({ to: "a@b", subject: "s", body: "fine" })))()).resolves.toMatchObject({ result: undefined });
    expect(delivered).toHaveLength(1);
  });

  it("a getter is read once, when the call copies its object: the checked value is the value the tool gets", () => {
    delivered.length = 0;
    let reads = 0;
    const msg = { subject: "s", body: "b", get to(): string { return reads++ === 0 ? "a@b" : "ceo@corp"; } };
    const { trace } = record(() => sendEmail(msg));
    expect(reads).toBe(1);
    expect(events(trace)[1]).toContain(`"to":"a@b"`);
    expect(delivered).toEqual([{ subject: "s", body: "b", to: "a@b" }]);
  });

  it("an argument that is not a plain object is refused before anything runs", () => {
    class Message { constructor(readonly to: string, readonly subject: string, readonly body: string) {} }
    const withMetadata = trusted(
      { __clauz3_metadata: { tool: "mail.send", parameters: ["to", "subject", "body"], objectParameter: "msg", builderParameters: ["to", "subject"], events: [], requires: [], ensures: [] } },
      performs(({ to, subject }: { to: string; subject: string }) => new SendEmail(to, subject)),
      function send(msg: { to: string; subject: string; body: string }): void { delivered.push(msg); },
    );
    delivered.length = 0;
    expect(() => withMetadata(new Message("a@b", "s", "b"))).toThrow(ArgumentError);
    const { trace } = record(() => withMetadata({ to: "a@b", subject: "s", body: "b", extra: 1 } as never));
    // With metadata, the named parameters are the declared properties only.
    expect(events(trace)[0]).toBe(`call mail.send({"to":"a@b","subject":"s","body":"b"})`);
    expect(delivered).toHaveLength(1);
  });
});
