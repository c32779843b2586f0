/**
 * `clauz3 install`: copy a library's `tools/<domain>/` (trusted code, manifest, README) into the
 * project's `tools/<domain>/`, check the layer rules on what was copied with the engine `check`
 * uses (cli/project.ts), and pin the copied trusted files in `clauz3.lock` with where they came
 * from (`installed`). Nothing of the project is left changed when a step fails: a copy that breaks
 * layer rules is removed again (a replaced library restored), and the lock is written last.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as TS from "typescript";
import type { TypeScript } from "../../core/context";
import { pinDigest, sha256Hex } from "../../core/lock/digest";
import { LOCK_FILE, LOCK_VERSION, LockError, readLockIfPresent, serializeLock, type InstalledFrom, type Lock, type LockedLibrary } from "../../core/lock/format";
import { lockRelative } from "../../core/lock/location";
import { contentRevision, gitCommitOf, gitOrContentRevision } from "../../core/lock/revision";
import { buildLock, trustedFilesOf } from "../../core/lock/write";
import { packageRoot } from "../../core/manifest";
import { findingDiagnostics } from "../io";
import { loadProject, projectConfigPath } from "../project";
import { checkoutGit } from "./git";
import { DOMAIN, InstallError, parseSource, type InstallSource } from "./source";

export { InstallError } from "./source";

/** The copied library breaks layer rules: the diagnostics, to print with TypeScript's formatter. */
export class InstallFindings extends InstallError {
  constructor(
    message: string,
    readonly ts: TypeScript,
    readonly projectDir: string,
    readonly diagnostics: readonly TS.Diagnostic[],
  ) {
    super(message, 1);
    this.name = "InstallFindings";
  }
}

export interface InstallRequest {
  readonly source: string;
  readonly cwd: string;
  /** `--project`: the project's tsconfig.json or its directory. */
  readonly project?: string;
  readonly force?: boolean;
}

export interface InstalledLibrary {
  readonly domain: string;
  /** The library's directory in the project, relative to it (`tools/<domain>`). */
  readonly directory: string;
  readonly action: "installed" | "replaced" | "unchanged";
  /** Trusted files pinned in the lock. */
  readonly pinned: number;
  /** Where it came from, as the lock records it. */
  readonly installed: InstalledFrom;
}

export interface InstallOutcome {
  readonly projectDir: string;
  readonly lockPath: string;
  readonly libraries: readonly InstalledLibrary[];
}

/** A library found in the source: its domain and directory. */
interface SourceLibrary {
  readonly domain: string;
  readonly directory: string;
}

const slash = (p: string): string => p.replace(/\\/g, "/");

/** The clauz3 version that ships the standard library (the package holding `stdlib/`). */
function toolVersion(): string {
  try {
    const version = (JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { version?: unknown }).version;
    return typeof version === "string" && /^[0-9A-Za-z.+-]+$/.test(version) ? version : "0.0.0";
  } catch {
    return "0.0.0";
  }
}

/** Every regular file below `dir` (relative, forward slashes, sorted); a symbolic link is refused: it could point anywhere. */
export function filesBelow(dir: string, shown: string): string[] {
  const out: string[] = [];
  const walk = (d: string, prefix: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) throw new InstallError(`clauz3 install: ${shown}/${rel} is a symbolic link; a library is copied as plain files and folders only.`);
      if (entry.isDirectory()) walk(path.join(d, entry.name), rel);
      else if (entry.isFile()) out.push(rel);
    }
  };
  walk(dir, "");
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The libraries of a folder holding `tools/<domain>/trusted/`. */
function librariesIn(root: string, shown: string): SourceLibrary[] {
  const tools = path.join(root, "tools");
  if (!fs.existsSync(tools) || !fs.statSync(tools).isDirectory()) {
    throw new InstallError(`clauz3 install: ${shown} has no tools/ folder; a library source holds tools/<domain>/ with the domain's trusted/ folder.`);
  }
  const found = fs
    .readdirSync(tools, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(tools, e.name, "trusted")))
    .map((e) => ({ domain: e.name, directory: path.join(tools, e.name) }))
    .sort((a, b) => (a.domain < b.domain ? -1 : 1));
  if (found.length === 0) throw new InstallError(`clauz3 install: ${shown}/tools has no <domain>/trusted/ folder: nothing to install.`);
  for (const l of found) {
    if (!DOMAIN.test(l.domain)) throw new InstallError(`clauz3 install: ${shown}/tools/${l.domain} is not a usable library name (letters, digits, ".", "_", "-").`);
  }
  return found;
}

