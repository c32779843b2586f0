import { reopenHole } from "../../core/prover/holes";
import { Oracle, refusalKey } from "../../fuzz/oracle";
import { HEADER } from "../../fuzz/print";
import { fuzzLayerText } from "../../fuzz/project";
import { keepElementPromises } from "../../fuzz/values";

/** The oracle on hand-written programs: it must agree where the prover is right and object where a re-opened hole makes it wrong. */
describe("the differential oracle", () => {
  let oracle: Oracle;
  beforeAll(() => {
    oracle = new Oracle(fuzzLayerText());
  });
  const judge = (body: string) => oracle.judge(HEADER + body, { runs: 40, seed: 7 });

  it("agrees with a proof and with a counterexample that replays (a switch clause ending in a block falls through)", async () => {
    const j = await judge(`export const guarantees = [m.emailsAtMost(1), m.emailsAtMost(2), m.neverEmail("b"), m.neverEmail("ceo")];
export function main(a: string): void {
  switch (a) { case "a": { sendEmail(a, "1"); } case "b": sendEmail(a, "2"); break; }
}`);
    expect(j.results.map((r) => `${r.subject} ${r.verdict}`)).toEqual(["fuzz.emailsAtMost(n=1) violated", "fuzz.emailsAtMost(n=2) proved", 'fuzz.neverEmail(addr="b") violated', 'fuzz.neverEmail(addr="ceo") proved']);
    expect(j.disagreements).toEqual([]);
    expect(j.runs).toBeGreaterThan(40);
  });

  it("counts a counterexample that runs past a throw the prover reports as a note, not a disagreement (fuzz seed 111486)", async () => {
    // The loop throws in the first iteration that measures: the guarantee's counterexample (two
    // measures) never happens, but the throw is reported reachable, so the program is violated there.
    const j = await judge(`export const guarantees = [m.distinctMeasures()];
export function main(): void {
  for (const x0 of names()) {
    switch ((x0 as string)) {
      case "0":
        measure(0);
        throw new Error("clause");
    }
  }
}`);
    expect(j.results.map((r) => `${r.subject} ${r.verdict}`)).toEqual(["fuzz.distinctMeasures() violated", "throw@10:9 violated"]);
    expect(j.disagreements).toEqual([]);
    expect(j.notes).toMatchObject([{ kind: "counterexample passes a reported failure", subject: "fuzz.distinctMeasures()" }]);
  });

  it("finds a proved guarantee that a run breaks (switch-fallthrough re-opened)", async () => {
    const close = reopenHole("switch-fallthrough");
    try {
      const j = await judge(`export const guarantees = [m.emailsAtMost(1)];
export function main(a: string): void {
  switch (a) { case "a": { sendEmail(a, "1"); } case "b": sendEmail(a, "2"); break; }
}`);
      expect(j.verdict).toBe("proved");
      expect(j.disagreements).toMatchObject([{ kind: "proved guarantee broken", subject: "fuzz.emailsAtMost(n=1)" }]);
      expect(j.disagreements[0]!.detail).toMatch(/SendEmail\.count\(\) is 2.*main\(p?a="a"\)/);
    } finally {
      close();
    }
  });

  it("finds a throw the prover did not see (tdz re-opened)", async () => {
    const close = reopenHole("tdz");
    try {
      const j = await judge(`export const guarantees = [m.logsAtLeast(2)];
export function main(): void {
  for (const k of ["a", "b"]) {
    const h = (): void => { log(v); };
    if (k === "b") h();
    const v: string = k;
    log(v);
  }
}`);
      expect(j.disagreements).toMatchObject([{ kind: "unexpected throw" }]);
      expect(j.disagreements[0]!.detail).toMatch(/ReferenceError/);
    } finally {
      close();
    }
  });

  it("replays the n-th execution of a call site with the n-th value (tool@line:column#n)", async () => {
    const j = await judge(`export const guarantees = [m.oneRecipient()];
export function main(): void {
  for (let i = 0; i < 2; i++) {
    for (const x of few()) {
      sendEmail(x, "s");
      break;
    }
  }
}`);
    expect(j.verdict).toBe("violated");
    expect(j.disagreements).toEqual([]);
    expect(j.notes).toEqual([]);
  });

  it("shows the elements of an array the query never read, without misreading the others (fuzz seed 201386)", async () => {
    // The first `names()` of each call is only measured, so its element function is declared when
    // the counterexample shows its elements. Read in one batch with the loop's array, that symbol
    // was unknown to Z3's parser, every value of the batch was lost, and the loop's array was shown
    // as ["ndefine"] (`undefined`, unquoted): the counterexample did not replay.
    const j = await judge(`export const guarantees = [m.nothing()];
function h(): void {
  pay("a", names().length);
  for (const x of names()) {
    if (x === "ab") pay(x, -2);
  }
}
export function main(): void {
  h();
  h();
}`);
    const loopPay = j.results.find((r) => r.subject === "fuzz.pay@8:21");
    expect(loopPay?.verdict).toBe("violated");
    expect(loopPay?.message).toMatch(/names@7:19(#2)? → \[[^\]]*"ab"/);
    expect(loopPay?.message).not.toMatch(/ndefine/);
    expect(j.disagreements).toEqual([]);
  });

  it("replays a violated precondition whose error the program catches (try/catch around the call)", async () => {
    // The run goes on into the catch: the failure is observed where the requires failed, not by
    // the error that ends the run (there is none).
    const j = await judge(`export const guarantees = [m.neverEmail("x")];
export function main(a: number): void {
  try { pay("p", a); } catch { sendEmail("x", "s"); }
}`);
    expect(j.results.map((r) => `${r.subject} ${r.verdict}`).sort()).toEqual(['fuzz.neverEmail(addr="x") violated', "fuzz.pay@6:9 violated"]);
    expect(j.disagreements).toEqual([]);
  });

  it("checks a proved precondition on every run, and replays a violated one", async () => {
    const j = await judge(`export const guarantees = [m.nothing()];
export function main(x: number): void {
  if (x > 0) pay("a", x);
  pay("b", x);
}`);
    expect(j.results.filter((r) => r.kind === "precondition").map((r) => `${r.subject} ${r.verdict}`).sort()).toEqual(["fuzz.pay@6:14 proved", "fuzz.pay@7:3 violated"]);
    expect(j.disagreements).toEqual([]);
  });

  it("agrees with the prover on joins: a run that throws before the pair breaks it (the counterexample replays), one that throws after keeps it", async () => {
    const before = await judge(`export const guarantees = [m.alsoSentTo("a", "b"), m.alsoSentTo("a", "c")];
export function main(x: string): void {
  if (x === "stop") throw new Error("stop");
  sendEmail("a", x);
  sendEmail("b", x);
}`);
    expect(before.results.map((r) => `${r.subject} ${r.verdict}`)).toEqual(['fuzz.alsoSentTo(a="a", b="b") violated', 'fuzz.alsoSentTo(a="a", b="c") violated', "throw@6:21 violated"]);
    expect(before.disagreements).toEqual([]);
    expect(before.notes).toEqual([]);
    const after = await judge(`export const guarantees = [m.alsoSentTo("a", "b"), m.paidAsTo("a", "b"), m.measuredOtherThan(0)];
export function main(x: string, n: number): void {
  sendEmail("a", x);
  sendEmail("b", x);
  if (n > 0) { pay("a", n); pay("b", n); } else pay("b", 1);
  measure(n);
  if (x === "stop") throw new Error("stop");
}`);
    expect(after.results.map((r) => `${r.subject} ${r.verdict}`)).toEqual(['fuzz.alsoSentTo(a="a", b="b") proved', 'fuzz.paidAsTo(a="a", b="b") violated', "fuzz.measuredOtherThan(v=0) violated", "fuzz.pay@8:16 proved", "fuzz.pay@8:29 proved", "fuzz.pay@8:49 proved", "throw@10:21 violated"]);
    expect(after.disagreements).toEqual([]);
    expect(after.notes).toEqual([]);
  });

  it("draws tool results that keep their element promises, so what the promise proves holds on every run", async () => {
    const j = await judge(`export const guarantees = [m.logsStartWith("ab"), m.measuresPositive()];
export function main(p: string): void {
  for (const x of prefixed("ab")) {
    if (!x.startsWith("ab")) throw new Error("promise");
    log(x);
  }
  for (const c of credits()) pay(c.to, c.amount);
  for (const n of positives()) measure(n);
}`);
    expect(j.verdict).toBe("proved");
    expect(j.disagreements).toEqual([]);
  });

  it("brings drawn elements within a promise: the prefix in front (the prefix itself, with surrogate halves), positive numbers, record fields", () => {
    const startsAb = (x: unknown) => typeof x === "string" && x.startsWith("ab");
    expect(keepElementPromises(["", "\ud83d", "abc", "x"], startsAb, ["ab"])).toEqual(["ab", "ab\ud83d", "abc", "abx"]);
    expect(keepElementPromises([], startsAb, ["ab"])).toEqual([]);
    const positive = (x: unknown) => typeof x === "number" && x > 0;
    expect(keepElementPromises([-1, 0, NaN, 2], positive, [])).toEqual([1, Number.MIN_VALUE, Number.MIN_VALUE, 2]);
    const credit = (x: unknown) => (x as { amount: number }).amount > 0;
    expect(keepElementPromises([{ to: "a", amount: -0 }], credit, [])).toEqual([{ to: "a", amount: Number.MIN_VALUE }]);
    // No string argument to put in front: the element is dropped.
    expect(keepElementPromises(["x", "aby"], startsAb, [])).toEqual(["aby"]);
    const same = ["ab"];
    expect(keepElementPromises(same, startsAb, ["ab"])).toBe(same);
  });

  it("counts refusals by construct, without what is particular to the program", () => {
    expect(refusalKey("refused: `v12` is read before its declaration runs on this path (JavaScript throws a ReferenceError: the temporal dead zone). Declare `v12` first."))
      .toBe("`…` is read before its declaration runs on this path (JavaScript throws a ReferenceError:");
    expect(refusalKey("refused: TypeScript reports error TS2356 at plan3.ts:12:5: An arithmetic operand must be a number."))
      .toBe("TypeScript reports error TSN at plan.ts:N:N:");
    expect(refusalKey("refused: the solver could not decide fuzz.neverLog(message=\"x\") (timeout); it is not proved.")).toBe("the solver could not decide (unknown or timeout)");
  });
});
