/**
 * Identity snapshots (seed 002, "Verification and history"): for each guarantee of a verified
 * request, the identity the service computed when it verified it — describe's `GuaranteeIdentity`
 * verbatim (exact sentence, canonical symbol, bound parameters, template and its digest, renderer
 * version, source digests, JSDoc), its identity digest (core/approval/identity.ts, what receipts
 * bind), the lock's origin and revision of its library, and the contract's source as captured from
 * the operator's layer (only while its bytes are the verified ones) — plus the layer fingerprint,
 * the program's path and digest, and the library profile.
 *
 * Nothing here is recomputed later: history pages render the stored document, never today's
 * libraries, and a snapshot is written once and never updated.
 */
import { digestOf } from "../../core/approval/canonical";
import { identityDigest } from "../../core/approval/identity";
import type { ApprovalRequest } from "../../core/approval/types";
import type { GuaranteeIdentity } from "../../core/describe";
import type { LockOrigin } from "../../core/lock";
import { capturedSource, type CapturedSource } from "../page/source";
import type { Verification } from "../verification";
import type { UsedLibrary } from "./profile";

export const SNAPSHOT_FORMAT = "clauz3-approval-snapshot/1";

export interface GuaranteeSnapshot {
  /** The identity exactly as describe computed it at verification time. */
  readonly identity: GuaranteeIdentity;
  readonly identityDigest: string;
  /** The lock's record of the guarantee's library (null when the lock lists no library with its id). */
  readonly lockLibrary: { readonly directory: string; readonly origin: LockOrigin; readonly revision: string } | null;
  /** The contract's declaration as read from the operator's layer when the snapshot was taken, or why it was not. */
  readonly contractSource: CapturedSource;
}

export interface IdentitySnapshot {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly layerFingerprint: string;
  readonly program: { readonly path: string; readonly digest: string; readonly target: string };
  readonly guarantees: readonly GuaranteeSnapshot[];
  readonly noGuarantees: number;
  /** The libraries the program loads (profile.ts), or why they are not known. */
  readonly libraries: readonly UsedLibrary[] | { readonly problem: string };
}

function snapshotOfGuarantee(layerDir: string, request: ApprovalRequest, g: GuaranteeIdentity): GuaranteeSnapshot {
  // The library whose directory holds the contract's file (two libraries may share an id), else the one with its id.
  const file = g.sources[0]?.file ?? "";
  const library = request.layer.libraries.filter((l) => file.startsWith(`${l.directory}/`)).sort((a, b) => b.directory.length - a.directory.length)[0] ?? request.layer.libraries.find((l) => l.id === g.library.id);
  return {
    identity: g,
    identityDigest: identityDigest(g),
    lockLibrary: library ? { directory: library.directory, origin: library.origin, revision: library.revision } : null,
    contractSource: capturedSource(layerDir, request, g),
  };
}

/** The snapshot of a verified request (undefined for one that did not verify: it has no verified identity to record). */
export function snapshotOf(layerDir: string, verification: Verification): IdentitySnapshot | undefined {
  const request = verification.computed;
  if (!verification.verified || !request) return undefined;
  const profile = verification.profile ?? { problem: "the verification recorded no library profile" };
  return {
    format: SNAPSHOT_FORMAT,
    layerFingerprint: request.layer.fingerprint,
    program: { path: request.program.path, digest: request.program.digest, target: request.program.target },
    guarantees: request.guarantees.map((g) => snapshotOfGuarantee(layerDir, request, g)),
    noGuarantees: request.noGuarantees,
    libraries: "libraries" in profile ? profile.libraries : { problem: profile.problem },
  };
}

export function snapshotDigest(snapshot: IdentitySnapshot): string {
  const { format, ...fields } = snapshot;
  return digestOf(format, fields);
}
