/**
 * The operator's public keys, as the runtime reads them to verify receipts: a JWK Set (RFC 7517)
 * of Ed25519 keys, each named by its `kid` (its RFC 7638 thumbprint), plus `revoked`, the key ids
 * the operator withdrew (a JWK Set may carry members verifiers do not know; this one says which
 * receipts to refuse as revoked rather than as signed by an unknown key). The private keys never
 * appear here (service/keys.ts keeps them).
 */
import * as fs from "node:fs";
import type { ErrorObject } from "ajv";
import { createAjv } from "../manifest";

export interface PublicJwk {
  readonly kty: "OKP";
  readonly crv: "Ed25519";
  readonly x: string;
  readonly kid: string;
  readonly alg: "EdDSA";
  readonly use: "sig";
}

export interface PublicKeySet {
  /** Keys that verify receipts: the active one and retired ones (their unexpired receipts stay valid). */
  readonly keys: readonly PublicJwk[];
  /** Withdrawn key ids: a receipt signed with one is refused whatever its expiry. */
  readonly revoked: readonly string[];
}

/** base64url without padding. */
const B64URL = "^[A-Za-z0-9_-]+$";

const KEYSET_SCHEMA = {
  type: "object",
  required: ["keys", "revoked"],
  additionalProperties: false,
  properties: {
    keys: {
      type: "array",
      items: {
        type: "object",
        required: ["kty", "crv", "x", "kid", "alg", "use"],
        additionalProperties: false,
        properties: {
          kty: { const: "OKP" },
          crv: { const: "Ed25519" },
          x: { type: "string", pattern: B64URL, minLength: 43, maxLength: 43 },
          kid: { type: "string", pattern: B64URL, minLength: 1 },
          alg: { const: "EdDSA" },
          use: { const: "sig" },
        },
      },
    },
    revoked: { type: "array", items: { type: "string", pattern: B64URL, minLength: 1 }, uniqueItems: true },
  },
} as const;

let validate: ReturnType<ReturnType<typeof createAjv>["compile"]> | undefined;

/** A public key set that cannot be used, naming the file (when it was read from one) and the field. */
export class KeySetError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
    readonly file?: string,
  ) {
    super(`${file ?? "public key set"}: ${field} ${problem}`);
    this.name = "KeySetError";
  }
}

function firstProblem(errors: readonly ErrorObject[]): KeySetError {
  const e = errors[0];
  const where = (e?.instancePath ?? "").slice(1).split("/").filter((s) => s !== "").map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
  const extra = e?.keyword === "additionalProperties" ? ` (${String((e.params as { additionalProperty: string }).additionalProperty)})` : "";
  return new KeySetError(where || "the document", `${e?.message ?? "is invalid"}${extra}`);
}

/** Validate JSON data as a public key set; a key id listed both as a key and as revoked is refused. */
export function parseKeySet(data: unknown): PublicKeySet {
  validate ??= createAjv().compile(KEYSET_SCHEMA);
  if (!validate(data)) throw firstProblem(validate.errors ?? []);
  const set = data as PublicKeySet;
  const seen = new Set<string>();
  set.keys.forEach((k, i) => {
    if (seen.has(k.kid)) throw new KeySetError(`keys[${i}].kid`, `repeats key id ${k.kid}`);
    if (set.revoked.includes(k.kid)) throw new KeySetError(`keys[${i}].kid`, `is also listed as revoked`);
    seen.add(k.kid);
  });
  return set;
}

/**
 * Read the operator's public key set from `file` (a path the operator owns, never one the agent's
 * project or environment alone names: choosing it is the caller's responsibility).
 */
export function readKeySetFile(file: string): PublicKeySet {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new KeySetError("the document", `cannot be read (${error instanceof Error ? error.message : String(error)})`, file);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new KeySetError("the document", "is not JSON", file);
  }
  try {
    return parseKeySet(data);
  } catch (error) {
    if (error instanceof KeySetError) throw new KeySetError(error.field, error.problem, file);
    throw error;
  }
}
