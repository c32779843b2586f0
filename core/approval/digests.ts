/**
 * The digests an approval binds: the layer fingerprint (every file the lock pins), the program
 * digest (the program's sources and the layer) and the invocation digest (target and inputs). Each
 * is SHA-256 of canonical JSON with a format tag (canonical.ts), so other languages can recompute it.
 */
import type { JsonValue } from "../describe";
import { digestOf } from "./canonical";
import type { ProgramSource } from "./types";

export const LAYER_FORMAT = "clauz3-layer/1";
export const PROGRAM_FORMAT = "clauz3-program/1";
export const INVOCATION_FORMAT = "clauz3-invocation/1";

/** The fingerprint of a layer: the digest of every path the lock pins with its SHA-256. */
export function layerFingerprint(files: readonly { readonly path: string; readonly sha256: string }[]): string {
  return digestOf(LAYER_FORMAT, { files: files.map((f) => ({ path: f.path, sha256: f.sha256 })) });
}

/**
 * The program digest: over the program's path and source digest, the paths and source digests of
 * the agent modules it loads, and the layer fingerprint. `run` compiles exactly these sources
 * against exactly this layer, so a receipt for this digest approves nothing else.
 */
export function programDigest(program: ProgramSource & { readonly imports: readonly ProgramSource[] }, fingerprint: string): string {
  return digestOf(PROGRAM_FORMAT, {
    path: program.path,
    sha256: program.sha256,
    imports: program.imports.map((m) => ({ path: m.path, sha256: m.sha256 })),
    layer: fingerprint,
  });
}

/** The digest of one invocation: the target and its arguments (what pending requests are deduplicated and receipts bound by, with the program digest). */
export function invocationDigest(target: string, inputs: readonly JsonValue[]): string {
  return digestOf(INVOCATION_FORMAT, { target, inputs });
}
