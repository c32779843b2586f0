/**
 * The approval service with a policy, over real HTTP: an invalid policy stops it before it listens
 * (the file and field named; exit 2 through the real CLI), and each new verified request is decided
 * by the policy: an auto-approval carries a receipt exactly like a person's (signed, single-use,
 * redeemable once), an auto-rejection returns the rule's reason as feedback, and "ask" leaves the
 * request pending for a person. Each records the rule and reason.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { bindingOf, parseKeySet, verifyReceipt, type ApprovalRequest } from "../../core/approval";
import { PolicyError } from "../../core/policy";
import { startService, type RunningService } from "../../service/start";
import { issueReviewerToken } from "../../service/tokens";
import { removeProject, tempProject, stdlibLayer } from "../cli/helpers";
import { call, requestIn, serviceEntry } from "../approval/service-helpers";
import { AUDIT, NOTIFY, POLICY, policyProject, TSCONFIG, writePolicy } from "./helpers";

let layerDir: string;
let agentDir: string;
let tmp: string;
let alice: string;

beforeAll(() => {
  // The operator's checkout has the same libraries as the agent's project, and no program.
  layerDir = tempProject({ "tsconfig.json": TSCONFIG, ...stdlibLayer(), ...AUDIT, ...NOTIFY });
  agentDir = policyProject();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-policy-service-"));
  alice = issueReviewerToken(path.join(tmp, "reviewers.json"), "alice");
});
afterAll(() => {
  removeProject(layerDir);
  removeProject(agentDir);
  fs.rmSync(tmp, { recursive: true, force: true });
});

function start(policy: string | undefined, db: string): Promise<RunningService> {
  return startService({ layer: layerDir, db: path.join(tmp, db), key: path.join(tmp, "key.json"), tokens: path.join(tmp, "reviewers.json"), port: 0, ...(policy === undefined ? {} : { policy }) });
}

describe("the approval service with a policy", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await start(writePolicy(tmp, "policy.json", POLICY), "policy.sqlite");
  });
  afterAll(async () => {
    await service?.close();
  });

  it("auto-approves with a receipt exactly like a person's: signed, bound to the program, redeemable once", async () => {
    const plan: ApprovalRequest = requestIn(agentDir, "plan.ts", ["a"]);
    const submitted = await call(service.url, "POST", "/requests", { body: plan });
    expect(submitted.status).toBe(201);
    expect(submitted.body).toMatchObject({
      status: "approved",
      verified: true,
      decision: { decision: "approved_once", reviewer: "policy:only-a", feedback: "It reads only a.md and writes nothing." },
      policy: { outcome: "auto_approved", rule: "only-a", reason: "It reads only a.md and writes nothing.", evaluations: [{ rule: "no-etc", status: "entailed", fired: false }, { rule: "only-a", status: "entailed", fired: true }] },
    });
    const receipt = submitted.body.receipt as { token: string; singleUse: boolean };
    expect(receipt.singleUse).toBe(true);
    const keys = parseKeySet((await call(service.url, "GET", "/keys")).body);
    const claims = await verifyReceipt(receipt.token, keys, bindingOf(plan), Date.now());
    expect(claims).toMatchObject({ request: submitted.body.id, decision: "approved_once", reviewer: "policy:only-a", singleUse: true });
    expect((await call(service.url, "POST", "/receipts/redeem", { body: { receipt: receipt.token } })).status).toBe(200);
    expect((await call(service.url, "POST", "/receipts/redeem", { body: { receipt: receipt.token } })).status).toBe(409);
    // The record says which rule decided, to anyone reading the request.
    const read = await call(service.url, "GET", `/requests/${String(submitted.body.id)}`, { token: alice });
    expect(read.body).toMatchObject({ status: "approved", policy: { outcome: "auto_approved", rule: "only-a" } });
  });

  it("auto-rejects with the rule's reason as the feedback", async () => {
    const submitted = await call(service.url, "POST", "/requests", { body: requestIn(agentDir, "etc.ts", []) });
    expect(submitted.status).toBe(201);
    expect(submitted.body).toMatchObject({
      status: "rejected",
      verified: true,
      receipt: null,
      decision: { decision: "rejected", reviewer: "policy:no-etc", feedback: "Nothing under /etc is read." },
      policy: { outcome: "auto_rejected", rule: "no-etc", reason: "Nothing under /etc is read.", evaluations: [{ rule: "no-etc", status: "not_entailed", fired: true }] },
    });
  });

  it("asks a person when no rule fires: the request stays pending, and the outcome is recorded", async () => {
    const submitted = await call(service.url, "POST", "/requests", { body: requestIn(agentDir, "wide.ts", [true]) });
    expect(submitted.body).toMatchObject({ status: "pending", decision: null, receipt: null, policy: { outcome: "ask", rule: null, reason: null } });
    const queue = await call(service.url, "GET", "/requests?status=pending", { token: alice });
    expect(queue.body.requests).toEqual([expect.objectContaining({ id: submitted.body.id })]);
    // A person decides it as any other request.
    const decided = await call(service.url, "POST", `/requests/${String(submitted.body.id)}/decision`, { token: alice, body: { decision: "approved_once" } });
    expect(decided.body).toMatchObject({ status: "approved", decision: { reviewer: "alice" } });
  });
});

describe("a policy and remembered approvals together (docs/approval-memory.md)", () => {
  it("deny wins over a remembered rule; a request the policy leaves to a person is approved by the rule", async () => {
    // A person approves and remembers `wide.ts` on a service without a policy: the rule is
    // `neverReadUnder("/secrets")` over the filesystem library, which `etc.ts` states too.
    const before = await start(undefined, "together.sqlite");
    let ruleId: string;
    try {
      const first = await call(before.url, "POST", "/requests", { body: requestIn(agentDir, "wide.ts", [true]) });
      expect(first.body).toMatchObject({ status: "pending", verified: true });
      const decided = await call(before.url, "POST", `/requests/${String(first.body.id)}/decision`, { token: alice, body: { decision: "approved_remember" } });
      expect(decided.status).toBe(200);
      const rules = (await call(before.url, "GET", "/remembered", { token: alice })).body.rules as { id: string }[];
      expect(rules).toHaveLength(1);
      ruleId = rules[0]!.id;
    } finally {
      await before.close();
    }
    // The same store, now with the policy: its rejection of `etc.ts` comes first and stands.
    const after = await start(writePolicy(tmp, "together.json", POLICY), "together.sqlite");
    try {
      const etc = await call(after.url, "POST", "/requests", { body: requestIn(agentDir, "etc.ts", []) });
      expect(etc.body).toMatchObject({ status: "rejected", receipt: null, decision: { decision: "rejected", reviewer: "policy:no-etc" }, policy: { outcome: "auto_rejected", rule: "no-etc" } });
      // `wide.ts` with other inputs: the policy asks a person, and the person's remembered rule answers.
      const wide = await call(after.url, "POST", "/requests", { body: requestIn(agentDir, "wide.ts", [false]) });
      expect(wide.body).toMatchObject({ status: "approved", decision: { decision: "approved_remember", reviewer: `rule:${ruleId}` }, policy: { outcome: "ask" } });
      const rules = (await call(after.url, "GET", "/remembered", { token: alice })).body.rules as { id: string; fired: number }[];
      expect(rules).toEqual([expect.objectContaining({ id: ruleId, fired: 1 })]);
    } finally {
      await after.close();
    }
  });
});

describe("an invalid policy stops the service before it listens", () => {
  it("startService throws a PolicyError naming the file and field", async () => {
    const bad = writePolicy(tmp, "bad.json", { version: 1, rules: [{ name: "x", decision: "auto_rejected", reason: "r", unlessProven: ["filesystem.nope()"] }] });
    await expect(start(bad, "bad.sqlite")).rejects.toThrow(PolicyError);
    await expect(start(bad, "bad.sqlite")).rejects.toThrow(/bad\.json: rules\[0\]\.unlessProven\[0\] "filesystem\.nope\(\)" names `filesystem\.nope`, which is not a contract of the layer/);
    expect(fs.existsSync(path.join(tmp, "bad.sqlite"))).toBe(false);
  });

  it("clauz3 approval-service --policy exits 2 with the field, one line, no stack trace", () => {
    writePolicy(tmp, "pairing.json", { version: 1, rules: [{ name: "x", decision: "auto_rejected", reason: "r", whenProven: ["filesystem.readOnly()"] }] });
    const r = spawnSync(process.execPath, [serviceEntry(), "approval-service", "--layer", layerDir, "--policy", "pairing.json", "--port", "0", "--db", "cli.sqlite"], { cwd: tmp, encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toEqual(["clauz3 approval-service: --policy pairing.json: rules[0].whenProven is not allowed in an auto_rejected rule: an auto_rejected rule uses unlessProven (auto_approved pairs with whenProven, auto_rejected with unlessProven)"]);
  });
});
