/**
 * The differential tester on array callbacks (profile `callbacks`): the generator writes
 * `forEach`, `map`, `filter`, `some`, `every`, `find` and `findIndex` with calls inside and after
 * the callbacks, throws and indices; the prover must agree with real runs.
 */
import { fuzz, generate, type Finding } from "../../fuzz/fuzz";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText, Project, typeErrors } from "../../fuzz/project";

const show = (f: Finding) => `seed ${f.seed}: ${f.disagreement.kind} — ${f.disagreement.subject}: ${f.disagreement.detail}`;

describe("array callbacks in the differential tester", () => {
  it("the callbacks profile writes well-typed programs with every method", () => {
    const project = new Project(fuzzLayerText());
    const bad: string[] = [];
    const methods = new Set<string>();
    let tries = 0, whiles = 0;
    for (let seed = 0; seed < 80; seed++) {
      const { text } = generate(PROFILES.callbacks, seed);
      if (/^\s*try {/m.test(text)) tries++;
      if (/^\s*(while \(w\d+ <|do {)/m.test(text)) whiles++;
      for (const m of text.matchAll(/\.(forEach|map|filter|some|every|find|findIndex)\(\(/g)) methods.add(m[1]!);
      const { program, file } = project.program(text);
      const errors = typeErrors(program, file).filter((e) => !e.startsWith("TS2356 "));
      if (errors.length > 0) bad.push(`seed ${seed}: ${errors.join("; ")}\n${text}`);
    }
    expect(bad.slice(0, 2)).toEqual([]);
    expect([...methods].sort()).toEqual(["every", "filter", "find", "findIndex", "forEach", "map", "some"]);
    expect(tries).toBeGreaterThan(5);
    expect(whiles).toBeGreaterThan(5);
  });

  it("100 callback programs: the prover and real runs agree", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: 100, seed: 310_000, weights: PROFILES.callbacks, runs: 20, shrinkBudget: 0 });
    // No disagreement: the two findings of session 6 (310023, a count whose counterexample showed
    // elements the count did not use; 310088, a run in which tool calls in a catch and a finally
    // fail, which the counterexample did not name) are fixed and replay (fuzz/findings/).
    expect(report.findings.map(show)).toEqual([]);
    expect(report.programs).toBe(100);
    expect(report.verdicts.proved).toBeGreaterThan(5);
    expect(report.verdicts.violated).toBeGreaterThan(5);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
