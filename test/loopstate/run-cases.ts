/** The loop-state tests' runner: each case proved over the loop layer, its verdict, line and text checked. */
import { describe, expect, it } from "vitest";
import { problems, prove } from "../prover/prove-helpers";
import type { LoopCase } from "./cases";
import { LOOP_EXTRA, LOOP_IMPORT } from "./layer";

export function proveLoopCases(title: string, cases: readonly LoopCase[]): void {
  describe(title, () => {
    for (const c of cases) {
      it(`${c.verdict}: ${c.name}`, async () => {
        const v = await prove(LOOP_IMPORT + c.body, LOOP_EXTRA);
        const shown = JSON.stringify(problems(v), null, 1);
        expect(v.verdict, shown).toBe(c.verdict);
        if (c.line !== undefined) expect(problems(v).map((p) => p.line), shown).toContain(c.line);
        if (c.match) expect(problems(v).map((p) => p.text).join("\n"), shown).toMatch(c.match);
      }, 600_000);
    }
  });
}
