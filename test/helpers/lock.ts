/**
 * The `clauz3.lock` of a test project, computed from its files the way `clauz3 lock` computes it
 * (the same `buildLock`; test/lock/cli.test.ts checks that both give the same bytes). Projects in
 * memory and temporary projects on disk get one, so their trusted layers stay pinned; a test that
 * is about an unpinned file leaves it out (`unpinned`) or writes no lock at all.
 */
import * as path from "node:path";
import { isProjectSource, isTrustedFile } from "../../core/layer/classify";
import { buildLock, serializeLock, sha256Hex } from "../../core/lock";

export interface LockOptions {
  /** The project's `trustedRoots` (default: the `trusted` folder convention). */
  readonly trustedRoots?: readonly string[];
  /** Trusted files (relative paths) the lock leaves out, as if written after `clauz3 lock` ran. */
  readonly unpinned?: readonly string[];
}

/** Sources TypeScript may load (declaration files are never part of the trusted layer). */
const SOURCE = /\.([cm]?[jt]sx?)$/;

/** The lock `clauz3 lock` writes for a project of `files` (paths relative to `root`, texts written as UTF-8). */
export function lockFor(files: Readonly<Record<string, string>>, root: string, options: LockOptions = {}): string {
  const roots = options.trustedRoots ? { trustedRoots: options.trustedRoots } : {};
  const pinned = Object.entries(files)
    .filter(([rel]) => SOURCE.test(rel) && !/\.d\.[cm]?ts$/.test(rel) && !(options.unpinned ?? []).includes(rel))
    .map(([rel, text]) => ({ fileName: path.posix.join(root, rel), sha256: sha256Hex(Buffer.from(text, "utf8")) }))
    .filter((f) => isProjectSource(f.fileName, false) && isTrustedFile(f.fileName, root, roots));
  return serializeLock(buildLock(root, pinned));
}

/** A test project's lock: computed (`LockOptions`), given as text, or none at all (`false`). */
export type LockSpec = LockOptions | { readonly text: string } | false;

/** The lock text of `spec` for `files`, or undefined for none. */
export function lockText(spec: LockSpec, files: Readonly<Record<string, string>>, root: string): string | undefined {
  if (spec === false) return undefined;
  return "text" in spec ? spec.text : lockFor(files, root, spec);
}
