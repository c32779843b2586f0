import type * as TS from "typescript";
import type { TypeScript } from "../context";

/** The source files a module imports or re-exports from (resolved by the checker). */
export function importedSourceFiles(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile): TS.SourceFile[] {
  const out: TS.SourceFile[] = [];
  for (const stmt of file.statements) {
    const spec =
      (ts.isImportDeclaration(stmt) || ts.isExportDeclaration(stmt)) && stmt.moduleSpecifier
        ? stmt.moduleSpecifier
        : ts.isImportEqualsDeclaration(stmt) && ts.isExternalModuleReference(stmt.moduleReference)
          ? stmt.moduleReference.expression
          : undefined;
    if (!spec) continue;
    const target = checker.getSymbolAtLocation(spec)?.valueDeclaration;
    if (target && ts.isSourceFile(target)) out.push(target);
  }
  return out;
}
