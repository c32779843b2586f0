import fc from "fast-check";
import { record, trusted, type Occurrence } from "clauz3";
import { Event, performs } from "clauz3/events";
import { allOf, check, contract, noGuarantees, type ContractSpec } from "clauz3/spec";

class Mail extends Event {
  constructor(readonly to: string) { super(); }
}
class Urgent extends Mail {}
class Spend extends Event {
  constructor(readonly amount: number) { super(); }
}

const mails = (...to: string[]): Mail[] => to.map((t) => new Mail(t));

describe("check: all / where / empty", () => {
  it("all: every item satisfies the predicate; each breaking item is a violation", () => {
    const trace = mails("a@x", "b@y", "c@y");
    expect(check(Mail.all((m) => m.to.includes("@")), trace)).toEqual([]);
    const violations = check(Mail.all((m) => m.to.endsWith("@x")), trace);
    expect(violations.map((v) => v.witnesses)).toEqual([[trace[1]], [trace[2]]]);
    expect(violations[0]!.message).toBe('Mail("b@y") breaks Mail.all(…)');
    expect(violations[0]!.contract).toBeUndefined();
  });

  it("all over an empty relation holds", () => {
    expect(check(Mail.all(() => false), [])).toEqual([]);
    expect(check(Mail.all(() => false), [new Spend(1)])).toEqual([]);
  });

  it("where narrows before all / empty / count / sum", () => {
    const trace = [...mails("a@x", "b@y"), new Urgent("c@y")];
    const toY = Mail.where((m) => m.to.endsWith("@y"));
    expect(check(toY.count().equals(2), trace)).toEqual([]);
    expect(check(toY.all((m) => m.to !== "b@y"), trace)).toHaveLength(1);
    expect(check(toY.empty(), trace).map((v) => v.message)).toEqual([
      'Mail("b@y") is performed but Mail.where(…) must be empty',
      'Urgent("c@y") is performed but Mail.where(…) must be empty',
    ]);
    expect(check(toY.where((m) => m.to.startsWith("c")).count().equals(1), trace)).toEqual([]);
    expect(check(Mail.where((m) => m.to === "zzz").empty(), trace)).toEqual([]);
  });

  it("empty: any event of the class or a subclass breaks it", () => {
    expect(check(Urgent.empty(), mails("a"))).toEqual([]);
    expect(check(Mail.empty(), [new Urgent("a")])).toHaveLength(1);
    expect(check(Mail.empty(), [])).toEqual([]);
  });
});

describe("check: count and sum comparisons", () => {
  const three = mails("a", "b", "c");
  const cases: [string, (n: ReturnType<typeof Mail.count>) => ContractSpec, boolean][] = [
    ["atMost(3)", (a) => a.atMost(3), true],
    ["atMost(2)", (a) => a.atMost(2), false],
    ["atLeast(3)", (a) => a.atLeast(3), true],
    ["atLeast(4)", (a) => a.atLeast(4), false],
    ["lessThan(4)", (a) => a.lessThan(4), true],
    ["lessThan(3)", (a) => a.lessThan(3), false],
    ["greaterThan(2)", (a) => a.greaterThan(2), true],
    ["greaterThan(3)", (a) => a.greaterThan(3), false],
    ["equals(3)", (a) => a.equals(3), true],
    ["equals(2)", (a) => a.equals(2), false],
    ["between(3, 5)", (a) => a.between(3, 5), true],
    ["between(1, 3)", (a) => a.between(1, 3), true],
    ["between(4, 9)", (a) => a.between(4, 9), false],
    ["between(0, 2)", (a) => a.between(0, 2), false],
  ];
  it.each(cases)("count() of 3 events, %s", (label, compare, holds) => {
    const violations = check(compare(Mail.count()), three);
    expect(violations.length === 0).toBe(holds);
    if (!holds) {
      expect(violations).toHaveLength(1);
      expect(violations[0]!.message).toBe(`Mail.count() is 3, expected ${label}`);
      expect(violations[0]!.witnesses).toEqual(three);
    }
  });

  it("counts with multiplicity: equal events count twice", () => {
    expect(check(Mail.count().equals(2), mails("a", "a"))).toEqual([]);
  });

  it("sum adds the selector over events with multiplicity", () => {
    const trace = [new Spend(100), new Spend(250.5), new Spend(100), new Mail("x")];
    expect(check(Spend.sum((s) => s.amount).equals(450.5), trace)).toEqual([]);
    expect(check(Spend.sum((s) => s.amount).atMost(450), trace)[0]!.message).toBe(
      "Spend.sum(…) is 450.5, expected atMost(450)",
    );
    expect(check(Spend.sum((s) => s.amount).between(0, 500), trace)).toEqual([]);
    expect(check(Spend.sum((s) => s.amount).greaterThan(450.5), trace)).toHaveLength(1);
    expect(check(Spend.sum((s) => s.amount).lessThan(451), trace)).toEqual([]);
    expect(check(Spend.sum((s) => s.amount).atLeast(451), trace)).toHaveLength(1);
    expect(check(Spend.sum((s) => s.amount).equals(0), [])).toEqual([]);
  });

  it("comparisons refuse non-number bounds", () => {
    expect(() => Mail.count().atMost("3" as unknown as number)).toThrow(/expects numbers/);
  });
});

