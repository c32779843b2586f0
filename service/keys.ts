/**
 * The operator's signing keys (`--key <file>`): a JSON keyring of Ed25519 keys, created on first use
 * with file mode 0600 and refused when group or others may read it (as ssh refuses a private key).
 * One key is active and signs new receipts; `rotate` makes a new active key and retires the old
 * one, which keeps verifying its unexpired receipts; `revoke` withdraws a key (its private half is
 * deleted, its receipts are refused as revoked). Every change is written to a temporary file with
 * mode 0600 and renamed over the keyring, so a crash leaves the old or the new keyring, never half.
 * The public half (`publicKeySet`) is what the runtime verifies receipts with (core/approval/keyset.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey } from "jose";
import type { PublicJwk, PublicKeySet } from "../core/approval/keyset";
import type { ReceiptSigner } from "../core/approval/receipt";
import { createAjv } from "../core/manifest";

export type KeyStatus = "active" | "retired" | "revoked";

export interface StoredKey {
  readonly kid: string;
  readonly status: KeyStatus;
  /** ISO times. */
  readonly created: string;
  readonly retired: string | null;
  readonly revoked: string | null;
  readonly x: string;
  /** The private scalar (base64url); null once the key is revoked. */
  readonly d: string | null;
}

interface KeyringFile {
  readonly version: 1;
  readonly keys: readonly StoredKey[];
}

/** A keyring file that cannot be used: its path and what is wrong. */
export class KeyFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = "KeyFileError";
  }
}

const B64 = { type: "string", pattern: "^[A-Za-z0-9_-]{43}$" } as const;
const KEYRING_SCHEMA = {
  type: "object",
  required: ["version", "keys"],
  additionalProperties: false,
  properties: {
    version: { const: 1 },
    keys: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["kid", "status", "created", "retired", "revoked", "x", "d"],
        additionalProperties: false,
        properties: {
          kid: { type: "string", pattern: "^[A-Za-z0-9_-]+$" },
          status: { enum: ["active", "retired", "revoked"] },
          created: { type: "string", format: "date-time" },
          retired: { type: ["string", "null"], format: "date-time" },
          revoked: { type: ["string", "null"], format: "date-time" },
          x: B64,
          d: { anyOf: [B64, { type: "null" }] },
        },
      },
    },
  },
} as const;

let validate: ReturnType<ReturnType<typeof createAjv>["compile"]> | undefined;

async function newKey(now: Date): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
  const jwk = await exportJWK(privateKey);
  if (typeof jwk.x !== "string" || typeof jwk.d !== "string") throw new Error("jose exported an Ed25519 key without x or d");
  const kid = await calculateJwkThumbprint({ kty: "OKP", crv: "Ed25519", x: jwk.x });
  return { kid, status: "active", created: now.toISOString(), retired: null, revoked: null, x: jwk.x, d: jwk.d };
}

function writeAtomically(file: string, keys: readonly StoredKey[]): void {
  writeFileAtomically(file, `${JSON.stringify({ version: 1, keys } satisfies KeyringFile, null, 2)}\n`, 0o600);
}

/** Write `text` to a temporary file with `mode` beside `file`, flush it, and rename it over `file`. */
function writeFileAtomically(file: string, text: string, mode: number): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = fs.openSync(temp, "w", mode);
  try {
    fs.fchmodSync(fd, mode);
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}

export class Keyring {
  private constructor(
    readonly file: string,
    private keys: readonly StoredKey[],
    private readonly clock: () => Date,
  ) {}

