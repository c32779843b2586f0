/**
 * The order of evaluation, with the entailment of each clause list given: deny wins (a rejection
 * decides even when an approval comes first in the file), an unknown fires a rejection and never an
 * approval, a failed proof counts as unknown, the first firing rule decides, and when no rule fires
 * a person decides. Identical lists are proved once.
 */
import { evaluatePolicy, type Entailment, type EntailmentStatus, type ResolvedCall, type ResolvedPolicy, type ResolvedRule, type RuleDecision } from "../../core/policy";

function call(name: string): ResolvedCall {
  return { text: `lib.${name}()`, call: `lib.${name}()`, qualifiedName: `lib.${name}`, contractName: name, contractFile: "/layer/lib/trusted/contracts.ts", args: [] };
}

function policy(...rules: [string, RuleDecision, string[]][]): ResolvedPolicy {
  return {
    file: "policy.json",
    sha256: "0".repeat(64),
    rules: rules.map(([name, decision, calls], index): ResolvedRule => ({ name, decision, reason: `reason of ${name}`, clauses: calls.map((c) => `lib.${c}()`), index, calls: calls.map(call) })),
  };
}

/** Entailment by the first call's contract name: `a…` entailed, `n…` not, `u…` unknown, `x…` throws. */
function oracle(seen: string[] = []): (calls: readonly ResolvedCall[]) => Promise<Entailment> {
  return async (calls) => {
    const key = calls.map((c) => c.contractName).join("+");
    seen.push(key);
    const first = key[0];
    if (first === "x") throw new Error("the solver went away");
    const status: EntailmentStatus = first === "a" ? "entailed" : first === "n" ? "not_entailed" : "unknown";
    return { status, detail: status === "entailed" ? null : `because ${key}` };
  };
}

describe("policy evaluation", () => {
  it("deny wins: a firing rejection decides although an approval that fires comes first in the file", async () => {
    const outcome = await evaluatePolicy(policy(["approve", "auto_approved", ["a1"]], ["deny", "auto_rejected", ["n1"]]), oracle());
    expect(outcome).toMatchObject({ outcome: "auto_rejected", rule: "deny", reason: "reason of deny" });
    // The approval was not even evaluated: rejections come first.
    expect(outcome.evaluations).toEqual([{ rule: "deny", decision: "auto_rejected", status: "not_entailed", fired: true, detail: "because n1" }]);
  });

  it("an unknown fires a rejection", async () => {
    const outcome = await evaluatePolicy(policy(["approve", "auto_approved", ["a1"]], ["deny", "auto_rejected", ["u1"]]), oracle());
    expect(outcome).toMatchObject({ outcome: "auto_rejected", rule: "deny" });
    expect(outcome.evaluations[0]).toMatchObject({ status: "unknown", fired: true });
  });

  it("a proof that fails is unknown: it fires a rejection and never an approval", async () => {
    const denied = await evaluatePolicy(policy(["deny", "auto_rejected", ["x1"]], ["approve", "auto_approved", ["a1"]]), oracle());
    expect(denied).toMatchObject({ outcome: "auto_rejected", rule: "deny" });
    expect(denied.evaluations[0]!.detail).toBe("the proof failed: the solver went away");
    const asked = await evaluatePolicy(policy(["approve", "auto_approved", ["x1"]]), oracle());
    expect(asked).toMatchObject({ outcome: "ask", rule: null, reason: null });
    expect(asked.evaluations).toEqual([{ rule: "approve", decision: "auto_approved", status: "unknown", fired: false, detail: "the proof failed: the solver went away" }]);
  });

  it("an unknown never approves: with no rejection firing, an undecided approval leaves the request to a person", async () => {
    const outcome = await evaluatePolicy(policy(["deny", "auto_rejected", ["a1"]], ["approve", "auto_approved", ["u1"]]), oracle());
    expect(outcome.outcome).toBe("ask");
    expect(outcome.evaluations.map((e) => [e.rule, e.status, e.fired])).toEqual([["deny", "entailed", false], ["approve", "unknown", false]]);
  });

  it("the first firing rule decides, among rejections and then among approvals", async () => {
    const deny = await evaluatePolicy(policy(["d1", "auto_rejected", ["a1"]], ["d2", "auto_rejected", ["n2"]], ["d3", "auto_rejected", ["n3"]]), oracle());
    expect(deny).toMatchObject({ outcome: "auto_rejected", rule: "d2", reason: "reason of d2" });
    expect(deny.evaluations.map((e) => e.rule)).toEqual(["d1", "d2"]);
    const approve = await evaluatePolicy(policy(["p1", "auto_approved", ["n1"]], ["d1", "auto_rejected", ["a2"]], ["p2", "auto_approved", ["a3"]], ["p3", "auto_approved", ["a4"]]), oracle());
    expect(approve).toMatchObject({ outcome: "auto_approved", rule: "p2", reason: "reason of p2" });
    expect(approve.evaluations.map((e) => [e.rule, e.fired])).toEqual([["d1", false], ["p1", false], ["p2", true]]);
  });

  it("no rule fires: a person decides (ask), every rule evaluated", async () => {
    const outcome = await evaluatePolicy(policy(["d1", "auto_rejected", ["a1"]], ["p1", "auto_approved", ["n2"]]), oracle());
    expect(outcome).toEqual({ outcome: "ask", rule: null, reason: null, policySha256: "0".repeat(64), evaluations: [
      { rule: "d1", decision: "auto_rejected", status: "entailed", fired: false, detail: null },
      { rule: "p1", decision: "auto_approved", status: "not_entailed", fired: false, detail: "because n2" },
    ] });
    expect((await evaluatePolicy(policy(), oracle())).outcome).toBe("ask");
  });

  it("a list proved for one rule is not proved again for another", async () => {
    const seen: string[] = [];
    await evaluatePolicy(policy(["d1", "auto_rejected", ["a1", "a2"]], ["p1", "auto_approved", ["a1", "a2"]]), oracle(seen));
    expect(seen).toEqual(["a1+a2"]);
  });
});
