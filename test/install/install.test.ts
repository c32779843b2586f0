/**
 * `clauz3 install`: stdlib, folder and git sources (a local bare repository over file://, no
 * network), refusing to overwrite without --force, the layer check on what was copied (nothing
 * left behind when it fails), the lock's `installed` record (kept by `clauz3 lock`), and bad input.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../cli/main";
import { LockError, parseLock, serializeLock } from "../../core/lock/format";
import { parseSource } from "../../cli/install/source";
import { removeProject, ROOT, tempProject } from "../cli/helpers";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

const made: string[] = [];
afterAll(() => made.forEach(removeProject));

function project(files: Record<string, string> = {}): string {
  const dir = tempProject(files, false);
  made.push(dir);
  return dir;
}

function temp(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

async function clauz3(args: string[], cwd: string): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await main(args, { cwd, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stderrIsTTY: false, env: { NO_COLOR: "1" } });
  return { status, stdout, stderr };
}

function lockOf(dir: string) {
  return parseLock("clauz3.lock", fs.readFileSync(path.join(dir, "clauz3.lock"), "utf8"));
}

/** A folder holding tools/<domain>/ copied from a fixture project of the repository. */
function folderWith(fixture: string, domains: string[]): string {
  const dir = temp("clauz3-src-");
  for (const d of domains) fs.cpSync(path.join(ROOT, "fixtures/projects", fixture, "tools", d), path.join(dir, "tools", d), { recursive: true });
  return dir;
}

