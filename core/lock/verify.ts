/**
 * Verifying a program's trusted files against its `clauz3.lock`. Never writes the lock, never
 * throws: every problem is a finding.
 *
 * - a trusted file the lock does not pin, or whose digest differs (`pinDigest`): 93020 on the
 *   file's first statement. The prover counts these like broken layer files: programs that reach
 *   the file through imports are refused (prove.ts, `layerProblem`).
 * - no lock: every trusted file is unpinned.
 * - a lock that is not JSON or does not match the schema: 93022 on the field in the lock, and
 *   every trusted file is unpinned (the CLI makes it a configuration error, exit 2).
 * - a pinned file that no longer exists: 93021 on its key in the lock.
 *
 * The folder convention (or `trustedRoots`) says where trusted code lives; the lock says that it
 * is trusted.
 */
import * as path from "node:path";
import type * as TS from "typescript";
import type { Finding, TypeScript } from "../context";
import { formatMessage, RULES } from "../rules";
import { pinDigest } from "./digest";
import { LOCK_FILE, LockError, parseLock, type Lock } from "./format";
import { jsonSpan } from "./json-span";
import { existsForProgram, lockDirectoryOf, lockRelative, readThroughProgram } from "./location";
import { trustedFilesOf } from "./write";

export interface LockVerification {
  /** Absolute path of the lock. */
  readonly lockPath: string;
  readonly state: "ok" | "missing" | "invalid";
  /** What is wrong with the lock, when it is invalid. */
  readonly error: LockError | undefined;
  /** The lock, when it is valid. */
  readonly lock: Lock | undefined;
  /** Every finding: unpinned trusted files (on the files), stale entries and an invalid lock (on the lock). */
  readonly findings: readonly Finding[];
  /** The trusted files that are not pinned, by file name (a verdict depends on this set). */
  readonly unpinned: ReadonlySet<string>;
}

type IsTrusted = (file: TS.SourceFile) => boolean;

/** Verifications by program and trusted-file predicate, with the lock text they were made from. */
const cache = new WeakMap<TS.Program, Map<IsTrusted, { readonly text: string | undefined; readonly result: LockVerification }>>();

/**
 * Verify the trusted files of `program` (those `isTrusted` selects) against the program's lock.
 * The lock is read again on every call (a cheap read) and the result reused while it is unchanged.
 */
export function verifyLock(ts: TypeScript, program: TS.Program, isTrusted: IsTrusted): LockVerification {
  const lockDir = lockDirectoryOf(program);
  const lockPath = path.posix.join(lockDir, LOCK_FILE);
  let text: string | undefined;
  let unreadable: string | undefined;
  try {
    text = readThroughProgram(program, lockPath);
  } catch (error) {
    unreadable = error instanceof Error ? error.message : String(error);
  }
  let byPredicate = cache.get(program);
  if (!byPredicate) cache.set(program, (byPredicate = new Map()));
  const known = byPredicate.get(isTrusted);
  if (known && unreadable === undefined && known.text === text) return known.result;
  let result: LockVerification;
  try {
    result = verify(ts, program, isTrusted, lockDir, lockPath, text, unreadable);
  } catch (error) {
    // Fail closed: a verification that failed pins nothing.
    const detail = error instanceof Error ? error.message : String(error);
    result = unverified(program, isTrusted, lockDir, lockPath, `could not be checked against ${LOCK_FILE} (${detail})`);
  }
  if (unreadable === undefined) byPredicate.set(isTrusted, { text, result });
  return result;
}

/** Every trusted file unpinned, for `state`. */
function unverified(program: TS.Program, isTrusted: IsTrusted, lockDir: string, lockPath: string, state: string): LockVerification {
  const findings: Finding[] = [];
  const unpinned = new Set<string>();
  for (const file of trustedFilesOf(program, isTrusted)) {
    unpinned.add(file.fileName);
    findings.push(unpinnedFinding(file, lockDir, state));
  }
  return { lockPath, state: "invalid", error: undefined, lock: undefined, findings, unpinned };
}

/** 93020 on the file's first statement (its start when it has none). */
function unpinnedFinding(file: TS.SourceFile, lockDir: string, state: string): Finding {
  const first = file.statements[0];
  const start = first ? first.getStart(file) : 0;
  const length = first ? first.getEnd() - start : 0;
  return { rule: "unpinnedTrustedFile", file, start, length, message: formatMessage(RULES.unpinnedTrustedFile, { file: lockRelative(lockDir, file.fileName), state }) };
}

function verify(ts: TypeScript, program: TS.Program, isTrusted: IsTrusted, lockDir: string, lockPath: string, text: string | undefined, unreadable: string | undefined): LockVerification {
  const findings: Finding[] = [];
  const unpinned = new Set<string>();
  const trusted = trustedFilesOf(program, isTrusted);
  const unpin = (file: TS.SourceFile, state: string): void => {
    unpinned.add(file.fileName);
    findings.push(unpinnedFinding(file, lockDir, state));
  };

  if (text === undefined && unreadable === undefined) {
    for (const file of trusted) unpin(file, `is not pinned: the project has no ${LOCK_FILE}`);
    return { lockPath, state: "missing", error: undefined, lock: undefined, findings, unpinned };
  }

  const source = ts.parseJsonText(lockPath, text ?? "");
  let lock: Lock;
  try {
    if (unreadable !== undefined) throw new LockError(lockPath, "the document", `cannot be read: ${unreadable}`);
    lock = parseLock(lockPath, text!);
  } catch (error) {
    const e = error instanceof LockError ? error : new LockError(lockPath, "the document", `could not be read: ${error instanceof Error ? error.message : String(error)}`);
    const span = e.offset !== undefined ? { start: Math.min(e.offset, source.text.length), length: e.offset < source.text.length ? 1 : 0 } : jsonSpan(ts, source, e.pointer, e.atKey);
    findings.push({ rule: "invalidLock", file: source, ...span, message: formatMessage(RULES.invalidLock, { lock: LOCK_FILE, field: e.field, problem: e.problem }) });
    for (const file of trusted) unpin(file, `is not pinned: ${LOCK_FILE} is not valid (${e.field} ${e.problem})`);
    return { lockPath, state: "invalid", error: e, lock: undefined, findings, unpinned };
  }

  const inProgram = new Set<string>();
  for (const file of trusted) {
    const rel = lockRelative(lockDir, file.fileName);
    inProgram.add(rel);
    const entry = lock.files.get(rel);
    if (!entry) unpin(file, `is not pinned in ${LOCK_FILE}`);
    else if (entry.sha256 !== pinDigest(file)) unpin(file, `changed since it was pinned in ${LOCK_FILE}`);
  }
  for (const rel of lock.files.keys()) {
    if (inProgram.has(rel)) continue;
    const fileName = path.posix.join(lockDir, rel);
    if (program.getSourceFile(fileName) || existsForProgram(program, fileName)) continue;
    const span = jsonSpan(ts, source, ["files", rel], true);
    findings.push({ rule: "staleLockEntry", file: source, ...span, message: formatMessage(RULES.staleLockEntry, { file: rel }) });
  }
  return { lockPath, state: "ok", error: undefined, lock, findings, unpinned };
}
