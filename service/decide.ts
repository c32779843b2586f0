/**
 * A reviewer's decision, end to end: for an approval, the receipt is signed first (it needs no
 * database), then the decision and the receipt are committed in one transaction, and only then is
 * the receipt returned. A crash before the commit leaves the request pending and no receipt out;
 * after it, the decision and its receipt are both on disk.
 *
 * Only a request the service verified against its operator's layer can be approved (the store's
 * update is conditional on it too), and the receipt binds the request the service computed
 * (service/verify.ts), never the identities the submitter stated.
 */
import { bindingOf } from "../core/approval/binding";
import { receiptClaims, signReceipt, type ApprovalDecision } from "../core/approval/receipt";
import type { Transaction } from "kysely";
import type { Keyring } from "./keys";
import type { StoreDatabase } from "./store/schema";
import { StoreError, type ApprovalStore, type Decision } from "./store/store";

export interface DecideRequest {
  readonly store: ApprovalStore;
  readonly keyring: Keyring;
  readonly requestId: string;
  readonly decision: Decision;
  readonly reviewer: string;
  readonly feedback?: string | null;
  /** Lifetime of an approval's receipt, in seconds. */
  readonly ttlSeconds: number;
  /** Milliseconds since the epoch (default now). */
  readonly now?: number;
  /** More writes committed in the decision's transaction (the store's `within`). */
  readonly within?: (trx: Transaction<StoreDatabase>) => Promise<void>;
}

function isApproval(d: Decision): d is ApprovalDecision {
  return d === "approved_once" || d === "approved_remember";
}

/** Decide a pending request; resolves (with the receipt of an approval) once the decision is committed. */
export async function decideRequest(input: DecideRequest): Promise<{ readonly receipt: string | null }> {
  const now = input.now ?? Date.now();
  const at = new Date(now).toISOString();
  if (!isApproval(input.decision)) {
    await input.store.decide({ requestId: input.requestId, decision: input.decision, reviewer: input.reviewer, feedback: input.feedback ?? null, at, within: input.within });
    return { receipt: null };
  }
  const stored = await input.store.get(input.requestId);
  if (!stored) throw new StoreError("unknown-request", `there is no request ${input.requestId}`);
  if (stored.status !== "pending") throw new StoreError("already-decided", `request ${input.requestId} is already decided (${stored.status})`);
  const request = stored.verification.computed;
  if (!stored.verification.verified || !request) throw new StoreError("unverified", `request ${input.requestId} did not verify against the operator's layer and cannot be approved`);
  const claims = receiptClaims({
    request: stored.id,
    ...bindingOf(request),
    decision: input.decision,
    reviewer: input.reviewer,
    ttlSeconds: input.ttlSeconds,
    now,
  });
  const signer = await input.keyring.signer();
  const token = await signReceipt(claims, signer);
  await input.store.decide({
    requestId: stored.id,
    decision: input.decision,
    reviewer: input.reviewer,
    feedback: input.feedback ?? null,
    at,
    within: input.within,
    receipt: { id: claims.jti, kid: signer.kid, token, singleUse: claims.singleUse, issuedAt: new Date(claims.iat * 1000).toISOString(), expiresAt: new Date(claims.exp * 1000).toISOString() },
  });
  return { receipt: token };
}
