/**
 * Imports that do not resolve. TypeScript reports them itself (TS2307 "Cannot find module",
 * TS2835 "Relative import paths need explicit file extensions", TS2792, TS7016, …); what clauz3
 * adds is that nothing it reads through such an import means anything: an unresolved `clauz3/events`
 * makes `performs` an `any`, which the layer reader would report as a misused tool declaration. So
 * every file that has an unresolved import, or reaches one through its imports, is affected: its
 * layer findings are left out and the programs that reach it are refused for the TypeScript error.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import { importedSourceFiles, moduleSpecifiers } from "../layer/imports";
import { runtimeModuleOf } from "../runtime-symbols";
import { formatMessage, RULES } from "../rules";

/** An import specifier that names no module TypeScript could read. */
export interface UnresolvedImport {
  readonly file: TS.SourceFile;
  readonly specifier: TS.StringLiteralLike;
  /** `clauz3` or one of its subpaths: a configuration problem (the package or the settings), not the program's. */
  readonly clauz3: boolean;
  /** TypeScript's own error at the specifier, when it reports one. */
  readonly diagnostic: TS.Diagnostic | undefined;
}

const CLAUZ3 = /^clauz3(?:\/|$)/;

/**
 * The unresolved imports of `files`: the specifier names no module symbol. An import of another
 * package that resolves to untyped JavaScript counts only when TypeScript reports an error at it
 * (under `noImplicitAny` it does); one of `clauz3` always counts: clauz3 reads its declarations.
 */
export function unresolvedImports(ts: TypeScript, program: TS.Program, files: readonly TS.SourceFile[], errorsOf: (file: TS.SourceFile) => readonly TS.Diagnostic[]): UnresolvedImport[] {
  const checker = program.getTypeChecker();
  const out: UnresolvedImport[] = [];
  for (const file of files) {
    for (const specifier of moduleSpecifiers(ts, file)) {
      if (checker.getSymbolAtLocation(specifier)) continue;
      const start = specifier.getStart(file);
      const end = specifier.getEnd();
      const diagnostic = errorsOf(file).find((d) => d.start !== undefined && d.start >= start && d.start < end);
      const clauz3 = CLAUZ3.test(specifier.text);
      if (diagnostic || clauz3) out.push({ file, specifier, clauz3, diagnostic });
    }
  }
  return out;
}

/** The files with an unresolved import and every file that reaches one of them through imports. */
export function affectedFiles(ts: TypeScript, program: TS.Program, files: readonly TS.SourceFile[], unresolved: readonly UnresolvedImport[]): Set<TS.SourceFile> {
  const affected = new Set(unresolved.map((u) => u.file));
  if (affected.size === 0) return affected;
  const checker = program.getTypeChecker();
  const importers = new Map<TS.SourceFile, TS.SourceFile[]>();
  for (const file of files) {
    for (const dep of importedSourceFiles(ts, checker, file)) {
      let list = importers.get(dep);
      if (!list) importers.set(dep, (list = []));
      list.push(file);
    }
  }
  const queue = [...affected];
  for (let next = queue.pop(); next; next = queue.pop()) {
    for (const importer of importers.get(next) ?? []) {
      if (!affected.has(importer)) {
        affected.add(importer);
        queue.push(importer);
      }
    }
  }
  return affected;
}

/**
 * A clauz3 import that does not resolve and that TypeScript says nothing about (for example a
 * JavaScript-only resolution without `noImplicitAny`): a 93092 configuration error on the specifier.
 */
export function silentClauz3Failures(ts: TypeScript, unresolved: readonly UnresolvedImport[]): TS.Diagnostic[] {
  return unresolved
    .filter((u) => u.clauz3 && !u.diagnostic && runtimeModuleOf(u.file.fileName) === undefined)
    .map((u) => {
      const start = u.specifier.getStart(u.file);
      return {
        category: ts.DiagnosticCategory.Error,
        code: RULES.moduleSettings.code,
        file: u.file,
        start,
        length: u.specifier.getEnd() - start,
        messageText: formatMessage(RULES.moduleSettings, { problem: `\`${u.specifier.text}\` does not resolve to clauz3's type declarations under this project's module settings.` }),
        source: "clauz3",
      };
    });
}
