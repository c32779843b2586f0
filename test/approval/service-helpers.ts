/**
 * Set-up for the approval service's tests: the operator's layer (a checkout of the stdlib filesystem
 * library with its lock), an agent's project on disk with the same layer (its requests are built as
 * `clauz3 run` will build them: loaded as the CLI loads a project), reviewer tokens, and JSON over
 * real HTTP.
 */
import * as path from "node:path";
import { buildRequest, programDigest, type ApprovalRequest } from "../../core/approval";
import { loadProject } from "../../cli/project";
import { CLI, ensureBuilt, ROOT, stdlibLayer, tempProject } from "../cli/helpers";
import { HEAD, PLAN } from "./project";

/** A program that reads under /secrets, which its first guarantee forbids: it does not prove. */
export const LEAKY = `${HEAD}export const guarantees = [fs.neverReadUnder("/secrets"), fs.onlyReadsFiles([FilePath("/data/a.md")])];
export function main(name: string): void {
  if (name === "a") readFile("/secrets/key.pem");
}
`;

/** The layer's effects import Node's modules: both projects see this repository's @types/node, as agents' projects do. */
const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: { target: "ES2022", module: "preserve", moduleResolution: "bundler", strict: true, skipLibCheck: true, noEmit: true, types: ["node"], typeRoots: [path.join(ROOT, "node_modules/@types")] },
    include: ["**/*.ts"],
    exclude: ["node_modules"],
  },
  null,
  2,
)}\n`;

/** The operator's checkout: the layer and its lock, no agent program. */
export function operatorLayer(): string {
  return tempProject({ "tsconfig.json": TSCONFIG, ...stdlibLayer() });
}

/** An agent's project with `PLAN` (plan.ts) and `LEAKY` (leaky.ts) over the same layer. */
export function agentProject(): string {
  return tempProject({ "tsconfig.json": TSCONFIG, ...stdlibLayer(), "plan.ts": PLAN, "leaky.ts": LEAKY });
}

/** The request of `file` in the agent's project on disk, built as the CLI loads projects. */
export function requestIn(dir: string, file: string, inputs: unknown): ApprovalRequest {
  const full = path.join(dir, file);
  const project = loadProject({ cwd: dir, extraRoots: [full], onlyExtraRoots: true });
  const source = project.program.getSourceFile(full)!;
  return buildRequest({ ts: project.ts, program: project.program, layer: project.layer, file: source, inputs, libraries: project.libraries });
}

/** `request` with its program at another path (the program digest recomputed, so only the path is wrong). */
export function atPath(request: ApprovalRequest, p: string): ApprovalRequest {
  const program = { ...request.program, path: p };
  return { ...request, program: { ...program, digest: programDigest(program, request.layer.fingerprint) } };
}

export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

/** One HTTP call with a JSON body (or raw text), answered as JSON. */
export async function call(base: string, method: string, url: string, options: { body?: unknown; raw?: string; token?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.raw !== undefined || options.body !== undefined) {
    headers["content-type"] = "application/json";
    body = options.raw ?? JSON.stringify(options.body);
  }
  const response = await fetch(base + url, { method, headers, body });
  const text = await response.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${method} ${url} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** The CLI (`dist/cli/main.js`, whose `approval-service` command is the service's process), built when stale. */
export function serviceEntry(): string {
  ensureBuilt();
  return CLI;
}
