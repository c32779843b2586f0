/** `clauz3.lock`: which trusted files the operator pinned (docs/lock.md). Written only by `clauz3 lock`. */
export { LOCK_FILE, LOCK_VERSION, LockError, parseLock, serializeLock, lockSchema, type Lock, type LockedFile, type LockedLibrary, type LockOrigin, type InstalledFrom } from "./format";
export { pinDigest, sha256Hex } from "./digest";
export { lockDirectoryFor, lockDirectoryOf, lockPathOf, lockRelative } from "./location";
export { contentRevision, gitOrContentRevision, type RevisionOf } from "./revision";
export { buildLock, lockOfProgram, trustedFilesOf, type PinnedFile } from "./write";
export { verifyLock, type LockVerification } from "./verify";
