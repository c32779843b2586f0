/**
 * The approval store, the same tests against a real SQLite file and a real PostgreSQL server
 * (test/approval/postgres.ts starts it; it fails, never skips, when it cannot).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { sql } from "kysely";
import { ApprovalRequestError, bindingOf, identityDigests, invocationDigest, programDigest, signReceipt, verifyReceipt, type ApprovalRequest, type ReceiptClaims } from "../../core/approval";
import { sha256Hex } from "../../core/lock";
import { decideRequest } from "../../service/decide";
import { Keyring } from "../../service/keys";
import { redeemReceipt, RedemptionError } from "../../service/redeem";
import { ApprovalStore, MIGRATIONS, StoreError, StoreOpenError } from "../../service/store";
import type { Verification } from "../../service/verification";
import { freshPostgres } from "./postgres";
import { PLAN, requestFor } from "./project";

let base: ApprovalRequest;
let tmp: string;
beforeAll(() => {
  base = requestFor({ "plan.ts": PLAN }, ["a"]);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-store-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The request of another program (a different source, digests recomputed), or of other inputs. */
function variant(n: number, inputs: ApprovalRequest["inputs"] = base.inputs): ApprovalRequest {
  const source = `${base.program.source}// variant ${n}\n`;
  const program = { ...base.program, source, sha256: sha256Hex(Buffer.from(source, "utf8")) };
  return { ...base, inputs, program: { ...program, digest: programDigest(program, base.layer.fingerprint) } };
}

/** The store's tests start from requests the service verified (service/verify.ts is tested against a running service). */
function verifiedAs(request: ApprovalRequest): Verification {
  return { verified: true, problems: [], verdict: "proved", computed: request };
}

const AT = "2026-01-01T00:00:00.000Z";
const NOW = Date.parse(AT);

type Backend = { readonly name: string; readonly url: () => string };
let pg: { url: string; drop: () => Promise<void> } | undefined;
let sqliteFile = "";

const BACKENDS: Backend[] = [
  { name: "SQLite", url: () => sqliteFile },
  { name: "PostgreSQL", url: () => pg!.url },
];

