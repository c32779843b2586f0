/**
 * Helpers for running the built CLI (`dist/cli/main.js`) as a child process against temporary
 * projects. `ensureBuilt` rebuilds `dist/` when a source is newer than the built CLI (one build at
 * a time across test workers, through a lock directory).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { assertReport } from "../cli-output/schemas";
import { lockText, type LockSpec } from "../helpers/lock";

export const ROOT = path.resolve(__dirname, "../..");
export const CLI = path.join(ROOT, "dist/cli/main.js");
const SOURCES = ["runtime", "core", "plugin", "language-service", "cli", "service"];

function newestSource(): number {
  let newest = 0;
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith(".ts")) newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const d of SOURCES) walk(path.join(ROOT, d));
  for (const f of ["tsconfig.build.json", "tsconfig.base.json"]) newest = Math.max(newest, fs.statSync(path.join(ROOT, f)).mtimeMs);
  return newest;
}

function isStale(): boolean {
  return !fs.existsSync(CLI) || fs.statSync(CLI).mtimeMs < newestSource();
}

/** Build `dist/` if the CLI is missing or older than a source file. */
export function ensureBuilt(): void {
  if (!isStale()) return;
  const lock = path.join(ROOT, "node_modules/.cache/clauz3-test-build.lock");
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 170_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // another worker is building; a lock older than three minutes is abandoned
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs > 180_000) fs.rmSync(lock, { recursive: true, force: true });
      } catch {
        // it was just released
      }
      if (Date.now() > deadline) throw new Error("timed out waiting for another worker's build");
      spawnSync(process.execPath, ["-e", "setTimeout(() => {}, 250)"]);
    }
  }
  try {
    if (!isStale()) return;
    const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: ROOT, encoding: "utf8" });
    // tsc still emits when other parts of the repository have type errors; the CLI must exist.
    if (!fs.existsSync(CLI)) throw new Error(`npm run build did not produce dist/cli/main.js:\n${r.stdout}${r.stderr}`);
    const now = new Date();
    fs.utimesSync(CLI, now, now);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export interface RunResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Run `clauz3 <args>` in `cwd`. Every JSON report `check` and `prove` print is validated against
 * schema/report.schema.json here, so each CLI test checks the documents it makes.
 */
export function clauz3(args: readonly string[], cwd: string): RunResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" } });
  assertReport(args, r.status, r.stdout);
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * `clauz3 prove --json` of one corpus program (fixtures/tsconfig.json), uncached and in this
 * process, with every query dumped into `dump` (CLAUZ3_DUMP_SMT); `queries` are the dumped
 * queries' texts, with the answer and the attempts in comments at their end.
 */
export function proveDumping(program: string, dump: string): RunResult & { readonly queries: string[] } {
  const r = spawnSync(process.execPath, [CLI, "prove", "-p", "fixtures/tsconfig.json", program, "--json", "--no-cache", "--jobs", "1"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, CLAUZ3_DUMP_SMT: dump },
  });
  const queries = fs.readdirSync(dump).filter((f) => /^q\d+-\d+\.smt2$/.test(f)).map((f) => fs.readFileSync(path.join(dump, f), "utf8"));
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, queries };
}

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "preserve",
    moduleResolution: "bundler",
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  },
  include: ["**/*.ts"],
  exclude: ["node_modules"],
};

/** The stdlib filesystem layer and its manifest, at `tools/filesystem/` of a project. */
export function stdlibLayer(): Record<string, string> {
  const out: Record<string, string> = {};
  const dir = path.join(ROOT, "stdlib/filesystem/trusted");
  for (const name of fs.readdirSync(dir)) out[`tools/filesystem/trusted/${name}`] = fs.readFileSync(path.join(dir, name), "utf8");
  out["tools/filesystem/clauz3.json"] = fs.readFileSync(path.join(ROOT, "stdlib/filesystem/clauz3.json"), "utf8");
  return out;
}

/**
 * A temporary project: `files` (relative paths), a tsconfig.json (unless given), and
 * `node_modules/clauz3` linked to this repository (so `clauz3` resolves to the built runtime).
 * Its clauz3.lock pins every trusted file of `files` except `lock.unpinned` (what `clauz3 lock`
 * writes; see helpers/lock.ts); `{ text }` writes that text, `false` no lock.
 */
export function tempProject(files: Record<string, string>, lock: LockSpec = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-cli-"));
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(ROOT, path.join(dir, "node_modules/clauz3"), "dir");
  const all: Record<string, string> = { "tsconfig.json": `${JSON.stringify(TSCONFIG, null, 2)}\n`, ...files };
  const text = "clauz3.lock" in files ? undefined : lockText(lock, files, dir);
  if (text !== undefined) all["clauz3.lock"] = text;
  for (const [rel, text] of Object.entries(all)) {
    const full = path.join(dir, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
  }
  return dir;
}

export function removeProject(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The LinkML metamodel JSON Schema vendored in `schema/vendor/linkml/` (origin and licence in its README), or a clear failure. */
export function metamodelPath(): string {
  const p = path.resolve(ROOT, "schema/vendor/linkml/meta.schema.json");
  if (!fs.existsSync(p)) {
    throw new Error(`The LinkML metamodel JSON Schema is missing: expected ${p} (vendored in the repository). The catalog cannot be validated without it.`);
  }
  return p;
}
