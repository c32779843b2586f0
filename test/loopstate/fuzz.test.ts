/**
 * The differential tester on state carried across iterations (profile `loopstate`): budgets,
 * counters, found flags and `break` over arrays of unknown length, with off-by-one and
 * missing-update twins; every proof must hold in real runs and every counterexample replay.
 */
import { describe, expect, it } from "vitest";
import { fuzz } from "../../fuzz/fuzz";
import { LOOPSTATE_OPS } from "../../fuzz/ir";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText } from "../../fuzz/project";
import { profilePrograms, showFinding, statementOps } from "../helpers/profiles";

describe("state carried across iterations in the differential tester", () => {
  it("the loopstate profile writes well-typed programs with every shape", () => {
    const { programs, illTyped } = profilePrograms(PROFILES.loopstate, 80);
    expect(illTyped.slice(0, 2)).toEqual([]);
    expect(statementOps(programs, "loopstate")).toEqual([...LOOPSTATE_OPS].sort());
  });

  it("30 programs with loop-carried state: the prover and real runs agree", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: 30, seed: 930_000, weights: PROFILES.loopstate, runs: 20, shrinkBudget: 0 });
    expect(report.findings.map(showFinding)).toEqual([]);
    expect(report.programs).toBe(30);
    expect(report.verdicts.proved).toBeGreaterThan(2);
    expect(report.verdicts.violated).toBeGreaterThan(2);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
