/**
 * `clauz3 lock`, then `clauz3 check` and `clauz3 prove` against the lock, with the built CLI on
 * temporary projects: pinning, a changed file, an agent-written file in a trusted folder, a stale
 * entry, an invalid lock (exit 2), bytes on disk, git revisions.
 */
import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { lockFor } from "../helpers/lock";
import { LOG, MAIL } from "./layers";
import { clauz3, ensureBuilt, removeProject, tempProject } from "../cli/helpers";

const PLANS = {
  "mail-plan.ts": `import { sendEmail } from "./tools/mail/trusted/effects";
import * as mail from "./tools/mail/trusted/contracts";
export const guarantees = [mail.emailsAtMost(1)];
export function main(to: string): void {
  sendEmail(to);
}
`,
  "log-plan.ts": `import { log, linesAtMost } from "./tools/log/trusted/log";
export const guarantees = [linesAtMost(1)];
export function main(message: string): void {
  log(message);
}
`,
};
const FILES: Record<string, string> = { ...MAIL, ...LOG, ...PLANS };

interface CheckJson {
  findings: { location: { file: string; line: number; column: number }; code: number; message: string }[];
  programs: { file: string; verdict: string; results: { verdict: string; code: number; message: string }[] }[];
}

const made: string[] = [];
function project(files: Record<string, string>, lock: Parameters<typeof tempProject>[1] = {}): string {
  const dir = tempProject(files, lock);
  made.push(dir);
  return dir;
}
const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), "utf8");
const checkJson = (dir: string) => {
  const r = clauz3(["check", "--json"], dir);
  return { status: r.status, stderr: r.stderr, json: JSON.parse(r.stdout) as CheckJson };
};
const rel = (dir: string, file: string) => path.relative(fs.realpathSync(dir), fs.realpathSync(file)).replace(/\\/g, "/");
const verdicts = (dir: string, json: CheckJson) => Object.fromEntries(json.programs.map((p) => [rel(dir, path.resolve(dir, p.file)), p.verdict]));

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });
beforeAll(() => ensureBuilt());
afterAll(() => made.forEach(removeProject));

