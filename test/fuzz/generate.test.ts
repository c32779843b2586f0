import fc from "fast-check";
import { generate } from "../../fuzz/fuzz";
import { DEFAULT_WEIGHTS, generatedArb } from "../../fuzz/generate";
import { PROFILES } from "../../fuzz/profiles";
import { fuzzLayerText, Project, typeErrors } from "../../fuzz/project";

describe("the program generator", () => {
  it("regenerates program i from its seed alone, and shrinking starts from that program", async () => {
    const a = generate(DEFAULT_WEIGHTS, 4242);
    expect(generate(DEFAULT_WEIGHTS, 4242).text).toBe(a.text);
    let first: string | undefined;
    await fc.check(fc.asyncProperty(generatedArb(DEFAULT_WEIGHTS), async (g) => {
      first ??= g.text;
      return true;
    }), { seed: 4242, numRuns: 1 });
    expect(first).toBe(a.text);
  });

  it("writes programs that type-check (but for the deliberate ++ on strings), in every profile", () => {
    const project = new Project(fuzzLayerText());
    const bad: string[] = [];
    for (const [name, weights] of Object.entries(PROFILES)) {
      for (let seed = 0; seed < 40; seed++) {
        const { text } = generate(weights, seed);
        const { program, file } = project.program(text);
        const errors = typeErrors(program, file).filter((e) => !e.startsWith("TS2356 "));
        if (errors.length > 0) bad.push(`${name} seed ${seed}: ${errors.join("; ")}\n${text}`);
      }
    }
    expect(bad.slice(0, 2)).toEqual([]);
  });
});
