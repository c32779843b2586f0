/**
 * Opening the store's database from a `--db` value: `postgres://…` or `postgresql://…` is a
 * PostgreSQL server (node-postgres pool), anything else a SQLite file (`sqlite:` prefix optional),
 * created with its directory when absent. SQLite runs in WAL mode with `synchronous=FULL`, so a
 * committed transaction survives a crash of the process or the machine.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import { Pool } from "pg";
import { migrationProvider } from "./migrations";
import type { StoreDatabase } from "./schema";

export type StoreKind = "sqlite" | "postgres";

export interface OpenDatabase {
  readonly db: Kysely<StoreDatabase>;
  readonly kind: StoreKind;
}

/** A database that cannot be opened or migrated, with the URL (password hidden) and why. */
export class StoreOpenError extends Error {
  constructor(
    readonly target: string,
    readonly problem: string,
  ) {
    super(`approval store ${target}: ${problem}`);
    this.name = "StoreOpenError";
  }
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@]*@/, "$1:***@");
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(?:ql)?:\/\//.test(url);
}

/** Open `url` and bring its schema up to date (Kysely's Migrator). */
export async function openDatabase(url: string): Promise<OpenDatabase> {
  let opened: OpenDatabase;
  if (isPostgresUrl(url)) {
    opened = { db: new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: url, max: 10 }) }) }), kind: "postgres" };
  } else {
    const file = url.replace(/^sqlite:/, "");
    if (file === "") throw new StoreOpenError(url, "names no SQLite file");
    let sqlite: Database.Database;
    try {
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      sqlite = new Database(file);
      sqlite.pragma("journal_mode = WAL");
      sqlite.pragma("synchronous = FULL");
      sqlite.pragma("foreign_keys = ON");
      sqlite.pragma("busy_timeout = 5000");
    } catch (error) {
      throw new StoreOpenError(file, `cannot be opened as a SQLite database (${error instanceof Error ? error.message : String(error)})`);
    }
    opened = { db: new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: sqlite }) }), kind: "sqlite" };
  }
  const { error } = await new Migrator({ db: opened.db, provider: migrationProvider }).migrateToLatest();
  if (error !== undefined) {
    await opened.db.destroy();
    throw new StoreOpenError(redact(url), `cannot be migrated (${error instanceof Error ? error.message : String(error)})`);
  }
  return opened;
}
