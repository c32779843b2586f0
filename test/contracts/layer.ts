/** Proving programs over the contract-language test layer (programs/tools/mail/trusted/layer.ts) in memory. */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import type { ProgramVerdict, ProofResult } from "../../core/prover/api";
import { proveProgram } from "../../core/prover/prove";
import { createProgram, PROJECT } from "../helpers/program";

export const CONTRACTS_LAYER = fs.readFileSync(path.join(__dirname, "programs/tools/mail/trusted/layer.ts"), "utf8");

export const IMPORTS = `import { sendEmail, readEnv, listEnv, drafts, openInvoices, fewInvoices, pay } from "./tools/mail/trusted/layer";
import * as c from "./tools/mail/trusted/layer";
`;

/** Prove `plan.ts` (IMPORTS are prepended, so body line 1 is file line 3). */
export async function prove(body: string, layer = CONTRACTS_LAYER): Promise<ProgramVerdict> {
  return provePlan(IMPORTS + body, layer);
}

/** Prove a whole program text as `plan.ts` beside the layer. */
export async function provePlan(text: string, layer = CONTRACTS_LAYER): Promise<ProgramVerdict> {
  const program = createProgram({ "tools/mail/trusted/layer.ts": layer, "plan.ts": text });
  const file = program.getSourceFile(`${PROJECT}/plan.ts`)!;
  return proveProgram({ ts, program, file });
}

/** The results that are not proved: verdict, kind, line and message. */
export function problems(v: ProgramVerdict): { verdict: string; kind: string; line: number; text: string }[] {
  return v.results.filter((r) => r.verdict !== "proved").map((r: ProofResult) => ({ verdict: r.verdict, kind: r.kind, line: r.location.line, text: r.message }));
}