/** The stdlib library `name`, or an error listing the ones there are. */
function stdlibLibrary(name: string): SourceLibrary {
  const root = path.join(packageRoot(), "stdlib");
  const directory = path.join(root, name);
  if (!fs.existsSync(path.join(directory, "trusted"))) {
    const names = fs.existsSync(root) ? fs.readdirSync(root).filter((n) => fs.existsSync(path.join(root, n, "trusted"))) : [];
    throw new InstallError(`clauz3 install: stdlib:${name} is not a library of clauz3's standard library (there are: ${names.map((n) => `stdlib:${n}`).join(", ") || "none"}).`);
  }
  return { domain: name, directory };
}

/** The source's libraries and what the lock records of where they came from. */
function resolveSource(source: InstallSource, cwd: string, projectDir: string): { libraries: SourceLibrary[]; installed: (l: SourceLibrary) => InstalledFrom } {
  switch (source.kind) {
    case "stdlib": {
      const revision = `clauz3:${toolVersion()}`;
      return { libraries: [stdlibLibrary(source.name)], installed: () => ({ source: source.text, revision }) };
    }
    case "git": {
      const checkout = checkoutGit(source.url, source.ref, path.join(projectDir, "node_modules", ".cache", "clauz3"));
      const libraries = librariesIn(checkout.directory, source.text);
      return { libraries, installed: () => ({ source: source.text, revision: `git:${checkout.commit}` }) };
    }
    case "folder": {
      const root = path.resolve(cwd, source.path);
      if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) {
        throw new InstallError(`clauz3 install: ${source.path} is not a folder (nor stdlib:<name>, nor a git URL).`);
      }
      const rel = slash(path.relative(projectDir, root));
      const shown = rel === "" ? "." : rel.startsWith("../") || path.isAbsolute(rel) ? slash(root) : rel;
      const libraries = librariesIn(root, source.path);
      const installed = (l: SourceLibrary): InstalledFrom => {
        const commit = gitCommitOf(l.directory);
        if (commit !== undefined) return { source: shown, revision: `git:${commit}` };
        const files = filesBelow(l.directory, source.path).map((f) => ({ path: f, sha256: sha256Hex(fs.readFileSync(path.join(l.directory, f))) }));
        return { source: shown, revision: contentRevision(l.directory, files) };
      };
      return { libraries, installed };
    }
  }
}

/** Whether two folders hold the same files with the same bytes. */
function sameTree(a: string, b: string, shown: string): { same: true } | { same: false; first: string } {
  const fa = filesBelow(a, shown);
  const fb = filesBelow(b, shown);
  const all = [...new Set([...fa, ...fb])].sort();
  for (const f of all) {
    if (!fa.includes(f) || !fb.includes(f)) return { same: false, first: f };
    if (!fs.readFileSync(path.join(a, f)).equals(fs.readFileSync(path.join(b, f)))) return { same: false, first: f };
  }
  return { same: true };
}

function copyTree(from: string, to: string, shown: string): void {
  for (const f of filesBelow(from, shown)) {
    fs.mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    fs.copyFileSync(path.join(from, f), path.join(to, f));
  }
}

/** The project's lock as it is now (undefined when there is none); an invalid lock stops the install. */
function currentLock(lockPath: string, shown: string): Lock | undefined {
  try {
    return readLockIfPresent(lockPath);
  } catch (error) {
    if (error instanceof LockError) {
      throw new InstallError(`clauz3 install: ${shown} is not a valid lock: ${error.field} ${error.problem}. Fix it (or write it again with \`clauz3 lock\`) and install again.`);
    }
    throw error;
  }
}