describe("clauz3 lock, then clauz3 check", () => {
  let dir: string;
  beforeAll(() => {
    dir = project(FILES, false);
  });

  it("without a lock, every trusted file is unpinned and check fails", () => {
    const { status, json } = checkJson(dir);
    expect(status).toBe(1);
    expect(json.findings.map((f) => [rel(dir, path.resolve(dir, f.location.file)), f.location.line, f.location.column, f.code])).toEqual([
      ["tools/log/trusted/log.ts", 1, 1, 93020],
      ["tools/mail/trusted/contracts.ts", 1, 1, 93020],
      ["tools/mail/trusted/effects.ts", 1, 1, 93020],
      ["tools/mail/trusted/events.ts", 1, 1, 93020],
    ]);
    expect(json.findings[0]!.message).toContain("is not pinned: the project has no clauz3.lock");
    expect(verdicts(dir, json)).toEqual({ "log-plan.ts": "refused", "mail-plan.ts": "refused" });
  });

  it("lock writes every trusted file's sha256, the same bytes as the test helpers' lock, and says what it added", () => {
    const r = clauz3(["lock"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        "clauz3.lock: 4 trusted files of 2 libraries pinned",
        "  added: tools/log/trusted/log.ts",
        "  added: tools/mail/trusted/contracts.ts",
        "  added: tools/mail/trusted/effects.ts",
        "  added: tools/mail/trusted/events.ts",
        "",
      ].join("\n"),
    );
    const text = read(dir, "clauz3.lock");
    expect(text).toBe(lockFor(FILES, dir));
    const lock = JSON.parse(text) as { files: Record<string, { sha256: string }>; libraries: Record<string, { id: string; origin: string; revision: string }>; version: number };
    expect(lock.version).toBe(1);
    expect(lock.files["tools/mail/trusted/effects.ts"]!.sha256).toBe(crypto.createHash("sha256").update(fs.readFileSync(path.join(dir, "tools/mail/trusted/effects.ts"))).digest("hex"));
    expect(lock.libraries).toEqual({
      "tools/log": { id: "log", origin: "local", revision: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
      "tools/mail": { id: "mail", origin: "local", revision: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
    });
    // Deterministic: the same layer, the same bytes, nothing added.
    const again = clauz3(["lock"], dir);
    expect(again.stdout).toBe("clauz3.lock: 4 trusted files of 2 libraries pinned\n");
    expect(read(dir, "clauz3.lock")).toBe(text);
  });

  it("check passes once the layer is pinned, and never writes the lock", () => {
    const before = fs.statSync(path.join(dir, "clauz3.lock"));
    const r = clauz3(["check"], dir);
    expect(r.stdout).toContain("clauz3 check: 0 finding(s), 2/2 program(s) proved");
    expect(r.status).toBe(0);
    const after = fs.statSync(path.join(dir, "clauz3.lock"));
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  it("a trusted file edited since: check fails on the file, refuses the program that reaches it, proves the other", () => {
    const file = path.join(dir, "tools/mail/trusted/contracts.ts");
    fs.writeFileSync(file, read(dir, "tools/mail/trusted/contracts.ts").replace("atMost(n)", "atMost(n + 1)"));
    const human = clauz3(["check", "--pretty"], dir);
    expect(human.status).toBe(1);
    expect(human.stderr).toContain(
      "tools/mail/trusted/contracts.ts:1:1 - error TS93020: `tools/mail/trusted/contracts.ts` changed since it was pinned in clauz3.lock: review it, then run `clauz3 lock` to write its digest into the lock.",
    );
    // The program that reaches it is refused on its guarantee, with the finding in the message.
    expect(human.stderr).toMatch(/mail-plan\.ts:3:28 - error TS93104: refused: the trusted layer breaks 1 layer rule\(s\) \(first at tools\/mail\/trusted\/contracts\.ts:1:1: `tools\/mail\/trusted\/contracts\.ts` changed since it was pinned in clauz3\.lock/);
    expect(human.stdout).toContain("mail-plan.ts: refused\n");
    expect(human.stdout).toContain("log-plan.ts: proved\n");
    expect(human.stdout).toContain("clauz3 check: 1 finding(s), 1/2 program(s) proved");

    // prove says the same, program by program.
    expect(clauz3(["prove", "mail-plan.ts"], dir).status).toBe(1);
    expect(clauz3(["prove", "log-plan.ts"], dir).status).toBe(0);

    // After review, lock pins the change and check passes again.
    const lock = clauz3(["lock"], dir);
    expect(lock.stdout).toBe("clauz3.lock: 4 trusted files of 2 libraries pinned\n  changed: tools/mail/trusted/contracts.ts\n");
    expect(clauz3(["check"], dir).status).toBe(0);
  });
});

describe("a file written into a trusted folder after clauz3 lock ran", () => {
  it("is not trusted: check reports it and refuses the program that imports it, not the others", () => {
    const sneaky = `import { trusted } from "clauz3";
export const quietly = trusted(function quietly(to: string): void {});
`;
    const agent = `import { quietly } from "./tools/mail/trusted/sneaky";
import * as mail from "./tools/mail/trusted/contracts";
export const guarantees = [mail.emailsAtMost(0)];
export function main(to: string): void {
  quietly(to);
}
`;
    const dir = project({ ...FILES, "tools/mail/trusted/sneaky.ts": sneaky, "agent.ts": agent }, { unpinned: ["tools/mail/trusted/sneaky.ts"] });
    const { status, json } = checkJson(dir);
    expect(status).toBe(1);
    expect(json.findings.map((f) => [rel(dir, path.resolve(dir, f.location.file)), f.location.line, f.location.column, f.code])).toEqual([["tools/mail/trusted/sneaky.ts", 1, 1, 93020]]);
    expect(json.findings[0]!.message).toBe(
      "`tools/mail/trusted/sneaky.ts` is not pinned in clauz3.lock: review it, then run `clauz3 lock` to write its digest into the lock. A file in a trusted folder is trusted only once it is pinned; if nobody reviewed it, delete it.",
    );
    expect(verdicts(dir, json)).toEqual({ "agent.ts": "refused", "log-plan.ts": "proved", "mail-plan.ts": "proved" });
  });
});

describe("a lock entry whose file is gone", () => {
  it("fails check on the entry, in the lock", () => {
    const dir = project(FILES, { text: lockFor({ ...FILES, "tools/old/trusted/gone.ts": "export const x = 1;\n" }, "/") });
    const lockText = read(dir, "clauz3.lock");
    const line = lockText.split("\n").findIndex((l) => l.includes('"tools/old/trusted/gone.ts"')) + 1;
    const r = clauz3(["check", "--pretty"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`clauz3.lock:${line}:5 - error TS93021: clauz3.lock pins \`tools/old/trusted/gone.ts\`, which does not exist. Run \`clauz3 lock\` to write the lock again without it`);
    expect(r.stdout).toContain("clauz3 check: 1 finding(s), 2/2 program(s) proved");
  });
});

describe("an invalid lock", () => {
  it.each([
    ["another version", (t: string) => t.replace('"version": 1', '"version": 2'), "clauz3: clauz3.lock is not a valid lock: version must be 1 (this clauz3 reads lock version 1)."],
    ["a bad digest", (t: string) => t.replace(/"sha256": "[0-9a-f]{64}"/, '"sha256": "x"'), 'clauz3: clauz3.lock is not a valid lock: files["tools/log/trusted/log.ts"].sha256 must be 64 lowercase hex digits.'],
    ["not JSON", (t: string) => t.replace('"files": {', '"files": {,'), "clauz3: clauz3.lock is not a valid lock: the text at line 2, column 13 is not JSON ("],
  ])("(%s) is a configuration error naming the file and the field: exit 2, no stack trace", (_name, edit, message) => {
    const dir = project(FILES);
    fs.writeFileSync(path.join(dir, "clauz3.lock"), edit(read(dir, "clauz3.lock")));
    for (const args of [["check"], ["prove", "log-plan.ts"]]) {
      const r = clauz3(args, dir);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain("Write it again with `clauz3 lock`");
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("is replaced by clauz3 lock, which says so", () => {
    const dir = project(FILES, { text: "{}\n" });
    const fixed = clauz3(["lock"], dir);
    expect(fixed.status).toBe(0);
    expect(fixed.stdout).toContain("  replaced a lock that was not valid (version is missing)\n");
    expect(read(dir, "clauz3.lock")).toBe(lockFor(FILES, dir));
  });
});

describe("what is pinned", () => {
  it("is the bytes on disk: CRLF line endings and a byte-order mark change the digest, and still verify", () => {
    const crlf = Object.fromEntries(Object.entries(FILES).map(([k, v]) => [k, k.startsWith("tools/") ? `\ufeff${v.replace(/\n/g, "\r\n")}` : v]));
    const dir = project(crlf, false);
    expect(clauz3(["lock"], dir).status).toBe(0);
    const lock = JSON.parse(read(dir, "clauz3.lock")) as { files: Record<string, { sha256: string }> };
    const bytes = fs.readFileSync(path.join(dir, "tools/log/trusted/log.ts"));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(lock.files["tools/log/trusted/log.ts"]!.sha256).toBe(crypto.createHash("sha256").update(bytes).digest("hex"));
    expect(lock.files["tools/log/trusted/log.ts"]!.sha256).not.toBe(crypto.createHash("sha256").update(LOG["tools/log/trusted/log.ts"]).digest("hex"));
    expect(clauz3(["check"], dir).status).toBe(0);
  });

  it("with each library's revision: the git commit of a clean library directory, else the sha256 over its files", () => {
    const dir = project(FILES, false);
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], { cwd: dir, encoding: "utf8" }).trim();
    git("init", "-q");
    fs.writeFileSync(path.join(dir, ".gitignore"), "node_modules\nclauz3.lock\n");
    git("add", "-A");
    git("commit", "-q", "-m", "layer");
    const head = git("rev-parse", "HEAD");
    fs.appendFileSync(path.join(dir, "tools/log/trusted/log.ts"), "// reviewed\n");
    expect(clauz3(["lock"], dir).status).toBe(0);
    const lock = JSON.parse(read(dir, "clauz3.lock")) as { libraries: Record<string, { revision: string }> };
    expect(lock.libraries["tools/mail"]!.revision).toBe(`git:${head}`);
    expect(lock.libraries["tools/log"]!.revision).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
