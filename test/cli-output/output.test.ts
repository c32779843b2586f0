/**
 * End to end: what `clauz3 check` and `prove` print in each format, checked against what reads it —
 * VS Code's `$tsc` problem matcher for the plain format, the official SARIF 2.1.0 schema for
 * SARIF, schema/report.schema.json for JSON — and the exit codes.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CLI, ROOT } from "../cli/helpers";
import { BAD_RULE, ensureBuilt, LAYER, PROGRAMS, removeProject, tempProject, type RunResult } from "./fixture";
import { assertReport, errorsOf, reportValidator, sarifValidator } from "./schemas";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

/**
 * VS Code's `$tsc` problem pattern, copied exactly from microsoft/vscode
 * extensions/typescript-language-features/package.json (`contributes.problemPatterns`, name "tsc";
 * read at commit 00369c9ce3c003dfd8ebb37fd7b97a8b78faff8e). The `$tsc` matcher applies it line by
 * line with `fileLocation: ["relative", "${cwd}"]`; groups: file 1, line 2, column 3, severity 4,
 * code 5, message 6.
 */
const TSC_PATTERN = new RegExp("^([^\\s].*)[\\(:](\\d+)[,:](\\d+)(?:\\):\\s+|\\s+-\\s+)(error|warning|info)\\s+TS(\\d+)\\s*:\\s*(.*)$");

/** Run the built CLI with a clean colour environment plus `env` (a JSON report is validated against the schema). */
function run(args: readonly string[], cwd: string, env: Record<string, string> = {}): RunResult {
  const base = { ...process.env };
  delete base.NO_COLOR;
  delete base.FORCE_COLOR;
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: { ...base, ...env } });
  assertReport(args, r.status, r.stdout);
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

interface Report {
  version: number;
  summary: { errors: number; warnings: number; files: number; programs: number; proved: number };
  findings: { code: number; rule?: string; severity: string; location?: { file: string; line: number; column: number } }[];
  programs: { file: string; verdict: string; results: { verdict: string; code: number; location: { file: string; line: number; column: number }; counterexample?: Record<string, any> }[] }[];
}

let dir: string;
let plain: RunResult;
let json: RunResult;
let report: Report;

beforeAll(() => {
  ensureBuilt();
  dir = tempProject({ ...LAYER, ...PROGRAMS, ...BAD_RULE });
  plain = run(["check"], dir);
  json = run(["check", "--json"], dir);
  report = JSON.parse(json.stdout) as Report;
});
afterAll(() => removeProject(dir));

/** Every error and warning the JSON report holds, as `file:line:column TScode`. */
function expectedProblems(r: Report): string[] {
  const out = r.findings.map((f) => `${f.location!.file}:${f.location!.line}:${f.location!.column} ${f.severity} TS${f.code}`);
  for (const p of r.programs) for (const x of p.results) if (x.verdict !== "proved") out.push(`${x.location.file}:${x.location.line}:${x.location.column} error TS${x.code}`);
  return out.sort();
}

