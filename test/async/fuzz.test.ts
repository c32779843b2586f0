/**
 * The differential tester on async programs (profile `async`): the generator writes async `main`,
 * async helpers, awaited async tools, and promises that are not awaited where they are made; the
 * latter must be refused, the rest must agree with real runs.
 */
import { fuzz, generate, judgeOptions } from "../../fuzz/fuzz";
import type { Stmt } from "../../fuzz/ir";
import { Oracle } from "../../fuzz/oracle";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText } from "../../fuzz/project";
import { profilePrograms, showFinding } from "../helpers/profiles";

describe("async programs in the differential tester", () => {
  it("the async profile writes well-typed async programs with awaited tools and helpers", () => {
    const { programs, illTyped } = profilePrograms(PROFILES.async, 60);
    let awaitedTools = 0, awaitedHelpers = 0, all = 0;
    for (const { text } of programs) {
      expect(text).toMatch(/export async function main\(/);
      if (/await (sendEmailAsync|payAsync|lookupAsync|namesAsync)\(/.test(text)) awaitedTools++;
      if (/await h\d+\(/.test(text)) awaitedHelpers++;
      if (/await Promise\.all\(\[/.test(text)) all++;
    }
    expect(illTyped.slice(0, 2)).toEqual([]);
    expect(awaitedTools).toBeGreaterThan(20);
    expect(awaitedHelpers).toBeGreaterThan(5);
    expect(all).toBeGreaterThan(5);
  });

  it("a program with a promise that is not awaited where it is made is refused", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const floating: { seed: number; text: string }[] = [];
    const simple = new Set<Stmt["k"]>(["decl", "assign", "console", "effect"]);
    for (let seed = 0; floating.length < 8 && seed < 400; seed++) {
      const g = generate(PROFILES.async, seed);
      // A float at the top of main, after straight-line statements only (so it is reached).
      const at = g.ir.body.findIndex((s) => s.k === "float");
      if (at >= 0 && g.ir.body.slice(0, at).every((s) => simple.has(s.k))) floating.push({ seed, text: g.text });
    }
    expect(floating.length).toBeGreaterThan(3);
    for (const { seed, text } of floating) {
      const j = await oracle.judge(text, judgeOptions({ runs: 5 }, seed));
      expect(j.verdict, `seed ${seed}\n${text}\n${j.refusals.join("\n")}`).toBe("refused");
    }
  }, 600_000);

  it("120 async programs: the prover and real runs agree", async () => {
    const oracle = new Oracle(fuzzLayerText());
    const report = await fuzz(oracle, { count: 120, seed: 40_000, weights: PROFILES.async, runs: 20, shrinkBudget: 0 });
    expect(report.findings.map(showFinding)).toEqual([]);
    expect(report.programs).toBe(120);
    expect(report.verdicts.proved).toBeGreaterThan(10);
    expect(report.verdicts.violated).toBeGreaterThan(10);
    expect(report.illTyped.examples).toEqual([]);
  }, 3_600_000);
});
