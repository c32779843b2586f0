/**
 * Held-out-style broken projects (cases.ts): `clauz3 check`, run as CI runs it (piped, so tsc's
 * plain format), fails each with the real cause on the right line and exit 1 (a finding) or 2
 * (configuration), and reports no clauz3 finding that is a consequence of it; clean projects pass.
 */
import { ensureBuilt } from "../../fixtures/projects/project.mjs";
import { CASES } from "./cases";
import { clauz3, errorLines, removeProjects, writeProject } from "./projects";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });
beforeAll(() => ensureBuilt());
afterAll(() => removeProjects());

/** Whether `wanted` (with repeats) is contained in `lines`. */
function missing(lines: readonly string[], wanted: readonly string[]): string[] {
  const left = [...lines];
  const out: string[] = [];
  for (const w of wanted) {
    const i = left.indexOf(w);
    if (i < 0) out.push(w);
    else left.splice(i, 1);
  }
  return out;
}

describe.each(CASES)("clauz3 check: $name", (c) => {
  it(`exits ${c.exit} with the real cause on its line`, () => {
    const dir = writeProject(c.spec);
    const r = clauz3(dir, ["check", "--no-pretty"]);
    const lines = errorLines(r.stdout);
    expect({ status: r.status, missing: missing(lines, c.causes) }, `${r.stdout}${r.stderr}`).toEqual({ status: c.exit, missing: [] });
    if (c.exit === 0) expect(lines).toEqual([]);
    // No stack trace, ever.
    expect(r.stderr).not.toMatch(/\n\s+at /);
    for (const code of c.never ?? []) expect(lines.filter((l) => l.endsWith(` TS${code}`)), r.stdout).toEqual([]);
  });
});
