/**
 * Migration 0004_memory on a store written before it (SQLite and a real PostgreSQL): the requests,
 * decisions and receipts already there stay exactly as they were, and a decision stored without an
 * identity snapshot is shown as "Resolved identity not recorded" — with its original expressions,
 * not reinterpreted against today's libraries.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { sql } from "kysely";
import { MemoryStore } from "../../service/memory/store";
import { historyRecordPage } from "../../service/page/history";
import { ApprovalStore, MIGRATIONS } from "../../service/store";
import { freshPostgres } from "../approval/postgres";
import { PLAN, requestFor } from "../approval/project";
import { writeOldStore } from "./helpers";

const AT = "2026-11-30T10:00:00.000Z";

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-memory-migration-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each([{ name: "SQLite" }, { name: "PostgreSQL" }])("migration 0004_memory on $name", ({ name }) => {
  let url: string;
  let pg: { url: string; drop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    if (name === "PostgreSQL") pg = await freshPostgres();
    url = pg?.url ?? path.join(tmp, "old.sqlite");
  });
  afterAll(async () => pg?.drop());

  it("keeps what an older service stored, and shows its decision without a snapshot as not recorded", async () => {
    const request = requestFor({ "plan.ts": PLAN }, ["old"]);
    await writeOldStore(url, "old-1", request, AT);

    const store = await ApprovalStore.open(url);
    try {
      const names = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
      expect(names.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS).sort());
      expect(names.rows.map((r) => r.name)).toContain("0004_memory");
      const stored = (await store.get("old-1"))!;
      expect(stored).toMatchObject({ status: "approved", submittedAt: AT, decision: { decision: "approved_once", reviewer: "alice", decidedAt: AT }, receipt: { id: "old-1-receipt", token: "a.b.c", singleUse: true } });
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
