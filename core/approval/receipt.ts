/**
 * Receipts: the approval service's signed word that a reviewer approved one request. A receipt is
 * a JWS in compact serialization, EdDSA over Ed25519, whose protected header names the signing key
 * (`kid`) and the type, and whose payload binds the request id, the program digest, the invocation
 * digest (target and inputs), each guarantee's identity digest, the layer fingerprint, the
 * decision, a single-use flag and an expiry. Only approvals get receipts.
 *
 * Verification needs only the operator's public key set (keyset.ts) and what the verifier computed
 * itself (the expected digests), never anything the token claims about itself; every way it can
 * fail is a `ReceiptError` with a stable reason. Single use is the service's to enforce (it refuses
 * a second redemption, service/store/); the flag tells the runtime to redeem before it runs.
 */
import { randomUUID } from "node:crypto";
import { compactVerify, CompactSign, decodeProtectedHeader, importJWK, type CryptoKey } from "jose";
import { createAjv } from "../manifest";
import type { PublicKeySet } from "./keyset";

export const RECEIPT_TYPE = "clauz3-receipt+jws";
export const RECEIPT_VERSION = 1;
const ALG = "EdDSA";

/** Decisions that carry a receipt. "Approve and remember" behaves as "approve once" until remembered approvals exist (issue 12). */
export type ApprovalDecision = "approved_once" | "approved_remember";

export interface ReceiptClaims {
  readonly v: typeof RECEIPT_VERSION;
  /** The receipt's own id (what a redemption names). */
  readonly jti: string;
  /** The approval request the decision was made on. */
  readonly request: string;
  readonly program: string;
  readonly invocation: string;
  /** Identity digests of the guarantees, in the program's order (identity.ts). */
  readonly guarantees: readonly string[];
  readonly layer: string;
  readonly decision: ApprovalDecision;
  /** The reviewer who decided (an id the service knows, never the agent's). */
  readonly reviewer: string;
  readonly singleUse: boolean;
  /** Issued and expiry times, seconds since the epoch. */
  readonly iat: number;
  readonly exp: number;
}

/** What a receipt binds, as the verifier computed it from what it is about to run. */
export interface ExpectedBinding {
  readonly program: string;
  readonly invocation: string;
  readonly guarantees: readonly string[];
  readonly layer: string;
}

export type ReceiptFailure =
  | "malformed"
  | "bad-signature"
  | "unknown-key"
  | "revoked-key"
  | "expired"
  | "wrong-program"
  | "wrong-inputs"
  | "wrong-identities"
  | "wrong-layer";

export class ReceiptError extends Error {
  constructor(
    readonly reason: ReceiptFailure,
    message: string,
  ) {
    super(message);
    this.name = "ReceiptError";
  }
}

/** The signing half of a key: its id and private key. */
export interface ReceiptSigner {
  readonly kid: string;
  readonly key: CryptoKey;
}

const SHA256 = { type: "string", pattern: "^[0-9a-f]{64}$" } as const;
const CLAIMS_SCHEMA = {
  type: "object",
  required: ["v", "jti", "request", "program", "invocation", "guarantees", "layer", "decision", "reviewer", "singleUse", "iat", "exp"],
  additionalProperties: false,
  properties: {
    v: { const: RECEIPT_VERSION },
    jti: { type: "string", minLength: 1 },
    request: { type: "string", minLength: 1 },
    program: SHA256,
    invocation: SHA256,
    guarantees: { type: "array", items: SHA256 },
    layer: SHA256,
    decision: { enum: ["approved_once", "approved_remember"] },
    reviewer: { type: "string", minLength: 1 },
    singleUse: { type: "boolean" },
    iat: { type: "integer", minimum: 0 },
    exp: { type: "integer", minimum: 0 },
  },
} as const;

let validateClaims: ReturnType<ReturnType<typeof createAjv>["compile"]> | undefined;

export interface IssueInput extends ExpectedBinding {
  readonly request: string;
  readonly decision: ApprovalDecision;
  readonly reviewer: string;
  /** Seconds the receipt stays valid. */
  readonly ttlSeconds: number;
  /** Issue time in milliseconds (default now). */
  readonly now?: number;
  /** The receipt id (default a random UUID). */
  readonly id?: string;
}

