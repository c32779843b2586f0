/**
 * The approval service as a process (`clauz3 approval-service`), killed with SIGKILL and started again
 * on the same SQLite file: it still shows the pending requests, and the decision and receipt it
 * acknowledged before it was killed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { issueReviewerToken } from "../../service/tokens";
import { removeProject } from "../cli/helpers";
import { agentProject, call, operatorLayer, requestIn, serviceEntry } from "./service-helpers";

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
}

let tmp: string;
let layerDir: string;
let agentDir: string;
let entry: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  entry = serviceEntry();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-service-process-"));
  layerDir = operatorLayer();
  agentDir = agentProject();
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  removeProject(layerDir);
  removeProject(agentDir);
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Start the service and resolve with its URL once it says it listens (or reject with its stderr when it exits). */
function startProcess(args: readonly string[] = []): Promise<Running> {
  const child = spawn(process.execPath, [entry, "approval-service", "--layer", layerDir, "--db", path.join(tmp, "approvals.sqlite"), "--key", path.join(tmp, "key.json"), "--tokens", path.join(tmp, "reviewers.json"), "--port", "0", ...args], { cwd: tmp, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => reject(new Error(`the service exited (${code}) before it listened: ${err}`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

describe("approval service process", () => {
  it("refuses a layer without a lock with one line and exit 2", async () => {
    const bare = fs.mkdtempSync(path.join(tmp, "bare-"));
    await expect(startProcess(["--layer", bare])).rejects.toThrow(/exited \(2\) before it listened: clauz3 approval-service: --layer .*has no lock at .*clauz3\.lock/);
  });

  it("after SIGKILL and a restart, still shows the pending request and the decision it acknowledged", async () => {
    const alice = issueReviewerToken(path.join(tmp, "reviewers.json"), "alice");
    const first = await startProcess();
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const pending = (await call(first.url, "POST", "/requests", { body: requestIn(agentDir, "plan.ts", ["pending"]) })).body.id as string;
    const approved = (await call(first.url, "POST", "/requests", { body: requestIn(agentDir, "plan.ts", ["approved"]) })).body.id as string;
    const decided = await call(first.url, "POST", `/requests/${approved}/decision`, { token: alice, body: { decision: "approved_once" } });
    expect(decided.status).toBe(200);
    const token = (decided.body.receipt as { token: string }).token;
    await killed(first.child);

    const second = await startProcess();
    const queue = await call(second.url, "GET", "/requests?status=pending", { token: alice });
    expect((queue.body.requests as { id: string }[]).map((r) => r.id)).toEqual([pending]);
    expect((await call(second.url, "GET", `/requests/${pending}`)).body).toMatchObject({ status: "pending", verified: true, decision: null });
    expect((await call(second.url, "GET", `/requests/${approved}`)).body).toMatchObject({ status: "approved", decision: { decision: "approved_once", reviewer: "alice" }, receipt: { token, redeemedAt: null } });
    // The receipt acknowledged before the kill redeems after the restart, once.
    expect((await call(second.url, "POST", "/receipts/redeem", { body: { receipt: token } })).status).toBe(200);
    expect((await call(second.url, "POST", "/receipts/redeem", { body: { receipt: token } })).status).toBe(409);
    await killed(second.child);
  });
});
