/**
 * Twins of the parsing counter (test/loopstate/cases.ts `LOOP_NOT_PROVED`) that break their
 * guarantee in JavaScript, which the search among short runs may or may not show within the
 * program's budget: the test asks only that they are never proved. Each takes the whole budget
 * (about 90 s), so they are a file of their own, which the sequencer runs beside the others
 * instead of after prove.test.ts's cases.
 */
import { describe, expect, it } from "vitest";
import { problems, prove } from "../prover/prove-helpers";
import { LOOP_NOT_PROVED } from "./cases";
import { LOOP_EXTRA, LOOP_IMPORT } from "./layer";

describe("loops whose guarantee fails, whatever the search among short runs finds in time", () => {
  for (const c of LOOP_NOT_PROVED) {
    it(`not proved: ${c.name}`, async () => {
      const v = await prove(LOOP_IMPORT + c.body, LOOP_EXTRA);
      expect(v.verdict, JSON.stringify(problems(v), null, 1)).not.toBe("proved");
      expect(problems(v).map((p) => p.text).join("\n")).toMatch(/emailsAtMost|could not|not proved/);
    }, 600_000);
  }
});
