/**
 * In-memory projects for the "prove what will run" and "everything that loads is checked" tests:
 * the stdlib filesystem layer under `tools/filesystem/trusted/`, any other files (`.js`, `.d.ts`,
 * `package.json`, `node_modules/...`), compiler options on top of the test defaults, and the
 * in-memory system passed to the prover as the file system Node would see.
 */
import * as path from "node:path";
import ts from "typescript";
import { createVirtualCompilerHost } from "@typescript/vfs";
import type { ProgramVerdict, ProofResult } from "../../core/prover/api";
import { proveProgram } from "../../core/prover/prove";
import { compilerOptions, PROJECT, stdlibFiles, virtualProject } from "../helpers/program";

/** The first lines of most programs: the filesystem tools and contracts, and one guarantee. */
export const HEAD = `import { readFile } from "./tools/filesystem/trusted/effects";
import * as fs from "./tools/filesystem/trusted/contracts";
`;
export const GUARANTEES = `export const guarantees = [fs.neverReadUnder("/secrets")];\n`;
/** A `main` that keeps `neverReadUnder("/secrets")`. */
export const SAFE_MAIN = `export function main(): void {\n  readFile("/data/report.md");\n}\n`;

/** Files whose names TypeScript compiles as roots (other files are only there to be found). */
function isRoot(rel: string, options: ts.CompilerOptions): boolean {
  if (/(^|\/)node_modules\//.test(rel)) return false;
  return /\.(ts|tsx|mts|cts)$/.test(rel) || (!!options.allowJs && /\.(js|mjs|cjs)$/.test(rel));
}

/** A type-checked in-memory program and the system it was read from. */
export function project(files: Record<string, string>, options: ts.CompilerOptions = {}): { program: ts.Program; system: ts.System } {
  const opts: ts.CompilerOptions = { ...compilerOptions, ...options };
  const all = { ...stdlibFiles(), ...files };
  const { system } = virtualProject(all);
  const { compilerHost } = createVirtualCompilerHost(system, opts, ts);
  compilerHost.getCurrentDirectory = () => PROJECT;
  const rootNames = Object.keys(all).filter((rel) => isRoot(rel, opts)).map((rel) => path.posix.join(PROJECT, rel));
  return { program: ts.createProgram({ rootNames, options: opts, host: compilerHost }), system };
}

/** Prove `programFile` (default `plan.ts`) of an in-memory project. */
export async function proveProject(files: Record<string, string>, options: ts.CompilerOptions = {}, programFile = "plan.ts"): Promise<ProgramVerdict> {
  const { program, system } = project(files, options);
  const file = program.getSourceFile(path.posix.join(PROJECT, programFile));
  if (!file) throw new Error(`${programFile} is not in the program`);
  return proveProgram({ ts, program, file, host: system });
}

/** The refused results as `file:line message`, file relative to the project. */
export function refusals(v: ProgramVerdict): string[] {
  return v.results.filter((r: ProofResult) => r.verdict === "refused").map((r) => `${path.posix.relative(PROJECT, r.location.fileName)}:${r.location.line} ${r.message}`);
}

/** Every result that is not proved, for assertion messages. */
export function explain(v: ProgramVerdict): string {
  return v.results.filter((r) => r.verdict !== "proved").map((r) => `${r.verdict} ${path.posix.relative(PROJECT, r.location.fileName)}:${r.location.line}: ${r.message}`).join("\n");
}

/** One case of a table: a program (files), the options, and what must come out. */
export interface Case {
  readonly name: string;
  readonly files: Record<string, string>;
  readonly options?: ts.CompilerOptions;
  /** The program among `files` (default `plan.ts`). */
  readonly program?: string;
  /** `proved`, `violated`, or `refused` at `file:line` with a message matching `match`. */
  readonly expect:
    | { readonly verdict: "proved" }
    | { readonly verdict: "violated"; readonly line: number }
    | { readonly verdict: "refused"; readonly at: string; readonly match: RegExp };
}

/** Check one case: the verdict, and for refusals the exact place (one refused result there) and the message. */
export async function check(c: Case): Promise<void> {
  const v = await proveProject(c.files, c.options, c.program);
  const e = c.expect;
  if (e.verdict !== "proved") expect(v.verdict, explain(v)).not.toBe("proved");
  expect(v.verdict, explain(v)).toBe(e.verdict);
  if (e.verdict === "violated") {
    expect(v.results.filter((r) => r.verdict === "violated").map((r) => r.location.line), explain(v)).toContain(e.line);
  } else if (e.verdict === "refused") {
    const here = refusals(v).filter((r) => r.startsWith(`${e.at} `));
    expect(here.length, `no refusal at ${e.at}:\n${explain(v)}`).toBeGreaterThan(0);
    expect(here.join("\n")).toMatch(e.match);
    expect(v.results.filter((r) => r.verdict === "refused").every((r) => r.code === 93104 || r.code === 93001), explain(v)).toBe(true);
  }
}
