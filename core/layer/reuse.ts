import type * as TS from "typescript";
import type { Clauz3Options, Finding, ReadContext, TypeScript } from "../context";
import { checkAgentFile } from "./agent";
import { isProjectSource } from "./classify";
import { EventReader } from "./events";
import { readLayer, type LayerResult } from "./read";

/** A program and the layer read from it. */
export interface ReadLayerResult {
  readonly program: TS.Program;
  readonly options: Clauz3Options;
  readonly result: LayerResult;
}

/**
 * `readLayer` for editors, where every keystroke makes a new program. Reading the trusted layer
 * type-checks its `trusted(...)` and `contract(...)` calls, which costs more than checking the
 * agent program being edited. When only agent files changed since `previous` — every other source
 * file of the program (trusted files, declaration files, dependencies) is the very same
 * `SourceFile` object, as a language service hands out for unchanged files, the options are the
 * same, and no trusted file imports an agent file that changed — the trusted part of `previous`
 * (the layer model, whose declarations are nodes of those same files, and the trusted files'
 * findings) still describes this program, and only the agent files are checked again, by the same
 * rule (`checkAgentFile`). Otherwise it is `readLayer`.
 */
export function readLayerReusing(ts: TypeScript, program: TS.Program, options: Clauz3Options, previous: ReadLayerResult | undefined): LayerResult {
  if (!previous || !reusable(ts, program, options, previous)) return readLayer(ts, program, options);
  const { isTrusted, model } = previous.result;
  const checker = program.getTypeChecker();
  const findings: Finding[] = previous.result.findings.filter((f) => isTrusted(f.file));
  const ctx: ReadContext = { ts, program, checker, findings, options };
  const eventReader = new EventReader(ctx, isTrusted);
  const agentFiles: TS.SourceFile[] = [];
  for (const file of program.getSourceFiles()) {
    if (!isProjectSource(file.fileName, file.isDeclarationFile) || isTrusted(file)) continue;
    agentFiles.push(file);
    try {
      checkAgentFile(ctx, eventReader, file);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      findings.push({ rule: "internalError", file, start: 0, length: 0, message: `clauz3 could not check ${file.fileName}: ${detail}. This is a bug in clauz3; the file is treated as failing until it is fixed.` });
    }
  }
  return { model, findings, agentFiles, isTrusted };
}

function sameOptions(a: Clauz3Options, b: Clauz3Options): boolean {
  return JSON.stringify(a.trustedRoots ?? null) === JSON.stringify(b.trustedRoots ?? null);
}

function reusable(ts: TypeScript, program: TS.Program, options: Clauz3Options, previous: ReadLayerResult): boolean {
  if (!sameOptions(options, previous.options)) return false;
  const old = previous.program;
  if (old === program) return true;
  if (old.getCurrentDirectory() !== program.getCurrentDirectory()) return false;
  if (old.getCompilerOptions() !== program.getCompilerOptions() && JSON.stringify(old.getCompilerOptions()) !== JSON.stringify(program.getCompilerOptions())) return false;
  const { isTrusted } = previous.result;
  const isAgent = (f: TS.SourceFile): boolean => isProjectSource(f.fileName, f.isDeclarationFile) && !isTrusted(f);
  const changedAgents = new Set<TS.SourceFile>();
  let others = 0;
  for (const f of program.getSourceFiles()) {
    if (isAgent(f)) {
      if (old.getSourceFile(f.fileName) !== f) changedAgents.add(f);
      continue;
    }
    if (old.getSourceFile(f.fileName) !== f) return false;
    others++;
  }
  const oldOthers = old.getSourceFiles().filter((f) => !isAgent(f)).length;
  if (others !== oldOthers) return false;
  if (changedAgents.size === 0) return true;
  // A trusted file that imports a changed agent file may see different types.
  const checker = program.getTypeChecker();
  for (const f of program.getSourceFiles()) {
    if (!isTrusted(f)) continue;
    for (const stmt of f.statements) {
      const spec =
        (ts.isImportDeclaration(stmt) || ts.isExportDeclaration(stmt)) && stmt.moduleSpecifier
          ? stmt.moduleSpecifier
          : ts.isImportEqualsDeclaration(stmt) && ts.isExternalModuleReference(stmt.moduleReference)
            ? stmt.moduleReference.expression
            : undefined;
      if (!spec) continue;
      const target = checker.getSymbolAtLocation(spec)?.valueDeclaration;
      if (target && ts.isSourceFile(target) && changedAgents.has(target)) return false;
    }
  }
  return true;
}