describe("check: distinct and sharesValue", () => {
  it("distinct: no two items share the key; each clashing pair is reported", () => {
    expect(check(Mail.distinct((m) => m.to), mails("a", "b", "c"))).toEqual([]);
    const trace = mails("a", "b", "a", "a");
    const v = check(Mail.distinct((m) => m.to), trace);
    expect(v).toHaveLength(3);
    expect(v[0]!.witnesses).toEqual([trace[0], trace[2]]);
    expect(v[0]!.message).toBe('Mail("a") and Mail("a") share the key "a"');
  });

  it("sharesValue: every two items have the same key", () => {
    expect(check(Mail.sharesValue((m) => m.to), mails("a", "a", "a"))).toEqual([]);
    expect(check(Mail.sharesValue((m) => m.to), [])).toEqual([]);
    const v = check(Mail.sharesValue((m) => m.to.length), mails("a", "bb", "c"));
    expect(v).toHaveLength(2);
    expect(v[0]!.message).toBe('Mail("a") and Mail("bb") have different keys 1 and 2');
  });

  it("where narrows distinct and sharesValue", () => {
    const trace = [new Urgent("a"), new Mail("a"), new Urgent("b")];
    expect(check(Mail.where((m) => m instanceof Urgent).distinct((m) => m.to), trace)).toEqual([]);
    expect(check(Urgent.sharesValue((m) => m.to), trace)).toHaveLength(1);
    expect(check(Mail.where((m) => m.to === "a").sharesValue((m) => m.to), trace)).toEqual([]);
  });
});

