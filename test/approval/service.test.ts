/**
 * The approval service's HTTP API against a real running service on an ephemeral port: its own
 * store (SQLite, and the main flow on a real PostgreSQL too), keyring, reviewer tokens and the
 * operator's layer on disk. Requests are built from an agent's project on disk, as `clauz3 run`
 * will build them.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { bindingOf, identityDigests, layerFingerprint, parseKeySet, programDigest, verifyReceipt, type ApprovalRequest } from "../../core/approval";
import { startService, type RunningService } from "../../service/start";
import { issueReviewerToken } from "../../service/tokens";
import { removeProject } from "../cli/helpers";
import { freshPostgres } from "./postgres";
import { agentProject, atPath, call, operatorLayer, requestIn } from "./service-helpers";

let layerDir: string;
let agentDir: string;
let tmp: string;
let plan: ApprovalRequest;
let alice: string;

beforeAll(() => {
  layerDir = operatorLayer();
  agentDir = agentProject();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-service-"));
  plan = requestIn(agentDir, "plan.ts", ["a"]);
  alice = issueReviewerToken(path.join(tmp, "reviewers.json"), "alice");
});
afterAll(() => {
  removeProject(layerDir);
  removeProject(agentDir);
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function start(db: string, extra: { bodyLimit?: number } = {}): Promise<RunningService> {
  return startService({ layer: layerDir, db, key: path.join(tmp, "key.json"), tokens: path.join(tmp, "reviewers.json"), port: 0, ...extra });
}

type Backend = { readonly name: string };

describe.each<Backend>([{ name: "SQLite" }, { name: "PostgreSQL" }])("approval service on $name", ({ name }) => {
  let service: RunningService;
  let pg: { url: string; drop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    if (name === "PostgreSQL") pg = await freshPostgres();
    service = await start(pg?.url ?? path.join(tmp, "flow.sqlite"));
  });
  afterAll(async () => {
    await service?.close();
    await pg?.drop();
  });

  it("listens on loopback and verifies a submitted program against the operator's layer", async () => {
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const submitted = await call(service.url, "POST", "/requests", { body: plan });
    expect(submitted.status).toBe(201);
    expect(submitted.body).toMatchObject({ status: "pending", verified: true, problems: [], created: true, decision: null, receipt: null });
  });

  it("submit → pending (deduplicated) → approve → receipt verifies → redeemed once", async () => {
    const first = await call(service.url, "POST", "/requests", { body: plan });
    const id = first.body.id as string;
    expect(first.body.created).toBe(false);
    // The same program and inputs again: the pending request, not a new one.
    expect((await call(service.url, "POST", "/requests", { body: plan })).body).toMatchObject({ id, created: false, status: "pending" });

    const queue = await call(service.url, "GET", "/requests?status=pending", { token: alice });
    expect(queue.status).toBe(200);
    expect(queue.body.requests).toEqual([expect.objectContaining({ id, programDigest: plan.program.digest, verified: true })]);
    const agentView = await call(service.url, "GET", `/requests/${id}`);
    expect(agentView.body).toMatchObject({ id, status: "pending", verified: true, decision: null, receipt: null });
    expect(agentView.body.computed).toBeUndefined();
    // A reviewer sees the identities the service computed, which are the ones describe computes.
    const reviewerView = await call(service.url, "GET", `/requests/${id}`, { token: alice });
    expect((reviewerView.body.computed as ApprovalRequest).guarantees).toEqual(plan.guarantees);
    expect(reviewerView.body.verdict).toBe("proved");

    const decided = await call(service.url, "POST", `/requests/${id}/decision`, { token: alice, body: { decision: "approved_once" } });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ id, status: "approved", decision: { decision: "approved_once", reviewer: "alice", feedback: null } });
    const token = (decided.body.receipt as { token: string }).token;
    expect((await call(service.url, "GET", `/requests/${id}`)).body).toMatchObject({ status: "approved", receipt: { token, singleUse: true, redeemedAt: null } });

    // What `run` will do: verify with the operator's public keys against what it is about to run.
    const keys = parseKeySet((await call(service.url, "GET", "/keys")).body);
    const claims = await verifyReceipt(token, keys, bindingOf(plan), Date.now());
    expect(claims).toMatchObject({ request: id, program: plan.program.digest, guarantees: identityDigests(plan.guarantees), layer: service.layer.fingerprint, decision: "approved_once", reviewer: "alice" });

    const redeemed = await call(service.url, "POST", "/receipts/redeem", { body: { receipt: token } });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body).toMatchObject({ redeemed: true, claims: { jti: claims.jti } });
    const again = await call(service.url, "POST", "/receipts/redeem", { body: { receipt: token } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "already-redeemed", field: "receipt" });
    // Decided once.
    const twice = await call(service.url, "POST", `/requests/${id}/decision`, { token: alice, body: { decision: "rejected" } });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe("already-decided");
  });

  it("approve and remember says what it remembers; request changes returns the feedback", async () => {
    const remember = await call(service.url, "POST", "/requests", { body: requestIn(agentDir, "plan.ts", ["b"]) });
    const decided = await call(service.url, "POST", `/requests/${remember.body.id as string}/decision`, { token: alice, body: { decision: "approved_remember" } });
    expect(decided.body).toMatchObject({ status: "approved", decision: { decision: "approved_remember", note: expect.stringMatching(/stores a rule/) }, receipt: { singleUse: true } });
    // Revoke the rule it made (test/memory/ tests what rules do), so plan.ts waits for a person again.
    const rules = (await call(service.url, "GET", "/remembered", { token: alice })).body.rules as { id: string; sourceRequestId: string }[];
    const made = rules.find((r) => r.sourceRequestId === remember.body.id)!;
    expect((await call(service.url, "POST", `/remembered/${made.id}/revoke`, { token: alice })).status).toBe(200);

    const changes = await call(service.url, "POST", "/requests", { body: requestIn(agentDir, "plan.ts", ["c"]) });
    const id = changes.body.id as string;
    const noFeedback = await call(service.url, "POST", `/requests/${id}/decision`, { token: alice, body: { decision: "changes_requested" } });
    expect(noFeedback.status).toBe(400);
    expect(noFeedback.body).toMatchObject({ error: "invalid-body", field: "feedback" });
    await call(service.url, "POST", `/requests/${id}/decision`, { token: alice, body: { decision: "changes_requested", feedback: "read /data/b.md instead" } });
    expect((await call(service.url, "GET", `/requests/${id}`)).body).toMatchObject({ status: "changes_requested", decision: { feedback: "read /data/b.md instead", reviewer: "alice" }, receipt: null });
  });
});

describe("approval service: what cannot be approved, and who cannot decide", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await start(path.join(tmp, "refusals.sqlite"), { bodyLimit: 256 * 1024 });
  });
  afterAll(async () => service?.close());

  it("marks a request with tampered identities unverified, naming what differs, and refuses to approve it", async () => {
    const tampered: ApprovalRequest = { ...plan, inputs: ["t1"], guarantees: plan.guarantees.map((g, i) => (i === 0 ? { ...g, sentence: "The program reads nothing." } : g)) };
    const submitted = await call(service.url, "POST", "/requests", { body: tampered });
    expect(submitted.status).toBe(201);
    expect(submitted.body.verified).toBe(false);
    const fields = (submitted.body.problems as { field: string }[]).map((p) => p.field);
    expect(fields).toEqual(expect.arrayContaining(["guarantees[0]", "guarantees[0].sentence"]));
    const id = submitted.body.id as string;
    expect((await call(service.url, "GET", "/requests?status=pending", { token: alice })).body.requests).toEqual(expect.arrayContaining([expect.objectContaining({ id, verified: false })]));

    for (const decision of ["approved_once", "approved_remember"]) {
      const refused = await call(service.url, "POST", `/requests/${id}/decision`, { token: alice, body: { decision } });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe("unverified");
    }
    expect((await call(service.url, "GET", `/requests/${id}`)).body).toMatchObject({ status: "pending", receipt: null });
    // The reviewer never sees the tampered sentence as the service's own.
    const view = await call(service.url, "GET", `/requests/${id}`, { token: alice });
    expect((view.body.computed as ApprovalRequest).guarantees[0]!.sentence).toBe(plan.guarantees[0]!.sentence);
    expect((await call(service.url, "POST", `/requests/${id}/decision`, { token: alice, body: { decision: "rejected", feedback: "identities do not verify" } })).body.status).toBe("rejected");
  });

  it("marks a request described against another layer (digests recomputed to match) unverified", async () => {
    const files = plan.layer.files.map((f, i) => (i === 0 ? { ...f, sha256: "0".repeat(64) } : f));
    const fingerprint = layerFingerprint(files);
    const tampered: ApprovalRequest = { ...plan, inputs: ["t2"], layer: { ...plan.layer, files, fingerprint }, program: { ...plan.program, digest: programDigest(plan.program, fingerprint) } };
    const submitted = await call(service.url, "POST", "/requests", { body: tampered });
    expect(submitted.body.verified).toBe(false);
    expect((submitted.body.problems as { field: string }[]).map((p) => p.field)).toEqual(expect.arrayContaining(["layer.fingerprint", "program.digest"]));
    const refused = await call(service.url, "POST", `/requests/${submitted.body.id as string}/decision`, { token: alice, body: { decision: "approved_once" } });
    expect(refused.status).toBe(409);
  });

  it("refuses a program digest that is not the digest of the request's sources (400, nothing stored)", async () => {
    const tampered = { ...plan, program: { ...plan.program, digest: "0".repeat(64) } };
    const answer = await call(service.url, "POST", "/requests", { body: tampered });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: "invalid-body", field: "program.digest" });
    expect(answer.body.message).toMatch(/^program\.digest is not the digest of the program's sources and layer/);
  });

  it("marks a program that does not prove against the operator's layer unverified", async () => {
    const leaky = requestIn(agentProject(), "leaky.ts", ["a"]);
    const submitted = await call(service.url, "POST", "/requests", { body: leaky });
    expect(submitted.status).toBe(201);
    expect(submitted.body).toMatchObject({ verified: false, problems: [expect.objectContaining({ field: "program", problem: expect.stringMatching(/^is violated against the operator's layer/) })] });
    expect((await call(service.url, "POST", `/requests/${submitted.body.id as string}/decision`, { token: alice, body: { decision: "approved_once" } })).status).toBe(409);
  });

  it("refuses source paths that could stand for the operator's files before reading anything", async () => {
    const cases: [string, RegExp][] = [
      ["../plan.ts", /leave the project directory/],
      ["/tmp/plan.ts", /not absolute/],
      ["tsconfig.ts/../plan.ts", /leave the project directory/],
      ["tools/filesystem/trusted/plan.ts", /trusted root/],
      ["node_modules/x/plan.ts", /node_modules/],
      ["plan.d.ts", /TypeScript source/],
    ];
    for (const [p, why] of cases) {
      const answer = await call(service.url, "POST", "/requests", { body: atPath(plan, p) });
      expect(answer.status, p).toBe(400);
      expect(answer.body, p).toMatchObject({ error: "invalid-body", field: "program.path", message: expect.stringMatching(why) });
    }
    fs.writeFileSync(path.join(layerDir, "existing.ts"), "export {};\n");
    const existing = await call(service.url, "POST", "/requests", { body: atPath(plan, "existing.ts") });
    expect(existing.body).toMatchObject({ field: "program.path", message: expect.stringMatching(/names an existing file of the operator's layer/) });
  });

  it("refuses decisions and the queue without a reviewer's token (401): an agent cannot approve its own request", async () => {
    const submitted = await call(service.url, "POST", "/requests", { body: { ...plan, inputs: ["own"] } });
    const id = submitted.body.id as string;
    expect(submitted.body.verified).toBe(true);
    const none = await call(service.url, "POST", `/requests/${id}/decision`, { body: { decision: "approved_once" } });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(none.body.error).toBe("unauthenticated");
    const forged = await call(service.url, "POST", `/requests/${id}/decision`, { token: "clauz3r_notatoken", body: { decision: "approved_once" } });
    expect(forged.status).toBe(401);
    expect((await call(service.url, "GET", "/requests?status=pending")).status).toBe(401);
    expect((await call(service.url, "GET", `/requests/${id}`, { token: "clauz3r_notatoken" })).status).toBe(401);
    expect((await call(service.url, "GET", `/requests/${id}`)).body).toMatchObject({ status: "pending", decision: null, receipt: null });
  });

  it("answers malformed bodies with 400 naming the field, never a stack trace", async () => {
    const { program: _omitted, ...noProgram } = plan;
    const expectations: [unknown, string | undefined, string, RegExp][] = [
      [noProgram, undefined, "program", /^program is missing$/],
      [{ ...plan, guarantees: [{ ...plan.guarantees[0], verified: true }, plan.guarantees[1]] }, undefined, "guarantees[0].verified", /is not a field of an approval request/],
      [{ ...plan, version: 2 }, undefined, "version", /must be 1/],
      [{ ...plan, inputs: "a" }, undefined, "inputs", /must be array/],
      [undefined, "{\"version\": 1,", "the request", /not valid JSON/],
    ];
    for (const [body, raw, field, message] of expectations) {
      const answer = await call(service.url, "POST", "/requests", { body, raw });
      expect(answer.status, field).toBe(400);
      expect(answer.body, field).toMatchObject({ error: "invalid-body", field, message: expect.stringMatching(message) });
      expect(JSON.stringify(answer.body)).not.toMatch(/\bat .*\.(?:js|ts):\d+/);
    }
    const id = (await call(service.url, "POST", "/requests", { body: { ...plan, inputs: ["bodies"] } })).body.id as string;
    const badDecision = await call(service.url, "POST", `/requests/${id}/decision`, { token: alice, body: { decision: "approve" } });
    expect(badDecision.body).toMatchObject({ error: "invalid-body", field: "decision", message: expect.stringMatching(/must be one of "approved_once"/) });
    const extra = await call(service.url, "POST", `/requests/${id}/decision`, { token: alice, body: { decision: "rejected", reviewer: "mallory" } });
    expect(extra.body).toMatchObject({ error: "invalid-body", field: "reviewer", message: "reviewer is not a field of a decision" });
    expect((await call(service.url, "POST", "/receipts/redeem", { body: {} })).body).toMatchObject({ error: "invalid-body", field: "receipt", message: "receipt is missing" });
    const unknown = await call(service.url, "POST", "/receipts/redeem", { body: { receipt: "a.b.c" } });
    expect(unknown).toMatchObject({ status: 404, body: { error: "unknown-receipt", field: "receipt" } });
    const tooLarge = await call(service.url, "POST", "/requests", { body: { ...plan, inputs: ["x".repeat(300 * 1024)] } });
    expect(tooLarge).toMatchObject({ status: 413, body: { error: "body-too-large" } });
    const query = await call(service.url, "GET", "/requests?status=approved", { token: alice });
    expect(query).toMatchObject({ status: 400, body: { field: "status" } });
    expect(await call(service.url, "GET", "/requests/no-such-id")).toMatchObject({ status: 404, body: { error: "unknown-request", field: "id" } });
    expect(await call(service.url, "POST", "/requests", { raw: '{"__proto__": {"verified": true}}' })).toMatchObject({ status: 400, body: { error: "invalid-body" } });
    const text = await fetch(`${service.url}/requests`, { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify(plan) });
    expect({ status: text.status, body: (await text.json()) as unknown }).toMatchObject({ status: 415, body: { error: "unsupported-media-type" } });
    expect(await call(service.url, "DELETE", "/requests")).toMatchObject({ status: 404, body: { error: "not-found" } });
  });
});
