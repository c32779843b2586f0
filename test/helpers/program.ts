import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { createDefaultMapFromNodeModules, createSystem, createVirtualCompilerHost } from "@typescript/vfs";
import { LOCK_FILE } from "../../core/lock";
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

/** The clauz3 runtime sources, mounted as `node_modules/clauz3` of the in-memory project. */
let runtimeCache: Map<string, string> | undefined;
function runtimeFiles(): Map<string, string> {
  if (runtimeCache) return runtimeCache;
  const files = new Map<string, string>();
  const dir = path.join(ROOT, "runtime");
  for (const name of fs.readdirSync(dir)) {
    files.set(`/node_modules/clauz3/runtime/${name}`, fs.readFileSync(path.join(dir, name), "utf8"));
  }
  const exp = (m: string) => ({ types: `./runtime/${m}.ts`, default: `./runtime/${m}.ts` });
  // @types/node, for trusted layers whose implementations use node:fs.
  const typesDir = path.join(ROOT, "node_modules/@types/node");
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".d.ts") || entry.name === "package.json") {
        files.set(`/node_modules/@types/node/${path.relative(typesDir, full).replace(/\\/g, "/")}`, fs.readFileSync(full, "utf8"));
      }
    }
  };
  walk(typesDir);
  files.set("/node_modules/clauz3/package.json", JSON.stringify({ name: "clauz3", exports: { ".": exp("index"), "./events": exp("events"), "./spec": exp("spec") } }));
  runtimeCache = files;
  return files;
}

/** TypeScript's libs, the clauz3 runtime (`node_modules/clauz3`) and @types/node, as an in-memory file map. */
export function baseFiles(): Map<string, string> {
  libMap ??= createDefaultMapFromNodeModules(compilerOptions, ts);
  return new Map([...libMap, ...runtimeFiles()]);
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
