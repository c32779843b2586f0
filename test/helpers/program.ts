import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { createDefaultMapFromNodeModules, createSystem, createVirtualCompilerHost } from "@typescript/vfs";
import { LOCK_FILE } from "../../core/lock";
import { packageFiles } from "../../fuzz/package-files";
import { lockText, type LockSpec } from "./lock";

const ROOT = path.resolve(__dirname, "../..");
export const PROJECT = "/project";

export const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  lib: ["lib.es2022.d.ts"],
  types: ["node"],
};

let libMap: Map<string, string> | undefined;


/** TypeScript's libs, the clauz3 runtime (`node_modules/clauz3`) and @types/node, as an in-memory file map. */
export function baseFiles(): Map<string, string> {
  libMap ??= createDefaultMapFromNodeModules(compilerOptions, ts);
  return new Map([...libMap, ...packageFiles(ROOT)]);
}

/** The stdlib filesystem layer, mounted at `tools/filesystem/trusted/` of the in-memory project. */
export function stdlibFiles(): Record<string, string> {
  const dir = path.join(ROOT, "stdlib/filesystem/trusted");
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) return out;
  for (const name of fs.readdirSync(dir)) out[`tools/filesystem/trusted/${name}`] = fs.readFileSync(path.join(dir, name), "utf8");
  return out;
}

/**
 * An in-memory system holding the base files plus `files` (relative to the project directory), and
 * their absolute paths. Its `clauz3.lock` pins every trusted file of `files` (see helpers/lock.ts),
 * except those `lock.unpinned` names; `{ text }` writes that text instead, `false` no lock.
 */
export function virtualProject(files: Record<string, string>, lock: LockSpec = {}): { system: ts.System; roots: string[] } {
  const fsMap = baseFiles();
  const roots: string[] = [];
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.posix.join(PROJECT, rel);
    fsMap.set(abs, text);
    roots.push(abs);
  }
  const text = lockText(lock, files, PROJECT);
  if (text !== undefined) fsMap.set(path.posix.join(PROJECT, LOCK_FILE), text);
  const system = createSystem(fsMap);
  system.getCurrentDirectory = () => PROJECT;
  return { system, roots };
}

/** A type-checked in-memory program of `files` (paths relative to the project directory), with their lock (see `virtualProject`). */
export function createProgram(files: Record<string, string>, lock: LockSpec = {}): ts.Program {
  const { system, roots } = virtualProject(files, lock);
  const { compilerHost } = createVirtualCompilerHost(system, compilerOptions, ts);
  compilerHost.getCurrentDirectory = () => PROJECT;
  return ts.createProgram({ rootNames: roots, options: compilerOptions, host: compilerHost });
}

/** TypeScript's own errors of the project files (not of the runtime or libs). */
export function typeErrors(program: ts.Program): string[] {
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName.startsWith(`${PROJECT}/`) && !d.file.fileName.includes("/node_modules/"))
    .map((d) => `${path.posix.relative(PROJECT, d.file!.fileName)}:${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

/** Strip ⟦ ⟧ markers; return the clean text and the marked span (if any). */
export function unmark(code: string): { text: string; span?: { start: number; length: number } } {
  const open = code.indexOf("⟦");
  if (open < 0) return { text: code };
  const close = code.indexOf("⟧", open);
  const text = code.slice(0, open) + code.slice(open + 1, close) + code.slice(close + 1);
  return { text, span: { start: open, length: close - open - 1 } };
}