describe("check: combinators and contracts", () => {
  it("noGuarantees holds on every trace", () => {
    expect(check(noGuarantees(), [new Mail("a"), new Spend(1e9)])).toEqual([]);
  });

  it("allOf collects the violations of every part", () => {
    const spec = allOf(Mail.count().atMost(1), Spend.empty(), Mail.all((m) => m.to !== "z"));
    expect(check(spec, [new Mail("a")])).toEqual([]);
    expect(check(spec, [new Mail("a"), new Mail("z"), new Spend(1)])).toHaveLength(3);
    expect(check(allOf(), [new Mail("a")])).toEqual([]);
  });

  const mailOnlyTo = contract(
    { description: "Mail goes only to {domain}." },
    function mailOnlyTo(domain: string): ContractSpec {
      return Mail.all((m) => m.to.endsWith("@" + domain));
    },
  );
  const atMostMails = contract(
    { description: "At most {n} mails are sent." },
    function atMostMails(n: number): ContractSpec {
      return Mail.count().atMost(n);
    },
  );
  const careful = contract(
    { description: "At most {n} mails, all to {domain}, nobody twice." },
    function careful(n: number, domain: string): ContractSpec {
      return allOf(mailOnlyTo(domain), atMostMails(n), Mail.distinct((m) => m.to));
    },
  );

  it("a contract call is a guarantee with its sentence and arguments", () => {
    const g = careful(2, "corp.com");
    expect(g.kind).toBe("guarantee");
    expect(g.contract).toBe("careful");
    expect(g.args).toEqual([2, "corp.com"]);
    expect(Object.isFrozen(g.args)).toBe(true);
    expect(g.description).toBe('At most 2 mails, all to "corp.com", nobody twice.');
  });

  it("nested contracts report the innermost contract broken", () => {
    const g = careful(2, "corp.com");
    expect(check(g, mails("a@corp.com", "b@corp.com"))).toEqual([]);
    const violations = check(g, mails("a@corp.com", "b@evil.com", "a@corp.com"));
    expect(violations.map((v) => v.contract)).toEqual(["mailOnlyTo", "atMostMails", "careful"]);
  });

  it("contract bodies run only when the specification is needed", () => {
    let runs = 0;
    const counted = contract(function counted(): ContractSpec {
      runs++;
      return Mail.empty();
    });
    const g = counted();
    expect(runs).toBe(0);
    expect(check(g, mails("a"))).toHaveLength(1);
    expect(check(g, [])).toEqual([]);
    expect(runs).toBe(1);
  });

  it("checks the trace a real run records", () => {
    const send = trusted(performs((to: string) => new Mail(to)), function send(to: string): void {
      void to;
    });
    const { trace } = record(() => {
      for (const to of ["a@corp.com", "b@corp.com", "c@corp.com"]) send(to);
    });
    expect(check(careful(3, "corp.com"), trace)).toEqual([]);
    expect(check(careful(2, "corp.com"), trace).map((v) => v.contract)).toEqual(["atMostMails"]);
  });
});

describe("check: properties", () => {
  const arbTrace = fc.array(
    fc.oneof(
      fc.constantFrom("a", "b", "c").map((to) => new Mail(to) as Occurrence),
      fc.constantFrom("a", "b").map((to) => new Urgent(to) as Occurrence),
      fc.integer({ min: -5, max: 5 }).map((n) => new Spend(n) as Occurrence),
    ),
    { maxLength: 12 },
  );

  it("count() comparisons agree with the number of matching events", () => {
    fc.assert(
      fc.property(arbTrace, fc.integer({ min: -1, max: 13 }), (trace, n) => {
        const count = trace.filter((o) => o instanceof Mail).length;
        expect(check(Mail.count().atMost(n), trace).length === 0).toBe(count <= n);
        expect(check(Mail.count().atLeast(n), trace).length === 0).toBe(count >= n);
        expect(check(Mail.count().lessThan(n), trace).length === 0).toBe(count < n);
        expect(check(Mail.count().greaterThan(n), trace).length === 0).toBe(count > n);
        expect(check(Mail.count().equals(n), trace).length === 0).toBe(count === n);
      }),
    );
  });

  it("where(p).empty() holds exactly when all(not p) holds; distinct holds exactly when keys are unique", () => {
    fc.assert(
      fc.property(arbTrace, fc.constantFrom("a", "b", "c"), (trace, to) => {
        const p = (m: Mail): boolean => m.to === to;
        expect(check(Mail.where(p).empty(), trace).length).toBe(check(Mail.all((m) => !p(m)), trace).length);
        const keys = trace.filter((o): o is Mail => o instanceof Mail).map((m) => m.to);
        expect(check(Mail.distinct((m) => m.to), trace).length === 0).toBe(new Set(keys).size === keys.length);
        expect(check(Mail.sharesValue((m) => m.to), trace).length === 0).toBe(new Set(keys).size <= 1);
      }),
    );
  });
});