describe.each(BACKENDS)("approval store on $name", ({ name, url }) => {
  let store: ApprovalStore;
  let keyring: Keyring;

  beforeAll(async () => {
    if (name === "PostgreSQL") pg = await freshPostgres();
    else sqliteFile = path.join(tmp, "nested", "approvals.sqlite");
    store = await ApprovalStore.open(url());
    keyring = await Keyring.open(path.join(tmp, `${name}-key.json`));
  });
  afterAll(async () => {
    await store?.close();
    if (name === "PostgreSQL") await pg?.drop();
  });

  it("migrates once: a second open finds the schema current", async () => {
    const again = await ApprovalStore.open(url());
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(again.db);
    expect(rows.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS).sort());
    expect(again.kind).toBe(name === "SQLite" ? "sqlite" : "postgres");
    await again.close();
  });

  it("stores a request as submitted and lists it as pending", async () => {
    const request = variant(1);
    const { id, created } = await store.submit(request, AT, verifiedAs(request));
    expect(created).toBe(true);
    const stored = await store.get(id);
    expect(stored).toEqual({ id, status: "pending", request, submittedAt: AT, verification: verifiedAs(request), decision: null, receipt: null });
    expect((await store.pending()).map((p) => p.id)).toContain(id);
    expect(await store.get("no-such-id")).toBeUndefined();
  });

  it("refuses a malformed request, naming the field", async () => {
    const bad = { ...variant(2), program: { ...variant(2).program, digest: "0".repeat(64) } };
    await expect(store.submit(bad, AT, verifiedAs(bad))).rejects.toThrow(ApprovalRequestError);
    await expect(store.submit(bad, AT, verifiedAs(bad))).rejects.toThrow(/^program\.digest is not the digest/);
  });

  it("dedupes pending requests: the same program and inputs get the pending request, even when racing", async () => {
    const first = await store.submit(variant(3), AT, verifiedAs(variant(3)));
    expect(await store.submit(variant(3), AT, verifiedAs(variant(3)))).toEqual({ id: first.id, created: false });
    const otherInputs = await store.submit(variant(3, ["b"]), AT, verifiedAs(variant(3, ["b"])));
    expect(otherInputs.created).toBe(true);
    expect(otherInputs.id).not.toBe(first.id);

    const racing = await Promise.all(Array.from({ length: 6 }, () => store.submit(variant(4), AT, verifiedAs(variant(4)))));
    expect(new Set(racing.map((r) => r.id)).size).toBe(1);
    expect(racing.filter((r) => r.created)).toHaveLength(1);

    // Once decided, the same program and inputs make a new request.
    await decideRequest({ store, keyring, requestId: first.id, decision: "rejected", reviewer: "alice", feedback: "no", ttlSeconds: 60, now: NOW });
    const after = await store.submit(variant(3), AT, verifiedAs(variant(3)));
    expect(after.created).toBe(true);
    expect(after.id).not.toBe(first.id);
  });

  it("records who decided, decides once, and refuses unknown requests and mismatched receipts", async () => {
    const { id } = await store.submit(variant(5), AT, verifiedAs(variant(5)));
    expect(await decideRequest({ store, keyring, requestId: id, decision: "changes_requested", reviewer: "bob", feedback: "read b.md instead", ttlSeconds: 60, now: NOW })).toEqual({ receipt: null });
    const stored = await store.get(id);
    expect(stored?.status).toBe("changes_requested");
    expect(stored?.decision).toEqual({ decision: "changes_requested", reviewer: "bob", feedback: "read b.md instead", decidedAt: AT });
    expect(stored?.receipt).toBeNull();
    expect((await store.pending()).map((p) => p.id)).not.toContain(id);

    const again = decideRequest({ store, keyring, requestId: id, decision: "approved_once", reviewer: "mallory", ttlSeconds: 60, now: NOW });
    await expect(again).rejects.toMatchObject({ reason: "already-decided" });
    await expect(store.decide({ requestId: id, decision: "rejected", reviewer: "mallory", at: AT })).rejects.toMatchObject({ reason: "already-decided", message: `request ${id} is already decided (changes_requested)` });
    await expect(store.decide({ requestId: "nope", decision: "rejected", reviewer: "a", at: AT })).rejects.toMatchObject({ reason: "unknown-request" });
    const pendingId = (await store.submit(variant(6), AT, verifiedAs(variant(6)))).id;
    await expect(store.decide({ requestId: pendingId, decision: "approved_once", reviewer: "a", at: AT })).rejects.toThrow(StoreError);
    await expect(store.decide({ requestId: pendingId, decision: "rejected", reviewer: "a", at: AT, receipt: { id: "r", kid: "k", token: "t", singleUse: true, issuedAt: AT, expiresAt: AT } })).rejects.toMatchObject({ reason: "receipt-mismatch" });
    expect((await store.get(pendingId))?.status).toBe("pending");
  });

  it("keeps a request that did not verify, with its problems, and refuses to approve it; it dedupes only with itself", async () => {
    const request = variant(14);
    const verification: Verification = { verified: false, problems: [{ field: "layer.fingerprint", problem: "is not the fingerprint of the operator's layer" }], verdict: "proved", computed: null };
    const { id } = await store.submit(request, AT, verification);
    expect((await store.get(id))?.verification).toEqual(verification);
    expect((await store.pending()).find((p) => p.id === id)).toMatchObject({ verified: false });
    expect(await store.submit(request, AT, verification)).toEqual({ id, created: false });
    // A verified submission of the same program and inputs is not attached to the unverified one.
    expect((await store.submit(request, AT, verifiedAs(request))).id).not.toBe(id);

    await expect(decideRequest({ store, keyring, requestId: id, decision: "approved_once", reviewer: "alice", ttlSeconds: 60, now: NOW })).rejects.toMatchObject({ reason: "unverified" });
    // The database refuses it too, whatever receipt a caller brings.
    const receipt = { id: "r14", kid: "k", token: "t", singleUse: true, issuedAt: AT, expiresAt: AT };
    await expect(store.decide({ requestId: id, decision: "approved_remember", reviewer: "alice", at: AT, receipt })).rejects.toMatchObject({ reason: "unverified" });
    expect((await store.get(id))?.status).toBe("pending");
    await decideRequest({ store, keyring, requestId: id, decision: "rejected", reviewer: "alice", feedback: "does not verify", ttlSeconds: 60, now: NOW });
    expect((await store.get(id))?.status).toBe("rejected");
  });

  it("commits an approval and its receipt before returning the receipt, which binds the request", async () => {
    const request = variant(7);
    const { id } = await store.submit(request, AT, verifiedAs(request));
    const { receipt } = await decideRequest({ store, keyring, requestId: id, decision: "approved_once", reviewer: "alice", ttlSeconds: 300, now: NOW });
    expect(receipt).toEqual(expect.any(String));

    // Another connection (as after a restart) sees the decision and the very receipt returned.
    const other = await ApprovalStore.open(url());
    const seen = await other.get(id);
    await other.close();
    expect(seen?.status).toBe("approved");
    expect(seen?.decision).toMatchObject({ decision: "approved_once", reviewer: "alice" });
    expect(seen?.receipt).toMatchObject({ token: receipt, kid: keyring.activeKid, singleUse: true, issuedAt: AT, expiresAt: new Date(NOW + 300_000).toISOString(), redeemedAt: null });

    const binding = { program: request.program.digest, invocation: invocationDigest("main", request.inputs), guarantees: identityDigests(request.guarantees), layer: request.layer.fingerprint };
    expect(bindingOf(request)).toEqual(binding);
    const claims = await verifyReceipt(receipt!, keyring.publicKeySet(), binding, NOW);
    expect(claims).toMatchObject({ request: id, decision: "approved_once", reviewer: "alice", singleUse: true, jti: seen?.receipt?.id });
  });

  it("a decision whose receipt cannot be stored is not recorded at all", async () => {
    const a = (await store.submit(variant(12), AT, verifiedAs(variant(12)))).id;
    const b = (await store.submit(variant(13), AT, verifiedAs(variant(13)))).id;
    const receipt = { id: `dup-${name}`, kid: "k", token: "t", singleUse: true, issuedAt: AT, expiresAt: AT };
    await store.decide({ requestId: a, decision: "approved_once", reviewer: "alice", at: AT, receipt });
    // The same receipt id again: the insert fails inside the transaction, which takes the status and the decision with it.
    await expect(store.decide({ requestId: b, decision: "approved_once", reviewer: "alice", at: AT, receipt })).rejects.toThrow();
    const stored = await store.get(b);
    expect(stored).toMatchObject({ status: "pending", decision: null, receipt: null });
    expect((await store.pending()).map((p) => p.id)).toContain(b);
  });

  it("two reviewers approving at once: one decision, one receipt", async () => {
    const { id } = await store.submit(variant(8), AT, verifiedAs(variant(8)));
    const results = await Promise.allSettled(["alice", "bob"].map((reviewer) => decideRequest({ store, keyring, requestId: id, decision: "approved_once", reviewer, ttlSeconds: 60, now: NOW })));
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { reason: "already-decided" } });
    const rows = await store.db.selectFrom("approval_receipts").select("id").where("request_id", "=", id).execute();
    expect(rows).toHaveLength(1);
  });

  it("redeems a receipt once, atomically", async () => {
    const { id } = await store.submit(variant(9), AT, verifiedAs(variant(9)));
    await decideRequest({ store, keyring, requestId: id, decision: "approved_remember", reviewer: "alice", ttlSeconds: 60, now: NOW });
    const receiptId = (await store.get(id))!.receipt!.id;
    expect(await store.redeem(receiptId, AT)).toBe("redeemed");
    expect(await store.redeem(receiptId, AT)).toBe("already-redeemed");
    expect((await store.get(id))!.receipt!.redeemedAt).toBe(AT);
    expect(await store.redeem("no-such-receipt", AT)).toBe("unknown-receipt");

    const { id: id2 } = await store.submit(variant(10), AT, verifiedAs(variant(10)));
    await decideRequest({ store, keyring, requestId: id2, decision: "approved_once", reviewer: "alice", ttlSeconds: 60, now: NOW });
    const receipt2 = (await store.get(id2))!.receipt!.id;
    const racing = await Promise.all(Array.from({ length: 6 }, () => store.redeem(receipt2, AT)));
    expect(racing.filter((r) => r === "redeemed")).toHaveLength(1);
    expect(racing.filter((r) => r === "already-redeemed")).toHaveLength(5);
  });

  it("redeems through the service only receipts it issued, unexpired, unrevoked, once", async () => {
    const approve = async (n: number): Promise<{ id: string; token: string }> => {
      const { id } = await store.submit(variant(n), AT, verifiedAs(variant(n)));
      const { receipt } = await decideRequest({ store, keyring, requestId: id, decision: "approved_once", reviewer: "alice", ttlSeconds: 60, now: NOW });
      return { id, token: receipt! };
    };
    const a = await approve(20);
    expect(await redeemReceipt({ store, keyring, token: a.token, now: NOW })).toMatchObject({ request: a.id, singleUse: true });
    await expect(redeemReceipt({ store, keyring, token: a.token, now: NOW })).rejects.toMatchObject({ reason: "already-redeemed" });

    const b = await approve(21);
    const [h, p, s] = b.token.split(".");
    const claims = JSON.parse(Buffer.from(p!, "base64url").toString()) as Record<string, unknown>;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, exp: (claims.exp as number) + 3600 })).toString("base64url")}.${s}`;
    await expect(redeemReceipt({ store, keyring, token: tampered, now: NOW })).rejects.toThrow(RedemptionError);
    await expect(redeemReceipt({ store, keyring, token: tampered, now: NOW })).rejects.toMatchObject({ reason: "unknown-receipt" });
    const forger = await Keyring.open(path.join(tmp, `${name}-forger.json`));
    const forged = await signReceipt(claims as unknown as ReceiptClaims, await forger.signer());
    await expect(redeemReceipt({ store, keyring, token: forged, now: NOW })).rejects.toMatchObject({ reason: "unknown-receipt" });
    await expect(redeemReceipt({ store, keyring, token: "garbage", now: NOW })).rejects.toMatchObject({ reason: "unknown-receipt" });

    await expect(redeemReceipt({ store, keyring, token: b.token, now: NOW + 60_000 })).rejects.toMatchObject({ reason: "expired" });
    expect((await store.get(b.id))!.receipt!.redeemedAt).toBeNull();

    const c = await approve(22);
    await keyring.revoke(keyring.activeKid);
    await expect(redeemReceipt({ store, keyring, token: c.token, now: NOW })).rejects.toMatchObject({ reason: "revoked-key" });
    expect((await store.get(c.id))!.receipt!.redeemedAt).toBeNull();
  });

  it("records the keyring's keys and follows rotation and revocation", async () => {
    await store.recordKeys(keyring.metadata());
    const first = keyring.activeKid;
    await keyring.rotate();
    await keyring.revoke(first);
    await store.recordKeys(keyring.metadata());
    const keys = await store.keys();
    expect(keys.map((k) => [k.kid, k.status])).toEqual(keyring.metadata().map((k) => [k.kid, k.status]));
    expect(keys.find((k) => k.kid === first)).toMatchObject({ status: "revoked", revokedAt: expect.any(String) });
  });

  it("keeps pending requests across a restart", async () => {
    const { id } = await store.submit(variant(11), AT, verifiedAs(variant(11)));
    await store.close();
    store = await ApprovalStore.open(url());
    expect((await store.pending()).map((p) => p.id)).toContain(id);
    expect((await store.get(id))?.request).toEqual(variant(11));
  });
});

describe("opening a store", () => {
  it("names the database that cannot be opened, without its password", async () => {
    const dir = path.join(tmp, "a-directory");
    fs.mkdirSync(dir, { recursive: true });
    await expect(ApprovalStore.open(dir)).rejects.toThrow(StoreOpenError);
    await expect(ApprovalStore.open("postgres://someone:secret@127.0.0.1:1/none")).rejects.toThrow(/^approval store postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/none: cannot be migrated/);
  });
});
