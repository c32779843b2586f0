/**
 * `clauz3 run` puts the prover's coverage in the approval request it submits: the built CLI
 * against a stub approval endpoint that records the request (`--timeout 0`: submit and return),
 * and a program with a required gap is not submitted at all (the gate's error).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { ensureBuilt } from "../../fixtures/projects/project.mjs";
import { CLI } from "../cli/helpers";
import { Keyring } from "../../service/keys";
import { validateRequest } from "../../core/approval/validate";
import { coverageProject, EMAIL_POLICY, manifest, TEXT_POLICY, type CoverageProject } from "./project";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

const SILENT = `export const guarantees = [email.noForwards()];
export function main(to: string, message: string): void {
  sendEmail(to, "hi", "");
  print(message);
}
`;
const REQUIRED = `export const guarantees = [email.sendsAtMost(1)];
export function main(to: string): void {
  sendEmail(to, "hi", "");
}
`;

let project: CoverageProject;
let server: Server;
let tmp: string;
const received: unknown[] = [];

beforeAll(async () => {
  ensureBuilt();
  project = coverageProject({ email: manifest("Email", EMAIL_POLICY), text: manifest("Text", TEXT_POLICY) }, { silent: SILENT, required: REQUIRED });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-coverage-run-"));
  const keys = path.join(tmp, "approval-keys.json");
  (await Keyring.open(path.join(tmp, "key.json"))).writePublicKeySet(keys);
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/requests") received.push(JSON.parse(body));
      res.writeHead(201, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "r-1", status: "pending", submittedAt: new Date(0).toISOString(), verified: true, problems: [], decision: null, receipt: null, created: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fs.mkdirSync(path.join(project.dir, ".clauz3"), { recursive: true });
  fs.writeFileSync(path.join(project.dir, ".clauz3", "config.json"), JSON.stringify({ version: 1, service: url, publicKeys: keys }));
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  project?.remove();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** A run that never reaches the service (the stub is not needed to answer, so a synchronous child will do). */
function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI, "run", ...args], { cwd: project.dir, encoding: "utf8" });
}

it("submits the prover's coverage in the request", async () => {
  // An asynchronous child: the stub answers in this process meanwhile.
  const child = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const c = spawn(process.execPath, [CLI, "run", "plans/silent.ts", "--inputs", JSON.stringify(["a@corp.com", "hello"]), "--timeout", "0", "--json"], { cwd: project.dir });
    let stderr = "";
    c.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    c.on("exit", (status) => resolve({ status, stderr }));
  });
  expect(received, child.stderr).toHaveLength(1);
  const request = validateRequest(received[0]);
  expect(request.coverage!.map((c) => `${c.library}:${c.status}`)).toEqual(["text:silent-gap", "email:recommended-gap"]);
  expect(request.coverage![0]!.uses).toEqual([{ tool: "text.print", location: { file: "plans/silent.ts", line: 10, column: 3 } }]);
});

it("does not submit a program with a required gap (exit 1, the error printed as check prints it)", () => {
  const before = received.length;
  const r = run(["plans/required.ts", "--inputs", JSON.stringify(["a@corp.com"]), "--timeout", "0"]);
  expect(r.status).toBe(1);
  expect(r.stdout + r.stderr).toMatch(/TS93040/);
  expect(received.length).toBe(before);
});
