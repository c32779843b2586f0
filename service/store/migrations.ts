/**
 * The store's migrations, in code (Kysely's Migrator runs them in name order, records them in its
 * own table and takes a lock, so two services starting at once migrate once). A released migration
 * is never edited: a change is a new one.
 */
import { sql, type Kysely, type Migration, type MigrationProvider } from "kysely";
import { memoryMigration } from "../memory/migrations";

const initial: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("approval_requests")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("program_digest", "text", (c) => c.notNull())
      .addColumn("invocation_digest", "text", (c) => c.notNull())
      .addColumn("dedupe_key", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'approved', 'rejected', 'changes_requested')`))
      .addColumn("request_json", "text", (c) => c.notNull())
      .addColumn("submitted_at", "text", (c) => c.notNull())
      .execute();
    // Pending requests are deduplicated by the database, not by a read-then-write race.
    await db.schema.createIndex("approval_requests_one_pending").on("approval_requests").column("dedupe_key").unique().where(sql<boolean>`status = 'pending'`).execute();
    await db.schema.createIndex("approval_requests_by_status").on("approval_requests").columns(["status", "submitted_at"]).execute();
    await db.schema
      .createTable("approval_decisions")
      .addColumn("request_id", "text", (c) => c.primaryKey().references("approval_requests.id"))
      .addColumn("decision", "text", (c) => c.notNull().check(sql`decision in ('approved_once', 'approved_remember', 'rejected', 'changes_requested')`))
      .addColumn("reviewer", "text", (c) => c.notNull())
      .addColumn("feedback", "text")
      .addColumn("decided_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("approval_receipts")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("request_id", "text", (c) => c.notNull().references("approval_requests.id"))
      .addColumn("kid", "text", (c) => c.notNull())
      .addColumn("token", "text", (c) => c.notNull())
      .addColumn("single_use", "integer", (c) => c.notNull())
      .addColumn("issued_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("approval_receipts_by_request").on("approval_receipts").column("request_id").execute();
    await db.schema
      .createTable("approval_redemptions")
      .addColumn("receipt_id", "text", (c) => c.primaryKey().references("approval_receipts.id"))
      .addColumn("redeemed_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("signing_keys")
      .addColumn("kid", "text", (c) => c.primaryKey())
      .addColumn("public_x", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('active', 'retired', 'revoked')`))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("retired_at", "text")
      .addColumn("revoked_at", "text")
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ["signing_keys", "approval_redemptions", "approval_receipts", "approval_decisions", "approval_requests"]) await db.schema.dropTable(table).execute();
  },
};

/** What the service found when it verified each request against its operator's layer (service/verify.ts). */
const verification: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // Requests stored before verification existed count as not verified.
    await db.schema.alterTable("approval_requests").addColumn("verified", "integer", (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable("approval_requests").addColumn("verification_json", "text").execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable("approval_requests").dropColumn("verification_json").execute();
    await db.schema.alterTable("approval_requests").dropColumn("verified").execute();
  },
};

/** What the operator's approval policy decided for each request it evaluated (service/policy.ts). */
const policyDecisions: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("policy_decisions")
      .addColumn("request_id", "text", (c) => c.primaryKey().references("approval_requests.id"))
      .addColumn("outcome", "text", (c) => c.notNull().check(sql`outcome in ('auto_approved', 'auto_rejected', 'ask')`))
      .addColumn("rule", "text")
      .addColumn("reason", "text")
      .addColumn("policy_sha256", "text", (c) => c.notNull())
      .addColumn("evaluation_json", "text", (c) => c.notNull())
      .addColumn("evaluated_at", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable("policy_decisions").execute();
  },
};

export const MIGRATIONS: Readonly<Record<string, Migration>> = { "0001_initial": initial, "0002_verification": verification, "0003_policy_decisions": policyDecisions, "0004_memory": memoryMigration };

export const migrationProvider: MigrationProvider = { getMigrations: async () => ({ ...MIGRATIONS }) };
