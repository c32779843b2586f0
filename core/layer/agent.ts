import type * as TS from "typescript";
import { report, type ReadContext } from "../context";
import { runtimeExportOf } from "../runtime-symbols";
import type { EventReader } from "./events";

const DECLARATIONS = new Set(["trusted", "performs", "updates", "requires", "ensures", "contract", "requireApproval", "fluent"]);

/**
 * Agent source may call tools and contracts but declare nothing: every reference to
 * `trusted`/`performs`/`requires`/`ensures`/`contract`, and every class extending an event class,
 * is refused on the exact node.
 */
export function checkAgentFile(ctx: ReadContext, events: EventReader, file: TS.SourceFile): void {
  const { ts, checker } = ctx;
  const visit = (node: TS.Node): void => {
    if (ts.isIdentifier(node) && DECLARATIONS.has(node.text) || ts.isIdentifier(node) && isAliasedImportName(ts, node)) {
      const inImport = node.parent && (ts.isImportSpecifier(node.parent) || ts.isImportClause(node.parent) || ts.isNamespaceImport(node.parent));
      if (!inImport) {
        const which = runtimeExportOf(ts, checker, checker.getSymbolAtLocation(node));
        if (which && DECLARATIONS.has(which)) report(ctx, "agentDeclaration", node, { name: which });
      }
    }
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && events.isEventClass(node)) {
      report(ctx, "agentDeclaration", node.name ?? node, { name: `class ${node.name?.text ?? ""} extends Event`.replace("  ", " ") });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

/** `import { trusted as t }`: local names that alias a runtime declaration under another name. */
function isAliasedImportName(ts: typeof TS, node: TS.Identifier): boolean {
  return !DECLARATIONS.has(node.text) && aliasNames(ts, node.getSourceFile()).has(node.text);
}

const aliasCache = new WeakMap<TS.SourceFile, Set<string>>();
function aliasNames(ts: typeof TS, file: TS.SourceFile): Set<string> {
  let names = aliasCache.get(file);
  if (!names) {
    names = new Set();
    for (const stmt of file.statements) {
      if (!ts.isImportDeclaration(stmt) || !stmt.importClause?.namedBindings) continue;
      const b = stmt.importClause.namedBindings;
      if (ts.isNamedImports(b)) {
        for (const el of b.elements) if (el.propertyName && DECLARATIONS.has(el.propertyName.text)) names.add(el.name.text);
      }
    }
    aliasCache.set(file, names);
  }
  return names;
}
