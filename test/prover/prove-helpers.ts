import ts from "typescript";
import { proveProgram } from "../../core/prover/prove";
import type { ProgramVerdict, ProofResult } from "../../core/prover/api";
import { createProgram, PROJECT, stdlibFiles } from "../helpers/program";
import { TEST_LAYER } from "./layer";

export const IMPORTS = `import { sendEmail, pay, refund, log, balance, contacts, fewContacts, rows, label } from "./tools/mail/trusted/layer";
import * as m from "./tools/mail/trusted/layer";
`;

/** Prove `plan.ts` (IMPORTS are prepended; line numbers in assertions count them: body line 1 is file line 3). */
export async function prove(body: string, extra: Record<string, string> = {}): Promise<ProgramVerdict> {
  const program = createProgram({ ...stdlibFiles(), "tools/mail/trusted/layer.ts": TEST_LAYER, "plan.ts": IMPORTS + body, ...extra });
  const file = program.getSourceFile(`${PROJECT}/plan.ts`)!;
  return proveProgram({ ts, program, file });
}

/** Compact view of the results that are not proved: verdict, kind, line and the text at the location. */
export function problems(v: ProgramVerdict): { verdict: string; kind: string; line: number; text: string }[] {
  return v.results.filter((r) => r.verdict !== "proved").map((r: ProofResult) => ({ verdict: r.verdict, kind: r.kind, line: r.location.line, text: r.message }));
}

/** A program and what the prover must say of it: the verdict, the first problem's line, a pattern its messages match. */
export interface ProveCase {
  readonly name: string;
  readonly body: string;
  readonly verdict: "proved" | "violated" | "refused";
  readonly line?: number;
  readonly match?: RegExp;
}

/** One test per case: `run(body)` (`prove` by default) gives the verdict, and the first problem the line and match. */
export function proveCases(cases: readonly ProveCase[], run: (body: string) => Promise<ProgramVerdict> = prove): void {
  for (const c of cases) {
    it(c.name, async () => {
      const v = await run(c.body);
      const ps = problems(v);
      expect(v.verdict, JSON.stringify(ps)).toBe(c.verdict);
      if (c.line !== undefined) expect(ps[0]?.line, JSON.stringify(ps)).toBe(c.line);
      if (c.match) expect(ps.map((p) => p.text).join("\n")).toMatch(c.match);
    }, 600_000);
  }
}
