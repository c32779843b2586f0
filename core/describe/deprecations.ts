/**
 * Deprecated relation queries a guarantee's contract uses (itself or through the contracts it
 * calls): `sharesValue`, renamed `allSameValue` (same meaning) when `sharesValueWith`, the join,
 * was added. `clauz3 describe` names the new name, so a library author reading it knows what to
 * write; the sentence and identity do not change.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import type { ContractModel, LayerModel } from "../model";
import { resolveDeclaration, runtimeModuleOf } from "../runtime-symbols";

/** Old name → new name, for the relation queries of clauz3's runtime (`Relation` and `Event`). */
export const DEPRECATED_QUERIES: Readonly<Record<string, string>> = { sharesValue: "allSameValue" };

export interface Deprecation {
  /** The deprecated query, e.g. `sharesValue`. */
  readonly query: string;
  /** What to write instead, e.g. `allSameValue`. */
  readonly instead: string;
  /** The contract whose body uses it (the guarantee's, or one it calls). */
  readonly contract: string;
  readonly fileName: string;
  readonly line: number;
  readonly column: number;
}

/** Every use of a deprecated query in a contract's body and the contracts it calls, in source order. */
export function deprecationsOf(ts: TypeScript, checker: TS.TypeChecker, layer: Pick<LayerModel, "contractByDeclaration">, contract: ContractModel): Deprecation[] {
  const out: Deprecation[] = [];
  const seen = new Set<ContractModel>();
  const visitContract = (c: ContractModel): void => {
    if (seen.has(c)) return;
    seen.add(c);
    const file = c.body.getSourceFile();
    const visit = (n: TS.Node): void => {
      if (ts.isPropertyAccessExpression(n) && Object.hasOwn(DEPRECATED_QUERIES, n.name.text)) {
        const decl = checker.getSymbolAtLocation(n.name)?.declarations?.[0];
        const module = decl ? runtimeModuleOf(decl.getSourceFile().fileName) : undefined;
        if (module === "relation" || module === "event") {
          const at = file.getLineAndCharacterOfPosition(n.name.getStart());
          out.push({ query: n.name.text, instead: DEPRECATED_QUERIES[n.name.text]!, contract: c.name, fileName: file.fileName, line: at.line + 1, column: at.character + 1 });
        }
      }
      if (ts.isCallExpression(n)) {
        const callee = ts.isPropertyAccessExpression(n.expression) ? n.expression.name : n.expression;
        const target = resolveDeclaration(ts, checker, checker.getSymbolAtLocation(callee));
        const called = target ? layer.contractByDeclaration.get(target) : undefined;
        if (called) visitContract(called);
      }
      ts.forEachChild(n, visit);
    };
    visit(c.body);
  };
  visitContract(contract);
  return out;
}
