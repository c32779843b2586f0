/**
 * The approval memory's queries, over the store's database (SQLite or PostgreSQL, one set of
 * Kysely queries as in service/store/): snapshots written once per request, remembered rules, their
 * revocation and the auto-approvals they made. Writes that belong to a decision take the decision's
 * transaction, so a decision, its snapshot, the rule it remembers and the firing that made it are
 * committed together or not at all.
 */
import type { Kysely, Transaction } from "kysely";
import type { ApprovalStore, Decision } from "../store/store";
import type { StoreDatabase } from "../store/schema";
import type { RememberedRule } from "./rules";
import { memoryDb, memoryTrx, type MemoryDatabase, type RuleTable } from "./schema";
import { snapshotDigest, type IdentitySnapshot } from "./snapshot";

export interface StoredSnapshot {
  readonly snapshot: IdentitySnapshot;
  readonly digest: string;
  readonly recordedAt: string;
}

export interface StoredRule {
  readonly id: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly sourceRequestId: string;
  readonly matchKey: string;
  readonly rule: RememberedRule;
  readonly revokedAt: string | null;
  readonly revokedBy: string | null;
}

export interface HistoryEntry {
  readonly requestId: string;
  readonly decision: Decision;
  readonly reviewer: string;
  readonly decidedAt: string;
  readonly programPath: string | null;
  readonly snapshotRecorded: boolean;
  /** The rule that approved the request, when one did. */
  readonly firedRule: string | null;
}

export type Revocation = "revoked" | "already-revoked" | "unknown-rule";

function ruleOfRow(r: RuleTable): StoredRule {
  return { id: r.id, createdBy: r.created_by, createdAt: r.created_at, sourceRequestId: r.source_request_id, matchKey: r.match_key, rule: JSON.parse(r.rule_json) as RememberedRule, revokedAt: r.revoked_at, revokedBy: r.revoked_by };
}

export class MemoryStore {
  readonly db: Kysely<MemoryDatabase>;

  constructor(store: ApprovalStore) {
    this.db = memoryDb(store.db);
  }

  /** Record `snapshot` as request `requestId`'s, unless it has one: a snapshot is never replaced. */
  async recordSnapshot(requestId: string, snapshot: IdentitySnapshot, at: string, trx?: Transaction<StoreDatabase>): Promise<void> {
    const db = trx ? memoryTrx(trx) : this.db;
    await db
      .insertInto("approval_snapshots")
      .values({ request_id: requestId, snapshot_json: JSON.stringify(snapshot), snapshot_digest: snapshotDigest(snapshot), recorded_at: at })
      .onConflict((oc) => oc.column("request_id").doNothing())
      .execute();
  }

  async snapshot(requestId: string): Promise<StoredSnapshot | undefined> {
    const row = await this.db.selectFrom("approval_snapshots").selectAll().where("request_id", "=", requestId).executeTakeFirst();
    return row ? { snapshot: JSON.parse(row.snapshot_json) as IdentitySnapshot, digest: row.snapshot_digest, recordedAt: row.recorded_at } : undefined;
  }

  async createRule(trx: Transaction<StoreDatabase>, rule: Omit<StoredRule, "revokedAt" | "revokedBy">): Promise<void> {
    await memoryTrx(trx)
      .insertInto("remembered_rules")
      .values({ id: rule.id, created_by: rule.createdBy, created_at: rule.createdAt, source_request_id: rule.sourceRequestId, match_key: rule.matchKey, rule_json: JSON.stringify(rule.rule), revoked_at: null, revoked_by: null })
      .execute();
  }

  async rule(id: string): Promise<StoredRule | undefined> {
    const row = await this.db.selectFrom("remembered_rules").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? ruleOfRow(row) : undefined;
  }

  /** The rule remembered from request `requestId`, if its decision made one. */
  async ruleFromRequest(requestId: string): Promise<StoredRule | undefined> {
    const row = await this.db.selectFrom("remembered_rules").selectAll().where("source_request_id", "=", requestId).executeTakeFirst();
    return row ? ruleOfRow(row) : undefined;
  }

  /** Every rule, newest first. */
  async rules(): Promise<StoredRule[]> {
    const rows = await this.db.selectFrom("remembered_rules").selectAll().orderBy("created_at", "desc").orderBy("id").execute();
    return rows.map(ruleOfRow);
  }

  /** Rules not revoked, oldest first (the first that matches fires). */
  async activeRules(): Promise<StoredRule[]> {
    const rows = await this.db.selectFrom("remembered_rules").selectAll().where("revoked_at", "is", null).orderBy("created_at").orderBy("id").execute();
    return rows.map(ruleOfRow);
  }

  /** Revoke rule `id` once; later requests are no longer matched against it. */
  async revoke(id: string, reviewer: string, at: string): Promise<Revocation> {
    const updated = await this.db.updateTable("remembered_rules").set({ revoked_at: at, revoked_by: reviewer }).where("id", "=", id).where("revoked_at", "is", null).executeTakeFirst();
    if (updated.numUpdatedRows === 1n) return "revoked";
    return (await this.rule(id)) ? "already-revoked" : "unknown-rule";
  }

  async recordFiring(trx: Transaction<StoreDatabase>, requestId: string, ruleId: string, at: string): Promise<void> {
    await memoryTrx(trx).insertInto("remembered_firings").values({ request_id: requestId, rule_id: ruleId, fired_at: at }).execute();
  }

  /** The rule that approved request `requestId`, if one did. */
  async firingOf(requestId: string): Promise<{ readonly ruleId: string; readonly firedAt: string } | undefined> {
    const row = await this.db.selectFrom("remembered_firings").select(["rule_id", "fired_at"]).where("request_id", "=", requestId).executeTakeFirst();
    return row ? { ruleId: row.rule_id, firedAt: row.fired_at } : undefined;
  }

  /** How often each rule fired, and when last. */
  async firingCounts(): Promise<Map<string, { readonly count: number; readonly last: string }>> {
    const rows = await this.db
      .selectFrom("remembered_firings")
      .select((eb) => ["rule_id", eb.fn.countAll<number | string>().as("count"), eb.fn.max("fired_at").as("last")])
      .groupBy("rule_id")
      .execute();
    return new Map(rows.map((r) => [r.rule_id, { count: Number(r.count), last: String(r.last) }]));
  }

  /** Decided requests, newest decision first. */
  async history(limit = 200): Promise<HistoryEntry[]> {
    const rows = await this.db
      .selectFrom("approval_decisions")
      .innerJoin("approval_requests", "approval_requests.id", "approval_decisions.request_id")
      .leftJoin("approval_snapshots", "approval_snapshots.request_id", "approval_decisions.request_id")
      .leftJoin("remembered_firings", "remembered_firings.request_id", "approval_decisions.request_id")
      .select(["approval_decisions.request_id", "decision", "reviewer", "decided_at", "approval_snapshots.snapshot_json", "remembered_firings.rule_id"])
      .orderBy("decided_at", "desc")
      .orderBy("approval_decisions.request_id")
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      requestId: r.request_id,
      decision: r.decision,
      reviewer: r.reviewer,
      decidedAt: r.decided_at,
      programPath: r.snapshot_json ? (JSON.parse(r.snapshot_json) as IdentitySnapshot).program.path : null,
      snapshotRecorded: r.snapshot_json !== null && r.snapshot_json !== undefined,
      firedRule: r.rule_id ?? null,
    }));
  }
}
