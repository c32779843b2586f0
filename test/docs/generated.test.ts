/**
 * The generated blocks of the docs (`<!-- generated:NAME -->`: the rule, proof-code and
 * coverage-code tables) are exactly what `npm run docs` (scripts/gen-docs.mjs) writes from the rule
 * data, and the rules reference holds all three.
 */
import { ensureBuilt } from "../../fixtures/projects/project.mjs";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });
beforeAll(() => ensureBuilt());

type Generated = { file: string; blocks: string[]; current: boolean };

it("every generated block is current (regenerate with `npm run docs`)", async () => {
  const { generatedFiles } = (await import("../../scripts/gen-docs.mjs")) as { generatedFiles(): Generated[] };
  const files = generatedFiles();
  expect(files.filter((f) => !f.current).map((f) => f.file)).toEqual([]);
  const rules = files.find((f) => f.file === "docs/rules.md");
  expect(rules?.blocks).toEqual(["rules", "proof-codes", "coverage-codes"]);
  expect(files.find((f) => f.file === "docs/coverage.md")?.blocks).toEqual(["coverage-codes"]);
});

it("the generator rejects a block it does not know", async () => {
  const { regenerate } = (await import("../../scripts/gen-docs.mjs")) as { regenerate(file: string, text: string): string };
  expect(() => regenerate("x.md", "<!-- generated:nonsense -->\n| a |\n<!-- /generated:nonsense -->\n")).toThrow(/unknown generated block "nonsense"/);
  const { rulesTable } = (await import("../../scripts/rules-table.mjs")) as { rulesTable(): string };
  expect(regenerate("x.md", "<!-- generated:rules -->\nstale\n<!-- /generated:rules -->\n")).toBe(`<!-- generated:rules -->\n${rulesTable()}\n<!-- /generated:rules -->\n`);
});
