/**
 * The proofs' timings (core/cache/timings.ts): kept in the cache's location by project-relative
 * path, never trusted beyond their shape (a corrupt or foreign file is no timings), merged with
 * what another run wrote; and the gate hands the programs it proves elsewhere out slowest first
 * (programs without a timing before them), while its verdicts stay in the order of the files.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureBuilt } from "../../fixtures/projects/project.mjs";
import { longestFirst, ProofTimings } from "../../core/cache";
import { openGate, proveGate } from "../../core/gate";
import { loadProject } from "../../cli/project";
import { coverageProject, type CoverageProject } from "../coverage/project";

const temporary: string[] = [];
afterAll(() => temporary.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-timings-"));
  temporary.push(dir);
  return dir;
}

describe("ProofTimings", () => {
  it("keeps each program's time by its path relative to the project, across runs", () => {
    const project = tempDir();
    const cache = path.join(project, "node_modules/.cache/clauz3/proofs");
    const first = new ProofTimings(cache, project);
    expect(first.estimate(path.join(project, "plans/a.ts"))).toBeUndefined();
    first.record(path.join(project, "plans/a.ts"), 1234.4);
    first.record(path.join(project, "plans/b.ts"), 5);
    expect(first.estimate(path.join(project, "plans/a.ts"))).toBe(1234);
    first.save();
    expect(JSON.parse(fs.readFileSync(path.join(cache, "timings.json"), "utf8"))).toEqual({ format: "clauz3-proof-timings/1", programs: { "plans/a.ts": 1234, "plans/b.ts": 5 } });
    // The same cache restored under another checkout applies there.
    const moved = tempDir();
    fs.cpSync(cache, path.join(moved, "cache"), { recursive: true });
    expect(new ProofTimings(path.join(moved, "cache"), moved).estimate(path.join(moved, "plans/a.ts"))).toBe(1234);
  });

  it("merges with what another run wrote since it read the file; this run's time wins", () => {
    const project = tempDir();
    const a = new ProofTimings(project, project);
    const b = new ProofTimings(project, project);
    a.record(path.join(project, "x.ts"), 10);
    a.record(path.join(project, "y.ts"), 20);
    a.save();
    b.record(path.join(project, "y.ts"), 30);
    b.save();
    const after = new ProofTimings(project, project);
    expect([after.estimate(path.join(project, "x.ts")), after.estimate(path.join(project, "y.ts"))]).toEqual([10, 30]);
  });

  it("ignores a file that is not JSON, of another format, or holds values that are not times", () => {
    const project = tempDir();
    const file = path.join(project, "timings.json");
    const p = path.join(project, "p.ts");
    for (const text of ["{not json", "null", "[1]", JSON.stringify({ format: "clauz3-proof-timings/0", programs: { "p.ts": 5 } }), JSON.stringify({ format: "clauz3-proof-timings/1", programs: null })]) {
      fs.writeFileSync(file, text);
      expect(new ProofTimings(project, project).estimate(p)).toBeUndefined();
    }
    fs.writeFileSync(file, JSON.stringify({ format: "clauz3-proof-timings/1", programs: { "p.ts": -1, "q.ts": "5", "r.ts": 7 } }));
    const read = new ProofTimings(project, project);
    expect([read.estimate(p), read.estimate(path.join(project, "q.ts")), read.estimate(path.join(project, "r.ts"))]).toEqual([undefined, undefined, 7]);
    // A corrupt file is replaced by the next save.
    fs.writeFileSync(file, "{not json");
    const next = new ProofTimings(project, project);
    next.record(p, 3);
    next.save();
    expect(new ProofTimings(project, project).estimate(p)).toBe(3);
  });

  it("never fails a run when it cannot write", () => {
    const project = tempDir();
    fs.writeFileSync(path.join(project, "blocked"), "a file where the directory would be");
    const timings = new ProofTimings(path.join(project, "blocked", "cache"), project);
    timings.record(path.join(project, "p.ts"), 3);
    expect(() => timings.save()).not.toThrow();
    expect(fs.readdirSync(project)).toEqual(["blocked"]);
  });
});

describe("longestFirst", () => {
  it("puts programs without a timing first, in their order, then the others slowest first (ties in order)", () => {
    const times: Record<number, number | undefined> = { 0: 5, 1: undefined, 2: 900, 3: 5, 4: undefined, 5: 40 };
    expect(longestFirst([0, 1, 2, 3, 4, 5], (i) => times[i])).toEqual([1, 4, 2, 5, 0, 3]);
    expect(longestFirst([], () => 1)).toEqual([]);
  });
});

describe("the gate hands programs out slowest first", () => {
  let project: CoverageProject | undefined;
  beforeAll(() => ensureBuilt());
  afterAll(() => project?.remove());

  it("asks the workers for them in that order, records every time, and reports in the order of the files", async () => {
    const plan = (n: number) => `export const guarantees = [noGuarantees()];\nexport function main(): void { print("${n}"); }\n`;
    project = coverageProject({}, { a: plan(1), b: plan(2), c: plan(3), d: plan(4) });
    const loaded = loadProject({ cwd: project.dir });
    const { ts, program, layer } = loaded;
    const gate = openGate({ ts, program, options: loaded.options, layer, libraries: loaded.libraries });
    const files = [...gate.programs].sort((x, y) => x.fileName.localeCompare(y.fileName));
    expect(files.map((f) => path.basename(f.fileName))).toEqual(["a.ts", "b.ts", "c.ts", "d.ts"]);
    const cache = tempDir();
    const planted = new ProofTimings(cache, project.dir);
    planted.record(path.join(project.dir, "plans/a.ts"), 10);
    planted.record(path.join(project.dir, "plans/c.ts"), 3000);
    planted.record(path.join(project.dir, "plans/d.ts"), 200);
    planted.save();

    const timings = new ProofTimings(cache, project.dir);
    const asked: string[] = [];
    const verdicts = await proveGate(gate, {}, files, undefined, undefined, {
      timings,
      parallel: () => async (file, started) => {
        asked.push(path.basename(file.fileName));
        started();
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { file: file.fileName, verdict: "proved", results: [] };
      },
    });
    expect(asked).toEqual(["b.ts", "c.ts", "d.ts", "a.ts"]);
    expect(verdicts.map((v) => path.basename(v.file))).toEqual(["a.ts", "b.ts", "c.ts", "d.ts"]);
    // This run's times replace the planted ones (each took about 20 ms here, never 3 s).
    for (const f of files) expect(timings.estimate(f.fileName)).toBeLessThan(2000);
  }, 600_000);
});
