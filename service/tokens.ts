/**
 * Reviewer tokens (`--tokens <file>`): the operator issues each reviewer a bearer token; the
 * service keeps only its SHA-256, in a JSON file with mode 0600 (refused when group or others may
 * read or write it). A token is 32 random bytes, so an unsalted hash is as hard to reverse as the
 * token is to guess. `issueReviewerToken` is the CLI-free way to make one (it returns the token,
 * shown once); the file is re-read at each authentication, so issuing or revoking needs no
 * restart. An agent never holds one: submitting needs no token, deciding does.
 *
 * The file: `{"version":1,"reviewers":[{"reviewer":"alice","sha256":"<hex>","created":"<ISO time>"}]}`.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ValidateFunction } from "ajv";
import { createAjv } from "../core/manifest";

/** Every token starts so, which makes one easy to recognise in a log or a secret scanner. */
export const TOKEN_PREFIX = "clauz3r_";
export const REVIEWER_ID = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export interface ReviewerEntry {
  readonly reviewer: string;
  /** SHA-256 (hex) of the token. */
  readonly sha256: string;
  readonly created: string;
}

interface TokensFile {
  readonly version: 1;
  readonly reviewers: readonly ReviewerEntry[];
}

/** A tokens file that cannot be used: its path and what is wrong. */
export class TokenFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = "TokenFileError";
  }
}

const TOKENS_SCHEMA = {
  type: "object",
  required: ["version", "reviewers"],
  additionalProperties: false,
  properties: {
    version: { const: 1 },
    reviewers: {
      type: "array",
      items: {
        type: "object",
        required: ["reviewer", "sha256", "created"],
        additionalProperties: false,
        properties: { reviewer: { type: "string", pattern: REVIEWER_ID.source }, sha256: { type: "string", pattern: "^[0-9a-f]{64}$" }, created: { type: "string" } },
      },
    },
  },
} as const;

let validator: ValidateFunction | undefined;

function hashOf(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** Read and validate the tokens file; a missing file is an empty one (no reviewer can decide yet). */
export function readTokensFile(file: string): TokensFile {
  let text: string;
  try {
    const stat = fs.statSync(file);
    if ((stat.mode & 0o077) !== 0) throw new TokenFileError(file, `is accessible to group or others (mode ${(stat.mode & 0o777).toString(8)}); run \`chmod 600 ${file}\``);
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if (error instanceof TokenFileError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, reviewers: [] };
    throw new TokenFileError(file, `cannot be read (${(error as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new TokenFileError(file, `is not JSON (${(error as Error).message})`);
  }
  validator ??= createAjv().compile(TOKENS_SCHEMA);
  if (!validator(data)) {
    const e = validator.errors?.[0];
    throw new TokenFileError(file, `${e?.instancePath || "the file"} ${e?.message ?? "is invalid"}`);
  }
  return data as TokensFile;
}

function writeTokensFile(file: string, data: TokensFile): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  fs.renameSync(temp, file);
}

/**
 * Issue a new token for `reviewer` (a reviewer may hold several) and record its hash in `file`
 * (created 0600 when absent). Returns the token: it is not stored anywhere else.
 */
export function issueReviewerToken(file: string, reviewer: string, now: Date = new Date()): string {
  if (!REVIEWER_ID.test(reviewer)) throw new TokenFileError(file, `reviewer ${JSON.stringify(reviewer)} must be 1 to 64 letters, digits or . _ @ - (starting with a letter or digit)`);
  const current = readTokensFile(file);
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  writeTokensFile(file, { version: 1, reviewers: [...current.reviewers, { reviewer, sha256: hashOf(token).toString("hex"), created: now.toISOString() }] });
  return token;
}

/** Withdraw every token of `reviewer`; returns how many were withdrawn. */
export function revokeReviewer(file: string, reviewer: string): number {
  const current = readTokensFile(file);
  const kept = current.reviewers.filter((r) => r.reviewer !== reviewer);
  writeTokensFile(file, { version: 1, reviewers: kept });
  return current.reviewers.length - kept.length;
}

/** The reviewer an `Authorization` header authenticates, or undefined (no header, another scheme, an unknown token). */
export function authenticateReviewer(file: string, authorization: string | undefined): string | undefined {
  const match = /^Bearer (.*)$/s.exec(authorization ?? "");
  const digest = match ? tokenDigest(match[1]!) : undefined;
  return digest && reviewerOfDigest(file, digest);
}

/** The SHA-256 of a presented token, or undefined when it cannot be one (what the page's session keeps instead of the token). */
export function tokenDigest(token: string): Buffer | undefined {
  return /^[A-Za-z0-9_-]{1,200}$/.test(token) ? hashOf(token) : undefined;
}

/** The reviewer whose token has this SHA-256 in `file` now (a revoked token finds none). */
export function reviewerOfDigest(file: string, presented: Buffer): string | undefined {
  let found: string | undefined;
  // Compare with every entry in constant time, so the time taken says nothing about which matched.
  for (const entry of readTokensFile(file).reviewers) {
    if (timingSafeEqual(presented, Buffer.from(entry.sha256, "hex"))) found ??= entry.reviewer;
  }
  return found;
}
