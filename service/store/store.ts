/**
 * The approval store: requests, decisions (and who made them), receipts, redemptions and signing
 * key metadata, over one set of Kysely queries for SQLite and PostgreSQL (connect.ts). What it
 * guarantees, whatever the database:
 *
 * - the same program and invocation submitted while a request for them is pending gets that
 *   request back (a partial unique index decides, so two racing submissions make one request);
 * - a request is decided once: the decision, the status change and the receipt of an approval are
 *   one transaction, committed before `decide` returns (so before any receipt leaves the service);
 * - a receipt is redeemed once: the redemption's primary key refuses a second, atomically.
 */
import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Transaction } from "kysely";
import { canonicalJson } from "../../core/approval/canonical";
import { invocationDigest } from "../../core/approval/digests";
import type { ApprovalRequest } from "../../core/approval/types";
import { validateRequest } from "../../core/approval/validate";
import { sha256Hex } from "../../core/lock/digest";
import { NOT_VERIFIED, type Verification } from "../verification";
import { openDatabase, type StoreKind } from "./connect";
import type { Decision, KeyStatus, RequestStatus, StoreDatabase } from "./schema";

export type { Decision, KeyStatus, RequestStatus } from "./schema";

export type StoreFailure = "unknown-request" | "already-decided" | "receipt-mismatch" | "unverified";

export class StoreError extends Error {
  constructor(
    readonly reason: StoreFailure,
    message: string,
  ) {
    super(message);
    this.name = "StoreError";
  }
}

export interface StoredDecision {
  readonly decision: Decision;
  readonly reviewer: string;
  readonly feedback: string | null;
  readonly decidedAt: string;
}

/** A receipt as stored: the one issued, and when it was redeemed. */
export interface StoredReceipt extends NewReceipt {
  readonly redeemedAt: string | null;
}

export interface StoredRequest {
  readonly id: string;
  readonly status: RequestStatus;
  readonly request: ApprovalRequest;
  readonly submittedAt: string;
  /** What the service found when it verified the request (`NOT_VERIFIED` when it did not). */
  readonly verification: Verification;
  readonly decision: StoredDecision | null;
  readonly receipt: StoredReceipt | null;
}

export interface NewReceipt {
  readonly id: string;
  readonly kid: string;
  readonly token: string;
  readonly singleUse: boolean;
  readonly issuedAt: string;
  readonly expiresAt: string;
}

export interface DecideInput {
  readonly requestId: string;
  readonly decision: Decision;
  readonly reviewer: string;
  readonly feedback?: string | null;
  /** The receipt of an approval (and only of an approval). */
  readonly receipt?: NewReceipt;
  readonly at: string;
  /** More writes that commit (or fail) with the decision: its identity snapshot, a remembered rule (service/memory/). */
  readonly within?: (trx: Transaction<StoreDatabase>) => Promise<void>;
}

export interface KeyMetadata {
  readonly kid: string;
  readonly publicX: string;
  readonly status: KeyStatus;
  readonly createdAt: string;
  readonly retiredAt: string | null;
  readonly revokedAt: string | null;
}

export type Redemption = "redeemed" | "already-redeemed" | "unknown-receipt";

const STATUS_OF: Readonly<Record<Decision, RequestStatus>> = { approved_once: "approved", approved_remember: "approved", rejected: "rejected", changes_requested: "changes_requested" };

/** The partial unique index's predicate, spelled as in the migration so PostgreSQL infers the index. */
const PENDING = sql<boolean>`status = 'pending'`;

interface ReceiptRow {
  readonly id: string;
  readonly kid: string;
  readonly token: string;
  readonly single_use: number;
  readonly issued_at: string;
  readonly expires_at: string;
  readonly redeemed_at: string | null;
}

function receiptOf(r: ReceiptRow): StoredReceipt {
  // PostgreSQL returns integers as numbers or strings depending on the type; compare as numbers.
  return { id: r.id, kid: r.kid, token: r.token, singleUse: Number(r.single_use) === 1, issuedAt: r.issued_at, expiresAt: r.expires_at, redeemedAt: r.redeemed_at ?? null };
}

