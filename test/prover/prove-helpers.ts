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
