import * as fs from "node:fs";
import * as path from "node:path";
import { findingProgram } from "../../fuzz/findings";
import { judgeOptions } from "../../fuzz/fuzz";
import { Oracle } from "../../fuzz/oracle";
import { fuzzLayerText } from "../../fuzz/project";

/**
 * Every finding the differential tester saved (fuzz/findings/*.ts) is judged again: once fixed, a
 * finding stays fixed. Each file is the shrunk program that once disagreed with its real runs (a
 * broken "proved", or a counterexample that did not replay); now the prover and the runs agree.
 */
const DIR = path.resolve(__dirname, "../../fuzz/findings");
const files = fs.readdirSync(DIR).filter((f) => f.endsWith(".ts")).sort();

describe("saved fuzz findings stay fixed", () => {
  let oracle: Oracle;
  beforeAll(() => {
    oracle = new Oracle(fuzzLayerText());
  });

  it("there are findings to judge", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  for (const file of files) {
    it(file, async () => {
      const j = await oracle.judge(findingProgram(fs.readFileSync(path.join(DIR, file), "utf8")), judgeOptions({ runs: 30 }, 0));
      expect(j.disagreements.map((d) => `${d.kind} — ${d.subject}: ${d.detail}`)).toEqual([]);
    }, 600_000);
  }
});