  /** Open the keyring at `file`, creating it (mode 0600, one active key) when it does not exist. */
  static async open(file: string, clock: () => Date = () => new Date()): Promise<Keyring> {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new KeyFileError(file, `cannot be read (${(error as Error).message})`);
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const key = await newKey(clock());
      const text_ = `${JSON.stringify({ version: 1, keys: [key] } satisfies KeyringFile, null, 2)}\n`;
      try {
        // `wx`: two services starting at once must not both create a key; the loser reads the winner's.
        fs.writeFileSync(file, text_, { mode: 0o600, flag: "wx" });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "EEXIST") return Keyring.open(file, clock);
        throw new KeyFileError(file, `cannot be created (${(e as Error).message})`);
      }
      return new Keyring(file, [key], clock);
    }
    const mode = fs.statSync(file).mode & 0o777;
    if ((mode & 0o077) !== 0) throw new KeyFileError(file, `is readable or writable by others (mode ${mode.toString(8).padStart(4, "0")}); run chmod 600 on it`);
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new KeyFileError(file, "is not JSON");
    }
    validate ??= createAjv().compile(KEYRING_SCHEMA);
    if (!validate(data)) {
      const e = validate.errors?.[0];
      throw new KeyFileError(file, `${e?.instancePath.slice(1).replace(/\//g, ".") || "the document"} ${e?.message ?? "is invalid"}`);
    }
    const keys = (data as KeyringFile).keys;
    const active = keys.filter((k) => k.status === "active");
    if (active.length !== 1) throw new KeyFileError(file, `must hold exactly one active key, not ${active.length}`);
    for (const k of keys) {
      if ((k.status === "revoked") !== (k.d === null)) throw new KeyFileError(file, `key ${k.kid}: a revoked key has no private half and only a revoked key lacks one`);
      if (k.kid !== (await calculateJwkThumbprint({ kty: "OKP", crv: "Ed25519", x: k.x }))) throw new KeyFileError(file, `key ${k.kid}: the key id is not the thumbprint of its public key`);
    }
    return new Keyring(file, keys, clock);
  }

  /** Every key, oldest first (for the store's key metadata and the operator). */
  list(): readonly StoredKey[] {
    return this.keys;
  }

  /** Each key's public half and state, as the store records them (private halves never leave the file). */
  metadata(): { kid: string; publicX: string; status: KeyStatus; createdAt: string; retiredAt: string | null; revokedAt: string | null }[] {
    return this.keys.map((k) => ({ kid: k.kid, publicX: k.x, status: k.status, createdAt: k.created, retiredAt: k.retired, revokedAt: k.revoked }));
  }

  get activeKid(): string {
    return this.keys.find((k) => k.status === "active")!.kid;
  }

  /** The active key, to sign receipts with. */
  async signer(): Promise<ReceiptSigner> {
    const k = this.keys.find((key) => key.status === "active")!;
    const key = (await importJWK({ kty: "OKP", crv: "Ed25519", x: k.x, d: k.d! }, "EdDSA")) as CryptoKey;
    return { kid: k.kid, key };
  }

  /** A new active key; the old one is retired (it still verifies its unexpired receipts). Returns the new key id. */
  async rotate(): Promise<string> {
    const now = this.clock();
    const key = await newKey(now);
    const keys = [...this.keys.map((k) => (k.status === "active" ? { ...k, status: "retired" as const, retired: now.toISOString() } : k)), key];
    writeAtomically(this.file, keys);
    this.keys = keys;
    return key.kid;
  }

  /** Withdraw a key: its private half is deleted and its receipts are refused. Revoking the active key rotates first. */
  async revoke(kid: string): Promise<void> {
    const target = this.keys.find((k) => k.kid === kid);
    if (!target) throw new KeyFileError(this.file, `has no key ${kid}`);
    if (target.status === "revoked") return;
    if (target.status === "active") await this.rotate();
    const now = this.clock().toISOString();
    const keys = this.keys.map((k) => (k.kid === kid ? { ...k, status: "revoked" as const, revoked: now, d: null } : k));
    writeAtomically(this.file, keys);
    this.keys = keys;
  }

  /** Write the public key set (mode 0644: it holds no secret) for verifiers to read (`readKeySetFile`). */
  writePublicKeySet(file: string): void {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomically(file, `${JSON.stringify(this.publicKeySet(), null, 2)}\n`, 0o644);
  }

  /** The public keys the runtime verifies with: active and retired keys, and the revoked key ids. */
  publicKeySet(): PublicKeySet {
    const keys: PublicJwk[] = this.keys.filter((k) => k.status !== "revoked").map((k) => ({ kty: "OKP", crv: "Ed25519", x: k.x, kid: k.kid, alg: "EdDSA", use: "sig" }));
    return { keys, revoked: this.keys.filter((k) => k.status === "revoked").map((k) => k.kid) };
  }
}
