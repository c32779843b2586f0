/**
 * A real PostgreSQL for the store tests, never a mock and never a silent skip. With
 * CLAUZ3_TEST_POSTGRES_URL (a role that may create databases), that server; otherwise Debian's
 * `postgresql` on this machine: a stopped cluster is started (`pg_ctlcluster`), a `clauz3_test`
 * role with CREATEDB is made once (as the `postgres` user, which needs root), and each test file
 * gets a fresh database it drops at the end. Anything missing fails with what to do.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Client } from "pg";

const ROLE = "clauz3_test";
const PASSWORD = "clauz3_test";

function run(command: string, args: readonly string[]): string {
  return execFileSync(command, [...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
}

function failure(what: string, error: unknown): Error {
  const stderr = (error as { stderr?: unknown }).stderr;
  const detail = typeof stderr === "string" && stderr.trim() !== "" ? stderr.trim() : error instanceof Error ? error.message : String(error);
  return new Error(`PostgreSQL for the approval store tests: ${what} (${detail}). Install and start it as root with \`apt-get install -y postgresql && pg_ctlcluster <version> main start\` (.ci/run does), or set CLAUZ3_TEST_POSTGRES_URL.`);
}

interface Cluster {
  readonly version: string;
  readonly name: string;
  readonly port: number;
  readonly online: boolean;
}

function clusters(): Cluster[] {
  let out: string;
  try {
    out = run("pg_lsclusters", ["--no-header"]);
  } catch (error) {
    throw failure("`pg_lsclusters` did not run: Debian's postgresql is not installed", error);
  }
  return out
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 4 && /^\d+$/.test(f[2]!))
    .map((f) => ({ version: f[0]!, name: f[1]!, port: Number(f[2]), online: f[3]!.startsWith("online") }));
}

async function canConnect(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The URL of a role that may create databases, starting the local cluster and making the role when needed. */
async function adminUrl(): Promise<string> {
  const given = process.env.CLAUZ3_TEST_POSTGRES_URL;
  if (given) return given;
  const all = clusters();
  const cluster = all.find((c) => c.online) ?? all[0];
  if (!cluster) throw failure("postgresql is installed but has no cluster", new Error("pg_lsclusters lists none"));
  if (!cluster.online) {
    try {
      run("pg_ctlcluster", [cluster.version, cluster.name, "start"]);
    } catch (error) {
      throw failure(`cluster ${cluster.version}/${cluster.name} is stopped and could not be started`, error);
    }
  }
  const url = `postgres://${ROLE}:${PASSWORD}@127.0.0.1:${cluster.port}/postgres`;
  if (await canConnect(url)) return url;
  const create = `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${ROLE}') THEN CREATE ROLE ${ROLE} LOGIN CREATEDB PASSWORD '${PASSWORD}'; ELSE ALTER ROLE ${ROLE} LOGIN CREATEDB PASSWORD '${PASSWORD}'; END IF; END $$;`;
  try {
    run("runuser", ["-u", "postgres", "--", "psql", "-p", String(cluster.port), "-v", "ON_ERROR_STOP=1", "-c", create]);
  } catch (error) {
    throw failure(`the ${ROLE} role could not be created (that needs root)`, error);
  }
  if (!(await canConnect(url))) throw failure(`cannot connect as ${ROLE} to 127.0.0.1:${cluster.port}`, new Error("password authentication over TCP failed"));
  return url;
}

/** A fresh database on a real PostgreSQL: its URL and how to drop it. */
export async function freshPostgres(): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> {
  const admin = await adminUrl();
  const name = `clauz3_test_${randomBytes(6).toString("hex")}`;
  const client = new Client({ connectionString: admin });
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    throw failure(`cannot create a test database through ${admin.replace(/:[^:@/]*@/, ":***@")}`, error);
  } finally {
    await client.end().catch(() => undefined);
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