describe("piped, check prints TypeScript's plain format", () => {
  it("every problem is one line VS Code's $tsc matcher reads, at the place the JSON report gives", () => {
    expect(plain.status).toBe(1);
    const lines = plain.stdout.split("\n");
    const matched = lines.map((l) => TSC_PATTERN.exec(l)).filter((m) => m !== null);
    expect(matched.map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]} TS${m[5]}`).sort()).toEqual(expectedProblems(report));
    expect(matched.length).toBe(report.summary.errors + report.summary.warnings);
    expect(matched.length).toBe(4);
    // The matcher resolves files from the current directory: each one exists there.
    for (const m of matched) expect(fs.existsSync(path.join(dir, m[1]!)), m[1]).toBe(true);
    // Nothing else is mistaken for a problem: the other lines are the summary and the closing line.
    const rest = lines.filter((l) => !TSC_PATTERN.test(l) && l !== "");
    expect(rest).toEqual(["clauz3 check: 1 finding(s), 1/4 program(s) proved", "Found 4 errors in 4 files."]);
    expect(plain.stdout.endsWith("\nFound 4 errors in 4 files.\n")).toBe(true);
    expect(plain.stderr).toBe("");
  });

  it("GitHub's problem matcher that clauz3 ships (schema/github-problem-matcher.json) reads the same lines", () => {
    const matcher = JSON.parse(fs.readFileSync(path.join(ROOT, "schema/github-problem-matcher.json"), "utf8")).problemMatcher[0].pattern[0];
    const github = new RegExp(matcher.regexp);
    const read = (re: RegExp, groups: number[]) => plain.stdout.split("\n").flatMap((l) => { const m = re.exec(l); return m ? [groups.map((g) => m[g])] : []; });
    const viaGitHub = read(github, [matcher.file, matcher.line, matcher.column, matcher.severity, matcher.code, matcher.message]);
    expect(viaGitHub).toHaveLength(4);
    expect(viaGitHub).toEqual(read(TSC_PATTERN, [1, 2, 3, 4, 5, 6]).map(([f, l, c, s, code, m]) => [f, l, c, s, `TS${code}`, m]));
  });

  it("matches tsc's own plain line for a rule finding, byte for byte", () => {
    expect(plain.stdout).toContain(
      "tools/files/trusted/config.ts(4,59): error TS93003: Event field `path` of `Read` must be a builder parameter, not the literal `\"/etc/app.conf\"`.",
    );
  });

  it("--pretty gives code frames on stderr and the verdicts on stdout; no colour when piped", () => {
    const r = run(["check", "--pretty"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("tools/files/trusted/config.ts:4:59 - error TS93003:");
    expect(r.stderr).toContain("~~~~");
    expect(r.stderr).not.toMatch(/\x1b\[/);
    expect(r.stdout).toContain("plans/ok.ts: proved\n");
    expect(r.stdout).toContain("plans/leak.ts: violated\n");
    // A failing precondition names its tool and the requires message on the summary line (issue 9).
    expect(r.stdout).toContain(`  ✗ violated precondition of files.readFile ("readFile needs a non-empty path") at plans/empty.ts:5:37\n`);
    expect(r.stdout.endsWith("clauz3 check: 1 finding(s), 1/4 program(s) proved\n\nFound 4 errors in 4 files.\n")).toBe(true);
  });
});

describe("colour", () => {
  it("FORCE_COLOR colours the pretty format even piped; NO_COLOR and FORCE_COLOR=0 do not", () => {
    const forced = run(["prove", "--pretty", "plans/leak.ts"], dir, { FORCE_COLOR: "1" });
    expect(forced.stderr).toMatch(/\x1b\[/);
    expect(run(["prove", "--pretty", "plans/leak.ts"], dir, { NO_COLOR: "1" }).stderr).not.toMatch(/\x1b\[/);
    expect(run(["prove", "--pretty", "plans/leak.ts"], dir, { FORCE_COLOR: "0" }).stderr).not.toMatch(/\x1b\[/);
    // The plain format is never coloured: the matcher must read it.
    const plainForced = run(["prove", "plans/leak.ts"], dir, { FORCE_COLOR: "1" });
    expect(plainForced.stdout).not.toMatch(/\x1b\[/);
    expect(plainForced.stdout.split("\n").filter((l) => TSC_PATTERN.test(l))).toHaveLength(1);
  });
});

describe("--format json", () => {
  it("validates against schema/report.schema.json, with a version and relative places everywhere", () => {
    expect(json.status).toBe(1);
    const validate = reportValidator();
    expect(validate(report), errorsOf(validate)).toBe(true);
    expect(report.version).toBe(1);
    expect(report.summary).toEqual({ errors: 4, warnings: 0, files: 4, programs: 4, proved: 1 });
    expect(report.findings).toEqual([
      expect.objectContaining({ code: 93003, rule: "event-field-argument", severity: "error", location: { file: "tools/files/trusted/config.ts", line: 4, column: 59 } }),
    ]);
    // Two events break `distinct`: both call sites are relative {file,line,column}.
    const twice = report.programs.find((p) => p.file === "plans/twice.ts")!;
    const cx = twice.results.find((r) => r.verdict === "violated")!.counterexample!;
    expect(cx.callSite).toEqual({ file: "plans/twice.ts", line: expect.any(Number), column: expect.any(Number) });
    expect(cx.otherEvent.callSite).toEqual({ file: "plans/twice.ts", line: expect.any(Number), column: expect.any(Number) });
    expect(JSON.stringify(report)).not.toContain(dir);
  });

  it("--json is --format json", () => {
    const r = run(["check", "--format", "json"], dir);
    expect(r.stdout).toBe(json.stdout);
  });

  it("the schema rejects a mis-shaped document", () => {
    const validate = reportValidator();
    const twice = structuredClone(report);
    const results = twice.programs.find((p) => p.file === "plans/twice.ts")!.results;
    // The old shape of otherEvent.callSite: an absolute span.
    results.find((r) => r.verdict === "violated")!.counterexample!.otherEvent.callSite = { fileName: path.join(dir, "plans/twice.ts"), start: 120, length: 12, line: 7, column: 5 };
    expect(validate(twice)).toBe(false);
    const { version: _, ...unversioned } = report;
    expect(validate(unversioned)).toBe(false);
    expect(validate({ ...report, extra: true })).toBe(false);
    expect(validate({ ...report, findings: [{ code: 93003, severity: "fatal", message: "x" }] })).toBe(false);
    expect(validate({ ...report, findings: [{ code: 93003, severity: "error", message: "x", location: { file: "a.ts", line: 0, column: 1 } }] })).toBe(false);
  });
});

describe("--format sarif", () => {
  let sarif: any;
  let console_: RunResult;
  beforeAll(() => {
    console_ = run(["check", "--format", "sarif", "-o", "clauz3.sarif"], dir);
    sarif = JSON.parse(fs.readFileSync(path.join(dir, "clauz3.sarif"), "utf8"));
  });

  it("validates against the official SARIF 2.1.0 schema", () => {
    expect(console_.status).toBe(1);
    const validate = sarifValidator();
    expect(validate(sarif), errorsOf(validate)).toBe(true);
    expect(sarif.version).toBe("2.1.0");
  });

  it("has what code scanning relies on: ruleId, rule metadata, relative uris with a uriBaseId, partialFingerprints", () => {
    const run0 = sarif.runs[0];
    expect(run0.tool.driver.name).toBe("clauz3");
    const rules = run0.tool.driver.rules as any[];
    expect(rules.map((r) => r.id)).toEqual(["TS93003", "TS93101", "TS93102"]);
    expect(rules[1]).toMatchObject({ name: "violated", help: { text: expect.stringContaining("counterexample") } });
    const rule = rules[0];
    expect(rule).toMatchObject({ name: "event-field-argument", shortDescription: { text: expect.stringContaining("builder parameter") } });
    expect(rule.helpUri).toMatch(/^https:\/\//);
    expect(rule.help.text).toContain("Valid (tools/demo/trusted/layer.ts)");
    const results = run0.results as any[];
    expect(results).toHaveLength(4);
    for (const r of results) {
      expect(r.ruleId).toMatch(/^TS\d+$/);
      expect(rules[r.ruleIndex].id).toBe(r.ruleId);
      const loc = r.locations[0].physicalLocation;
      expect(loc.artifactLocation.uriBaseId).toBe("%SRCROOT%");
      expect(path.isAbsolute(loc.artifactLocation.uri)).toBe(false);
      expect(fs.existsSync(path.join(dir, loc.artifactLocation.uri))).toBe(true);
      expect(r.partialFingerprints["clauz3/v1"]).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(new Set(results.map((r) => r.partialFingerprints["clauz3/v1"])).size).toBe(results.length);
    const byUri = results.find((r) => r.locations[0].physicalLocation.artifactLocation.uri === "plans/leak.ts");
    expect(byUri.locations[0].physicalLocation.region).toMatchObject({ startLine: 5, startColumn: 20 });
  });

  it("-o leaves the console its text report and no temporary file behind", () => {
    expect(console_.stdout.split("\n").filter((l) => TSC_PATTERN.test(l))).toHaveLength(4);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("fingerprints follow the reported text, not its line", () => {
    const moved = tempProject({ ...LAYER, "plans/leak.ts": `// a comment above moves every line\n\n${PROGRAMS["plans/leak.ts"]}` });
    try {
      const before = tempProject({ ...LAYER, "plans/leak.ts": PROGRAMS["plans/leak.ts"] });
      try {
        const fp = (d: string) => {
          run(["check", "--format", "sarif", "-o", "x.sarif"], d);
          return JSON.parse(fs.readFileSync(path.join(d, "x.sarif"), "utf8")).runs[0].results.map((r: any) => [r.locations[0].physicalLocation.region.startLine, r.partialFingerprints["clauz3/v1"]]);
        };
        const [[lineA, a]] = fp(before);
        const [[lineB, b]] = fp(moved);
        expect(lineB).toBe(lineA + 2);
        expect(b).toBe(a);
      } finally {
        removeProject(before);
      }
    } finally {
      removeProject(moved);
    }
  });
});

describe("exit codes", () => {
  it("0 when nothing is wrong, with no Found line", () => {
    const ok = run(["prove", "plans/ok.ts"], dir);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe("clauz3 prove: 1/1 program(s) proved\n");
  });

  it.each([
    [["check", "--format", "xml"], /argument 'xml' is invalid/],
    [["check", "--json", "--format", "sarif"], /--json and --format sarif ask for two formats/],
    [["check", "--format", "json", "--pretty"], /--pretty chooses a text format; it does not go with --format json/],
    [["check", "--max-warnings", "-1"], /--max-warnings expects a whole number/],
    [["check", "-o", "missing/dir/report.sarif"], /--output-file missing\/dir\/report\.sarif: the directory .* does not exist/],
    [["prove", "nowhere/*.ts"], /nowhere\/\*\.ts matches no TypeScript source file/],
    [["prove", "absent.ts"], /absent\.ts does not exist/],
  ])("2 for usage: %j", (args, message) => {
    const r = run(args, dir);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(fs.existsSync(path.join(dir, "missing"))).toBe(false);
  });
});

describe("files, directories and globs", () => {
  it("prove takes a directory and a glob: the agent programs in them", () => {
    const byDir = JSON.parse(run(["prove", "--json", "plans"], dir).stdout) as Report;
    expect(byDir.programs.map((p) => p.file)).toEqual(["plans/empty.ts", "plans/leak.ts", "plans/ok.ts", "plans/twice.ts"]);
    const byGlob = JSON.parse(run(["prove", "--json", "plans/*e*.ts"], dir).stdout) as Report;
    expect(byGlob.programs.map((p) => p.file)).toEqual(["plans/empty.ts", "plans/leak.ts", "plans/twice.ts"]);
    const validate = reportValidator();
    expect(validate(byGlob), errorsOf(validate)).toBe(true);
  });

  it("check with paths proves only the programs among them", () => {
    const r = run(["check", "--json", "plans/ok.ts"], dir);
    const doc = JSON.parse(r.stdout) as Report;
    expect(doc.programs.map((p) => p.file)).toEqual(["plans/ok.ts"]);
    // The trusted layer is checked whatever the paths: its finding stays.
    expect(doc.findings.map((f) => f.code)).toEqual([93003]);
    expect(r.status).toBe(1);
  });
});

describe("describe", () => {
  it("takes a directory: a JSON array, one object per agent program; piped, its diagnostics are tsc's plain lines", () => {
    const r = run(["describe", "--json", "plans"], dir);
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as { program: string; guarantees: { call: string }[] }[];
    expect(out.map((d) => d.program)).toEqual(["plans/empty.ts", "plans/leak.ts", "plans/ok.ts", "plans/twice.ts"]);
    expect(out[0]!.guarantees.map((g) => g.call)).toEqual(['files.neverReadUnder(prefix="/secrets")']);
    const lines = r.stderr.split("\n").filter((l) => l !== "");
    expect(lines.map((l) => TSC_PATTERN.exec(l)?.slice(1, 6))).toEqual([["tools/files/trusted/config.ts", "4", "59", "error", "93003"]]);
    // One file keeps its one object.
    expect(JSON.parse(run(["describe", "--json", "plans/ok.ts"], dir).stdout)).toMatchObject({ program: "plans/ok.ts" });
  });
});
