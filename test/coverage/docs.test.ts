/** docs/coverage.md holds the generated coverage code table (core/coverage/rules.ts), like docs/rules.md (scripts/gen-docs.mjs). */
import * as fs from "node:fs";
import * as path from "node:path";
import { ensureBuilt } from "../../fixtures/projects/project.mjs";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });
beforeAll(() => ensureBuilt());

it("docs/coverage.md holds the generated coverage code table", async () => {
  const { coverageCodesTable } = (await import("../../scripts/rules-table.mjs")) as { coverageCodesTable(): string };
  const doc = fs.readFileSync(path.resolve(__dirname, "../../docs/coverage.md"), "utf8");
  expect(doc).toContain(coverageCodesTable());
});
