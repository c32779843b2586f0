/**
 * Building a lock from the files to pin: `clauz3 lock` passes the trusted files of the project's
 * program; the test helpers pass their in-memory files (same function, so the same document).
 */
import * as path from "node:path";
import type * as TS from "typescript";
import { isLayerCandidate } from "../layer/read";
import { libraryAt, libraryRootOf } from "../manifest";
import { pinDigest } from "./digest";
import { LOCK_VERSION, type Lock, type LockedFile, type LockedLibrary } from "./format";
import { lockRelative } from "./location";
import { contentRevision, type RevisionInput, type RevisionOf } from "./revision";

/** A file to pin: its absolute name and the SHA-256 of its bytes. */
export interface PinnedFile {
  readonly fileName: string;
  readonly sha256: string;
}

/** The lock pinning `files`, with one entry per library directory (the parent of `trusted/`). */
export function buildLock(lockDir: string, files: readonly PinnedFile[], revisionOf: RevisionOf = contentRevision): Lock {
  const pinned = new Map<string, LockedFile>();
  const byLibrary = new Map<string, RevisionInput[]>();
  for (const f of files) {
    const fileName = f.fileName.replace(/\\/g, "/");
    pinned.set(lockRelative(lockDir, fileName), { sha256: f.sha256 });
    const root = libraryRootOf(fileName);
    let list = byLibrary.get(root);
    if (!list) byLibrary.set(root, (list = []));
    list.push({ path: path.posix.relative(root, fileName), sha256: f.sha256 });
  }
  const libraries = new Map<string, LockedLibrary>();
  for (const [root, list] of byLibrary) {
    const library = libraryAt(root, []);
    libraries.set(lockRelative(lockDir, root), { id: library.id, origin: library.stdlib ? "stdlib" : "local", revision: revisionOf(root, list) });
  }
  return { version: LOCK_VERSION, files: pinned, libraries };
}

/** The trusted files of a program (the files a lock pins), sorted by name. */
export function trustedFilesOf(program: TS.Program, isTrusted: (file: TS.SourceFile) => boolean): TS.SourceFile[] {
  return program
    .getSourceFiles()
    .filter((f) => isLayerCandidate(f) && isTrusted(f))
    .sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
}

/** The lock of a program's trusted files, each digested as `pinDigest` does (its bytes on disk). */
export function lockOfProgram(program: TS.Program, isTrusted: (file: TS.SourceFile) => boolean, lockDir: string, revisionOf?: RevisionOf): Lock {
  return buildLock(lockDir, trustedFilesOf(program, isTrusted).map((f) => ({ fileName: f.fileName, sha256: pinDigest(f) })), revisionOf);
}
