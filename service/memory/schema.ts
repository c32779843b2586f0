/**
 * The approval memory's tables (migration 0004_memory), as Kysely sees them: identity snapshots,
 * remembered rules and the auto-approvals each rule made. They join the store's own tables through
 * `db.withTables<MemoryTables>()`, so the store's schema file stays as it is. Times are ISO 8601
 * text and JSON documents text, as in the store.
 */
import type { Kysely, Transaction } from "kysely";
import type { StoreDatabase } from "../store/schema";

export interface SnapshotTable {
  /** One snapshot per request, written once (never updated): what the service computed when it verified it. */
  readonly request_id: string;
  /** The snapshot document (snapshot.ts) as JSON. */
  readonly snapshot_json: string;
  /** Its digest (`clauz3-approval-snapshot/1`), so a record can be checked against what was shown. */
  readonly snapshot_digest: string;
  readonly recorded_at: string;
}

export interface RuleTable {
  readonly id: string;
  /** The reviewer whose "approve and remember" made the rule. */
  readonly created_by: string;
  readonly created_at: string;
  /** The request that was approved and remembered. */
  readonly source_request_id: string;
  /** Digest over the sorted identity digests of the rule's guarantees: the lookup key of a match. */
  readonly match_key: string;
  /** The rule (rules.ts) as JSON. */
  readonly rule_json: string;
  readonly revoked_at: string | null;
  readonly revoked_by: string | null;
}

export interface FiringTable {
  /** The request a rule approved (one decision per request, so one firing). */
  readonly request_id: string;
  readonly rule_id: string;
  readonly fired_at: string;
}

// A type, not an interface: `withTables` needs an index-compatible record.
export type MemoryTables = {
  approval_snapshots: SnapshotTable;
  remembered_rules: RuleTable;
  remembered_firings: FiringTable;
};

export type MemoryDatabase = StoreDatabase & MemoryTables;

/** The store's database seen with the memory's tables. */
export function memoryDb(db: Kysely<StoreDatabase>): Kysely<MemoryDatabase> {
  return db.withTables<MemoryTables>() as unknown as Kysely<MemoryDatabase>;
}

export function memoryTrx(trx: Transaction<StoreDatabase>): Transaction<MemoryDatabase> {
  return trx.withTables<MemoryTables>() as unknown as Transaction<MemoryDatabase>;
}
