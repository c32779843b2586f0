import type * as TS from "typescript";
import type { Clauz3Options, Finding, ReadContext, TypeScript } from "../context";
import type { LayerModel } from "../model";
import { checkAgentFile } from "./agent";
import { isProjectSource } from "./classify";
import { EventReader } from "./events";
import { importedSourceFiles } from "./imports";
import { internalErrorFinding, isLayerCandidate, readLayer, type LayerResult } from "./read";

/**
 * The layer of one program as an editor needs it: every keystroke makes a new program, and the
 * editor asks for one file's diagnostics at a time. Same rules, same engine as `readLayer`; only
 * the order of the work differs.
 */
export interface IncrementalLayer {
  readonly program: TS.Program;
  readonly options: Clauz3Options;
  readonly model: LayerModel;
  readonly isTrusted: (file: TS.SourceFile) => boolean;
  /** Files of the program that are agent source (not trusted, not declarations, not dependencies). */
  readonly agentFiles: readonly TS.SourceFile[];
  /** The findings of the trusted files. */
  readonly trustedFindings: readonly Finding[];
  /** Whether the trusted part was taken over from the previous program (for tests and logs). */
  readonly reused: boolean;
  /** The rule findings of one file of the program. */
  findingsOf(file: TS.SourceFile): readonly Finding[];
  /** A `LayerResult` for proving `file`: the model, and the findings of `file` and of every trusted file. */
  forProgram(file: TS.SourceFile): LayerResult;
}

/**
 * Read a program's layer, reusing `previous` where it still holds. Reading the trusted layer
 * type-checks its `trusted(...)` and `contract(...)` calls, which costs more than checking the
 * agent file being edited, and checking every agent file of a large project on every keystroke
 * costs more than checking the one being shown. So:
 *
 * - when only agent files changed since `previous` — every other source file of the program
 *   (trusted files, declaration files, dependencies) is the very same `SourceFile` object, as a
 *   language service hands out for unchanged files, the options are the same, and no trusted file
 *   imports an agent file that changed — the trusted part of `previous` (the layer model, whose
 *   declarations are nodes of those same files, and the trusted files' findings) still describes
 *   this program;
 * - the findings of an agent file are computed when asked for (`checkAgentFile`, the rule
 *   `readLayer` applies to every agent file), once per program.
 *
 * Otherwise it is `readLayer`, whose findings of every file are returned as they are.
 */
export function readLayerIncrementally(ts: TypeScript, program: TS.Program, options: Clauz3Options, previous: IncrementalLayer | undefined): IncrementalLayer {
  if (!previous || !reusable(ts, program, options, previous)) return complete(program, options, readLayer(ts, program, options));
  const { model, isTrusted } = previous;
  const trustedFindings = previous.trustedFindings;
  const agentFiles = program.getSourceFiles().filter((f) => isLayerCandidate(f) && !isTrusted(f));
  const agentSet = new Set(agentFiles);
  const checker = program.getTypeChecker();
  const byFile = new Map<TS.SourceFile, readonly Finding[]>();
  const findingsOf = (file: TS.SourceFile): readonly Finding[] => {
    if (isTrusted(file)) return trustedFindings.filter((f) => f.file === file);
    if (!agentSet.has(file)) return [];
    let found = byFile.get(file);
    if (!found) {
      const findings: Finding[] = [];
      const ctx: ReadContext = { ts, program, checker, findings, options };
      try {
        checkAgentFile(ctx, new EventReader(ctx, isTrusted), file);
      } catch (error) {
        findings.push(internalErrorFinding(file, error));
      }
      found = findings;
      byFile.set(file, found);
    }
    return found;
  };
  return {
    program,
    options,
    model,
    isTrusted,
    agentFiles,
    trustedFindings,
    reused: true,
    findingsOf,
    forProgram: (file) => ({ model, isTrusted, agentFiles, findings: [...trustedFindings, ...findingsOf(file)] }),
  };
}

function complete(program: TS.Program, options: Clauz3Options, result: LayerResult): IncrementalLayer {
  const byFile = new Map<TS.SourceFile, Finding[]>();
  for (const f of result.findings) {
    let list = byFile.get(f.file);
    if (!list) byFile.set(f.file, (list = []));
    list.push(f);
  }
  return {
    program,
    options,
    model: result.model,
    isTrusted: result.isTrusted,
    agentFiles: result.agentFiles,
    trustedFindings: result.findings.filter((f) => result.isTrusted(f.file)),
    reused: false,
    findingsOf: (file) => byFile.get(file) ?? [],
    forProgram: () => result,
  };
}

function sameOptions(a: Clauz3Options, b: Clauz3Options): boolean {
  return JSON.stringify(a.trustedRoots ?? null) === JSON.stringify(b.trustedRoots ?? null);
}

function reusable(ts: TypeScript, program: TS.Program, options: Clauz3Options, previous: IncrementalLayer): boolean {
  if (!sameOptions(options, previous.options)) return false;
  const old = previous.program;
  if (old === program) return true;
  if (old.getCurrentDirectory() !== program.getCurrentDirectory()) return false;
  if (old.getCompilerOptions() !== program.getCompilerOptions() && JSON.stringify(old.getCompilerOptions()) !== JSON.stringify(program.getCompilerOptions())) return false;
  const { isTrusted } = previous;
  const isAgent = (f: TS.SourceFile): boolean => isLayerCandidate(f) && !isTrusted(f);
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
  let oldOthers = 0;
  for (const f of old.getSourceFiles()) if (!isAgent(f)) oldOthers++;
  if (others !== oldOthers) return false;
  if (changedAgents.size === 0) return true;
  // A trusted file that imports a changed agent file may see different types.
  const checker = program.getTypeChecker();
  for (const f of program.getSourceFiles()) {
    if (!isTrusted(f) || !isProjectSource(f.fileName, f.isDeclarationFile)) continue;
    if (importedSourceFiles(ts, checker, f).some((target) => changedAgents.has(target))) return false;
  }
  return true;
}
