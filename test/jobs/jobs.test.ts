/**
 * `--jobs N` (cli/jobs/): the report of `check` and `prove` is byte for byte the one `--jobs 1`
 * gives — order, verdicts, counterexamples, JSON and SARIF — with the proof cache off, cold and
 * warm; and a worker that dies or never answers gives its program an internal-error verdict
 * while the others keep theirs.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { RULES } from "../../core/rules";
import { ProofPool } from "../../cli/jobs/pool";
import { clauz3, ensureBuilt, ROOT } from "../cli/helpers";

/** Passing, violated (with counterexamples), precondition and refused programs of several domains. */
const PROGRAMS = [
  "fixtures/programs/email/and_guard_pass.ts",
  "fixtures/programs/email/count_atmost_fail.ts",
  "fixtures/programs/email/distinct_pair_fail.ts",
  "fixtures/programs/email/effect_subject_pass.ts",
  "fixtures/programs/bank/budget_loop_fail.ts",
  "fixtures/programs/bank/budget_loop_pass.ts",
  "fixtures/programs/bank/distinct_fail.ts",
  "fixtures/programs/refused/any_argument.ts",
  "fixtures/programs/refused/async_await.ts",
  "fixtures/programs/adversarial/array_map.ts",
];

const temporary: string[] = [];
beforeAll(() => ensureBuilt());
afterAll(() => temporary.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-jobs-"));
  temporary.push(dir);
  return dir;
}

describe("--jobs 2 reports what --jobs 1 reports", () => {
  it("prove, without the cache: JSON and SARIF", () => {
    for (const format of ["json", "sarif"]) {
      const one = clauz3(["prove", "-p", "fixtures/tsconfig.json", ...PROGRAMS, "--format", format, "--no-cache", "--jobs", "1"], ROOT);
      const two = clauz3(["prove", "-p", "fixtures/tsconfig.json", ...PROGRAMS, "--format", format, "--no-cache", "--jobs", "2"], ROOT);
      expect(one.status).toBe(1);
      expect(two.stdout).toBe(one.stdout);
      expect(two.status).toBe(one.status);
      expect(two.stderr).toBe(one.stderr);
    }
    const report = JSON.parse(clauz3(["prove", "-p", "fixtures/tsconfig.json", ...PROGRAMS, "--json", "--no-cache", "--jobs", "3"], ROOT).stdout);
    // The set holds every kind of verdict, and counterexamples, so the comparison means something.
    const verdicts = new Set(report.programs.map((p: { verdict: string }) => p.verdict));
    expect([...verdicts].sort()).toEqual(["proved", "refused", "violated"]);
    expect(report.programs.some((p: { results: { counterexample?: unknown }[] }) => p.results.some((r) => r.counterexample))).toBe(true);
    expect(report.programs.map((p: { file: string }) => p.file)).toEqual(PROGRAMS);
  }, 1_800_000);

  it("prove, with the cache cold and warm, and the plain text format", () => {
    const cache = tempDir();
    const base = ["prove", "-p", "fixtures/tsconfig.json", ...PROGRAMS, "--no-pretty"];
    const reference = clauz3([...base, "--no-cache", "--jobs", "1"], ROOT);
    const cold = clauz3([...base, "--cache-location", cache, "--jobs", "2"], ROOT);
    expect(fs.readdirSync(cache).length).toBeGreaterThan(0);
    const warm = clauz3([...base, "--cache-location", cache, "--jobs", "2"], ROOT);
    const warmInProcess = clauz3([...base, "--cache-location", cache, "--jobs", "1"], ROOT);
    for (const r of [cold, warm, warmInProcess]) {
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: reference.status, stderr: reference.stderr });
      expect(r.stdout).toBe(reference.stdout);
      expect(r.status).toBe(reference.status);
    }
  }, 1_800_000);

  it("check over a directory of the corpus", () => {
    const args = ["check", "-p", "fixtures/tsconfig.json", "fixtures/programs/refused", "--json", "--no-cache"];
    const one = clauz3([...args, "--jobs", "1"], ROOT);
    const two = clauz3([...args, "--jobs", "2"], ROOT);
    expect(JSON.parse(one.stdout).programs.length).toBeGreaterThan(20);
    expect(two.stdout).toBe(one.stdout);
    expect(two.status).toBe(one.status);
  }, 1_800_000);

  it("--jobs must be a positive whole number", () => {
    for (const bad of ["0", "-1", "two", "1.5"]) {
      const r = clauz3(["check", "-p", "fixtures/tsconfig.json", "--jobs", bad], ROOT);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain("--jobs expects a positive whole number of workers");
    }
  }, 600_000);
});

describe("a failing worker", () => {
  const source = (name: string) => ts.createSourceFile(path.join(ROOT, name), "export function main(): void {}\n", ts.ScriptTarget.ES2022, true);
  const workerFile = (body: string): string => {
    const file = path.join(tempDir(), "worker.cjs");
    fs.writeFileSync(file, `exports.prove = async (task) => {\n  if (task.warm) return null;\n${body}\n};\n`);
    return file;
  };
  const load = { cwd: ROOT, project: "fixtures/tsconfig.json" };

  it("that dies gives an internal-error verdict to its program; the others are proved by a new worker", async () => {
    const file = workerFile(`  if (task.file.endsWith("crash.ts")) process.exit(7);\n  return { file: task.file, verdict: "proved", results: [] };`);
    const pool = await ProofPool.open({ size: 2, load, solver: {}, workerFile: file });
    try {
      const verdicts = await Promise.all(["a.ts", "crash.ts", "b.ts", "c.ts"].map((n) => pool.prove(source(n))));
      expect(verdicts.map((v) => v.verdict)).toEqual(["proved", "refused", "proved", "proved"]);
      const failed = verdicts[1]!.results[0]!;
      expect(failed.code).toBe(RULES.internalError.code);
      expect(failed.message).toMatch(/^refused: clauz3 could not prove this program: the proof worker failed: .*`--jobs 1`/);
      expect(failed.location.fileName).toBe(path.join(ROOT, "crash.ts"));
    } finally {
      await pool.close();
    }
  }, 600_000);

  it("that never answers is stopped at the deadline; the run does not hang", async () => {
    const file = workerFile(`  if (task.file.endsWith("hang.ts")) return new Promise(() => {});\n  return { file: task.file, verdict: "proved", results: [] };`);
    const pool = await ProofPool.open({ size: 2, load, solver: {}, workerFile: file, deadlineMs: 20_000 });
    try {
      const verdicts = await Promise.all(["hang.ts", "a.ts", "b.ts"].map((n) => pool.prove(source(n))));
      expect(verdicts.map((v) => v.verdict)).toEqual(["refused", "proved", "proved"]);
      expect(verdicts[0]!.results[0]!.message).toContain("the proof worker did not answer within 20000 ms and was stopped");
    } finally {
      await pool.close();
    }
  }, 600_000);
});
