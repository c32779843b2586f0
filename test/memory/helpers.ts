/**
 * Set-up for the approval memory's tests: the operator's layer and an agent's project (as the
 * approval tests make them) with a second library under the same name (`vendor/filesystem`, a copy
 * of the filesystem library: same id, same qualified names, another directory), programs that
 * differ from `plan.ts` only in what a remembered rule must notice, and layer changes written to
 * both checkouts and locked again, as an operator updating a library would.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import { Pool } from "pg";
import { invocationDigest, type ApprovalRequest } from "../../core/approval";
import { MIGRATIONS } from "../../service/store";
import type { StoreDatabase } from "../../service/store/schema";
import { stdlibLayer } from "../cli/helpers";
import { lockFor } from "../helpers/lock";
import { HEAD, PLAN } from "../approval/project";

export { PLAN };

/** The filesystem library at tools/filesystem and its copy at vendor/filesystem. */
export function baseLayer(): Record<string, string> {
  const tools = stdlibLayer();
  const vendor = Object.fromEntries(Object.entries(tools).map(([rel, text]) => [rel.replace(/^tools\//, "vendor/"), text]));
  return { ...tools, ...vendor };
}

/** plan.ts's guarantees, stated with the same-named library's contracts. */
export const VENDORED = `import { FilePath } from "clauz3";
import { readFile } from "./vendor/filesystem/trusted/effects";
import * as fs from "./vendor/filesystem/trusted/contracts";
export const guarantees = [fs.neverReadUnder("/secrets"), fs.onlyReadsFiles([FilePath("/data/a.md")])];
export function main(name: string): void {
  if (name === "a") readFile("/data/a.md");
}
`;

/** plan.ts's guarantees exactly, but the program also calls a tool of the same-named library. */
export const MIXED = `${HEAD}import { readFile as readVendored } from "./vendor/filesystem/trusted/effects";
export const guarantees = [fs.neverReadUnder("/secrets"), fs.onlyReadsFiles([FilePath("/data/a.md")])];
export function main(name: string): void {
  if (name === "a") readFile("/data/a.md");
  if (name === "b") readVendored("/data/b.md");
}
`;

/** A guarantee whose argument looks like a secret: not eligible for remembering. */
export const SECRETIVE = `${HEAD}export const guarantees = [fs.neverReadUnder("sk_live_0123456789abcdefABCDEFGH")];
export function main(name: string): void {
  if (name === "a") readFile("/data/a.md");
}
`;

export const PROGRAMS: Record<string, string> = { "plan.ts": PLAN, "vendored.ts": VENDORED, "mixed.ts": MIXED, "secretive.ts": SECRETIVE };

export const OLD_TEMPLATE = "No filesystem tool reads a path starting with {prefix}.";
export const NEW_TEMPLATE = "No tool of the filesystem library reads any path that starts with {prefix}.";

/** The layer with tools/filesystem's neverReadUnder template changed (nothing else). */
export function templateChanged(layer: Record<string, string>): Record<string, string> {
  const rel = "tools/filesystem/trusted/contracts.ts";
  const text = layer[rel]!;
  if (!text.includes(OLD_TEMPLATE)) throw new Error("the filesystem library's neverReadUnder template is not the one these tests expect");
  return { ...layer, [rel]: text.replace(OLD_TEMPLATE, NEW_TEMPLATE) };
}

/** The layer with tools/filesystem's neverReadUnder body changed (two conjuncts swapped: same meaning, other bytes), its template unchanged. */
export function bodyChanged(layer: Record<string, string>): Record<string, string> {
  const rel = "tools/filesystem/trusted/contracts.ts";
  const text = layer[rel]!;
  const from = `e.dir !== "." &&\n          e.dir !== ".." &&`;
  if (!text.includes(from)) throw new Error("the filesystem library's neverReadUnder body is not the one these tests expect");
  return { ...layer, [rel]: text.replace(from, `e.dir !== ".." &&\n          e.dir !== "." &&`) };
}

/** Write `layer` into each checkout and lock it again (what the operator's `clauz3 lock` would write). */
export function writeLayer(dirs: readonly string[], layer: Record<string, string>): void {
  for (const dir of dirs) {
    for (const [rel, text] of Object.entries(layer)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    fs.writeFileSync(path.join(dir, "clauz3.lock"), lockFor(layer, dir));
  }
}

/** Write the programs into the agent's project. */
export function writePrograms(dir: string): void {
  for (const [rel, text] of Object.entries(PROGRAMS)) fs.writeFileSync(path.join(dir, rel), text);
}

/**
 * A store as the release before migration 0004_memory left it, at `url` (a SQLite file or
 * PostgreSQL): its two migrations and request `id` approved once by alice, with its receipt, and
 * no identity snapshot.
 */
export async function writeOldStore(url: string, id: string, request: ApprovalRequest, at: string): Promise<void> {
  const db = url.startsWith("postgres")
    ? new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: url, max: 2 }) }) })
    : new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: new Database(url) }) });
  try {
    const provider = { getMigrations: async () => Object.fromEntries(MIGRATIONS_BEFORE_MEMORY.map((n) => [n, MIGRATIONS[n]!])) };
    const { error } = await new Migrator({ db, provider }).migrateToLatest();
    if (error !== undefined) throw error;
    const verification = { verified: true, problems: [], verdict: "proved", computed: request };
    const invocation = invocationDigest(request.program.target, request.inputs);
    await db
      .insertInto("approval_requests")
      .values({ id, program_digest: request.program.digest, invocation_digest: invocation, dedupe_key: `${request.program.digest}:${invocation}`, status: "approved", request_json: JSON.stringify(request), submitted_at: at, verified: 1, verification_json: JSON.stringify(verification) })
      .execute();
    await db.insertInto("approval_decisions").values({ request_id: id, decision: "approved_once", reviewer: "alice", feedback: null, decided_at: at }).execute();
    await db.insertInto("approval_receipts").values({ id: `${id}-receipt`, request_id: id, kid: "k1", token: "a.b.c", single_use: 1, issued_at: at, expires_at: at }).execute();
  } finally {
    await db.destroy();
  }
}

export const MIGRATIONS_BEFORE_MEMORY = ["0001_initial", "0002_verification"];
