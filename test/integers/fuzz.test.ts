/**
 * The differential tester on integers as Int terms (profile `integers`): budget loops over
 * `wholes()` (integral amounts an `ensures` declares), `tally()` (a small integer that may be -0)
 * added to literals at the edge of 2^53, divided into and scaled; the prover must agree with real
 * runs. The re-opened hole `integer-bound-in-doubles` is found by test/fuzz/holes.test.ts.
 */
import { fuzz, generate, type Finding } from "../../fuzz/fuzz";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText, Project, typeErrors } from "../../fuzz/project";

const show = (f: Finding) => `seed ${f.seed}: ${f.disagreement.kind} — ${f.disagreement.subject}: ${f.disagreement.detail}`;

describe("integers in the differential tester", () => {
  it("the integers profile writes well-typed programs with every form", () => {
    const project = new Project(fuzzLayerText());
    const bad: string[] = [];
    const seen = new Set<string>();
    for (let seed = 0; seed < 60; seed++) {
      const { ir, text } = generate(PROFILES.integers, seed);
      for (const m of JSON.stringify(ir).matchAll(/"k":"ints","op":"(\w+)"/g)) seen.add(m[1]!);
      const { program, file } = project.program(text);
      const errors = typeErrors(program, file).filter((e) => !e.startsWith("TS2356 "));
      if (errors.length > 0) bad.push(`seed ${seed}: ${errors.join("; ")}\n${text}`);
    }
    expect(bad.slice(0, 2)).toEqual([]);
    expect([...seen].sort()).toEqual(["budget", "edge", "scaled", "signed"]);
  });

  it("40 integer programs: the prover and real runs agree", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: 40, seed: 610_000, weights: PROFILES.integers, runs: 20, shrinkBudget: 0 });
    expect(report.findings.map(show)).toEqual([]);
    expect(report.programs).toBe(40);
    expect(report.verdicts.proved).toBeGreaterThan(2);
    expect(report.verdicts.violated).toBeGreaterThan(2);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
