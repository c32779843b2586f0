/**
 * The approval memory at work in the service: what a decision writes beside itself (its request's
 * identity snapshot, and for "Approve and remember" the rule), and the auto-approval of a newly
 * submitted request by the first remembered rule that matches it. An auto-approval is an ordinary
 * decision made through `decideRequest` — `approved_remember`, its reviewer `rule:<id>`, a signed
 * single-use receipt committed with it — so receipts from rules are issued, redeemed and verified
 * like any other.
 */
import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import { ApiError } from "../api-error";
import { decideRequest } from "../decide";
import type { Keyring } from "../keys";
import type { StoreDatabase } from "../store/schema";
import { StoreError, type ApprovalStore, type Decision, type StoredRequest } from "../store/store";
import { ineligibleArguments } from "./eligibility";
import { matchKey, ruleMatches, ruleOf } from "./rules";
import { snapshotOf } from "./snapshot";
import { memoryTrx } from "./schema";
import type { MemoryStore, StoredRule } from "./store";

/** The reviewer recorded for a decision a remembered rule made (`:` is not allowed in reviewer ids, so no person has it). */
export function ruleReviewer(ruleId: string): string {
  return `rule:${ruleId}`;
}

export interface MemoryContext {
  readonly store: ApprovalStore;
  readonly memory: MemoryStore;
  /** The operator's layer directory, where contract sources are captured for snapshots. */
  readonly layerDir: string;
}

type Writes = (trx: Transaction<StoreDatabase>) => Promise<void>;

/** Record a verified request's snapshot now (at verification time); a request keeps its first one. */
export async function recordSnapshotOf(context: MemoryContext, stored: StoredRequest, at: string): Promise<void> {
  const snapshot = snapshotOf(context.layerDir, stored.verification);
  if (snapshot) await context.memory.recordSnapshot(stored.id, snapshot, at);
}

/** Why request `stored` cannot be remembered (empty: it can). */
export function rememberProblems(stored: StoredRequest): string[] {
  const computed = stored.verification.computed;
  if (!stored.verification.verified || !computed) return ["the request did not verify"];
  const problems = ineligibleArguments(computed).map((a) => `guarantee ${a.guarantee + 1} (${a.call}) argument ${a.argument} is not eligible for remembering: ${a.explanation}`);
  const profile = stored.verification.profile;
  if (!profile) problems.push("the verification recorded no library profile (it was verified before remembered rules existed)");
  else if (!("libraries" in profile)) problems.push(`the libraries the program uses are not known: ${profile.problem}`);
  if (computed.guarantees.length === 0) problems.push("the program states no guarantees, so a rule would say nothing");
  return problems;
}

/**
 * What a reviewer's decision on `requestId` writes in its transaction: the snapshot when the
 * request has none yet, and for "Approve and remember" the rule. Throws `ApiError` 409
 * `not-rememberable` (naming each reason) before anything is decided.
 */
export async function reviewerDecisionWrites(context: MemoryContext, requestId: string, decision: Decision, reviewer: string, at: string): Promise<Writes | undefined> {
  const stored = await context.store.get(requestId);
  if (!stored) return undefined;
  const snapshot = snapshotOf(context.layerDir, stored.verification);
  let rule: Omit<StoredRule, "revokedAt" | "revokedBy"> | undefined;
  // An unverified or decided request is refused by the decision itself (409 unverified / already-decided).
  if (decision === "approved_remember" && stored.status === "pending" && stored.verification.verified) {
    const problems = rememberProblems(stored);
    if (problems.length > 0) throw new ApiError(409, "not-rememberable", `this request cannot be remembered: ${problems.join("; ")}; approve it once instead`, "decision");
    const computed = stored.verification.computed!;
    rule = { id: randomUUID(), createdBy: reviewer, createdAt: at, sourceRequestId: requestId, matchKey: matchKey(computed.guarantees), rule: ruleOf(computed, stored.verification.profile!) };
  }
  return async (trx) => {
    if (snapshot) await context.memory.recordSnapshot(requestId, snapshot, at, trx);
    if (rule) await context.memory.createRule(trx, rule);
  };
}

/** A rule revoked after it was looked up: the auto-approval is abandoned and the request stays pending. */
class RuleRevoked extends Error {}

/**
 * Approve the pending, verified request `requestId` with the first active remembered rule that
 * matches it (oldest first); resolves with that rule's id, or undefined when none matches (a person
 * decides). The rule must still be active inside the decision's transaction.
 */
export async function autoApprove(context: MemoryContext & { readonly keyring: Keyring; readonly ttlSeconds: number }, requestId: string): Promise<string | undefined> {
  const stored = await context.store.get(requestId);
  const computed = stored?.verification.computed;
  if (!stored || stored.status !== "pending" || !stored.verification.verified || !computed) return undefined;
  const key = matchKey(computed.guarantees);
  const rule = (await context.memory.activeRules()).find((r) => r.matchKey === key && ruleMatches(r.rule, computed, stored.verification.profile));
  if (!rule) return undefined;
  const at = new Date().toISOString();
  const snapshot = snapshotOf(context.layerDir, stored.verification);
  try {
    await decideRequest({
      store: context.store,
      keyring: context.keyring,
      requestId,
      decision: "approved_remember",
      reviewer: ruleReviewer(rule.id),
      feedback: null,
      ttlSeconds: context.ttlSeconds,
      within: async (trx) => {
        const current = await memoryTrx(trx).selectFrom("remembered_rules").select("revoked_at").where("id", "=", rule.id).executeTakeFirst();
        if (!current || current.revoked_at !== null) throw new RuleRevoked(`rule ${rule.id} was revoked`);
        if (snapshot) await context.memory.recordSnapshot(requestId, snapshot, at, trx);
        await context.memory.recordFiring(trx, requestId, rule.id, at);
      },
    });
  } catch (error) {
    // A reviewer decided first, or the rule was revoked meanwhile: nothing was written.
    if (error instanceof RuleRevoked || (error instanceof StoreError && error.reason === "already-decided")) return undefined;
    throw error;
  }
  return rule.id;
}
