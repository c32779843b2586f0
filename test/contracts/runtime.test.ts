/** The new contract forms on concrete runs: the join, the renamed `allSameValue`, element promises. */
import { EnsuresError, enforce, ensures, GuaranteeViolationError, IncompleteRunError, record, trusted } from "clauz3";
import { Event, performs } from "clauz3/events";
import { check, contract, type ContractSpec } from "clauz3/spec";

class SendEmail extends Event {
  constructor(readonly to: string, readonly body: string) { super(); }
}
class Note extends Event {
  constructor(readonly body: string) { super(); }
}
const mails = (...pairs: [string, string][]): SendEmail[] => pairs.map(([to, body]) => new SendEmail(to, body));
const same = SendEmail.where((e) => e.to === "bob").sharesValueWith(SendEmail.where((e) => e.to === "ann"), (e) => e.body);

describe("sharesValueWith: some left item and some right item have the same key", () => {
  it("holds when a pair exists, whatever else happens", () => {
    expect(check(same, mails(["bob", "hi"], ["carl", "x"], ["ann", "hi"]))).toEqual([]);
    expect(check(same, mails(["ann", "a"], ["bob", "b"], ["ann", "b"]))).toEqual([]);
  });

  it("is violated when no pair exists, naming both sides and their sizes", () => {
    const trace = mails(["bob", "hi"], ["ann", "hello"]);
    const v = check(same, trace);
    expect(v).toHaveLength(1);
    expect(v[0]!.message).toBe("no item of SendEmail.where(…) has the key of an item of SendEmail.where(…) (1 item(s) on the left, 1 on the right), but SendEmail.where(…).sharesValueWith(SendEmail.where(…), …) needs a pair");
    expect(v[0]!.witnesses).toEqual(trace);
    expect(check(same, [])).toHaveLength(1); // an empty run has no pair
    expect(check(same, mails(["bob", "hi"]))).toHaveLength(1); // one side only
  });

  it("compares keys with ===: NaN matches nothing, -0 matches 0", () => {
    class M extends Event { constructor(readonly side: string, readonly n: number) { super(); } }
    const join = M.where((m) => m.side === "l").sharesValueWith(M.where((m) => m.side === "r"), (m) => m.n);
    expect(check(join, [new M("l", NaN), new M("r", NaN)])).toHaveLength(1);
    expect(check(join, [new M("l", -0), new M("r", 0)])).toEqual([]);
  });

  it("joins across event classes and with an event class as the other side", () => {
    const join = SendEmail.where((e) => e.to === "bob").sharesValueWith(Note, (x) => x.body);
    expect(check(join, [new Note("hi"), ...mails(["bob", "hi"])])).toEqual([]);
    expect(check(join, [new Note("hi"), ...mails(["ann", "hi"])])).toHaveLength(1);
    expect(() => SendEmail.sharesValueWith({} as never, (x) => x)).toThrow(/expects a relation/);
  });

  it("is decided when the run ends, never before a call (a pair may still come)", () => {
    const sendEmail = trusted(performs((to: string, body: string) => new SendEmail(to, body)), function sendEmail(to: string, body: string): void {});
    const g = [same];
    expect(() => enforce(g, () => { sendEmail("bob", "hi"); sendEmail("ann", "hi"); })).not.toThrow();
    expect(() => enforce(g, () => { sendEmail("bob", "hi"); sendEmail("ann", "yo"); })).toThrow(GuaranteeViolationError);
    expect(() => enforce(g, () => { sendEmail("bob", "hi"); throw new Error("stop"); })).toThrow(IncompleteRunError);
  });
});

describe("allSameValue (sharesValue renamed)", () => {
  it("builds the same specification under both names", () => {
    const a = SendEmail.allSameValue((e) => e.to);
    const b = SendEmail.sharesValue((e) => e.to);
    expect(a.kind).toBe("allSameValue");
    expect(b.kind).toBe("allSameValue");
    const trace = mails(["a", "1"], ["b", "2"]);
    expect(check(a, trace).map((v) => v.message)).toEqual(check(b, trace).map((v) => v.message));
    expect(check(a, mails(["a", "1"], ["a", "2"]))).toEqual([]);
  });

  it("a contract written with the old name still works", () => {
    const oneRecipient = contract({ description: "All emails go to one address." }, (): ContractSpec => SendEmail.sharesValue((e) => e.to));
    expect(check(oneRecipient(), mails(["a", "1"], ["b", "2"]))).toHaveLength(1);
  });
});

describe("element promises at run time", () => {
  const listEnv = trusted(
    ensures((names: string[], prefix: string) => names.every((n) => n.startsWith(prefix)), "every name starts with the prefix"),
    function listEnv(prefix: string): string[] {
      return prefix === "APP_" ? ["APP_A", "HOME", "PATH"] : [`${prefix}X`];
    },
  );
  interface Invoice { readonly account: string; readonly amount: number }
  const openInvoices = trusted(ensures((r: Invoice[]) => r.every((inv) => inv.amount > 0)), function openInvoices(): Invoice[] {
    return [{ account: "a", amount: 5 }, { account: "b", amount: 0 }];
  });

  it("a result that keeps the promise is returned", () => {
    expect(listEnv("K")).toEqual(["KX"]);
  });

  it("EnsuresError names the first element that breaks it, by index", () => {
    let error: unknown;
    try { listEnv("APP_"); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(EnsuresError);
    expect((error as EnsuresError).element).toBe(1);
    expect((error as EnsuresError).message).toBe('listEnv(prefix="APP_") returned ["APP_A","HOME","PATH"]: postcondition failed at element 1 ("HOME"): every name starts with the prefix');
  });

  it("on fields of interface elements", () => {
    let error: unknown;
    try { openInvoices(); } catch (e) { error = e; }
    expect((error as EnsuresError).element).toBe(1);
    expect((error as EnsuresError).message).toMatch(/postcondition failed at element 1 \(\{"account":"b","amount":0\}\): \(r\) => r\.every/);
  });

  it("a promise about the whole result names no element", () => {
    const few = trusted(ensures((r: string[]) => r.length <= 1, "at most one"), function few(): string[] { return ["a", "b"]; });
    let error: unknown;
    try { few(); } catch (e) { error = e; }
    expect((error as EnsuresError).element).toBeUndefined();
    expect((error as EnsuresError).message).toBe('few() returned ["a","b"]: postcondition failed: at most one');
  });

  it("the call and its events are recorded before the result is checked", () => {
    const { trace, error } = (() => {
      let caught: unknown;
      const r = record(() => { try { listEnv("APP_"); } catch (e) { caught = e; } });
      return { trace: r.trace, error: caught };
    })();
    expect(error).toBeInstanceOf(EnsuresError);
    expect(trace).toHaveLength(1);
  });
});
