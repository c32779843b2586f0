import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { base64url, CompactSign, exportJWK, generateKeyPair } from "jose";
import { parseKeySet, KeySetError, readKeySetFile, type PublicKeySet } from "../../core/approval/keyset";
import { receiptClaims, ReceiptError, signReceipt, verifyReceipt, RECEIPT_TYPE, type ExpectedBinding, type ReceiptFailure } from "../../core/approval/receipt";
import { KeyFileError, Keyring } from "../../service/keys";

const hex = (c: string): string => c.repeat(64);
const BINDING: ExpectedBinding = { program: hex("a"), invocation: hex("b"), guarantees: [hex("c"), hex("d")], layer: hex("e") };
const NOW = Date.UTC(2026, 0, 1);

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-keys-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function issue(ring: Keyring, over: Partial<Parameters<typeof receiptClaims>[0]> = {}): Promise<string> {
  const claims = receiptClaims({ ...BINDING, request: "req-1", decision: "approved_once", reviewer: "alice", ttlSeconds: 600, now: NOW, ...over });
  return signReceipt(claims, await ring.signer());
}

async function failure(token: string, keys: PublicKeySet, expected = BINDING, now = NOW): Promise<ReceiptError> {
  try {
    await verifyReceipt(token, keys, expected, now);
  } catch (error) {
    expect(error).toBeInstanceOf(ReceiptError);
    return error as ReceiptError;
  }
  throw new Error("the receipt verified");
}

/** A token with its payload replaced by `claims` (header and signature kept). */
function withPayload(token: string, claims: object): string {
  const [h, , s] = token.split(".");
  return `${h}.${base64url.encode(JSON.stringify(claims))}.${s}`;
}

describe("keyring", () => {
  it("is created on first use with mode 0600 and one active key, and read back as it was", async () => {
    const file = path.join(dir, "sub", "key.json");
    const ring = await Keyring.open(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(ring.list()).toHaveLength(1);
    expect(ring.list()[0]).toMatchObject({ status: "active", retired: null, revoked: null });
    const again = await Keyring.open(file);
    expect(again.list()).toEqual(ring.list());
    expect(again.activeKid).toBe(ring.activeKid);
  });

  it("refuses a key file others may read, one that is not a keyring, and one whose key id lies", async () => {
    const file = path.join(dir, "key.json");
    const ring = await Keyring.open(file);
    fs.chmodSync(file, 0o644);
    await expect(Keyring.open(file)).rejects.toThrow(new KeyFileError(file, "is readable or writable by others (mode 0644); run chmod 600 on it"));
    fs.chmodSync(file, 0o600);
    const text = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, "{");
    await expect(Keyring.open(file)).rejects.toThrow(`${file}: is not JSON`);
    fs.writeFileSync(file, text.replace('"status": "active"', '"status": "retired"'));
    await expect(Keyring.open(file)).rejects.toThrow(`${file}: must hold exactly one active key, not 0`);
    fs.writeFileSync(file, text.replace(`"kid": "${ring.activeKid}"`, '"kid": "abc"'));
    await expect(Keyring.open(file)).rejects.toThrow(`${file}: key abc: the key id is not the thumbprint of its public key`);
    fs.writeFileSync(file, text.replace('"version": 1', '"version": 2'));
    await expect(Keyring.open(file)).rejects.toThrow(`${file}: version must be equal to constant`);
  });

  it("rotation keeps old receipts verifying; revocation refuses them; revoking the active key rotates", async () => {
    const file = path.join(dir, "key.json");
    const ring = await Keyring.open(file);
    const first = ring.activeKid;
    const old = await issue(ring);
    const second = await ring.rotate();
    expect(second).not.toBe(first);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const fresh = await issue(ring);
    const keys = parseKeySet(ring.publicKeySet());
    expect((await verifyReceipt(old, keys, BINDING, NOW)).jti).toBeTruthy();
    expect((await verifyReceipt(fresh, keys, BINDING, NOW)).jti).toBeTruthy();
    expect(JSON.parse(Buffer.from(fresh.split(".")[0]!, "base64url").toString())).toEqual({ alg: "EdDSA", kid: second, typ: RECEIPT_TYPE });

    await ring.revoke(first);
    const reopened = await Keyring.open(file);
    expect(reopened.list().map((k) => [k.kid, k.status, k.d === null])).toEqual([[first, "revoked", true], [second, "active", false]]);
    const after = parseKeySet(JSON.parse(JSON.stringify(reopened.publicKeySet())));
    expect(after.revoked).toEqual([first]);
    expect((await failure(old, after)).reason).toBe("revoked-key");
    expect((await verifyReceipt(fresh, after, BINDING, NOW)).decision).toBe("approved_once");

    await reopened.revoke(second);
    expect(reopened.activeKid).not.toBe(second);
    expect((await failure(fresh, reopened.publicKeySet())).reason).toBe("revoked-key");
    await expect(reopened.revoke("nope")).rejects.toThrow(`${file}: has no key nope`);
  });
});

