/**
 * The differential tester on Sets, Maps, `JSON.stringify` and in-place array changes (profile
 * `collections`, fuzz/collections.ts): the prover must agree with real runs, and refuse the
 * shapes it does not model (de-duplication across a loop over an array of unknown length,
 * inconsistent comparators, holes, numbers that may be NaN in a sort).
 */
import { describe, expect, it } from "vitest";
import { COLLECTIONS_OPS } from "../../fuzz/collections";
import { fuzz } from "../../fuzz/fuzz";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText } from "../../fuzz/project";
import { profilePrograms, showFinding, statementOps } from "../helpers/profiles";

describe("Sets, Maps, JSON and in-place array changes in the differential tester", () => {
  it("the collections profile writes well-typed programs with every construct", () => {
    const { programs, illTyped } = profilePrograms(PROFILES.collections, 80);
    expect(illTyped.slice(0, 2)).toEqual([]);
    expect(statementOps(programs, "collections")).toEqual([...COLLECTIONS_OPS].sort());
  });

  it("40 programs with collections: the prover and real runs agree", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: 40, seed: 930_000, weights: PROFILES.collections, runs: 20, shrinkBudget: 0 });
    expect(report.findings.map(showFinding)).toEqual([]);
    expect(report.programs).toBe(40);
    expect(report.verdicts.proved).toBeGreaterThan(2);
    expect(report.verdicts.violated).toBeGreaterThan(2);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
