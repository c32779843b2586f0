/**
 * Set-up for `clauz3 run`'s end-to-end tests: the operator's layer and an agent's project that share
 * the stdlib filesystem library, its manifest saying `"requiresApproval": true`; a real approval
 * service (in this process, port 0, SQLite in a temporary directory, a temporary keyring and
 * reviewer tokens file); the operator's public key set written outside the project; and the built
 * CLI (dist/cli/main.js) run as a child process, asynchronously, so the service in this process
 * keeps answering while it waits.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startService, type RunningService } from "../../service/start";
import { Keyring } from "../../service/keys";
import { issueReviewerToken } from "../../service/tokens";
import { CLI, ROOT, stdlibLayer, tempProject } from "../cli/helpers";
import type { ValidateFunction } from "ajv";
import { createAjv } from "../../core/manifest";
import { call } from "../approval/service-helpers";

/** The layer's effects import Node's modules: the projects see this repository's @types/node. */
export const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: { target: "ES2022", module: "preserve", moduleResolution: "bundler", strict: true, skipLibCheck: true, noEmit: true, types: ["node"], typeRoots: [path.join(ROOT, "node_modules/@types")] },
    include: ["**/*.ts"],
    exclude: ["node_modules"],
  },
  null,
  2,
)}\n`;

/** The stdlib filesystem library whose manifest requires approval. */
export function approvalLayer(): Record<string, string> {
  const files = stdlibLayer();
  const manifest = JSON.parse(files["tools/filesystem/clauz3.json"]!) as Record<string, unknown>;
  files["tools/filesystem/clauz3.json"] = `${JSON.stringify({ ...manifest, requiresApproval: true }, null, 2)}\n`;
  // Rule 93015: each tool module says so in code too, so a build without the plugin keeps it.
  for (const name of ["tools/filesystem/trusted/effects.ts", "tools/filesystem/trusted/async.ts"]) {
    const text = files[name]!;
    files[name] = text.replace('import { requires, trusted } from "clauz3";\n', 'import { requireApproval, requires, trusted } from "clauz3";\n').replace('import { performs } from "clauz3/events";\n', 'import { performs } from "clauz3/events";\nrequireApproval("filesystem");\n');
    if (!files[name]!.includes('requireApproval("filesystem");')) throw new Error(`approvalLayer: could not add requireApproval to ${name}`);
  }
  return files;
}

const HEAD = `import { readFile, writeFile } from "./tools/filesystem/trusted/effects";
import * as fs from "./tools/filesystem/trusted/contracts";
`;

/** Reads the file it is given (never under /secrets) and returns its text. */
export const READER = `${HEAD}export const guarantees = [fs.neverReadUnder("/secrets"), fs.readOnly()];
export function main(path: string): string {
  if (path === "" || path.startsWith("/secrets")) return "refused";
  return readFile(path);
}
`;

/** Another program: writes what it is given (no read guarantee). */
export const WRITER = `${HEAD}export const guarantees = [fs.neverWriteUnder("/secrets")];
export function main(path: string, text: string): number {
  if (path === "" || path.startsWith("/secrets")) return 0;
  writeFile(path, text);
  return text.length;
}
`;

/** Reads under /secrets when asked: does not prove. */
export const LEAKY = `${HEAD}export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): string {
  return readFile(path);
}
`;

export interface World {
  readonly tmp: string;
  readonly layerDir: string;
  readonly agentDir: string;
  readonly keysFile: string;
  readonly keyFile: string;
  readonly service: RunningService;
  /** Alice's reviewer token. */
  readonly alice: string;
  close(): Promise<void>;
}

/** Start the world: service, keys, projects, config. */
export async function startWorld(files: Record<string, string>): Promise<World> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-run-")));
  const layerDir = tempProject({ "tsconfig.json": TSCONFIG, ...approvalLayer() });
  const agentDir = tempProject({ "tsconfig.json": TSCONFIG, ...approvalLayer(), ...files });
  const keyFile = path.join(tmp, "approval-key.json");
  const ring = await Keyring.open(keyFile);
  // The operator's public key set, outside the agent's project.
  const keysFile = path.join(tmp, "operator", "approval-keys.json");
  ring.writePublicKeySet(keysFile);
  const tokens = path.join(tmp, "reviewers.json");
  const alice = issueReviewerToken(tokens, "alice");
  const service = await startService({ layer: layerDir, db: path.join(tmp, "approvals.sqlite"), key: keyFile, tokens, port: 0 });
  writeConfig(agentDir, { version: 1, service: service.url, publicKeys: keysFile });
  return {
    tmp,
    layerDir,
    agentDir,
    keysFile,
    keyFile,
    service,
    alice,
    close: async () => {
      await service.close();
      for (const d of [layerDir, agentDir, tmp]) fs.rmSync(d, { recursive: true, force: true });
    },
  };
}

export function writeConfig(agentDir: string, config: unknown): void {
  fs.mkdirSync(path.join(agentDir, ".clauz3"), { recursive: true });
  fs.writeFileSync(path.join(agentDir, ".clauz3", "config.json"), typeof config === "string" ? config : `${JSON.stringify(config, null, 2)}\n`);
}

export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunningCli {
  /** Resolves with the request id once the CLI says it waits for a decision. */
  readonly waiting: Promise<string>;
  readonly done: Promise<CliRun>;
}

/** `clauz3 run <args>` in `cwd` as a child process (never blocking this process: the service answers from here). */
export function startRun(args: readonly string[], cwd: string, env: Record<string, string | undefined> = {}): RunningCli {
  const base: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", CLAUZ3_APPROVAL_SERVICE: undefined, CLAUZ3_APPROVAL_KEYS: undefined, ...env };
  const clean = Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
  const child = spawn(process.execPath, [CLI, "run", ...args], { cwd, env: clean, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let announce: (id: string) => void = () => undefined;
  const waiting = new Promise<string>((resolve) => (announce = resolve));
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
    const m = /decision on request (\S+)/.exec(stderr);
    if (m) announce(m[1]!);
  });
  const done = new Promise<CliRun>((resolve) => child.on("close", (code) => resolve({ status: code ?? -1, stdout, stderr })));
  const raced = Promise.race([waiting, done.then((r) => Promise.reject(new Error(`clauz3 run ended (${r.status}) before it waited:\n${r.stdout}\n${r.stderr}`)))]);
  // Only a caller that awaits `waiting` cares that the run ended without waiting.
  raced.catch(() => undefined);
  return { waiting: raced, done };
}

export function runCli(args: readonly string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<CliRun> {
  return startRun(args, cwd, env).done;
}

let validateDocument: ValidateFunction | undefined;

/** The `--json` document of a run, validated against schema/run-result.schema.json (and its exit code against the document's). */
export function doc(r: CliRun): Record<string, unknown> {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`clauz3 run printed no JSON document (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
  validateDocument ??= createAjv().compile(JSON.parse(fs.readFileSync(path.join(ROOT, "schema/run-result.schema.json"), "utf8")) as object);
  if (!validateDocument(data)) throw new Error(`the run document does not match schema/run-result.schema.json: ${JSON.stringify(validateDocument.errors)}\n${r.stdout}`);
  if (data.exitCode !== r.status) throw new Error(`clauz3 run exited ${r.status} but its document says ${String(data.exitCode)}`);
  return data;
}

/** A reviewer's decision through the HTTP API. */
export async function decide(world: World, id: string, decision: string, feedback?: string): Promise<Record<string, unknown>> {
  const r = await call(world.service.url, "POST", `/requests/${id}/decision`, { token: world.alice, body: { decision, ...(feedback !== undefined ? { feedback } : {}) } });
  if (r.status !== 200) throw new Error(`deciding ${id} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function pendingIds(world: World): Promise<string[]> {
  const r = await call(world.service.url, "GET", "/requests?status=pending", { token: world.alice });
  return (r.body.requests as { id: string }[]).map((x) => x.id);
}

export async function statusOf(world: World, id: string): Promise<Record<string, unknown>> {
  return (await call(world.service.url, "GET", `/requests/${id}`)).body;
}
