/**
 * The policy's word on each request it evaluated (table `policy_decisions`, migration 0003): the
 * outcome, the rule that fired and its reason, the policy file's digest and every rule evaluated.
 * Recorded before the decision it leads to, so a request decided by a policy always says which
 * rule and why; a request the policy left to a person says that too.
 */
import type { PolicyOutcome } from "../../core/policy";
import type { ApprovalStore } from "./store";

export interface StoredPolicyDecision {
  readonly outcome: PolicyOutcome["outcome"];
  readonly rule: string | null;
  readonly reason: string | null;
  readonly policySha256: string;
  readonly evaluations: PolicyOutcome["evaluations"];
  readonly evaluatedAt: string;
}

/** Record what the policy decided for `requestId` (once: a second record for the same request is refused by the key). */
export async function recordPolicyDecision(store: ApprovalStore, requestId: string, outcome: PolicyOutcome, at: string): Promise<void> {
  await store.db
    .insertInto("policy_decisions")
    .values({ request_id: requestId, outcome: outcome.outcome, rule: outcome.rule, reason: outcome.reason, policy_sha256: outcome.policySha256, evaluation_json: JSON.stringify(outcome.evaluations), evaluated_at: at })
    .execute();
}

/** What the policy decided for `requestId`, or null when no policy evaluated it. */
export async function policyDecisionOf(store: ApprovalStore, requestId: string): Promise<StoredPolicyDecision | null> {
  const row = await store.db.selectFrom("policy_decisions").selectAll().where("request_id", "=", requestId).executeTakeFirst();
  if (!row) return null;
  return { outcome: row.outcome, rule: row.rule, reason: row.reason, policySha256: row.policy_sha256, evaluations: JSON.parse(row.evaluation_json) as PolicyOutcome["evaluations"], evaluatedAt: row.evaluated_at };
}
