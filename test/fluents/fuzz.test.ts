/**
 * The differential tester on fluents (profile `fluents`): doors locked and unlocked and levels set
 * in branches, loops over arrays of unknown length, callbacks, `try` and early returns, under
 * final-state guarantees; the prover must agree with real runs. The other profiles write the
 * programs they did before (their weights draw none of the fluent tools or contracts).
 */
import { fuzz } from "../../fuzz/fuzz";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText } from "../../fuzz/project";
import { profilePrograms, showFinding } from "../helpers/profiles";

const COUNT = Number(process.env.FLUENT_FUZZ_COUNT ?? 300);

describe("fluents in the differential tester", () => {
  it("the fluents profile writes well-typed programs with every fluent tool and guarantee", () => {
    const { programs, illTyped } = profilePrograms(PROFILES.fluents, 60);
    const tools = new Set<string>();
    const guarantees = new Set<string>();
    for (const { text } of programs) {
      for (const m of text.matchAll(/\bm\.(lock|unlock|setLevel)\(/g)) tools.add(m[1]!);
      for (const m of text.matchAll(/\bm\.(lockedAtEnd|unlockedAtEnd|everyLocked|levelIs|levelsAtMost)\(/g)) guarantees.add(m[1]!);
    }
    expect(illTyped.slice(0, 2)).toEqual([]);
    expect([...tools].sort()).toEqual(["lock", "setLevel", "unlock"]);
    expect([...guarantees].sort()).toEqual(["everyLocked", "levelIs", "levelsAtMost", "lockedAtEnd", "unlockedAtEnd"]);
  });

  it(`${COUNT} fluent programs: the prover and real runs agree`, async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: COUNT, seed: 520_000, weights: PROFILES.fluents, runs: 20, shrinkBudget: 0 });
    expect(report.findings.map(showFinding)).toEqual([]);
    expect(report.programs).toBe(COUNT);
    expect(report.verdicts.proved).toBeGreaterThan(COUNT / 20);
    expect(report.verdicts.violated).toBeGreaterThan(COUNT / 20);
    expect(report.illTyped.examples).toEqual([]);
    console.log(`fluents profile: ${report.programs} programs, verdicts ${JSON.stringify(report.verdicts)}`);
  }, 7_200_000);
});
