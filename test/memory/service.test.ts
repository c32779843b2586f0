/**
 * The approval memory against a real running service (SQLite and PostgreSQL): "approve and
 * remember" stores a rule that approves a later request with exactly the same guarantees and
 * libraries — with a receipt issued, verified and redeemed like any other, naming the rule — and
 * never one whose template, contract body or same-named library differs; identity snapshots keep
 * what was verified across a library change; ineligible arguments are not remembered; revoking
 * a rule stops it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { bindingOf, identityDigests, parseKeySet, verifyReceipt, type ApprovalRequest } from "../../core/approval";
import { startService, type RunningService } from "../../service/start";
import { issueReviewerToken } from "../../service/tokens";
import { removeProject } from "../cli/helpers";
import { freshPostgres } from "../approval/postgres";
import { agentProject, call, operatorLayer, requestIn } from "../approval/service-helpers";
import { baseLayer, bodyChanged, NEW_TEMPLATE, templateChanged, writeLayer, writePrograms } from "./helpers";

type Backend = { readonly name: string };

describe.each<Backend>([{ name: "SQLite" }, { name: "PostgreSQL" }])("approval memory on $name", ({ name }) => {
  let layerDir: string;
  let agentDir: string;
  let tmp: string;
  let alice: string;
  let service: RunningService;
  let pg: { url: string; drop: () => Promise<void> } | undefined;
  let ruleId: string;
  let rememberedId: string;

  beforeAll(async () => {
    layerDir = operatorLayer();
    agentDir = agentProject();
    writeLayer([layerDir, agentDir], baseLayer());
    writePrograms(agentDir);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-memory-"));
    alice = issueReviewerToken(path.join(tmp, "reviewers.json"), "alice");
    if (name === "PostgreSQL") pg = await freshPostgres();
    service = await startService({ layer: layerDir, db: pg?.url ?? path.join(tmp, "memory.sqlite"), key: path.join(tmp, "key.json"), tokens: path.join(tmp, "reviewers.json"), port: 0 });
  });
  afterAll(async () => {
    await service?.close();
    await pg?.drop();
    removeProject(layerDir);
    removeProject(agentDir);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function submit(file: string, inputs: unknown[]): Promise<{ id: string; body: Record<string, unknown>; request: ApprovalRequest }> {
    const request = requestIn(agentDir, file, inputs);
    const answer = await call(service.url, "POST", "/requests", { body: request });
    expect(answer.status).toBe(201);
    expect(answer.body.verified).toBe(true);
    return { id: answer.body.id as string, body: answer.body, request };
  }

  const history = async (id: string): Promise<Record<string, any>> => (await call(service.url, "GET", `/requests/${id}/history`, { token: alice })).body;

  it("remembers an approval and approves an identical request by that rule, with a receipt like any other", async () => {
    const first = await submit("plan.ts", ["a"]);
    rememberedId = first.id;
    const decided = await call(service.url, "POST", `/requests/${first.id}/decision`, { token: alice, body: { decision: "approved_remember" } });
    expect(decided.status).toBe(200);
    const rules = (await call(service.url, "GET", "/remembered", { token: alice })).body.rules as Record<string, any>[];
    expect(rules).toHaveLength(1);
    ruleId = rules[0]!.id as string;
    expect(rules[0]).toMatchObject({ createdBy: "alice", sourceRequestId: first.id, revokedAt: null, fired: 0 });
    expect(rules[0]!.rule.libraries.map((l: { directory: string }) => l.directory)).toEqual(["tools/filesystem"]);
    expect((await history(first.id)).rememberedAs).toBe(ruleId);

    // Other inputs, the same guarantees and libraries: approved at once, by the rule.
    const second = await submit("plan.ts", ["b"]);
    expect(second.body).toMatchObject({ status: "approved", decision: { decision: "approved_remember", reviewer: `rule:${ruleId}` }, receipt: { singleUse: true } });
    const token = (second.body.receipt as { token: string }).token;
    const keys = parseKeySet((await call(service.url, "GET", "/keys")).body);
    const claims = await verifyReceipt(token, keys, bindingOf(second.request), Date.now());
    expect(claims).toMatchObject({ request: second.id, decision: "approved_remember", reviewer: `rule:${ruleId}`, singleUse: true });
    expect((await call(service.url, "POST", "/receipts/redeem", { body: { receipt: token } })).status).toBe(200);
    expect((await call(service.url, "POST", "/receipts/redeem", { body: { receipt: token } })).status).toBe(409);
    expect(await history(second.id)).toMatchObject({ firedRule: ruleId, identity: "recorded" });
    const after = (await call(service.url, "GET", "/remembered", { token: alice })).body.rules as Record<string, any>[];
    expect(after[0]).toMatchObject({ id: ruleId, fired: 1 });
  });

  it("records each decision's identity snapshot as verified: sentence, symbol, parameters, digests, layer and library origin/revision", async () => {
    const record = await history(rememberedId);
    const snapshot = record.snapshot.snapshot;
    const computed = ((await call(service.url, "GET", `/requests/${rememberedId}`, { token: alice })).body.computed as ApprovalRequest)!;
    expect(snapshot.layerFingerprint).toBe(computed.layer.fingerprint);
    expect(snapshot.guarantees.map((g: { identity: unknown }) => g.identity)).toEqual(computed.guarantees);
    const lib = computed.layer.libraries.find((l) => l.directory === "tools/filesystem")!;
    expect(snapshot.guarantees[0].lockLibrary).toEqual({ directory: "tools/filesystem", origin: lib.origin, revision: lib.revision });
    expect(snapshot.guarantees[0].contractSource.text).toContain("export const neverReadUnder = contract(");
    expect(record.snapshot.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it("does not match a request that uses another library under the same name: neither its contracts nor one of its tools", async () => {
    const vendored = await submit("vendored.ts", ["a"]);
    expect(vendored.body).toMatchObject({ status: "pending", decision: null });
    expect(vendored.request.guarantees.map((g) => g.qualifiedName)).toEqual(requestIn(agentDir, "plan.ts", ["a"]).guarantees.map((g) => g.qualifiedName));
    const mixed = await submit("mixed.ts", ["a"]);
    // The same guarantees exactly (same identities) as the remembered request, but it also loads vendor/filesystem.
    expect(identityDigests(mixed.request.guarantees)).toEqual(identityDigests(requestIn(agentDir, "plan.ts", ["a"]).guarantees));
    expect(mixed.body).toMatchObject({ status: "pending", decision: null });
  });

  it("does not match after the template changed, and the old record keeps its sentence and template digest", async () => {
    const before = await history(rememberedId);
    writeLayer([layerDir, agentDir], templateChanged(baseLayer()));
    try {
      const changed = await submit("plan.ts", ["c"]);
      expect(changed.body).toMatchObject({ status: "pending", decision: null });
      expect(changed.request.guarantees[0]!.sentence).toBe('No tool of the filesystem library reads any path that starts with "/secrets".');
      expect(changed.request.guarantees[0]!.template).toBe(NEW_TEMPLATE);
      const after = await history(rememberedId);
      expect(after.snapshot).toEqual(before.snapshot);
      const old = after.snapshot.snapshot.guarantees[0].identity;
      expect(old.sentence).toBe('No filesystem tool reads a path starting with "/secrets".');
      expect(old.templateSha256).not.toBe(changed.request.guarantees[0]!.templateSha256);
      // Deciding the new request records its own snapshot; the old one is untouched.
      await call(service.url, "POST", `/requests/${changed.id}/decision`, { token: alice, body: { decision: "rejected" } });
      expect((await history(changed.id)).snapshot.snapshot.guarantees[0].identity.sentence).toBe(changed.request.guarantees[0]!.sentence);
      expect((await history(rememberedId)).snapshot).toEqual(before.snapshot);
    } finally {
      writeLayer([layerDir, agentDir], baseLayer());
    }
  });

  it("does not match after the contract's body changed (template and sentence unchanged)", async () => {
    writeLayer([layerDir, agentDir], bodyChanged(baseLayer()));
    try {
      const changed = await submit("plan.ts", ["d"]);
      expect(changed.request.guarantees[0]!.sentence).toBe('No filesystem tool reads a path starting with "/secrets".');
      expect(changed.body).toMatchObject({ status: "pending", decision: null });
    } finally {
      writeLayer([layerDir, agentDir], baseLayer());
    }
    // Back to the remembered bytes: the rule applies again.
    expect((await submit("plan.ts", ["e"])).body).toMatchObject({ status: "approved", decision: { reviewer: `rule:${ruleId}` } });
  });

  it("refuses to remember an argument that looks like a secret, naming it, and still approves once", async () => {
    const secretive = await submit("secretive.ts", ["a"]);
    const refused = await call(service.url, "POST", `/requests/${secretive.id}/decision`, { token: alice, body: { decision: "approved_remember" } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "not-rememberable", field: "decision" });
    expect(refused.body.message).toMatch(/guarantee 1 \(filesystem\.neverReadUnder\(prefix="sk_live_[^)]*\)\) argument prefix is not eligible for remembering: its value looks like a secret/);
    expect((await call(service.url, "GET", "/remembered", { token: alice })).body.rules).toHaveLength(1);
    const once = await call(service.url, "POST", `/requests/${secretive.id}/decision`, { token: alice, body: { decision: "approved_once" } });
    expect(once.body).toMatchObject({ status: "approved", decision: { decision: "approved_once", reviewer: "alice" } });
  });

  it("revokes a rule once; an identical request then waits for a person", async () => {
    const revoked = await call(service.url, "POST", `/remembered/${ruleId}/revoke`, { token: alice });
    expect(revoked.status).toBe(200);
    expect(revoked.body.rule).toMatchObject({ id: ruleId, revokedBy: "alice" });
    expect((await call(service.url, "POST", `/remembered/${ruleId}/revoke`, { token: alice })).body).toMatchObject({ error: "already-revoked" });
    expect((await call(service.url, "POST", "/remembered/nope/revoke", { token: alice })).status).toBe(404);
    expect((await call(service.url, "POST", `/remembered/${ruleId}/revoke`)).status).toBe(401);
    expect((await submit("plan.ts", ["f"])).body).toMatchObject({ status: "pending", decision: null });
  });
});
