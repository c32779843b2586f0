/**
 * The committed locks of the fixtures are current: fixtures/clauz3.lock (the corpus project) and
 * each fixtures/projects/<name>/clauz3.lock, verified in a prepared copy as the e2e tests, the demo
 * and the benchmarks build it. After a reviewed change to a fixture layer or to stdlib/, run
 * `node scripts/lock-fixtures.mjs`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { verifyLock } from "../../core/lock/verify";
import { loadProject } from "../../cli/project";
import { prepareProject, removeProject, ROOT } from "../../fixtures/projects/project.mjs";

const AGAIN = "Run `node scripts/lock-fixtures.mjs` after reviewing the change.";

function findingsOf(cwd: string, project?: string): string[] {
  const p = loadProject({ cwd, project });
  const lock = verifyLock(p.ts, p.program, p.layer.isTrusted);
  return lock.findings.map((f) => `${path.relative(cwd, f.file.fileName)}: ${f.message}`);
}

it("fixtures/clauz3.lock pins the corpus layers and stdlib", () => {
  expect(findingsOf(ROOT, "fixtures/tsconfig.json"), AGAIN).toEqual([]);
});

const projects = fs.readdirSync(path.join(ROOT, "fixtures/projects")).filter((n) => fs.existsSync(path.join(ROOT, "fixtures/projects", n, "tsconfig.json")));

it.each(projects)("fixtures/projects/%s/clauz3.lock pins its layers", (name) => {
  expect(fs.existsSync(path.join(ROOT, "fixtures/projects", name, "clauz3.lock")), `fixtures/projects/${name} has no clauz3.lock. ${AGAIN}`).toBe(true);
  const dir = prepareProject(name, { prefix: "clauz3-lockcheck-" });
  try {
    expect(findingsOf(dir), AGAIN).toEqual([]);
  } finally {
    removeProject(dir);
  }
});
