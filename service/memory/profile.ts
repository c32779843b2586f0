/**
 * A request's library profile: the libraries of the operator's layer whose code runs when the
 * program runs — every trusted module Node loads for it (core/layer/loads.ts, the loads the request
 * builder follows), mapped to the lock's libraries — each with a fingerprint over its directory, id,
 * origin and every file the lock pins under it. A remembered rule matches a later request only when
 * each library that request uses is in the rule's profile with the same fingerprint, so another
 * library under the same name (another directory, other bytes) never matches.
 *
 * "Uses" is what loads, not what the prover finds reachable: a library imported but never called
 * counts, which can only make a rule match less often.
 */
import type * as TS from "typescript";
import { digestOf } from "../../core/approval/canonical";
import type { ApprovalRequest, LayerLibrary } from "../../core/approval/types";
import type { TypeScript } from "../../core/context";
import type { LayerResult } from "../../core/layer/read";
import { runtimeLoads, type ModuleHost } from "../../core/layer/loads";
import { lockDirectoryOf, lockRelative } from "../../core/lock/location";

export const LIBRARY_PROFILE_FORMAT = "clauz3-library-profile/1";

export interface UsedLibrary extends LayerLibrary {
  /** Digest over the directory, id, origin and each pinned file under the directory (path and SHA-256). */
  readonly fingerprint: string;
}

/** The profile, or why there is none (then nothing can be remembered for, or matched against, the request). */
export type LibraryProfile = { readonly libraries: readonly UsedLibrary[] } | { readonly problem: string };

function under(directory: string, rel: string): boolean {
  return directory === "." || rel.startsWith(`${directory}/`);
}

/** The fingerprint of one lock library, from the request's layer (what the service computed from its lock). */
export function libraryFingerprint(request: ApprovalRequest, library: LayerLibrary): string {
  return digestOf(LIBRARY_PROFILE_FORMAT, {
    directory: library.directory,
    id: library.id,
    origin: library.origin,
    files: request.layer.files.filter((f) => under(library.directory, f.path)),
  });
}

/** The libraries `file` loads when it runs, as profiled against `request` (the request the service built from the same program). */
export function libraryProfile(ts: TypeScript, program: TS.Program, file: TS.SourceFile, layer: LayerResult, host: ModuleHost, request: ApprovalRequest): LibraryProfile {
  const loads = runtimeLoads(ts, program, file, layer.isTrusted, host);
  if (loads.refusal) return { problem: `the program loads a module it may not: ${loads.refusal.message}` };
  const lockDir = lockDirectoryOf(program);
  const used = new Map<string, LayerLibrary>();
  for (const module of loads.modules) {
    if (!layer.isTrusted(module)) continue;
    const rel = lockRelative(lockDir, module.fileName);
    // The innermost library directory holding the module (directories may nest).
    const library = request.layer.libraries.filter((l) => under(l.directory, rel)).sort((a, b) => b.directory.length - a.directory.length)[0];
    if (!library) return { problem: `the trusted module ${rel} is in no library of the lock` };
    used.set(library.directory, library);
  }
  const libraries = [...used.values()].sort((a, b) => (a.directory < b.directory ? -1 : a.directory > b.directory ? 1 : 0)).map((l) => ({ ...l, fingerprint: libraryFingerprint(request, l) }));
  return { libraries };
}
