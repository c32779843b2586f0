/**
 * The approval store's tables, as Kysely sees them. Times are ISO 8601 UTC text (they sort as they
 * compare, and read the same from SQLite and PostgreSQL); JSON documents are text; flags are 0/1
 * integers. One schema, one set of queries for both databases.
 */
import type { Generated } from "kysely";

export type RequestStatus = "pending" | "approved" | "rejected" | "changes_requested";
export type Decision = "approved_once" | "approved_remember" | "rejected" | "changes_requested";
export type KeyStatus = "active" | "retired" | "revoked";

export interface RequestTable {
  readonly id: string;
  readonly program_digest: string;
  readonly invocation_digest: string;
  /** `<program digest>:<invocation digest>`: at most one pending request per key (a partial unique index). */
  readonly dedupe_key: string;
  readonly status: RequestStatus;
  /** The request as submitted (validated against schema/approval-request.schema.json). */
  readonly request_json: string;
  readonly submitted_at: string;
  /** 1 when the service verified the request against its operator's layer (migration 0002). */
  readonly verified: Generated<number>;
  /** The verification (service/verification.ts) as JSON; null for requests stored before it existed. */
  readonly verification_json: string | null;
}

export interface DecisionTable {
  /** One decision per request. */
  readonly request_id: string;
  readonly decision: Decision;
  /** Who decided: a reviewer id the service authenticated, never the agent's. */
  readonly reviewer: string;
  readonly feedback: string | null;
  readonly decided_at: string;
}

export interface ReceiptTable {
  /** The receipt's `jti`. */
  readonly id: string;
  readonly request_id: string;
  readonly kid: string;
  readonly token: string;
  readonly single_use: number;
  readonly issued_at: string;
  readonly expires_at: string;
}

export interface RedemptionTable {
  /** One redemption per receipt: the primary key makes a second one impossible. */
  readonly receipt_id: string;
  readonly redeemed_at: string;
}

export interface KeyTable {
  readonly kid: string;
  /** The public key (base64url); private keys never enter the database. */
  readonly public_x: string;
  readonly status: KeyStatus;
  readonly created_at: string;
  readonly retired_at: string | null;
  readonly revoked_at: string | null;
}

/** What the operator's policy decided for a request (migration 0003; service/policy.ts). */
export interface PolicyDecisionTable {
  readonly request_id: string;
  readonly outcome: "auto_approved" | "auto_rejected" | "ask";
  /** The rule that fired (null when none did: a person decides). */
  readonly rule: string | null;
  readonly reason: string | null;
  readonly policy_sha256: string;
  /** Every rule evaluated, with its entailment (core/policy PolicyOutcome) as JSON. */
  readonly evaluation_json: string;
  readonly evaluated_at: string;
}

export interface StoreDatabase {
  approval_requests: RequestTable;
  approval_decisions: DecisionTable;
  approval_receipts: ReceiptTable;
  approval_redemptions: RedemptionTable;
  signing_keys: KeyTable;
  policy_decisions: PolicyDecisionTable;
}
