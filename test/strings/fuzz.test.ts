/**
 * The differential tester on issue 10's strings and conversions (profile `strings`): the
 * generator writes `String`, `Number`, `toFixed`, `toLowerCase`/`toUpperCase`, `trim`/
 * `trimStart`/`trimEnd`, `split` and `replace`/`replaceAll` over corner texts; the prover must
 * agree with real runs.
 */
import { fuzz } from "../../fuzz/fuzz";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText } from "../../fuzz/project";
import { STRINGS_OPS } from "../../fuzz/strings";
import { profilePrograms, showFinding, statementOps } from "../helpers/profiles";

describe("strings and conversions in the differential tester", () => {
  it("the strings profile writes well-typed programs with every construct", () => {
    const { programs, illTyped } = profilePrograms(PROFILES.strings, 80);
    expect(illTyped.slice(0, 2)).toEqual([]);
    expect(statementOps(programs, "strings")).toEqual([...STRINGS_OPS].sort());
  });

  it("40 string programs: the prover and real runs agree", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: 40, seed: 530_000, weights: PROFILES.strings, runs: 20, shrinkBudget: 0 });
    expect(report.findings.map(showFinding)).toEqual([]);
    expect(report.programs).toBe(40);
    expect(report.verdicts.proved).toBeGreaterThan(2);
    expect(report.verdicts.violated).toBeGreaterThan(2);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
