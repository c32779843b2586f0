/**
 * The differential tester on state carried across iterations (profile `loopstate`): budgets,
 * counters, found flags and `break` over arrays of unknown length, with off-by-one and
 * missing-update twins; every proof must hold in real runs and every counterexample replay.
 */
import { describe, expect, it } from "vitest";
import { fuzz, generate, type Finding } from "../../fuzz/fuzz";
import { LOOPSTATE_OPS } from "../../fuzz/ir";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText, Project, typeErrors } from "../../fuzz/project";

const show = (f: Finding) => `seed ${f.seed}: ${f.disagreement.kind} — ${f.disagreement.subject}: ${f.disagreement.detail}`;

describe("state carried across iterations in the differential tester", () => {
  it("the loopstate profile writes well-typed programs with every shape", () => {
    const project = new Project(fuzzLayerText());
    const bad: string[] = [];
    const seen = new Set<string>();
    for (let seed = 0; seed < 80; seed++) {
      const { ir, text } = generate(PROFILES.loopstate, seed);
      for (const m of JSON.stringify(ir).matchAll(/"k":"loopstate","op":"(\w+)"/g)) seen.add(m[1]!);
      const { program, file } = project.program(text);
      const errors = typeErrors(program, file).filter((e) => !e.startsWith("TS2356 "));
      if (errors.length > 0) bad.push(`seed ${seed}: ${errors.join("; ")}\n${text}`);
    }
    expect(bad.slice(0, 2)).toEqual([]);
    expect([...seen].sort()).toEqual([...LOOPSTATE_OPS].sort());
  });

  it("30 programs with loop-carried state: the prover and real runs agree", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: 30, seed: 930_000, weights: PROFILES.loopstate, runs: 20, shrinkBudget: 0 });
    expect(report.findings.map(show)).toEqual([]);
    expect(report.programs).toBe(30);
    expect(report.verdicts.proved).toBeGreaterThan(2);
    expect(report.verdicts.violated).toBeGreaterThan(2);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