function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw new InstallError(`clauz3 install: cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Install `request.source` into the project; throws `InstallError` (exit 2) or `InstallFindings` (exit 1). */
export function install(request: InstallRequest): InstallOutcome {
  const source = parseSource(request.source);
  const configPath = projectConfigPath(request);
  const projectDir = configPath ? path.dirname(configPath) : path.resolve(request.cwd);
  const lockPath = path.join(projectDir, LOCK_FILE);
  const before = currentLock(lockPath, LOCK_FILE);
  const { libraries, installed } = resolveSource(source, request.cwd, projectDir);

  // Decide every library before touching any.
  const plans = libraries.map((l) => {
    const directory = `tools/${l.domain}`;
    const target = path.join(projectDir, "tools", l.domain);
    if (path.resolve(l.directory) === path.resolve(target)) {
      throw new InstallError(`clauz3 install: ${request.source} is this project's own ${directory}; install from another folder.`);
    }
    if (!fs.existsSync(target)) return { l, directory, target, action: "installed" as const };
    if (!fs.statSync(target).isDirectory()) throw new InstallError(`clauz3 install: ${directory} exists and is not a folder; move it away first.`);
    const cmp = sameTree(l.directory, target, directory);
    if (cmp.same) return { l, directory, target, action: "unchanged" as const };
    if (!request.force) {
      throw new InstallError(`clauz3 install: ${directory} already exists and differs from ${request.source} (first at ${directory}/${cmp.first}); pass --force to replace it.`);
    }
    return { l, directory, target, action: "replaced" as const };
  });
  for (const p of plans) filesBelow(p.l.directory, `${request.source}:${p.directory}`);

  const backups = new Map<string, string>();
  const rollBack = (): void => {
    for (const p of plans) {
      if (p.action === "unchanged") continue;
      fs.rmSync(p.target, { recursive: true, force: true });
      const backup = backups.get(p.target);
      if (backup) fs.renameSync(backup, p.target);
    }
  };
  try {
    for (const p of plans) {
      if (p.action === "unchanged") continue;
      if (p.action === "replaced") {
        // Kept under node_modules/ (outside every program) until the copy is checked.
        const backup = path.join(projectDir, "node_modules", ".cache", "clauz3", `replaced-${process.pid}-${p.l.domain}`);
        fs.mkdirSync(path.dirname(backup), { recursive: true });
        fs.rmSync(backup, { recursive: true, force: true });
        fs.renameSync(p.target, backup);
        backups.set(p.target, backup);
      }
      copyTree(p.l.directory, p.target, p.directory);
    }

    const project = loadProject({ cwd: projectDir, project: configPath });
    const under = (fileName: string, p: (typeof plans)[number]): boolean => !path.relative(p.target, fileName).startsWith("..") && !path.isAbsolute(path.relative(p.target, fileName));
    const ours = (fileName: string): boolean => plans.some((p) => under(path.resolve(fileName), p));
    const trusted = trustedFilesOf(project.program, project.layer.isTrusted).filter((f) => ours(f.fileName));

    for (const p of plans) {
      const copied = filesBelow(p.target, p.directory).filter((f) => /^trusted\/.*\.(ts|tsx|mts|cts)$/.test(f) && !/\.d\.[cm]?ts$/.test(f));
      const missing = copied.filter((f) => !trusted.some((t) => path.resolve(t.fileName) === path.join(p.target, f)));
      if (missing.length > 0) {
        const where = configPath ? `${slash(path.relative(projectDir, configPath))} (its "include", "exclude" or "files")` : "the project";
        throw new InstallError(`clauz3 install: ${p.directory}/${missing[0]} is not a trusted file of ${where}; include tools/ in the project, then install again.`);
      }
    }
    const unreadable = [...project.unreadable.keys()].filter(ours);
    if (unreadable.length > 0) throw new InstallError(`clauz3 install: ${slash(path.relative(projectDir, unreadable[0]!))}: ${project.unreadable.get(unreadable[0]!)}.`, 1);
    const findings = project.layer.findings.filter((f) => ours(f.file.fileName));
    if (findings.length > 0) {
      throw new InstallFindings(
        `clauz3 install: ${request.source} breaks ${findings.length} layer rule${findings.length === 1 ? "" : "s"}; nothing was installed.`,
        project.ts,
        projectDir,
        findingDiagnostics(project.ts, findings),
      );
    }
    const badManifest = project.libraries.find((l) => ours(l.root) && l.manifestProblems.length > 0);
    if (badManifest) {
      throw new InstallError(`clauz3 install: ${slash(path.relative(projectDir, badManifest.manifestPath))}: invalid library manifest: ${badManifest.manifestProblems.join("; ")}; nothing was installed.`, 1);
    }

    // The lock: what it pinned before, without the installed directories, plus their files now.
    const lockDir = slash(projectDir);
    const fresh = buildLock(lockDir, trusted.map((f) => ({ fileName: f.fileName, sha256: pinDigest(f) })), gitOrContentRevision);
    const prefixes = plans.map((p) => `${p.directory}/`);
    const kept = <V>(entries: Iterable<[string, V]>): [string, V][] => [...entries].filter(([k]) => !prefixes.some((x) => `${k}/`.startsWith(x)));
    const libs = new Map<string, LockedLibrary>(kept(before?.libraries ?? []));
    for (const p of plans) {
      const key = lockRelative(lockDir, slash(p.target));
      const entry = fresh.libraries.get(key);
      if (entry) libs.set(key, { ...entry, installed: installed(p.l) });
    }
    const lock: Lock = { version: LOCK_VERSION, files: new Map([...kept(before?.files ?? []), ...fresh.files]), libraries: libs };
    writeAtomically(lockPath, serializeLock(lock));

    for (const backup of backups.values()) fs.rmSync(backup, { recursive: true, force: true });
    return {
      projectDir,
      lockPath,
      libraries: plans.map((p) => ({
        domain: p.l.domain,
        directory: p.directory,
        action: p.action,
        pinned: trusted.filter((f) => under(path.resolve(f.fileName), p)).length,
        installed: libs.get(lockRelative(lockDir, slash(p.target)))?.installed ?? installed(p.l),
      })),
    };
  } catch (error) {
    rollBack();
    throw error;
  }
}
