import * as path from "node:path";
import * as fs from "node:fs";
import type * as TS from "typescript";
import type { TypeScript } from "./context";

/** The runtime exports the layer reader recognises, by declaring module. */
const RUNTIME_EXPORTS: Readonly<Record<string, readonly string[]>> = {
  tool: ["trusted", "performs", "requires", "ensures", "effect", "footprint"],
  contract: ["contract", "noGuarantees", "allOf"],
  event: ["Event"],
  paths: ["FilePath", "DirectoryPath"],
  approval: ["requireApproval"],
  fluent: ["fluent", "updates"],
};

export type RuntimeExport =
  | "trusted" | "performs" | "requires" | "ensures" | "effect" | "footprint"
  | "contract" | "noGuarantees" | "allOf" | "Event" | "FilePath" | "DirectoryPath" | "requireApproval"
  | "fluent" | "updates";

const packageRoots = new Map<string, boolean>();

/** Whether `dir` holds a package.json named clauz3 (cached; false when unreadable). */
function isClauz3Package(dir: string): boolean {
  let known = packageRoots.get(dir);
  if (known === undefined) {
    try {
      known = (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: string }).name === "clauz3";
    } catch {
      known = false;
    }
    packageRoots.set(dir, known);
  }
  return known;
}

/**
 * Whether a file is one of clauz3's runtime modules: `<pkg>/runtime/<m>.ts` or
 * `<pkg>/dist/runtime/<m>.d.ts` of a package named clauz3 (found on disk, or by a
 * `node_modules/clauz3/` path for in-memory programs). Identity is the declaration: a look-alike
 * `trusted` from another package is not ours.
 */
export function runtimeModuleOf(fileName: string): string | undefined {
  const normalized = fileName.replace(/\\/g, "/");
  const m = /^(.*?)\/(?:dist\/)?runtime\/([a-z-]+)\.(?:d\.ts|ts|js)$/.exec(normalized);
  if (!m) return undefined;
  const root = m[1]!;
  const ours = /(^|\/)node_modules\/clauz3$/.test(root) || isClauz3Package(root);
  return ours ? m[2] : undefined;
}

/** The runtime export a symbol resolves to (through imports and re-exports), if any. */
export function runtimeExportOf(ts: TypeScript, checker: TS.TypeChecker, symbol: TS.Symbol | undefined): RuntimeExport | undefined {
  if (!symbol) return undefined;
  let target = symbol;
  if (target.flags & ts.SymbolFlags.Alias) {
    try {
      target = checker.getAliasedSymbol(target);
    } catch {
      return undefined;
    }
  }
  for (const decl of target.declarations ?? []) {
    const module = runtimeModuleOf(decl.getSourceFile().fileName);
    if (!module) continue;
    const name = target.name;
    if (RUNTIME_EXPORTS[module]?.includes(name)) return name as RuntimeExport;
  }
  return undefined;
}

/** The runtime export an expression refers to (`trusted`, `c.trusted`), if any. */
export function runtimeExportAt(ts: TypeScript, checker: TS.TypeChecker, expr: TS.Expression): RuntimeExport | undefined {
  const node = ts.isPropertyAccessExpression(expr) ? expr.name : expr;
  if (!ts.isIdentifier(node)) return undefined;
  return runtimeExportOf(ts, checker, checker.getSymbolAtLocation(node));
}

/** The declaration a symbol resolves to through aliases (imports, re-exports). */
export function resolveDeclaration(ts: TypeScript, checker: TS.TypeChecker, symbol: TS.Symbol | undefined): TS.Declaration | undefined {
  if (!symbol) return undefined;
  let target = symbol;
  if (target.flags & ts.SymbolFlags.Alias) {
    try {
      target = checker.getAliasedSymbol(target);
    } catch {
      return undefined;
    }
  }
  return target.valueDeclaration ?? target.declarations?.[0];
}
