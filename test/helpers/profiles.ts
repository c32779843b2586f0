import { describe, expect, it } from "vitest";
import { fuzz, generate, type Finding } from "../../fuzz/fuzz";
import type { Generated, Weights } from "../../fuzz/generate";
import { Oracle } from "../../fuzz/oracle";
import { fuzzLayerText, Project, typeErrors } from "../../fuzz/project";

/**
 * The programs of seeds 0…count−1 of a profile, and those that do not type-check (but for the
 * deliberate `++` on a string, TS2356), each with its errors and text: what every profile's
 * "writes well-typed programs with every form" test starts from.
 */
export function profilePrograms(weights: Weights, count: number): { readonly programs: readonly Generated[]; readonly illTyped: readonly string[] } {
  const project = new Project(fuzzLayerText());
  const programs: Generated[] = [];
  const illTyped: string[] = [];
  for (let seed = 0; seed < count; seed++) {
    const g = generate(weights, seed);
    programs.push(g);
    const { program, file } = project.program(g.text);
    const errors = typeErrors(program, file).filter((e) => !e.startsWith("TS2356 "));
    if (errors.length > 0) illTyped.push(`seed ${seed}: ${errors.join("; ")}\n${g.text}`);
  }
  return { programs, illTyped };
}

/** The distinct `op`s the statements of one kind took in these programs, sorted. */
export function statementOps(programs: readonly Generated[], kind: string): string[] {
  const seen = new Set<string>();
  const pattern = new RegExp(`"k":"${kind}","op":"(\\w+)"`, "g");
  for (const { ir } of programs) for (const m of JSON.stringify(ir).matchAll(pattern)) seen.add(m[1]!);
  return [...seen].sort();
}

/** A finding on one line, for `expect(findings.map(showFinding)).toEqual([])`. */
export const showFinding = (f: Finding): string => `seed ${f.seed}: ${f.disagreement.kind} — ${f.disagreement.subject}: ${f.disagreement.detail}`;

/**
 * The two tests of a statement's profile: its programs type-check and draw every form of the
 * statement (`ops`, over `wellTyped` seeds), and `count` programs from `seed` on agree with real
 * runs (no finding, some proved and some violated).
 */
export function profileSuite(title: string, o: { readonly weights: Weights; readonly kind: string; readonly ops: readonly string[]; readonly wellTyped: number; readonly count: number; readonly seed: number; readonly programs: string }): void {
  describe(title, () => {
    it(`the profile writes well-typed programs with every form of \`${o.kind}\``, () => {
      const { programs, illTyped } = profilePrograms(o.weights, o.wellTyped);
      expect(illTyped.slice(0, 2)).toEqual([]);
      expect(statementOps(programs, o.kind)).toEqual([...o.ops].sort());
    });

    it(`${o.count} ${o.programs}: the prover and real runs agree`, async () => {
      const oracle = new Oracle(fuzzLayerText());
      const report = await fuzz(oracle, { count: o.count, seed: o.seed, weights: o.weights, runs: 20, shrinkBudget: 0 });
      expect(report.findings.map(showFinding)).toEqual([]);
      expect(report.programs).toBe(o.count);
      expect(report.verdicts.proved).toBeGreaterThan(2);
      expect(report.verdicts.violated).toBeGreaterThan(2);
      expect(report.illTyped.examples).toEqual([]);
    }, 3_600_000);
  });
}
