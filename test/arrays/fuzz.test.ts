/**
 * The differential tester on issue 10's array methods and builders (profile `arrays`): the
 * generator writes `at`, `indexOf`/`lastIndexOf`, `includes`, `slice`, `flatMap`,
 * `Object.keys/values/entries`, `Array.from` and patterns in `for…of` heads, with indices drawn
 * from the corner values; the prover must agree with real runs.
 */
import { fuzz } from "../../fuzz/fuzz";
import { ARRAYS_OPS } from "../../fuzz/ir";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText } from "../../fuzz/project";
import { profilePrograms, showFinding, statementOps } from "../helpers/profiles";

describe("array methods in the differential tester", () => {
  it("the arrays profile writes well-typed programs with every construct", () => {
    const { programs, illTyped } = profilePrograms(PROFILES.arrays, 80);
    expect(illTyped.slice(0, 2)).toEqual([]);
    expect(statementOps(programs, "arrays")).toEqual([...ARRAYS_OPS].sort());
  });

  it("40 array programs: the prover and real runs agree", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: 40, seed: 520_000, weights: PROFILES.arrays, runs: 20, shrinkBudget: 0 });
    expect(report.findings.map(showFinding)).toEqual([]);
    expect(report.programs).toBe(40);
    expect(report.verdicts.proved).toBeGreaterThan(2);
    expect(report.verdicts.violated).toBeGreaterThan(2);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
