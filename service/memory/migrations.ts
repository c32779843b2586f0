/**
 * Migration 0004_memory: identity snapshots, remembered rules and their firings. It only adds
 * tables, so every request, decision and receipt stored before it stays as it was; a decision
 * stored before it has no snapshot and is shown as "Resolved identity not recorded".
 */
import { sql, type Kysely, type Migration } from "kysely";

export const memoryMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("approval_snapshots")
      .addColumn("request_id", "text", (c) => c.primaryKey().references("approval_requests.id"))
      .addColumn("snapshot_json", "text", (c) => c.notNull())
      .addColumn("snapshot_digest", "text", (c) => c.notNull())
      .addColumn("recorded_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("remembered_rules")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("created_by", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("source_request_id", "text", (c) => c.notNull().unique().references("approval_requests.id"))
      .addColumn("match_key", "text", (c) => c.notNull())
      .addColumn("rule_json", "text", (c) => c.notNull())
      .addColumn("revoked_at", "text")
      .addColumn("revoked_by", "text")
      .execute();
    await db.schema.createIndex("remembered_rules_active").on("remembered_rules").column("match_key").where(sql<boolean>`revoked_at is null`).execute();
    await db.schema
      .createTable("remembered_firings")
      .addColumn("request_id", "text", (c) => c.primaryKey().references("approval_requests.id"))
      .addColumn("rule_id", "text", (c) => c.notNull().references("remembered_rules.id"))
      .addColumn("fired_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("remembered_firings_by_rule").on("remembered_firings").column("rule_id").execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ["remembered_firings", "remembered_rules", "approval_snapshots"]) await db.schema.dropTable(table).execute();
  },
};
