/**
 * The differential tester on array callbacks (profile `callbacks`): the generator writes
 * `forEach`, `map`, `filter`, `some`, `every`, `find` and `findIndex` with calls inside and after
 * the callbacks, throws and indices, loops that throw inside a `try`, and `await Promise.all(xs.map(
 * async (x) => …))` with its results read; the prover must agree with real runs.
 */
import { fuzz } from "../../fuzz/fuzz";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText } from "../../fuzz/project";
import { profilePrograms, showFinding } from "../helpers/profiles";

describe("array callbacks in the differential tester", () => {
  it("the callbacks profile writes well-typed programs with every method", () => {
    const { programs, illTyped } = profilePrograms(PROFILES.callbacks, 80);
    const methods = new Set<string>();
    let tries = 0, loopTries = 0, whiles = 0, allMaps = 0, allReads = 0;
    for (const { text } of programs) {
      if (/await Promise\.all\([^;]*\.map\(async \(/.test(text)) allMaps++;
      if (/const (rs\d+): string\[\] = await Promise\.all[^]*\b\1(\.|\[| of\b)/.test(text)) allReads++;
      if (/^\s*try {/m.test(text)) tries++;
      if (/throw new Error\("loop"\)/.test(text)) loopTries++;
      if (/^\s*(?:L\d+: )?(while \(w\d+ <|do {)/m.test(text)) whiles++;
      for (const m of text.matchAll(/\.(forEach|map|filter|some|every|find|findIndex)\(\(/g)) methods.add(m[1]!);
    }
    expect(illTyped.slice(0, 2)).toEqual([]);
    expect([...methods].sort()).toEqual(["every", "filter", "find", "findIndex", "forEach", "map", "some"]);
    expect(tries).toBeGreaterThan(5);
    expect(loopTries).toBeGreaterThan(5);
    expect(whiles).toBeGreaterThan(5);
    expect(allMaps).toBeGreaterThan(3);
    expect(allReads).toBeGreaterThan(3);
  });

  it("100 callback programs: the prover and real runs agree", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: 100, seed: 310_000, weights: PROFILES.callbacks, runs: 20, shrinkBudget: 0 });
    // No disagreement: the two findings of session 6 (310023, a count whose counterexample showed
    // elements the count did not use; 310088, a run in which tool calls in a catch and a finally
    // fail, which the counterexample did not name) are fixed and replay (fuzz/findings/).
    expect(report.findings.map(showFinding)).toEqual([]);
    expect(report.programs).toBe(100);
    expect(report.verdicts.proved).toBeGreaterThan(5);
    expect(report.verdicts.violated).toBeGreaterThan(5);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
