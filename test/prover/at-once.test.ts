/**
 * One query for everything a program must keep (at-once.ts): which queries it proves, that a
 * query's own assumptions never constrain another's, and that a proved program asks the solver
 * once where it used to ask once per guarantee, precondition and throw.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { askAtOnce } from "../../core/prover/at-once";
import { candidateReading } from "../../core/prover/read-counterexample";
import type { ViolationQuery } from "../../core/prover/encode";
import { World } from "../../core/prover/facts";
import { ProgramBudget } from "../../core/prover/limits";
import { Z3Session } from "../../core/prover/z3";
import { problems, prove } from "./prove-helpers";

/** A world over two integers, one of them known not negative. */
function world(): World {
  const w = new World();
  w.declarations.push("(declare-const x Int)", "(declare-const y Int)");
  w.assumptions.push({ term: "(<= 0 y)", loops: [] });
  return w;
}
/** A query whose one violation is `indicator`, under its own `assumptions`. */
const query = (indicator: string, assumptions: readonly string[] = []): ViolationQuery => ({ declarations: [], assumptions, candidates: [{ indicator, fact: undefined }] });
const budget = () => new ProgramBudget({ rlimit: 5_000_000, timeoutMs: 600_000, programTimeoutMs: 600_000 });
/** The queries proved together. */
const provedAtOnce = async (session: Z3Session, w: World, queries: readonly ViolationQuery[], b: ProgramBudget): Promise<ReadonlySet<ViolationQuery>> => (await askAtOnce(session, w, queries.map((q) => ({ query: q, reading: candidateReading(q) })), b)).proved;

describe("queries proved at once", () => {
  it("proves every query when none is satisfiable, over the world's facts", async () => {
    const session = await Z3Session.get();
    const a = query("(and (> x 0) (< x 0))");
    const b = query("(< y 0)"); // unsatisfiable only with the world's `0 <= y`
    expect(await provedAtOnce(session, world(), [a, b], budget())).toEqual(new Set([a, b]));
  });

  it("proves the others once more without those a model breaks", async () => {
    const session = await Z3Session.get();
    const broken = query("(> x 5)");
    const b = query("(< y 0)");
    const c = query("(and (> x 1) (< x 1))");
    const proved = await provedAtOnce(session, world(), [broken, b, c], budget());
    expect(proved).toEqual(new Set([b, c]));
  });

  it("keeps each query's assumptions to that query", async () => {
    // As one conjunction, `x < 0` (a's assumption) and `x > 5` (b's violation) would be
    // unsatisfiable together and prove b, which one run (x = 6) breaks.
    const session = await Z3Session.get();
    const a = query("(> x 0)", ["(< x 0)"]);
    const b = query("(> x 5)");
    const c = query("(< y 0)");
    const proved = await provedAtOnce(session, world(), [a, b, c], budget());
    expect(proved.has(b)).toBe(false);
    expect(proved).toEqual(new Set([a, c]));
  });

  it("declares once what two queries share (the two sides of a count)", async () => {
    const session = await Z3Session.get();
    const shared = ["(declare-const k Int)"];
    const a: ViolationQuery = { declarations: shared, assumptions: ["(< k 0)"], candidates: [{ indicator: "(> k 0)", fact: undefined }] };
    const b: ViolationQuery = { declarations: shared, assumptions: [], candidates: [{ indicator: "(and (> k 3) (< k 2))", fact: undefined }] };
    expect(await provedAtOnce(session, world(), [a, b], budget())).toEqual(new Set([a, b]));
  });

  it("reads a counterexample of each query its model breaks, naming the violation it satisfies", async () => {
    const session = await Z3Session.get();
    const w = world();
    w.declarations.push("(declare-const s String)");
    w.inputs.push({ name: "s", sym: { k: "str", t: "s" }, type: { kind: "string" } });
    // The first violation cannot happen: the model must name the second.
    const broken: ViolationQuery = { declarations: [], assumptions: [], candidates: [{ indicator: "(and (= s \"a\") (= s \"b\"))", fact: undefined }, { indicator: "(= s \"abc\")", fact: undefined }] };
    const proved = [query("(< y 0)"), query("(and (> x 1) (< x 1))")];
    const settled = await askAtOnce(session, w, [broken, ...proved].map((q) => ({ query: q, reading: candidateReading(q) })), budget());
    expect(settled.proved).toEqual(new Set(proved));
    const found = settled.found.get(broken)!;
    expect(found).toMatchObject({ status: "sat", index: 1, named: true, cex: { inputs: { s: "abc" } } });
    expect(settled.found.size).toBe(1);
  });

  it("reads no counterexample from a model over conversions' abstract terms", async () => {
    const session = await Z3Session.get();
    const w = world();
    w.conversions.kinds.set("test!conversion", { kind: { fn: "test!conversion", what: "a test conversion" } } as never);
    const broken = query("(> x 5)");
    const proved = [query("(< y 0)"), query("(and (> x 1) (< x 1))")];
    const settled = await askAtOnce(session, w, [broken, ...proved].map((q) => ({ query: q, reading: candidateReading(q) })), budget());
    expect(settled.proved).toEqual(new Set(proved));
    expect(settled.found.size).toBe(0);
  });

  it("asks nothing for fewer than two live queries, and proves nothing when every one is broken", async () => {
    const session = await Z3Session.get();
    const asked = vi.spyOn(session, "query");
    expect(await provedAtOnce(session, world(), [query("(> x 5)"), query("false")], budget())).toEqual(new Set());
    expect(asked).not.toHaveBeenCalled();
    expect(await provedAtOnce(session, world(), [query("(> x 5)"), query("(> y 5)")], budget())).toEqual(new Set());
    asked.mockRestore();
  });
});

describe("a program proved at once", () => {
  afterEach(() => vi.restoreAllMocks());

  it("asks one query for its guarantee, its precondition and its throw", async () => {
    const asked = vi.spyOn(Z3Session.prototype, "query");
    const v = await prove(`export const guarantees = [m.noPaymentOver(100)];
export function main(amount: number): void {
  if (!(amount > 0 && amount <= 100)) return;
  if (amount > 1000) throw new Error("unreachable");
  pay("acct", amount);
}
`);
    expect(v.results.map((r) => [r.kind, r.verdict])).toEqual([["guarantee", "proved"], ["precondition", "proved"], ["throw", "proved"]]);
    expect(asked).toHaveBeenCalledTimes(1);
  });

  it("still reports each violation with its own counterexample, and proves the rest", async () => {
    const v = await prove(`export const guarantees = [m.noPaymentOver(100)];
export function main(amount: number): void {
  if (amount > 0) pay("acct", amount);
}
`);
    expect(v.verdict).toBe("violated");
    const guarantee = v.results.find((r) => r.kind === "guarantee")!;
    expect(guarantee.verdict).toBe("violated");
    expect(guarantee.counterexample!.event!.fields.amount as number).toBeGreaterThan(100);
    expect(v.results.find((r) => r.kind === "precondition")!.verdict).toBe("proved");
  });
});
