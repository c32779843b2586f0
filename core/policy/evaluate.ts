/**
 * Evaluating a policy for one program (docs/policies.md). Deny wins:
 *
 * 1. each `auto_rejected` rule, in file order, fires when its `unlessProven` list is not entailed
 *    — and also when it cannot be evaluated (refused, unknown, timed out, the proof failed): an
 *    unknown never lets a request through;
 * 2. only when no rejection fired, each `auto_approved` rule, in file order, fires when its
 *    `whenProven` list is entailed (a rule that cannot be evaluated does not fire);
 * 3. the first rule that fires decides; when none fires, a person decides ("ask").
 *
 * How a list is proved is the caller's (prove.ts builds the program with the clauses added): this
 * module only orders, caches identical lists, and turns any failure into "unknown".
 */
import type { Entailment, PolicyOutcome, ResolvedCall, ResolvedPolicy, ResolvedRule, RuleEvaluation } from "./types";
import { literalText } from "../guarantees";

/** Whether `calls` are proved together with the program's own guarantees and preconditions. */
export type Entails = (calls: readonly ResolvedCall[]) => Promise<Entailment>;

/** Whether a rule fires, given its list's entailment: deny on anything but a proof, approve only on one. */
export function fires(rule: Pick<ResolvedRule, "decision">, e: Entailment): boolean {
  return rule.decision === "auto_rejected" ? e.status !== "entailed" : e.status === "entailed";
}

function keyOf(calls: readonly ResolvedCall[]): string {
  return JSON.stringify(calls.map((c) => [c.contractFile, c.contractName, c.args.map(literalText)]));
}

export async function evaluatePolicy(policy: ResolvedPolicy, entails: Entails): Promise<PolicyOutcome> {
  const proofs = new Map<string, Promise<Entailment>>();
  const entailment = (calls: readonly ResolvedCall[]): Promise<Entailment> => {
    const key = keyOf(calls);
    let p = proofs.get(key);
    if (!p) {
      p = entails(calls).catch((error: unknown): Entailment => ({ status: "unknown", detail: `the proof failed: ${error instanceof Error ? error.message : String(error)}` }));
      proofs.set(key, p);
    }
    return p;
  };
  const evaluations: RuleEvaluation[] = [];
  const ordered = [...policy.rules.filter((r) => r.decision === "auto_rejected"), ...policy.rules.filter((r) => r.decision === "auto_approved")];
  for (const rule of ordered) {
    const e = await entailment(rule.calls);
    const fired = fires(rule, e);
    evaluations.push({ rule: rule.name, decision: rule.decision, status: e.status, fired, detail: e.detail });
    if (fired) return { outcome: rule.decision, rule: rule.name, reason: rule.reason, evaluations, policySha256: policy.sha256 };
  }
  return { outcome: "ask", rule: null, reason: null, evaluations, policySha256: policy.sha256 };
}