describe("receipts", () => {
  it("bind request, program, invocation, identities, layer, decision, reviewer, single use and expiry", async () => {
    const ring = await Keyring.open(path.join(dir, "key.json"));
    const token = await issue(ring, { decision: "approved_remember", ttlSeconds: 60, id: "r-1" });
    const claims = await verifyReceipt(token, ring.publicKeySet(), BINDING, NOW + 59_000);
    expect(claims).toEqual({ v: 1, jti: "r-1", request: "req-1", ...BINDING, decision: "approved_remember", reviewer: "alice", singleUse: true, iat: NOW / 1000, exp: NOW / 1000 + 60 });
  });

  it.each<[string, Partial<ExpectedBinding>, ReceiptFailure]>([
    ["another program", { program: hex("f") }, "wrong-program"],
    ["other guarantee identities", { guarantees: [hex("c")] }, "wrong-identities"],
    ["guarantee identities in another order", { guarantees: [hex("d"), hex("c")] }, "wrong-identities"],
    ["another layer", { layer: hex("f") }, "wrong-layer"],
    ["other inputs", { invocation: hex("f") }, "wrong-inputs"],
  ])("refuses a receipt for %s", async (_name, change, reason) => {
    const ring = await Keyring.open(path.join(dir, "key.json"));
    const e = await failure(await issue(ring), ring.publicKeySet(), { ...BINDING, ...change });
    expect(e.reason).toBe(reason);
  });

  it("refuses an expired receipt", async () => {
    const ring = await Keyring.open(path.join(dir, "key.json"));
    const e = await failure(await issue(ring, { ttlSeconds: 60 }), ring.publicKeySet(), BINDING, NOW + 60_000);
    expect(e.reason).toBe("expired");
    expect(e.message).toBe(`the receipt expired at ${new Date(NOW + 60_000).toISOString()}`);
  });

  it("refuses a receipt signed with a key the operator does not have", async () => {
    const ring = await Keyring.open(path.join(dir, "key.json"));
    const other = await Keyring.open(path.join(dir, "other.json"));
    expect((await failure(await issue(other), ring.publicKeySet())).reason).toBe("unknown-key");
  });

  it("refuses a forged receipt: signed by another key under the operator's key id", async () => {
    const ring = await Keyring.open(path.join(dir, "key.json"));
    const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
    const claims = receiptClaims({ ...BINDING, request: "req-1", decision: "approved_once", reviewer: "mallory", ttlSeconds: 600, now: NOW });
    const forged = await signReceipt(claims, { kid: ring.activeKid, key: privateKey });
    const e = await failure(forged, ring.publicKeySet());
    expect(e.reason).toBe("bad-signature");
    expect(e.message).toBe(`the receipt's signature does not verify with key ${ring.activeKid}`);
  });

  it("refuses a tampered receipt: the payload changed to another program, or a later expiry", async () => {
    const ring = await Keyring.open(path.join(dir, "key.json"));
    const token = await issue(ring);
    const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
    expect((await failure(withPayload(token, { ...claims, program: hex("f") }), ring.publicKeySet(), { ...BINDING, program: hex("f") })).reason).toBe("bad-signature");
    expect((await failure(withPayload(token, { ...claims, exp: (claims.exp as number) + 3600 }), ring.publicKeySet(), BINDING, NOW + 700_000)).reason).toBe("bad-signature");
    const [h, p, s] = token.split(".");
    const flipped = `${h}.${p}.${s!.startsWith("A") ? "B" : "A"}${s!.slice(1)}`;
    expect((await failure(flipped, ring.publicKeySet())).reason).toBe("bad-signature");
  });

  it("refuses what is not a receipt: garbage, another header, an unsigned token, a payload of another shape", async () => {
    const ring = await Keyring.open(path.join(dir, "key.json"));
    const keys = ring.publicKeySet();
    expect((await failure("not a token", keys)).reason).toBe("malformed");
    const none = `${base64url.encode(JSON.stringify({ alg: "none", kid: ring.activeKid, typ: RECEIPT_TYPE }))}.${base64url.encode("{}")}.`;
    expect((await failure(none, keys)).reason).toBe("malformed");
    const signer = await ring.signer();
    const jwt = await new CompactSign(new TextEncoder().encode("{}")).setProtectedHeader({ alg: "EdDSA", kid: signer.kid, typ: "JWT" }).sign(signer.key);
    expect((await failure(jwt, keys)).message).toMatch(/^the receipt's header must be/);
    const shape = await new CompactSign(new TextEncoder().encode(JSON.stringify({ v: 1, program: hex("a") }))).setProtectedHeader({ alg: "EdDSA", kid: signer.kid, typ: RECEIPT_TYPE }).sign(signer.key);
    const e = await failure(shape, keys);
    expect(e.reason).toBe("malformed");
    expect(e.message).toBe("the receipt's payload (root) must have required property 'jti'");
  });

  it("issues only for a positive whole lifetime", () => {
    expect(() => receiptClaims({ ...BINDING, request: "r", decision: "approved_once", reviewer: "a", ttlSeconds: 0 })).toThrow(RangeError);
  });
});

describe("public key set", () => {
  it("is a JWK Set plus the revoked key ids, and refuses what is not", async () => {
    const ring = await Keyring.open(path.join(dir, "key.json"));
    const set = ring.publicKeySet();
    expect(set.keys[0]).toEqual({ kty: "OKP", crv: "Ed25519", x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), kid: ring.activeKid, alg: "EdDSA", use: "sig" });
    expect(JSON.stringify(set)).not.toContain('"d"');
    const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
    const withPrivate = { keys: [{ ...set.keys[0], d: (await exportJWK(privateKey)).d }], revoked: [] };
    expect(() => parseKeySet(withPrivate)).toThrow(new KeySetError("keys[0]", "must NOT have additional properties (d)"));
    expect(() => parseKeySet({ keys: set.keys, revoked: [ring.activeKid] })).toThrow(new KeySetError("keys[0].kid", "is also listed as revoked"));
    expect(() => parseKeySet({ keys: [] })).toThrow(KeySetError);
  });

  it("is written for verifiers (mode 0644, no secret) and read back, and a bad file is named", async () => {
    const ring = await Keyring.open(path.join(dir, "key.json"));
    const file = path.join(dir, "public", "keys.json");
    ring.writePublicKeySet(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
    expect(readKeySetFile(file)).toEqual(ring.publicKeySet());
    const token = await issue(ring);
    await ring.rotate();
    ring.writePublicKeySet(file);
    expect((await verifyReceipt(token, readKeySetFile(file), BINDING, NOW)).reviewer).toBe("alice");
    fs.writeFileSync(file, "{");
    expect(() => readKeySetFile(file)).toThrow(new KeySetError("the document", "is not JSON", file));
    expect(() => readKeySetFile(file)).toThrow(`${file}: the document is not JSON`);
    fs.writeFileSync(file, JSON.stringify({ keys: [], revoked: [1] }));
    expect(() => readKeySetFile(file)).toThrow(`${file}: revoked[0] must be string`);
    expect(() => readKeySetFile(path.join(dir, "missing.json"))).toThrow(/missing\.json: the document cannot be read/);
  });
});
