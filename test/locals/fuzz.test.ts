/**
 * The differential tester on arrays the program builds (profile `locals`): pushes under
 * conditions in loops over literal arrays, then joins, loops, counts, pop/shift/unshift, spreads
 * and sums, and the refused shapes (aliases, pushes in loops over arrays of unknown length); the
 * prover must agree with real runs.
 */
import { fuzz, generate, type Finding } from "../../fuzz/fuzz";
import { LOCALS_OPS } from "../../fuzz/ir";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText, Project, typeErrors } from "../../fuzz/project";

const show = (f: Finding) => `seed ${f.seed}: ${f.disagreement.kind} — ${f.disagreement.subject}: ${f.disagreement.detail}`;

describe("arrays the program builds in the differential tester", () => {
  it("the locals profile writes well-typed programs with every construct", () => {
    const project = new Project(fuzzLayerText());
    const bad: string[] = [];
    const seen = new Set<string>();
    for (let seed = 0; seed < 80; seed++) {
      const { ir, text } = generate(PROFILES.locals, seed);
      for (const m of JSON.stringify(ir).matchAll(/"k":"locals","op":"(\w+)"/g)) seen.add(m[1]!);
      const { program, file } = project.program(text);
      const errors = typeErrors(program, file).filter((e) => !e.startsWith("TS2356 "));
      if (errors.length > 0) bad.push(`seed ${seed}: ${errors.join("; ")}\n${text}`);
    }
    expect(bad.slice(0, 2)).toEqual([]);
    expect([...seen].sort()).toEqual([...LOCALS_OPS].sort());
  });

  it("40 programs that build arrays: the prover and real runs agree", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: 40, seed: 830_000, weights: PROFILES.locals, runs: 20, shrinkBudget: 0 });
    expect(report.findings.map(show)).toEqual([]);
    expect(report.programs).toBe(40);
    expect(report.verdicts.proved).toBeGreaterThan(2);
    expect(report.verdicts.violated).toBeGreaterThan(2);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
