/**
 * Migration 0003_memory on a store written before it (SQLite and a real PostgreSQL): the requests,
 * decisions and receipts already there stay exactly as they were, and a decision stored without an
 * identity snapshot is shown as "Resolved identity not recorded" — with its original expressions,
 * not reinterpreted against today's libraries.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import Database from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect } from "kysely";
import { Pool } from "pg";
import { invocationDigest } from "../../core/approval";
import { MemoryStore } from "../../service/memory/store";
import { historyRecordPage } from "../../service/page/history";
import { ApprovalStore, MIGRATIONS } from "../../service/store";
import type { StoreDatabase } from "../../service/store/schema";
import { freshPostgres } from "../approval/postgres";
import { PLAN, requestFor } from "../approval/project";

const BEFORE = ["0001_initial", "0002_verification"];
const AT = "2026-11-30T10:00:00.000Z";

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-memory-migration-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function open(url: string): Kysely<StoreDatabase> {
  if (url.startsWith("postgres")) return new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: url, max: 2 }) }) });
  return new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: new Database(url) }) });
}

describe.each([{ name: "SQLite" }, { name: "PostgreSQL" }])("migration 0003_memory on $name", ({ name }) => {
  let url: string;
  let pg: { url: string; drop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    if (name === "PostgreSQL") pg = await freshPostgres();
    url = pg?.url ?? path.join(tmp, "old.sqlite");
  });
  afterAll(async () => pg?.drop());

  it("keeps what an older service stored, and shows its decision without a snapshot as not recorded", async () => {
    const request = requestFor({ "plan.ts": PLAN }, ["old"]);
    // The store as the previous release left it: its two migrations and a decided request with its receipt.
    const old = open(url);
    const provider = { getMigrations: async () => Object.fromEntries(BEFORE.map((n) => [n, MIGRATIONS[n]!])) };
    expect((await new Migrator({ db: old, provider }).migrateToLatest()).error).toBeUndefined();
    const verification = { verified: true, problems: [], verdict: "proved", computed: request };
    const invocation = invocationDigest(request.program.target, request.inputs);
    await old
      .insertInto("approval_requests")
      .values({ id: "old-1", program_digest: request.program.digest, invocation_digest: invocation, dedupe_key: `${request.program.digest}:${invocation}`, status: "approved", request_json: JSON.stringify(request), submitted_at: AT, verified: 1, verification_json: JSON.stringify(verification) })
      .execute();
    await old.insertInto("approval_decisions").values({ request_id: "old-1", decision: "approved_once", reviewer: "alice", feedback: null, decided_at: AT }).execute();
    await old.insertInto("approval_receipts").values({ id: "receipt-1", request_id: "old-1", kid: "k1", token: "a.b.c", single_use: 1, issued_at: AT, expires_at: AT }).execute();
    await old.destroy();

    const store = await ApprovalStore.open(url);
    try {
      const names = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
      expect(names.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS).sort());
      expect(names.rows.map((r) => r.name)).toContain("0003_memory");
      const stored = (await store.get("old-1"))!;
      expect(stored).toMatchObject({ status: "approved", submittedAt: AT, decision: { decision: "approved_once", reviewer: "alice", decidedAt: AT }, receipt: { id: "receipt-1", token: "a.b.c", singleUse: true } });
      expect(stored.request).toEqual(request);
      expect(stored.verification.computed).toEqual(request);

      const memory = new MemoryStore(store);
      expect(await memory.snapshot("old-1")).toBeUndefined();
      expect(await memory.history()).toEqual([{ requestId: "old-1", decision: "approved_once", reviewer: "alice", decidedAt: AT, programPath: null, snapshotRecorded: false, firedRule: null }]);
      const page = historyRecordPage({ rememberNote: "", reviewer: "alice", csrf: "t" }, { stored, snapshot: undefined, fired: undefined, made: undefined }).markup;
      expect(page).toContain("Resolved identity not recorded.");
      expect(page).toContain("stored before identity snapshots existed");
      // The original expressions, and nothing computed: no sentence, no symbol of today's library.
      for (const g of request.guarantees) {
        expect(page).toContain(g.expression.replace(/"/g, "&quot;"));
        expect(page).not.toContain(g.symbol);
      }
    } finally {
      await store.close();
    }
  });
});
