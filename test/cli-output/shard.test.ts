/**
 * `clauz3 check --shard i/n` and `clauz3 merge-reports`: on a project of five programs (three
 * proved, one violated, one refused for a type error) and a trusted-layer finding, shards 1/2 and
 * 2/2 cover every program once, report every finding once, and their merged JSON and SARIF equal
 * what `check` gives for the whole project (in the merged order: programs by path, findings and
 * SARIF results by file, line, column and code). The share follows the documented hash; adding an
 * unrelated file changes nothing; usage errors and bad inputs exit 2 naming the file and field.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BAD_RULE, clauz3, ensureBuilt, LAYER, removeProject, tempProject } from "./fixture";
import { errorsOf, reportValidator, sarifValidator } from "./schemas";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

const HEAD = `import { readFile } from "../tools/files/trusted/effects";
import * as files from "../tools/files/trusted/contracts";
export const guarantees = [files.neverReadUnder("/secrets")];
`;
const SAFE = `${HEAD}export function main(path: string): void {\n  if (path !== "" && !path.startsWith("/secrets")) readFile(path);\n}\n`;

/** By the documented rule, with n = 2: c and leak in shard 1; ok, a and b in shard 2 (checked below). */
const PROGRAMS = {
  "plans/ok.ts": SAFE,
  "plans/a.ts": SAFE,
  "plans/c.ts": SAFE,
  "plans/b.ts": `${HEAD}export function main(path: string): void {\n  const n: number = "x";\n  if (path !== "" && !path.startsWith("/secrets")) readFile(path);\n}\n`,
  "plans/leak.ts": `${HEAD}export function main(path: string): void {\n  if (path !== "") readFile(path);\n}\n`,
};

/** The documented rule: 1 + (first 32 bits of SHA-256 of the path relative to the project) mod n. */
const shardOf = (file: string, n: number): number => 1 + (createHash("sha256").update(file).digest().readUInt32BE(0) % n);

type Json = any;
const read = (dir: string, file: string): Json => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A whole-project report in the merged order. */
function ordered(report: Json): Json {
  const key = (f: Json): [number, string, number, number, number, string] => [f.location ? 1 : 0, f.location?.file ?? "", f.location?.line ?? 0, f.location?.column ?? 0, f.code, f.message];
  const findings = [...report.findings].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka[0] - kb[0] || byText(ka[1], kb[1]) || ka[2] - kb[2] || ka[3] - kb[3] || ka[4] - kb[4] || byText(ka[5], kb[5]);
  });
  return { ...report, findings, programs: [...report.programs].sort((a, b) => byText(a.file, b.file)) };
}

/**
 * A SARIF run's results and artifacts as sets, with rule and artifact indices left out (the merge
 * sorts the results and numbers artifacts in that order; the whole run lists them as found).
 */
function sarifContent(log: Json): Json {
  const run = log.runs[0];
  const text = (x: unknown): string => JSON.stringify(x, (k, v) => (k === "index" || k === "ruleIndex" ? undefined : v));
  return {
    tool: run.tool.driver.name,
    version: run.tool.driver.version,
    rules: run.tool.driver.rules.map((r: Json) => r.id),
    results: run.results.map(text).sort(),
    artifacts: run.artifacts.map(text).sort(),
    columnKind: run.columnKind,
  };
}