export class ApprovalStore {
  private constructor(
    readonly db: Kysely<StoreDatabase>,
    readonly kind: StoreKind,
  ) {}

  /** Open (and migrate) the store at `url`: `postgres://…` or a SQLite file. */
  static async open(url: string): Promise<ApprovalStore> {
    const { db, kind } = await openDatabase(url);
    return new ApprovalStore(db, kind);
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }

  /**
   * Store a request (validated again: the store holds only requests that match the schema and
   * their own digests) with its verification, or return the pending one for the same program and
   * invocation. A verified request dedupes on its program and invocation digests (the service's
   * own); one that did not verify only with the same request, byte for byte in canonical JSON, so it
   * can never attach to, or stand in for, a verified one.
   */
  async submit(request: ApprovalRequest, at: string, verification: Verification = NOT_VERIFIED): Promise<{ readonly id: string; readonly created: boolean }> {
    const valid = validateRequest(JSON.parse(JSON.stringify(request)) as unknown);
    const invocation = invocationDigest(valid.program.target, valid.inputs);
    const dedupeKey = verification.verified ? `${valid.program.digest}:${invocation}` : `unverified:${sha256Hex(Buffer.from(canonicalJson(valid), "utf8"))}`;
    // A pending twin may be decided between the insert and the read: then insert again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const id = randomUUID();
      const outcome = await this.db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto("approval_requests")
          .values({
            id,
            program_digest: valid.program.digest,
            invocation_digest: invocation,
            dedupe_key: dedupeKey,
            status: "pending",
            request_json: JSON.stringify(valid),
            submitted_at: at,
            verified: verification.verified ? 1 : 0,
            verification_json: JSON.stringify(verification),
          })
          .onConflict((oc) => oc.column("dedupe_key").where(PENDING).doNothing())
          .executeTakeFirst();
        if (inserted.numInsertedOrUpdatedRows === 1n) return { id, created: true };
        const existing = await trx.selectFrom("approval_requests").select("id").where("dedupe_key", "=", dedupeKey).where("status", "=", "pending").executeTakeFirst();
        return existing ? { id: existing.id, created: false } : undefined;
      });
      if (outcome) return outcome;
    }
    throw new Error(`the pending request for ${dedupeKey} kept changing while it was submitted`);
  }

  async get(id: string): Promise<StoredRequest | undefined> {
    const row = await this.db.selectFrom("approval_requests").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) return undefined;
    const decision = await this.db.selectFrom("approval_decisions").selectAll().where("request_id", "=", id).executeTakeFirst();
    const receipt = await this.db
      .selectFrom("approval_receipts")
      .leftJoin("approval_redemptions", "approval_redemptions.receipt_id", "approval_receipts.id")
      .select(["approval_receipts.id", "kid", "token", "single_use", "issued_at", "expires_at", "approval_redemptions.redeemed_at"])
      .where("request_id", "=", id)
      .executeTakeFirst();
    return {
      id: row.id,
      status: row.status,
      request: JSON.parse(row.request_json) as ApprovalRequest,
      submittedAt: row.submitted_at,
      verification: row.verification_json === null ? NOT_VERIFIED : { ...(JSON.parse(row.verification_json) as Verification), verified: Number(row.verified) === 1 },
      decision: decision ? { decision: decision.decision, reviewer: decision.reviewer, feedback: decision.feedback, decidedAt: decision.decided_at } : null,
      receipt: receipt ? receiptOf(receipt) : null,
    };
  }

  /** Pending requests, oldest first (the reviewers' queue; it survives restarts because it is only this table). */
  async pending(): Promise<{ readonly id: string; readonly programDigest: string; readonly submittedAt: string; readonly verified: boolean }[]> {
    const rows = await this.db.selectFrom("approval_requests").select(["id", "program_digest", "submitted_at", "verified"]).where("status", "=", "pending").orderBy("submitted_at").orderBy("id").execute();
    return rows.map((r) => ({ id: r.id, programDigest: r.program_digest, submittedAt: r.submitted_at, verified: Number(r.verified) === 1 }));
  }

  /**
   * Record a decision: the status change, the decision and (for an approval) its receipt, in one
   * transaction that is committed when this resolves. A request is decided once.
   */
  async decide(input: DecideInput): Promise<void> {
    const approval = STATUS_OF[input.decision] === "approved";
    if (approval !== (input.receipt !== undefined)) {
      throw new StoreError("receipt-mismatch", approval ? `an approval of ${input.requestId} needs its receipt` : `a ${input.decision} decision carries no receipt`);
    }
    await this.db.transaction().execute(async (trx) => {
      // Only a request the service verified can be approved: the update's condition says so.
      let update = trx.updateTable("approval_requests").set({ status: STATUS_OF[input.decision] }).where("id", "=", input.requestId).where("status", "=", "pending");
      if (approval) update = update.where("verified", "=", 1);
      const updated = await update.executeTakeFirst();
      if (updated.numUpdatedRows !== 1n) throw await this.notPending(trx, input.requestId);
      await trx.insertInto("approval_decisions").values({ request_id: input.requestId, decision: input.decision, reviewer: input.reviewer, feedback: input.feedback ?? null, decided_at: input.at }).execute();
      const r = input.receipt;
      if (r) {
        await trx
          .insertInto("approval_receipts")
          .values({ id: r.id, request_id: input.requestId, kid: r.kid, token: r.token, single_use: r.singleUse ? 1 : 0, issued_at: r.issuedAt, expires_at: r.expiresAt })
          .execute();
      }
      if (input.within) await input.within(trx);
    });
  }

  private async notPending(trx: Transaction<StoreDatabase>, id: string): Promise<StoreError> {
    const row = await trx.selectFrom("approval_requests").select(["status", "verified"]).where("id", "=", id).executeTakeFirst();
    if (!row) return new StoreError("unknown-request", `there is no request ${id}`);
    if (row.status === "pending") return new StoreError("unverified", `request ${id} did not verify against the operator's layer and cannot be approved`);
    return new StoreError("already-decided", `request ${id} is already decided (${row.status})`);
  }

  /** A receipt by its id, with the request it approves. */
  async receipt(id: string): Promise<(StoredReceipt & { readonly requestId: string }) | undefined> {
    const r = await this.db
      .selectFrom("approval_receipts")
      .leftJoin("approval_redemptions", "approval_redemptions.receipt_id", "approval_receipts.id")
      .select(["approval_receipts.id", "request_id", "kid", "token", "single_use", "issued_at", "expires_at", "approval_redemptions.redeemed_at"])
      .where("approval_receipts.id", "=", id)
      .executeTakeFirst();
    return r ? { ...receiptOf(r), requestId: r.request_id } : undefined;
  }

  /** Redeem a receipt once: the first call records it, every later one is refused. */
  async redeem(receiptId: string, at: string): Promise<Redemption> {
    return this.db.transaction().execute(async (trx) => {
      const receipt = await trx.selectFrom("approval_receipts").select("id").where("id", "=", receiptId).executeTakeFirst();
      if (!receipt) return "unknown-receipt";
      const inserted = await trx
        .insertInto("approval_redemptions")
        .values({ receipt_id: receiptId, redeemed_at: at })
        .onConflict((oc) => oc.column("receipt_id").doNothing())
        .executeTakeFirst();
      return inserted.numInsertedOrUpdatedRows === 1n ? "redeemed" : "already-redeemed";
    });
  }

  /** Record the keyring's keys (their public halves and states); a key's row follows the keyring. */
  async recordKeys(keys: readonly KeyMetadata[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const k of keys) {
        const row = { kid: k.kid, public_x: k.publicX, status: k.status, created_at: k.createdAt, retired_at: k.retiredAt, revoked_at: k.revokedAt };
        await trx
          .insertInto("signing_keys")
          .values(row)
          .onConflict((oc) => oc.column("kid").doUpdateSet({ status: k.status, retired_at: k.retiredAt, revoked_at: k.revokedAt }))
          .execute();
      }
    });
  }

  async keys(): Promise<KeyMetadata[]> {
    const rows = await this.db.selectFrom("signing_keys").selectAll().orderBy("created_at").orderBy("kid").execute();
    return rows.map((r) => ({ kid: r.kid, publicX: r.public_x, status: r.status, createdAt: r.created_at, retiredAt: r.retired_at, revokedAt: r.revoked_at }));
  }
}