const git = (args: string[], cwd: string): string =>
  execFileSync("git", ["-c", "user.name=clauz3 test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

describe("help", () => {
  it.each(["init", "install"])("clauz3 %s --help shows examples and the exit codes", async (command) => {
    const r = await clauz3([command, "--help"], os.tmpdir());
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Examples:\n  $ clauz3 ");
    expect(r.stdout).toContain("Exit codes:\n  0  nothing wrong");
  });
});

describe("sources", () => {
  it("parses stdlib names, git URLs with refs, and folders; refuses transport helpers and bad refs", () => {
    expect(parseSource("stdlib:filesystem")).toMatchObject({ kind: "stdlib", name: "filesystem" });
    expect(parseSource("https://example.com/acme/tools.git@v1.2.0")).toMatchObject({ kind: "git", url: "https://example.com/acme/tools.git", ref: "v1.2.0" });
    expect(parseSource("git@example.com:acme/tools.git")).toMatchObject({ kind: "git", url: "git@example.com:acme/tools.git", ref: undefined });
    expect(parseSource("git@example.com:acme/tools.git@main")).toMatchObject({ kind: "git", ref: "main" });
    expect(parseSource("file:///srv/repo.git")).toMatchObject({ kind: "git", url: "file:///srv/repo.git" });
    expect(parseSource("git+https://example.com/r@abc")).toMatchObject({ kind: "git", url: "https://example.com/r", ref: "abc" });
    expect(parseSource("../shared")).toMatchObject({ kind: "folder", path: "../shared" });
    expect(() => parseSource("ext::sh -c touch% /tmp/pwned")).toThrow(/transport helper/);
    expect(() => parseSource("stdlib:../etc")).toThrow(/not a standard library name/);
    expect(() => parseSource("https://example.com/r.git@-x")).toThrow(/not a branch, tag or commit/);
    expect(() => parseSource("a\u0000b")).toThrow(/control character/);
  });
});

describe("the lock's installed record", () => {
  const H = "a".repeat(64);
  const doc = (installed: unknown): string =>
    JSON.stringify({ version: 1, files: { "tools/x/trusted/a.ts": { sha256: H } }, libraries: { "tools/x": { id: "x", origin: "local", revision: `sha256:${H}`, installed } } });

  it("round-trips, sorted, and an older lock without it still reads", () => {
    const lock = parseLock("clauz3.lock", doc({ source: "stdlib:x", revision: "clauz3:0.1.0" }));
    expect(lock.libraries.get("tools/x")?.installed).toEqual({ source: "stdlib:x", revision: "clauz3:0.1.0" });
    const text = serializeLock(lock);
    expect(text).toContain('"installed": {\n        "revision": "clauz3:0.1.0",\n        "source": "stdlib:x"\n      },\n      "origin"');
    expect(serializeLock(parseLock("clauz3.lock", text))).toBe(text);
    const old = JSON.parse(doc(undefined));
    expect(parseLock("clauz3.lock", JSON.stringify(old)).libraries.get("tools/x")?.installed).toBeUndefined();
  });

  it.each([
    [{ source: "stdlib:x" }, 'libraries["tools/x"].installed.revision is missing'],
    [{ source: "stdlib:x", revision: "v1" }, 'libraries["tools/x"].installed.revision must match'],
    [{ source: "", revision: "clauz3:1" }, 'libraries["tools/x"].installed.source'],
    [{ source: "x", revision: "clauz3:1", ref: "main" }, 'libraries["tools/x"].installed.ref is not a field of the lock format'],
  ])("names the field of a malformed record %j", (installed, message) => {
    let error: unknown;
    try {
      parseLock("clauz3.lock", doc(installed));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LockError);
    expect(`${(error as LockError).field} ${(error as LockError).problem}`).toContain(message);
  });
});

describe("clauz3 install stdlib:<name>", () => {
  it("copies the library, pins it with its origin, is idempotent, and refuses to overwrite a changed copy without --force", async () => {
    const dir = project();
    const r = await clauz3(["install", "stdlib:filesystem"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^tools\/filesystem: installed from stdlib:filesystem \(clauz3:0\.1\.0\); 4 trusted files pinned in clauz3\.lock\n$/);
    for (const f of fs.readdirSync(path.join(ROOT, "stdlib/filesystem/trusted"))) {
      expect(fs.readFileSync(path.join(dir, "tools/filesystem/trusted", f), "utf8")).toBe(fs.readFileSync(path.join(ROOT, "stdlib/filesystem/trusted", f), "utf8"));
    }
    const lock = lockOf(dir);
    expect([...lock.files.keys()].sort()).toEqual(["async.ts", "contracts.ts", "effects.ts", "events.ts"].map((f) => `tools/filesystem/trusted/${f}`));
    expect(lock.libraries.get("tools/filesystem")).toMatchObject({ id: "filesystem", origin: "local", installed: { source: "stdlib:filesystem", revision: "clauz3:0.1.0" } });
    const first = fs.readFileSync(path.join(dir, "clauz3.lock"), "utf8");

    const again = await clauz3(["install", "stdlib:filesystem"], dir);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("tools/filesystem: already installed, unchanged");
    expect(fs.readFileSync(path.join(dir, "clauz3.lock"), "utf8")).toBe(first);

    // `clauz3 lock` keeps the installed record.
    expect((await clauz3(["lock"], dir)).status).toBe(0);
    expect(lockOf(dir).libraries.get("tools/filesystem")?.installed).toEqual({ source: "stdlib:filesystem", revision: "clauz3:0.1.0" });

    const effects = path.join(dir, "tools/filesystem/trusted/effects.ts");
    fs.appendFileSync(effects, "\n// my change\n");
    const refused = await clauz3(["install", "stdlib:filesystem"], dir);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe("clauz3 install: tools/filesystem already exists and differs from stdlib:filesystem (first at tools/filesystem/trusted/effects.ts); pass --force to replace it.\n");
    expect(fs.readFileSync(effects, "utf8")).toContain("// my change");

    const forced = await clauz3(["install", "stdlib:filesystem", "--force"], dir);
    expect(forced.status).toBe(0);
    expect(forced.stdout).toContain("tools/filesystem: replaced from stdlib:filesystem");
    expect(fs.readFileSync(effects, "utf8")).not.toContain("// my change");
    expect(fs.readFileSync(path.join(dir, "clauz3.lock"), "utf8")).toBe(first);
  });

  it("keeps the lock's other entries and names an unknown library", async () => {
    const dir = project();
    expect((await clauz3(["install", folderWith("good-layer", ["calendar"])], dir)).status).toBe(0);
    expect((await clauz3(["install", "stdlib:filesystem"], dir)).status).toBe(0);
    expect([...lockOf(dir).libraries.keys()].sort()).toEqual(["tools/calendar", "tools/filesystem"]);
    const r = await clauz3(["install", "stdlib:mail"], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("clauz3 install: stdlib:mail is not a library of clauz3's standard library (there are: stdlib:filesystem).\n");
  });

  it("--skills writes the installed library's SKILL.md with a proved sample, and only that library's", async () => {
    const dir = project();
    // The stdlib reads files with node:fs: a project proving with it has @types/node (as `init` says).
    fs.symlinkSync(path.join(ROOT, "node_modules/@types"), path.join(dir, "node_modules/@types"), "dir");
    const tsconfig = path.join(dir, "tsconfig.json");
    fs.writeFileSync(tsconfig, fs.readFileSync(tsconfig, "utf8").replace(/"types": \[\]/, '"types": ["node"]'));
    expect((await clauz3(["install", folderWith("good-layer", ["calendar"])], dir)).status).toBe(0);
    const r = await clauz3(["install", "stdlib:filesystem", "--skills", "agent-skills"], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^wrote agent-skills\/filesystem\/SKILL\.md \(sample: \S+ under \S+, proved\)\n$/);
    const skill = fs.readFileSync(path.join(dir, "agent-skills", "filesystem", "SKILL.md"), "utf8");
    expect(skill).toContain("```ts agent proved");
    expect(fs.existsSync(path.join(dir, "agent-skills", "calendar"))).toBe(false);
  });

  it("stops on an invalid lock, naming the field, before copying anything", async () => {
    const dir = project({ "clauz3.lock": '{ "version": 1, "files": { "a/trusted/x.ts": { "sha256": "nope" } }, "libraries": {} }\n' });
    const r = await clauz3(["install", "stdlib:filesystem"], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('clauz3 install: clauz3.lock is not a valid lock: files["a/trusted/x.ts"].sha256 must be 64 lowercase hex digits.');
    expect(fs.existsSync(path.join(dir, "tools"))).toBe(false);
  });

  it("refuses when the project's tsconfig does not include the copied files, and leaves nothing behind", async () => {
    const dir = project({ "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ["src"] }), "src/a.ts": "export const a = 1;\n" });
    const r = await clauz3(["install", "stdlib:filesystem"], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^clauz3 install: tools\/filesystem\/trusted\/async\.ts is not a trusted file of tsconfig\.json \(its "include", "exclude" or "files"\); include tools\/ in the project, then install again\.\n$/);
    expect(fs.existsSync(path.join(dir, "tools/filesystem"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "clauz3.lock"))).toBe(false);
  });
});

describe("clauz3 install <folder>", () => {
  it("installs every tools/<domain>/ of the folder with a content revision", async () => {
    const dir = project();
    const src = folderWith("good-layer", ["calendar"]);
    fs.cpSync(path.join(src, "tools/calendar"), path.join(src, "tools/agenda"), { recursive: true });
    const r = await clauz3(["install", src], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout.split("\n").filter(Boolean).map((l) => l.split(":")[0])).toEqual(["tools/agenda", "tools/calendar"]);
    const lib = lockOf(dir).libraries.get("tools/calendar")!;
    expect(lib.installed?.source).toBe(src.replace(/\\/g, "/"));
    expect(lib.installed?.revision).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("refuses a library that breaks layer rules: prints the findings, exit 1, nothing installed, lock untouched", async () => {
    const dir = project();
    expect((await clauz3(["install", "stdlib:filesystem"], dir)).status).toBe(0);
    const lockBefore = fs.readFileSync(path.join(dir, "clauz3.lock"), "utf8");
    const r = await clauz3(["install", folderWith("broken-layer", ["shop"])], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("tools/shop/trusted/effects.ts");
    expect(r.stderr).toMatch(/TS93003/);
    expect(r.stderr).toMatch(/breaks 7 layer rules; nothing was installed\.\n$/);
    expect(fs.existsSync(path.join(dir, "tools/shop"))).toBe(false);
    expect(fs.readFileSync(path.join(dir, "clauz3.lock"), "utf8")).toBe(lockBefore);
  });

  it("restores the replaced library when the --force copy breaks layer rules", async () => {
    const dir = project();
    const good = folderWith("good-layer", ["calendar"]);
    expect((await clauz3(["install", good], dir)).status).toBe(0);
    const bad = temp("clauz3-src-");
    fs.cpSync(path.join(ROOT, "fixtures/projects/broken-layer/tools/shop"), path.join(bad, "tools/calendar"), { recursive: true });
    const r = await clauz3(["install", bad, "--force"], dir);
    expect(r.status).toBe(1);
    for (const f of fs.readdirSync(path.join(good, "tools/calendar/trusted"))) {
      expect(fs.readFileSync(path.join(dir, "tools/calendar/trusted", f), "utf8")).toBe(fs.readFileSync(path.join(good, "tools/calendar/trusted", f), "utf8"));
    }
    expect(fs.existsSync(path.join(dir, "tools/calendar/trusted/effects.ts"))).toBe(true);
  });

  it("names what is wrong with a folder: missing, no tools/, no trusted/, a symbolic link", async () => {
    const dir = project();
    const missing = await clauz3(["install", "./nowhere"], dir);
    expect(missing).toMatchObject({ status: 2, stderr: "clauz3 install: ./nowhere is not a folder (nor stdlib:<name>, nor a git URL).\n" });
    const empty = temp("clauz3-src-");
    expect((await clauz3(["install", empty], dir)).stderr).toContain("has no tools/ folder");
    fs.mkdirSync(path.join(empty, "tools/mail"), { recursive: true });
    expect((await clauz3(["install", empty], dir)).stderr).toContain("/tools has no <domain>/trusted/ folder: nothing to install.");
    const linked = folderWith("good-layer", ["calendar"]);
    fs.symlinkSync(path.join(linked, "tools/calendar/clauz3.json"), path.join(linked, "tools/calendar/trusted/host.ts"));
    const r = await clauz3(["install", linked], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("tools/calendar/trusted/host.ts is a symbolic link");
    expect(fs.existsSync(path.join(dir, "tools/calendar"))).toBe(false);
  });
});

describe("clauz3 install <git URL>", () => {
  it("clones a file:// repository at a tag, records the commit, and reinstalls that commit from the cache", async () => {
    const work = temp("clauz3-git-");
    git(["init", "-q"], work);
    fs.cpSync(path.join(ROOT, "fixtures/projects/good-layer/tools/calendar"), path.join(work, "tools/calendar"), { recursive: true });
    git(["add", "."], work);
    git(["commit", "-q", "-m", "notes"], work);
    git(["tag", "v1"], work);
    const v1 = git(["rev-parse", "HEAD"], work).trim();
    fs.appendFileSync(path.join(work, "tools/calendar/clauz3.json"), "\n");
    git(["commit", "-q", "-am", "later"], work);
    const head = git(["rev-parse", "HEAD"], work).trim();
    const bare = path.join(temp("clauz3-bare-"), "tools.git");
    git(["clone", "-q", "--bare", work, bare], work);
    const url = `file://${bare}`;

    const dir = project();
    const r = await clauz3(["install", `${url}@v1`], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`tools/calendar: installed from ${url}@v1 (git:${v1})`);
    expect(lockOf(dir).libraries.get("tools/calendar")?.installed).toEqual({ source: `${url}@v1`, revision: `git:${v1}` });
    expect(fs.existsSync(path.join(dir, "node_modules/.cache/clauz3/git"))).toBe(true);
    expect(fs.existsSync(path.join(dir, "tools/calendar/.git"))).toBe(false);

    // The default branch is the later commit, which differs: --force is needed.
    const later = await clauz3(["install", url], dir);
    expect(later.status).toBe(2);
    expect(later.stderr).toContain("tools/calendar already exists and differs");
    expect((await clauz3(["install", url, "--force"], dir)).stdout).toContain(`(git:${head})`);

    // A commit already in the cache needs no repository: remove it and install v1's commit.
    fs.rmSync(bare, { recursive: true, force: true });
    const cached = await clauz3(["install", `${url}@${v1}`, "--force"], dir);
    expect(cached.stderr).toBe("");
    expect(cached.stdout).toContain(`tools/calendar: replaced from ${url}@${v1} (git:${v1})`);
    const gone = await clauz3(["install", `${url}@v1`], dir);
    expect(gone.status).toBe(2);
    expect(gone.stderr).toMatch(/^clauz3 install: git ls-remote failed: .+\n$/);
  });

  it("names a ref the repository does not have", async () => {
    const work = temp("clauz3-git-");
    git(["init", "-q"], work);
    fs.cpSync(path.join(ROOT, "fixtures/projects/good-layer/tools/calendar"), path.join(work, "tools/calendar"), { recursive: true });
    git(["add", "."], work);
    git(["commit", "-q", "-m", "notes"], work);
    const dir = project();
    const r = await clauz3(["install", `file://${work}@no-such-branch`], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`clauz3 install: file://${work} has no branch, tag or commit "no-such-branch".\n`);
  });
});