describe("check --shard and merge-reports", () => {
  let dir: string;
  let whole: { status: number; json: Json; sarif: Json };
  const shards: { status: number; json: Json; sarif: Json }[] = [];

  beforeAll(() => {
    ensureBuilt();
    dir = tempProject({ ...LAYER, ...BAD_RULE, ...PROGRAMS });
    const w = clauz3(["check", "--json"], dir);
    clauz3(["check", "--format", "sarif", "-o", "whole.sarif"], dir);
    whole = { status: w.status, json: JSON.parse(w.stdout), sarif: read(dir, "whole.sarif") };
    for (const i of [1, 2]) {
      const j = clauz3(["check", "--shard", `${i}/2`, "--json"], dir);
      expect(j.stderr).toBe("");
      fs.writeFileSync(path.join(dir, `shard-${i}.json`), j.stdout);
      clauz3(["check", "--shard", `${i}/2`, "--format", "sarif", "-o", `shard-${i}.sarif`], dir);
      shards.push({ status: j.status, json: JSON.parse(j.stdout), sarif: read(dir, `shard-${i}.sarif`) });
    }
  });
  afterAll(() => removeProject(dir));

  it("splits the programs by the documented hash, each exactly once", () => {
    expect(whole.status).toBe(1);
    expect(whole.json.programs.map((p: Json) => p.verdict).sort()).toEqual(["proved", "proved", "proved", "refused", "violated"]);
    const files = Object.keys(PROGRAMS);
    for (const [k, s] of shards.entries()) {
      expect(s.json.programs.map((p: Json) => p.file).sort()).toEqual(files.filter((f) => shardOf(f, 2) === k + 1).sort());
      expect(s.json.shard).toMatchObject({ index: k + 1, count: 2 });
      expect(s.sarif.runs[0].properties["clauz3/shard"].programs.map((p: Json) => p.file).sort()).toEqual(s.json.programs.map((p: Json) => p.file).sort());
    }
    // Both shards have work, so the merge below joins two non-trivial parts.
    expect(shards.map((s) => s.json.programs.length)).toEqual([2, 3]);
    expect(shards[0]!.json.shard.project).toBe(shards[1]!.json.shard.project);
  });

  it("reports each finding in one shard: the trusted layer's in shard 1, a program's type error with the program", () => {
    const rule = (s: Json): Json[] => s.json.findings.filter((f: Json) => f.code === 93003);
    const typeError = (s: Json): Json[] => s.json.findings.filter((f: Json) => f.code === 2322);
    expect(rule(whole)).toHaveLength(1);
    expect(typeError(whole)).toHaveLength(1);
    expect([rule(shards[0]), rule(shards[1])].map((x) => x.length)).toEqual([1, 0]);
    expect([typeError(shards[0]), typeError(shards[1])].map((x) => x.length)).toEqual([0, 1]);
    expect(shards[0]!.json.findings.length + shards[1]!.json.findings.length).toBe(whole.json.findings.length);
    // Shard 1 holds the violated program and the rule; shard 2 the refused one: both fail.
    expect(shards.map((s) => s.status)).toEqual([1, 1]);
  });

  it("merges the JSON reports into the whole project's report", () => {
    const r = clauz3(["merge-reports", "shard-2.json", "shard-1.json"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    const merged = JSON.parse(r.stdout);
    const validate = reportValidator();
    expect(validate(merged), errorsOf(validate)).toBe(true);
    expect(merged).toEqual(ordered(whole.json));
    expect(merged.shard).toBeUndefined();
    // The order of the files given does not matter.
    expect(clauz3(["merge-reports", "shard-1.json", "shard-2.json"], dir).stdout).toBe(r.stdout);
  });

  it("merges the SARIF logs into one run equal to the whole project's", () => {
    const r = clauz3(["merge-reports", "shard-1.sarif", "shard-2.sarif", "-o", "merged.sarif"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^clauz3 merge-reports: 2 shard\(s\), \d+ error\(s\), 3\/5 program\(s\) proved\n$/);
    const merged = read(dir, "merged.sarif");
    const validate = sarifValidator();
    expect(validate(merged), errorsOf(validate)).toBe(true);
    expect(merged.runs).toHaveLength(1);
    expect(merged.runs[0].properties).toBeUndefined();
    expect(sarifContent(merged)).toEqual(sarifContent(whole.sarif));
    expect(merged.runs[0].tool.driver.rules).toEqual(whole.sarif.runs[0].tool.driver.rules);
    // Every index points where it should in the merged run.
    const run = merged.runs[0];
    for (const r of run.results) {
      expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
      const at = r.locations[0].physicalLocation.artifactLocation;
      expect(run.artifacts[at.index].location).toEqual(at);
    }
  });

  it("prints the merged report as text, and exits 0 when every shard is clean", () => {
    const plain = clauz3(["merge-reports", "shard-1.json", "shard-2.json", "--format", "plain"], dir);
    expect(plain.status).toBe(1);
    expect(plain.stdout).toMatch(/^tools\/files\/trusted\/config\.ts\(4,\d+\): error TS93003: /m);
    expect(plain.stdout).toMatch(/^plans\/leak\.ts\(\d+,\d+\): error TS93101: /m);
    expect(plain.stdout).toContain("3/5 program(s) proved");
    const clean = tempProject({ ...LAYER, "plans/ok.ts": SAFE, "plans/a.ts": SAFE });
    try {
      for (const i of [1, 2]) fs.writeFileSync(path.join(clean, `s${i}.json`), clauz3(["check", "--shard", `${i}/2`, "--json"], clean).stdout);
      const r = clauz3(["merge-reports", "s1.json", "s2.json", "-o", "all.json"], clean);
      expect(r.status, r.stderr).toBe(0);
      expect(read(clean, "all.json").summary).toEqual({ errors: 0, warnings: 0, files: 0, programs: 2, proved: 2 });
    } finally {
      removeProject(clean);
    }
  });

  it("keeps each program's share when an unrelated file is added", () => {
    const other = tempProject({ ...LAYER, ...BAD_RULE, ...PROGRAMS, "plans/zz-new.ts": SAFE, "notes/readme.ts": "export const x = 1;\n" });
    try {
      for (const [k, s] of shards.entries()) {
        const again = JSON.parse(clauz3(["check", "--shard", `${k + 1}/2`, "--json"], other).stdout);
        const before = s.json.programs.map((p: Json) => p.file);
        expect(again.programs.map((p: Json) => p.file).filter((f: string) => f !== "plans/zz-new.ts")).toEqual(before);
      }
    } finally {
      removeProject(other);
    }
  });

  it("keeps the proof cache working per shard: each shard stores its programs' verdicts, and any run reads them", () => {
    const clean = tempProject({ ...LAYER, "plans/ok.ts": SAFE, "plans/a.ts": SAFE, "plans/c.ts": SAFE });
    const cache = path.join(clean, "proofs");
    const entries = (): string[] => (fs.existsSync(cache) ? fs.readdirSync(cache, { recursive: true, encoding: "utf8" }).filter((f) => /^[0-9a-f]{2}[/\\][0-9a-f]+\.json$/.test(f)).map((f) => path.join(cache, f)) : []); // verdicts only: not timings.json (it orders proofs) nor TypeScript's state (typescript/)
    try {
      const first = clauz3(["check", "--shard", "1/2", "--cache-location", "proofs"], clean);
      expect(first.status).toBe(0);
      expect(first.stdout).toContain("clauz3 check (shard 1/2): 0 finding(s), 1/1 program(s) proved");
      expect(entries()).toHaveLength(1); // plans/c.ts
      expect(clauz3(["check", "--shard", "2/2", "--cache-location", "proofs"], clean).status).toBe(0);
      expect(entries()).toHaveLength(3); // and plans/ok.ts, plans/a.ts
      // A well-formed entry whose messages only the cache could have produced (as test/cache/cli.test.ts plants them).
      for (const file of entries()) {
        const entry = JSON.parse(fs.readFileSync(file, "utf8"));
        for (const r of entry.verdict.results) r.message = `FROM THE CACHE: ${r.message}`;
        entry.digest = createHash("sha256").update(JSON.stringify(entry.verdict)).digest("hex");
        fs.writeFileSync(file, JSON.stringify(entry));
      }
      const run = (args: string[]): Json => JSON.parse(clauz3([...args, "--cache-location", "proofs", "--json"], clean).stdout);
      const fromCache = (report: Json): boolean => report.programs.every((p: Json) => p.results.length > 0 && p.results.every((r: Json) => r.message.startsWith("FROM THE CACHE: ")));
      const again = run(["check", "--shard", "1/2"]);
      expect(again.programs.map((p: Json) => p.file)).toEqual(["plans/c.ts"]);
      expect(fromCache(again)).toBe(true);
      // The shards' entries answer the unsharded run too (the key is the program's, not the shard's).
      const whole = run(["check"]);
      expect(whole.programs).toHaveLength(3);
      expect(fromCache(whole)).toBe(true);
    } finally {
      removeProject(clean);
    }
  });

  it.each([
    ["0/2"],
    ["3/2"],
    ["x"],
    ["1/0"],
    ["1.5/2"],
  ])("refuses --shard %s (exit 2)", (value) => {
    const r = clauz3(["check", "--shard", value, "--json"], dir);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`--shard expects i/n with whole numbers 1 ≤ i ≤ n (e.g. --shard 1/3), not "${value}"`);
  });

  describe("merge-reports refuses bad input (exit 2, naming the file and the field)", () => {
    const write = (name: string, content: unknown): string => {
      fs.writeFileSync(path.join(dir, name), typeof content === "string" ? content : JSON.stringify(content));
      return name;
    };
    const cases: [string, () => string[], RegExp][] = [
      ["malformed JSON", () => [write("broken.json", "{ not json"), "shard-2.json"], /^clauz3 merge-reports: broken\.json: not JSON \(/],
      ["a file that is not there", () => ["missing.json", "shard-2.json"], /^clauz3 merge-reports: missing\.json: cannot read it \(ENOENT\)/],
      ["a document that is not a report", () => [write("array.json", [1, 2]), "shard-2.json"], /array\.json: not a clauz3 report or SARIF log/],
      ["a report with a wrong field", () => [write("field.json", { ...shards[0]!.json, summary: { ...shards[0]!.json.summary, errors: -1 } }), "shard-2.json"], /field\.json: not a clauz3 report \(schema\/report\.schema\.json\): report\.summary\.errors must be >= 0/],
      ["another version", () => [write("v2.json", { ...shards[0]!.json, version: 2 }), "shard-2.json"], /v2\.json: version is 2; this clauz3 reads reports of version 1/],
      ["a report of an unsharded run", () => [write("unsharded.json", whole.json), "shard-2.json"], /unsharded\.json: shard is missing: not a shard's report/],
      ["a shard of another project", () => ["shard-1.json", write("other.json", { ...shards[1]!.json, shard: { ...shards[1]!.json.shard, project: "0".repeat(64) } })], /other\.json: shard\.project differs from shard-1\.json's: a shard of a different project/],
      ["the same shard twice", () => [write("again.json", shards[0]!.json), "shard-1.json", "shard-2.json"], /shard-1\.json: shard 1\/2 is also again\.json/],
      ["overlapping programs", () => ["shard-1.json", write("overlap.json", { ...shards[1]!.json, programs: [...shards[1]!.json.programs, shards[0]!.json.programs[0]] })], /overlap\.json: program plans\/\w+\.ts is also reported by shard-1\.json: the shards overlap/],
      ["a shard that leaves a program out", () => ["shard-1.json", write("short.json", { ...shards[1]!.json, programs: shards[1]!.json.programs.slice(1) })], /the shards' programs are not the project's/],
      ["a missing shard", () => ["shard-1.json"], /^clauz3 merge-reports: shard 2\/2 missing/],
      ["JSON and SARIF together", () => ["shard-1.json", "shard-2.sarif"], /shard-1\.json is a JSON report and shard-2\.sarif a SARIF log/],
      ["a SARIF log without the shard property", () => [write("plain.sarif", { ...whole.sarif }), "shard-2.sarif"], /plain\.sarif: runs\[0\]\.properties\["clauz3\/shard"\] is missing/],
      ["SARIF asked of JSON reports", () => ["shard-1.json", "shard-2.json", "--format", "sarif"], /JSON reports do not hold what a SARIF log needs/],
    ];
    it.each(cases)("%s", (_, args, message) => {
      const r = clauz3(["merge-reports", ...args()], dir);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  });
});
