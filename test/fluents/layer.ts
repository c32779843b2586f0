/** Proving programs over the fluent test layer (programs/tools/home/trusted/layer.ts) in memory. */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import type { ProgramVerdict, ProofResult } from "../../core/prover/api";
import { proveProgram } from "../../core/prover/prove";
import { createProgram, PROJECT } from "../helpers/program";

export const HOME_LAYER = fs.readFileSync(path.join(__dirname, "programs/tools/home/trusted/layer.ts"), "utf8");

export const IMPORTS = `import { lock, unlock, setFlag, writeFile, lockAll, setLevel, listDoors, approvedText } from "./tools/home/trusted/layer";
import * as h from "./tools/home/trusted/layer";
`;

/** Prove `plan.ts` (IMPORTS are prepended, so body line 1 is file line 3). */
export async function prove(body: string, layer = HOME_LAYER): Promise<ProgramVerdict> {
  const program = createProgram({ "tools/home/trusted/layer.ts": layer, "plan.ts": IMPORTS + body });
  const file = program.getSourceFile(`${PROJECT}/plan.ts`)!;
  return proveProgram({ ts, program, file });
}

/** The results that are not proved: verdict, kind, line and message. */
export function problems(v: ProgramVerdict): { verdict: string; kind: string; line: number; text: string }[] {
  return v.results.filter((r) => r.verdict !== "proved").map((r: ProofResult) => ({ verdict: r.verdict, kind: r.kind, line: r.location.line, text: r.message }));
}
