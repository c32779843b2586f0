/**
 * Helpers for the robustness tests: an in-memory program over the prover's test layer, proved with
 * explicit options, and generators of the deep and large programs the outside review wrote.
 */
import ts from "typescript";
import type { ProgramVerdict, ProveOptions } from "../../core/prover/api";
import { proveProgram } from "../../core/prover/prove";
import { createProgram, PROJECT, stdlibFiles } from "../helpers/program";
import { TEST_LAYER } from "../prover/layer";
import { IMPORTS } from "../prover/prove-helpers";

/** Prove each body as its own `plan<i>.ts` of one program (IMPORTS prepended), in order, with `options`. */
export async function proveAll(bodies: readonly string[], options: ProveOptions = {}): Promise<ProgramVerdict[]> {
  const files: Record<string, string> = { ...stdlibFiles(), "tools/mail/trusted/layer.ts": TEST_LAYER };
  bodies.forEach((b, i) => (files[`plan${i}.ts`] = IMPORTS + b));
  const program = createProgram(files);
  const out: ProgramVerdict[] = [];
  for (let i = 0; i < bodies.length; i++) out.push(await proveProgram({ ts, program, file: program.getSourceFile(`${PROJECT}/plan${i}.ts`)! , options }));
  return out;
}

export async function proveOne(body: string, options: ProveOptions = {}): Promise<ProgramVerdict> {
  return (await proveAll([body], options))[0]!;
}

/** The messages of the results that are not proved. */
export function failures(v: ProgramVerdict): string[] {
  return v.results.filter((r) => r.verdict !== "proved").map((r) => `${r.verdict} ${r.code} line ${r.location.line}: ${r.message}`);
}

const GUARD = `export const guarantees = [m.neverEmail("boss@corp.com")];\n`;

/** Programs nested `n` levels deep in the ways the review found (each sends one email to `to`). */
export const deep = {
  parentheses: (n: number) => `${GUARD}export function main(to: string): void {\n  const x = ${"(".repeat(n)}to${")".repeat(n)};\n  if (x !== "boss@corp.com") sendEmail(x, "hi");\n}\n`,
  ternaries: (n: number) => `${GUARD}export function main(to: string, k: number): void {\n  const x = ${Array.from({ length: n }, (_, i) => `k === ${i} ? "a${i}@corp.com" : `).join("")}"z@corp.com";\n  if (to !== "boss@corp.com") sendEmail(x, to);\n}\n`,
  concatenation: (n: number) => `${GUARD}export function main(to: string): void {\n  const x = ${Array.from({ length: n }, () => `"a" + (`).join("")}to${")".repeat(n)};\n  if (x !== "boss@corp.com") sendEmail(x, "hi");\n}\n`,
  chain: (n: number) => `${GUARD}export function main(to: string): void {\n  const x = to${' + "a"'.repeat(n)};\n  if (x !== "boss@corp.com") sendEmail(x, "hi");\n}\n`,
  ifs: (n: number) => `${GUARD}export function main(to: string, k: number): void {\n${Array.from({ length: n }, (_, i) => `if (k > ${i}) {\n`).join("")}if (to !== "boss@corp.com") sendEmail(to, "hi");\n${"}\n".repeat(n)}}\n`,
  blocks: (n: number) => `${GUARD}export function main(to: string): void {\n${"{".repeat(n)}if (to !== "boss@corp.com") sendEmail(to, "hi");${"}".repeat(n)}\n}\n`,
};
