/**
 * A git source, checked out once per commit into the project's cache
 * (`node_modules/.cache/clauz3/git/<sha256 of the URL>/<commit>/`, without `.git`). A 40-hex ref
 * whose commit is cached needs no git at all; a branch or tag is resolved with `git ls-remote`
 * first, so a cached commit is not cloned again. Uses the `git` on PATH; never prompts.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { sha256Hex } from "../../core/lock/digest";
import { InstallError } from "./source";

/** A checked-out commit of a git source. */
export interface GitCheckout {
  readonly directory: string;
  readonly commit: string;
}

const COMMIT = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/;
/** Written last into a cached checkout: a directory without it is an interrupted copy. */
const COMPLETE = ".clauz3-complete";

function git(args: readonly string[], cwd?: string): string {
  try {
    return execFileSync("git", ["-c", "protocol.ext.allow=never", ...args], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "echo", GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? "ssh -oBatchMode=yes" },
    });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === "ENOENT") throw new InstallError("clauz3 install: `git` is not on PATH; install git to install from a git URL.");
    const said = (e.stderr ?? "").trim().split("\n").filter((l) => l.trim() !== "").slice(-2).join(" ");
    throw new InstallError(`clauz3 install: git ${args[0]} failed${said ? `: ${said}` : ""}`);
  }
}

/** The commit a ref names on the remote, when `ls-remote` can tell (branches, tags, HEAD); else undefined. */
function remoteCommit(url: string, ref: string | undefined): string | undefined {
  const wanted = ref ?? "HEAD";
  const lines = git(["ls-remote", "--", url, ...(ref === undefined ? ["HEAD"] : [ref, `refs/tags/${ref}^{}`])])
    .split("\n")
    .filter((l) => l.includes("\t"))
    .map((l) => l.split("\t") as [string, string]);
  const pick = (name: string): string | undefined => lines.find(([, r]) => r === name)?.[0];
  return pick(`refs/tags/${wanted}^{}`) ?? pick(`refs/heads/${wanted}`) ?? pick(`refs/tags/${wanted}`) ?? pick(wanted);
}

/** Check out `url` at `ref` (default: the remote's HEAD) under `cacheRoot`; returns the cached directory and its commit. */
export function checkoutGit(url: string, ref: string | undefined, cacheRoot: string): GitCheckout {
  const base = path.join(cacheRoot, "git", sha256Hex(url).slice(0, 16));
  const cached = (commit: string): GitCheckout | undefined => {
    const directory = path.join(base, commit);
    return fs.existsSync(path.join(directory, COMPLETE)) ? { directory, commit } : undefined;
  };
  const known = ref !== undefined && COMMIT.test(ref) ? ref : remoteCommit(url, ref);
  const hit = known !== undefined ? cached(known) : undefined;
  if (hit) return hit;

  fs.mkdirSync(base, { recursive: true });
  const work = fs.mkdtempSync(path.join(base, ".clone-"));
  try {
    git(["clone", "--quiet", "--no-checkout", "--", url, work]);
    const target = known ?? ref ?? "HEAD";
    let commit: string;
    try {
      commit = git(["rev-parse", "--verify", "--quiet", `${target}^{commit}`], work).trim();
    } catch {
      commit = "";
    }
    if (!COMMIT.test(commit)) {
      // A branch of the remote that is not the default one is a remote-tracking ref in the clone.
      try {
        commit = git(["rev-parse", "--verify", "--quiet", `origin/${target}^{commit}`], work).trim();
      } catch {
        throw new InstallError(`clauz3 install: ${url} has no branch, tag or commit ${JSON.stringify(target)}.`);
      }
    }
    const again = cached(commit);
    if (again) return again;
    git(["-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", commit], work);
    fs.rmSync(path.join(work, ".git"), { recursive: true, force: true });
    fs.writeFileSync(path.join(work, COMPLETE), `${url}\n${commit}\n`);
    const directory = path.join(base, commit);
    fs.rmSync(directory, { recursive: true, force: true });
    fs.renameSync(work, directory);
    return { directory, commit };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
