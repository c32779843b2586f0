import { fuzz } from "../../fuzz/fuzz";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText } from "../../fuzz/project";
import { showFinding } from "../helpers/profiles";

/**
 * The differential soundness check on a fixed slice of programs (docs/fuzzing.md): every program
 * of seeds SEED … SEED + COUNT - 1 is proved, then run for real; proved results must hold on every
 * run and every counterexample must replay. A failure names the seeds:
 * `npm run fuzz -- --seed <seed> --count 1` reproduces one and saves it, shrunk.
 */
const SEED = 20_000;
const COUNT = 300;

describe("differential soundness (fixed-seed slice)", () => {
  it(`${COUNT} generated programs: the prover and real runs agree`, async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: COUNT, seed: SEED, weights: PROFILES.default, runs: 30, shrinkBudget: 0 });
    expect(report.findings.map(showFinding)).toEqual([]);
    // The slice exercises the oracle both ways, and the generator writes well-typed programs.
    expect(report.programs).toBe(COUNT);
    expect(report.verdicts.proved).toBeGreaterThan(COUNT / 5);
    expect(report.verdicts.violated).toBeGreaterThan(COUNT / 5);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
