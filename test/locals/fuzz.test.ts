/**
 * The differential tester on arrays the program builds (profile `locals`): pushes under
 * conditions in loops over literal arrays, then joins, loops, counts, pop/shift/unshift, spreads
 * and sums, and the refused shapes (aliases, pushes in loops over arrays of unknown length); the
 * prover must agree with real runs.
 */
import { fuzz } from "../../fuzz/fuzz";
import { LOCALS_OPS } from "../../fuzz/ir";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText } from "../../fuzz/project";
import { profilePrograms, showFinding, statementOps } from "../helpers/profiles";

describe("arrays the program builds in the differential tester", () => {
  it("the locals profile writes well-typed programs with every construct", () => {
    const { programs, illTyped } = profilePrograms(PROFILES.locals, 80);
    expect(illTyped.slice(0, 2)).toEqual([]);
    expect(statementOps(programs, "locals")).toEqual([...LOCALS_OPS].sort());
  });

  it("40 programs that build arrays: the prover and real runs agree", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: 40, seed: 830_000, weights: PROFILES.locals, runs: 20, shrinkBudget: 0 });
    expect(report.findings.map(showFinding)).toEqual([]);
    expect(report.programs).toBe(40);
    expect(report.verdicts.proved).toBeGreaterThan(2);
    expect(report.verdicts.violated).toBeGreaterThan(2);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
