/**
 * The approval request (`schema/approval-request.schema.json`): what `clauz3 run` submits and what
 * a reviewer is shown. Guarantee entries are exactly what `describe --json` prints for them.
 */
import type { GuaranteeIdentity, JsonValue } from "../describe";
import type { LockOrigin } from "../lock";
import type { CoverageJson } from "../coverage/json";

export const APPROVAL_REQUEST_VERSION = 1;

/** One source file of the program, as its text (the bytes `run` will compile are this text in UTF-8). */
export interface ProgramSource {
  /** Relative to the project directory, forward slashes (as `describe` shows files). */
  readonly path: string;
  readonly source: string;
  /** SHA-256 of the source's UTF-8 bytes. */
  readonly sha256: string;
}

export interface RequestProgram extends ProgramSource {
  /** The exported function to run (`main`). */
  readonly target: string;
  /** The agent modules the program loads when it runs (transitively), in load order; trusted modules are the layer's. */
  readonly imports: readonly ProgramSource[];
  /** Digest over the program's and its imports' paths and sources and the layer fingerprint (see request.ts). */
  readonly digest: string;
}

export interface LayerLibrary {
  /** The library directory relative to the lock (`tools/filesystem`). */
  readonly directory: string;
  readonly id: string;
  readonly origin: LockOrigin;
  /** `git:<commit>` or `sha256:<digest>`, as the lock records it. */
  readonly revision: string;
}

export interface RequestLayer {
  /** Digest over every file the lock pins (path and SHA-256): the whole selected layer. */
  readonly fingerprint: string;
  /** Every pinned file, sorted by path (relative to the lock). */
  readonly files: readonly { readonly path: string; readonly sha256: string }[];
  readonly libraries: readonly LayerLibrary[];
}

export interface ApprovalRequest {
  readonly version: typeof APPROVAL_REQUEST_VERSION;
  readonly program: RequestProgram;
  readonly layer: RequestLayer;
  /** Each guarantee's identity, as `describe` computes it, in the order the program lists them. */
  readonly guarantees: readonly GuaranteeIdentity[];
  /** Number of `noGuarantees()` entries. */
  readonly noGuarantees: number;
  /** The arguments of the target, one JSON array. */
  readonly inputs: readonly JsonValue[];
  /** Coverage as the prover computed it (docs/coverage.md), worst status first; null when the request was built without a proof. */
  readonly coverage: readonly CoverageJson[] | null;
}

/** A request that cannot be built or read: the field concerned (`program.digest`, `guarantees[0].call`, `inputs`) and what is wrong. */
export class ApprovalRequestError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field} ${problem}`);
    this.name = "ApprovalRequestError";
  }
}
