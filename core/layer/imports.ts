import type * as TS from "typescript";
import type { TypeScript } from "../context";

/** The module specifiers of a file's imports and re-exports (statements only: what the layer reader follows). */
export function moduleSpecifiers(ts: TypeScript, file: TS.SourceFile): TS.StringLiteralLike[] {
  const out: TS.StringLiteralLike[] = [];
  for (const stmt of file.statements) {
    const spec =
      (ts.isImportDeclaration(stmt) || ts.isExportDeclaration(stmt)) && stmt.moduleSpecifier
        ? stmt.moduleSpecifier
        : ts.isImportEqualsDeclaration(stmt) && ts.isExternalModuleReference(stmt.moduleReference)
          ? stmt.moduleReference.expression
          : undefined;
    if (spec && ts.isStringLiteralLike(spec)) out.push(spec);
  }
  return out;
}

/**
 * Per checker, what each file imports and what it reaches. A checker belongs to one program, whose
 * files and resolutions never change: the programs of one project share their layer's files, and
 * a proof asks for its program's closure twice.
 */
const imported = new WeakMap<TS.TypeChecker, WeakMap<TS.SourceFile, readonly TS.SourceFile[]>>();
const closures = new WeakMap<TS.TypeChecker, WeakMap<TS.SourceFile, ReadonlySet<TS.SourceFile>>>();

function memo<V>(cache: WeakMap<TS.TypeChecker, WeakMap<TS.SourceFile, V>>, checker: TS.TypeChecker, file: TS.SourceFile, make: () => V): V {
  let byFile = cache.get(checker);
  if (!byFile) cache.set(checker, (byFile = new WeakMap()));
  let value = byFile.get(file);
  if (value === undefined) byFile.set(file, (value = make()));
  return value;
}

/** The source files a module imports or re-exports from (resolved by the checker). */
export function importedSourceFiles(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile): readonly TS.SourceFile[] {
  return memo(imported, checker, file, () => {
    const out: TS.SourceFile[] = [];
    for (const spec of moduleSpecifiers(ts, file)) {
      const target = checker.getSymbolAtLocation(spec)?.valueDeclaration;
      if (target && ts.isSourceFile(target)) out.push(target);
    }
    return out;
  });
}

/** `file` and every source file it reaches through imports and re-exports, transitively. */
export function importClosure(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile): ReadonlySet<TS.SourceFile> {
  return memo(closures, checker, file, () => {
    const seen = new Set<TS.SourceFile>([file]);
    const queue = [file];
    for (let next = queue.pop(); next; next = queue.pop()) {
      for (const dep of importedSourceFiles(ts, checker, next)) {
        if (!seen.has(dep)) {
          seen.add(dep);
          queue.push(dep);
        }
      }
    }
    return seen;
  });
}