/** The claims of a new receipt. Every receipt is single-use for now ("approve and remember" included). */
export function receiptClaims(input: IssueInput): ReceiptClaims {
  if (!Number.isInteger(input.ttlSeconds) || input.ttlSeconds <= 0) throw new RangeError(`a receipt's lifetime must be a positive whole number of seconds, not ${input.ttlSeconds}`);
  const iat = Math.floor((input.now ?? Date.now()) / 1000);
  return {
    v: RECEIPT_VERSION,
    jti: input.id ?? randomUUID(),
    request: input.request,
    program: input.program,
    invocation: input.invocation,
    guarantees: [...input.guarantees],
    layer: input.layer,
    decision: input.decision,
    reviewer: input.reviewer,
    singleUse: true,
    iat,
    exp: iat + input.ttlSeconds,
  };
}

/** Sign claims as a compact JWS. */
export async function signReceipt(claims: ReceiptClaims, signer: ReceiptSigner): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg: ALG, kid: signer.kid, typ: RECEIPT_TYPE }).sign(signer.key);
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Verify a receipt against the operator's public keys and what the verifier computed; returns its
 * claims or throws `ReceiptError`. `now` in milliseconds (default now).
 */
export async function verifyReceipt(token: string, keys: PublicKeySet, expected: ExpectedBinding, now: number = Date.now()): Promise<ReceiptClaims> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch (error) {
    throw new ReceiptError("malformed", `the receipt is not a compact JWS (${error instanceof Error ? error.message : String(error)})`);
  }
  if (token.split(".").length !== 3) throw new ReceiptError("malformed", "the receipt is not a compact JWS (three dot-separated parts)");
  if (header.alg !== ALG || header.typ !== RECEIPT_TYPE || typeof header.kid !== "string") {
    throw new ReceiptError("malformed", `the receipt's header must be {"alg":"${ALG}","typ":"${RECEIPT_TYPE}","kid":…}, not ${JSON.stringify(header)}`);
  }
  const kid = header.kid;
  if (keys.revoked.includes(kid)) throw new ReceiptError("revoked-key", `the receipt is signed with key ${kid}, which the operator revoked`);
  const jwk = keys.keys.find((k) => k.kid === kid);
  if (!jwk) throw new ReceiptError("unknown-key", `the receipt is signed with key ${kid}, which is not among the operator's public keys`);

  let payload: Uint8Array;
  try {
    const key = await importJWK({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }, ALG);
    payload = (await compactVerify(token, key, { algorithms: [ALG] })).payload;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ERR_JWS_SIGNATURE_VERIFICATION_FAILED") throw new ReceiptError("bad-signature", `the receipt's signature does not verify with key ${kid}`);
    throw new ReceiptError("malformed", `the receipt cannot be verified (${error instanceof Error ? error.message : String(error)})`);
  }
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(payload));
  } catch {
    throw new ReceiptError("malformed", "the receipt's payload is not JSON");
  }
  validateClaims ??= createAjv().compile(CLAIMS_SCHEMA);
  if (!validateClaims(claims)) {
    const e = validateClaims.errors?.[0];
    throw new ReceiptError("malformed", `the receipt's payload ${e ? `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}` : "is invalid"}`);
  }
  const c = claims as ReceiptClaims;
  if (c.exp * 1000 <= now) throw new ReceiptError("expired", `the receipt expired at ${new Date(c.exp * 1000).toISOString()}`);
  if (c.program !== expected.program) throw new ReceiptError("wrong-program", `the receipt approves program ${c.program}, not ${expected.program}`);
  if (c.layer !== expected.layer) throw new ReceiptError("wrong-layer", `the receipt approves the program against layer ${c.layer}, not ${expected.layer}`);
  if (!same(c.guarantees, expected.guarantees)) throw new ReceiptError("wrong-identities", "the receipt approves other guarantee identities than the program's");
  if (c.invocation !== expected.invocation) throw new ReceiptError("wrong-inputs", `the receipt approves invocation ${c.invocation}, not ${expected.invocation}`);
  return c;
}
