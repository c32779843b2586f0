/**
 * A library's revision in the lock: `git:<commit>`, the last commit that changed the library's
 * directory, when the directory is in a git work tree and has no uncommitted, untracked or ignored
 * file (so the files are exactly that commit's); otherwise `sha256:<digest>` over its pinned files (`contentRevision`).
 * Only `clauz3 lock` computes revisions (it runs `git`); readers never do.
 */
import { execFileSync } from "node:child_process";
import { sha256Hex } from "./digest";

/** A pinned file of a library: its path relative to the library directory and its digest. */
export interface RevisionInput {
  readonly path: string;
  readonly sha256: string;
}

/** How a writer computes a library's revision from its absolute directory and pinned files. */
export type RevisionOf = (directory: string, files: readonly RevisionInput[]) => string;

/**
 * `sha256:` + SHA-256 of one line per pinned file, sorted by path: `<path>\0<sha256>\n` (the path
 * relative to the library directory, forward slashes).
 */
export const contentRevision: RevisionOf = (_directory, files) => {
  const lines = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((f) => `${f.path}\0${f.sha256}\n`);
  return `sha256:${sha256Hex(lines.join(""))}`;
};

/** The commit of a clean library directory in a git work tree, else undefined (no git, not a work tree, uncommitted changes). */
export function gitCommitOf(directory: string): string | undefined {
  const run = (args: readonly string[]): string =>
    execFileSync("git", [...args], { cwd: directory, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 30_000 });
  try {
    if (run(["status", "--porcelain", "--untracked-files=all", "--ignored", "--", "."]).trim() !== "") return undefined;
    const commit = run(["log", "-1", "--format=%H", "--", "."]).trim();
    return /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(commit) ? commit : undefined;
  } catch {
    return undefined;
  }
}

/** `git:<commit>` for a clean directory in a git work tree, else the content revision. */
export const gitOrContentRevision: RevisionOf = (directory, files) => {
  const commit = gitCommitOf(directory);
  return commit !== undefined ? `git:${commit}` : contentRevision(directory, files);
};
