/**
 * The differential tester on fluents (profile `fluents`): doors locked and unlocked and levels set
 * in branches, loops over arrays of unknown length, callbacks, `try` and early returns, under
 * final-state guarantees; the prover must agree with real runs. The other profiles write the
 * programs they did before (their weights draw none of the fluent tools or contracts).
 */
import { fuzz, generate, type Finding } from "../../fuzz/fuzz";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText, Project, typeErrors } from "../../fuzz/project";

const show = (f: Finding) => `seed ${f.seed}: ${f.disagreement.kind} — ${f.disagreement.subject}: ${f.disagreement.detail}`;
const COUNT = Number(process.env.FLUENT_FUZZ_COUNT ?? 300);

describe("fluents in the differential tester", () => {
  it("the fluents profile writes well-typed programs with every fluent tool and guarantee", () => {
    const project = new Project(fuzzLayerText());
    const bad: string[] = [];
    const tools = new Set<string>();
    const guarantees = new Set<string>();
    for (let seed = 0; seed < 60; seed++) {
      const { text } = generate(PROFILES.fluents, seed);
      for (const m of text.matchAll(/\bm\.(lock|unlock|setLevel)\(/g)) tools.add(m[1]!);
      for (const m of text.matchAll(/\bm\.(lockedAtEnd|unlockedAtEnd|everyLocked|levelIs|levelsAtMost)\(/g)) guarantees.add(m[1]!);
      const { program, file } = project.program(text);
      const errors = typeErrors(program, file).filter((e) => !e.startsWith("TS2356 "));
      if (errors.length > 0) bad.push(`seed ${seed}: ${errors.join("; ")}\n${text}`);
    }
    expect(bad.slice(0, 2)).toEqual([]);
    expect([...tools].sort()).toEqual(["lock", "setLevel", "unlock"]);
    expect([...guarantees].sort()).toEqual(["everyLocked", "levelIs", "levelsAtMost", "lockedAtEnd", "unlockedAtEnd"]);
  });

  it(`${COUNT} fluent programs: the prover and real runs agree`, async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: COUNT, seed: 520_000, weights: PROFILES.fluents, runs: 20, shrinkBudget: 0 });
    expect(report.findings.map(show)).toEqual([]);
    expect(report.programs).toBe(COUNT);
    expect(report.verdicts.proved).toBeGreaterThan(COUNT / 20);
    expect(report.verdicts.violated).toBeGreaterThan(COUNT / 20);
    expect(report.illTyped.examples).toEqual([]);
    console.log(`fluents profile: ${report.programs} programs, verdicts ${JSON.stringify(report.verdicts)}`);
  }, 7_200_000);
});
