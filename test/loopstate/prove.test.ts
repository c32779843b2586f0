/**
 * State carried across the iterations of a loop over an array of unknown length
 * (core/prover/exec/loopstate.ts, core/prover/loop-invariants.ts): budget loops, counters, found
 * flags and `break`, proved for every length by an inductive invariant; their off-by-one and
 * missing-update twins violated with counterexamples found among runs with at most 4 elements
 * (replayed in test/loopstate/replay.test.ts); what no invariant settles is refused. Each verdict
 * was decided from JavaScript's semantics before running the prover (the twins no run within the
 * budget may show are in not-proved.test.ts). Line numbers count the three prepended import lines
 * (body line 1 is file line 4).
 */
import { describe, expect, it } from "vitest";
import { problems, prove } from "../prover/prove-helpers";
import { LOOP_CASES } from "./cases";
import { LOOP_EXTRA, LOOP_IMPORT } from "./layer";

describe("state carried across iterations of a loop over an array of unknown length", () => {
  for (const c of LOOP_CASES) {
    it(`${c.verdict}: ${c.name}`, async () => {
      const v = await prove(LOOP_IMPORT + c.body, LOOP_EXTRA);
      const shown = JSON.stringify(problems(v), null, 1);
      expect(v.verdict, shown).toBe(c.verdict);
      if (c.line !== undefined) expect(problems(v).map((p) => p.line), shown).toContain(c.line);
      if (c.match) expect(problems(v).map((p) => p.text).join("\n"), shown).toMatch(c.match);
    }, 600_000);
  }
});
