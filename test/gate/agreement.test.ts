/**
 * One gate, three surfaces: `clauz3 prove`, `clauz3 check` and the real `tspc` (plain transformer
 * entry, or the fixture's own) agree on every verdict and every finding (code, file, line) over the
 * fixture projects and the broken projects of cases.ts.
 *
 * - `check` and `tspc` report the same error lines (TypeScript's and clauz3's);
 * - `prove`, given the agent programs, reports exactly `check`'s lines in the files its program
 *   reads (the programs, what they import, their libraries' manifests, the lock, the tsconfig);
 * - `prove` and `check` give each program the same verdict, and `tspc` fails exactly the
 *   programs they do not prove (a clauz3 error on the program).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { ensureBuilt, prepareProject, removeProject } from "../../fixtures/projects/project.mjs";
import { CASES } from "./cases";
import { clauz3, errorLines, removeProjects, tspc, writeProject } from "./projects";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });
beforeAll(() => ensureBuilt());
const prepared: string[] = [];
afterAll(() => {
  removeProjects();
  prepared.forEach(removeProject);
});

interface Subject {
  readonly name: string;
  readonly dir: () => string;
  readonly programs: readonly string[];
  readonly tspc: boolean;
}

const FIXTURES: readonly [string, readonly string[]][] = [
  ["good-layer", ["plan.ts"]],
  ["prove", ["plans/archive.ts"]],
  ["agent-declarations", ["plan.ts"]],
  ["trusted-roots", ["agent.ts"]],
  ["broken-layer", []],
];

const SUBJECTS: readonly Subject[] = [
  ...FIXTURES.map(([name, programs]): Subject => ({
    name: `fixture ${name}`,
    dir: () => {
      const dir = prepareProject(name, { prefix: "clauz3-gate-" });
      prepared.push(dir);
      return dir;
    },
    programs,
    tspc: true,
  })),
  ...CASES.map((c): Subject => ({ name: c.name, dir: () => writeProject(c.spec), programs: c.programs, tspc: c.tspc !== false })),
];

/** Verdicts of a JSON report written with `-o`. */
function verdicts(file: string): Record<string, string> {
  const report = JSON.parse(fs.readFileSync(file, "utf8")) as { programs: { file: string; verdict: string }[] };
  return Object.fromEntries(report.programs.map((p) => [p.file, p.verdict]));
}

/** The files (relative) a program of `roots` reads, with the libraries' manifests, the lock, the tsconfig and `(global)`. */
function filesReadBy(dir: string, roots: readonly string[]): Set<string> {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(dir, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const host = ts.createCompilerHost(parsed.options, true);
  host.getCurrentDirectory = () => dir;
  const program = ts.createProgram({ rootNames: roots.map((r) => path.join(dir, r)), options: parsed.options, host });
  const out = new Set(["clauz3.lock", "tsconfig.json", "(global)"]);
  const real = fs.realpathSync(dir);
  for (const f of program.getSourceFiles()) {
    const rel = path.relative(real, fs.realpathSync(f.fileName)).replace(/\\/g, "/");
    if (rel.startsWith("..") || rel.includes("node_modules/")) continue;
    out.add(rel);
    const trusted = rel.lastIndexOf("/trusted/");
    if (trusted > 0) out.add(`${rel.slice(0, trusted)}/clauz3.json`);
  }
  return out;
}

const fileOf = (line: string): string => line.slice(0, line.lastIndexOf(":"));

describe.each(SUBJECTS)("$name", (s) => {
  it("prove, check and tspc agree on every verdict and finding", () => {
    const dir = s.dir();
    const checkJson = path.join(dir, "check-report.json");
    const check = clauz3(dir, ["check", "--format", "json", "-o", checkJson]);
    expect(check.stderr, check.stdout).not.toMatch(/\n\s+at /);
    const checkLines = errorLines(check.stdout);
    const checkVerdicts = verdicts(checkJson);
    expect(Object.keys(checkVerdicts).sort()).toEqual([...s.programs].sort());

    if (s.programs.length > 0) {
      const proveJson = path.join(dir, "prove-report.json");
      const prove = clauz3(dir, ["prove", "--format", "json", "-o", proveJson, ...s.programs]);
      expect(verdicts(proveJson)).toEqual(checkVerdicts);
      const read = filesReadBy(dir, s.programs);
      expect(errorLines(prove.stdout)).toEqual(checkLines.filter((l) => read.has(fileOf(l))));
    }

    if (s.tspc) {
      const build = tspc(dir);
      expect(build.stderr).toBe("");
      expect(errorLines(build.stdout), build.stdout).toEqual(checkLines);
      expect(build.status === 0).toBe(check.status === 0);
      const failedInBuild = s.programs.filter((p) => errorLines(build.stdout).some((l) => fileOf(l) === p && Number(l.slice(l.lastIndexOf("TS") + 2)) >= 93000));
      expect(failedInBuild).toEqual(s.programs.filter((p) => checkVerdicts[p] !== "proved"));
    }
  });
});
