/**
 * The differential tester on integers as Int terms (profile `integers`): budget loops over
 * `wholes()` (integral amounts an `ensures` declares), `tally()` (a small integer that may be -0)
 * added to literals at the edge of 2^53, divided into and scaled; the prover must agree with real
 * runs. The re-opened hole `integer-bound-in-doubles` is found by test/fuzz/holes.test.ts.
 */
import { fuzz } from "../../fuzz/fuzz";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText } from "../../fuzz/project";
import { profilePrograms, showFinding, statementOps } from "../helpers/profiles";

describe("integers in the differential tester", () => {
  it("the integers profile writes well-typed programs with every form", () => {
    const { programs, illTyped } = profilePrograms(PROFILES.integers, 60);
    expect(illTyped.slice(0, 2)).toEqual([]);
    expect(statementOps(programs, "ints")).toEqual(["budget", "edge", "scaled", "signed"]);
  });

  it("40 integer programs: the prover and real runs agree", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: 40, seed: 610_000, weights: PROFILES.integers, runs: 20, shrinkBudget: 0 });
    expect(report.findings.map(showFinding)).toEqual([]);
    expect(report.programs).toBe(40);
    expect(report.verdicts.proved).toBeGreaterThan(2);
    expect(report.verdicts.violated).toBeGreaterThan(2);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
