/**
 * In-memory agent projects for the approval tests: the stdlib filesystem layer (with its manifest)
 * under `tools/filesystem/`, a lock pinning it (helpers/lock.ts), and the in-memory system the
 * request builder follows the program's loads through.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { createVirtualCompilerHost } from "@typescript/vfs";
import { buildRequest } from "../../core/approval";
import type { ApprovalRequest } from "../../core/approval";
import { readLayer, type LayerResult } from "../../core/layer/read";
import { defaultReadBytes, type ReadBytes } from "../../core/manifest";
import type { LockSpec } from "../helpers/lock";
import { compilerOptions, PROJECT, stdlibFiles, virtualProject } from "../helpers/program";

const ROOT = path.resolve(__dirname, "../..");
export const MANIFEST = fs.readFileSync(path.join(ROOT, "stdlib/filesystem/clauz3.json"), "utf8");

export const HEAD = `import { FilePath } from "clauz3";
import { readFile } from "./tools/filesystem/trusted/effects";
import * as fs from "./tools/filesystem/trusted/contracts";
`;
export const PLAN = `${HEAD}export const guarantees = [fs.neverReadUnder("/secrets"), fs.onlyReadsFiles([FilePath("/data/a.md")])];
export function main(name: string): void {
  if (name === "a") readFile("/data/a.md");
}
`;

export interface TestProject {
  readonly program: ts.Program;
  readonly layer: LayerResult;
  readonly system: ts.System;
  readonly file: ts.SourceFile;
  readonly readBytes: ReadBytes;
}

/** A type-checked in-memory project: the filesystem layer, `files` (relative paths) and their lock. */
export function testProject(files: Record<string, string>, lock: LockSpec = {}, programFile = "plan.ts"): TestProject {
  const all: Record<string, string> = { ...stdlibFiles(), "tools/filesystem/clauz3.json": MANIFEST, ...files };
  const { system } = virtualProject(all, lock);
  const { compilerHost } = createVirtualCompilerHost(system, compilerOptions, ts);
  compilerHost.getCurrentDirectory = () => PROJECT;
  const rootNames = Object.keys(all).filter((rel) => /\.ts$/.test(rel)).map((rel) => path.posix.join(PROJECT, rel));
  const program = ts.createProgram({ rootNames, options: compilerOptions, host: compilerHost });
  const file = program.getSourceFile(path.posix.join(PROJECT, programFile));
  if (!file) throw new Error(`${programFile} is not in the program`);
  const readBytes: ReadBytes = (f) => {
    const rel = path.posix.relative(PROJECT, f);
    return rel in all ? Buffer.from(all[rel]!, "utf8") : f.startsWith(`${PROJECT}/`) ? undefined : defaultReadBytes(f);
  };
  return { program, layer: readLayer(ts, program), system, file, readBytes };
}

/** The approval request of `plan.ts` in a project of `files`. */
/** The request of plan.ts with `inputs` (default: one string, as PLAN's `main(name: string)` takes). */
export function requestFor(files: Record<string, string>, inputs: unknown = ["a"], lock: LockSpec = {}): ApprovalRequest {
  const p = testProject(files, lock);
  return buildRequest({ ts, program: p.program, layer: p.layer, file: p.file, host: p.system, inputs, readBytes: p.readBytes });
}
