/** The README's rule and proof-code tables are generated from the rule data and must stay current. */
import * as fs from "node:fs";
import * as path from "node:path";
import { ensureBuilt } from "../../fixtures/projects/project.mjs";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });
beforeAll(() => ensureBuilt());

it("README holds the generated rule, proof-code and coverage-code tables", async () => {
  const { rulesTable, proofCodesTable, coverageCodesTable } = (await import("../../scripts/rules-table.mjs")) as { rulesTable(): string; proofCodesTable(): string; coverageCodesTable(): string };
  const readme = fs.readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");
  expect(readme).toContain(rulesTable());
  expect(readme).toContain(proofCodesTable());
  expect(readme).toContain(coverageCodesTable());
});

it("README opens with the demo and test commands, and .ci/run runs exactly the test command", () => {
  const readme = fs.readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  expect(block).toMatch(/npm run demo/);
  expect(block).toMatch(/npm test/);
  const ci = fs.readFileSync(path.resolve(__dirname, "../../.ci/run"), "utf8");
  expect(ci).toMatch(/npm ci/);
  expect(ci).toMatch(/npm test/);
});
