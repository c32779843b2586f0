import type * as TS from "typescript";
import type { TypeScript } from "./context";
import type { ContractModel, LayerModel, ParameterModel, Span } from "./model";
import { Refusal } from "./refusal";
import { resolveDeclaration, runtimeExportAt } from "./runtime-symbols";
import { spanOf } from "./span";

/** A literal guarantee argument, with typed paths kept distinct from strings. */
export type LiteralValue =
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "number"; readonly value: number }
  | { readonly kind: "boolean"; readonly value: boolean }
  | { readonly kind: "FilePath"; readonly value: string }
  | { readonly kind: "DirectoryPath"; readonly value: string }
  | { readonly kind: "array"; readonly items: readonly LiteralValue[] };

/** One argument bound to a contract parameter (defaults expanded). */
export interface BoundArgument {
  readonly parameter: ParameterModel;
  readonly value: LiteralValue;
  /** True when the value is the parameter's default, not written at the call. */
  readonly defaulted: boolean;
}

/** One entry of an agent program's `guarantees`. */
export interface GuaranteeModel {
  readonly contract: ContractModel;
  readonly args: readonly BoundArgument[];
  /** The contract call in the `guarantees` array. */
  readonly node: TS.CallExpression;
  readonly span: Span;
}

/** The guarantees of an agent program: the contract calls, or refusals on the exact nodes. */
export interface GuaranteeList {
  readonly guarantees: readonly GuaranteeModel[];
  /** Entries that are `noGuarantees()`: explicit, reviewable promises of nothing. */
  readonly none: readonly TS.CallExpression[];
  readonly refusals: readonly Refusal[];
  /** The `guarantees` declaration, when the program has one. */
  readonly declaration: TS.VariableDeclaration | undefined;
}

/** The plain JavaScript value of a literal (what the runtime would receive). */
export function plainValue(v: LiteralValue): unknown {
  return v.kind === "array" ? v.items.map(plainValue) : v.value;
}

/** Source-like text of a literal: `"a"`, `3`, `FilePath("x")`, `[..]`. */
export function literalText(v: LiteralValue): string {
  switch (v.kind) {
    case "string": return JSON.stringify(v.value);
    case "number": return Object.is(v.value, -0) ? "-0" : String(v.value);
    case "boolean": return String(v.value);
    case "FilePath": case "DirectoryPath": return `${v.kind}(${JSON.stringify(v.value)})`;
    case "array": return `[${v.items.map(literalText).join(", ")}]`;
  }
}

/** Evaluate a literal expression (guarantee argument or parameter default); refuses anything else. */
export function readLiteral(ts: TypeScript, checker: TS.TypeChecker, expr: TS.Expression): LiteralValue {
  const e = skipParens(ts, expr);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return { kind: "string", value: e.text };
  if (ts.isNumericLiteral(e)) return { kind: "number", value: Number(e.text) };
  if (ts.isPrefixUnaryExpression(e) && (e.operator === ts.SyntaxKind.MinusToken || e.operator === ts.SyntaxKind.PlusToken) && ts.isNumericLiteral(skipParens(ts, e.operand))) {
    const n = Number((skipParens(ts, e.operand) as TS.NumericLiteral).text);
    return { kind: "number", value: e.operator === ts.SyntaxKind.MinusToken ? -n : n };
  }
  if (e.kind === ts.SyntaxKind.TrueKeyword) return { kind: "boolean", value: true };
  if (e.kind === ts.SyntaxKind.FalseKeyword) return { kind: "boolean", value: false };
  if (ts.isArrayLiteralExpression(e)) {
    return { kind: "array", items: e.elements.map((el) => {
      if (ts.isSpreadElement(el) || ts.isOmittedExpression(el)) throw new Refusal(el, "Spread and holes are not literal array elements.", "List each element literally.");
      return readLiteral(ts, checker, el);
    }) };
  }
  if (ts.isCallExpression(e) && e.arguments.length === 1) {
    const which = runtimeExportAt(ts, checker, e.expression);
    if (which === "FilePath" || which === "DirectoryPath") {
      const inner = readLiteral(ts, checker, e.arguments[0]!);
      if (inner.kind !== "string") throw new Refusal(e.arguments[0]!, `${which}(...) takes a string literal.`, `Write ${which}("path").`);
      return { kind: which, value: inner.value };
    }
  }
  throw new Refusal(e, `Guarantee arguments must be literals; \`${e.getText()}\` is computed.`, "Write the value literally: a string, number, boolean, `FilePath(\"…\")`, `DirectoryPath(\"…\")` or an array of those.");
}

function skipParens(ts: TypeScript, e: TS.Expression): TS.Expression {
  let x = e;
  while (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isSatisfiesExpression(x)) x = x.expression;
  return x;
}

/** The contract a call's callee resolves to (through imports and namespace access), if any. */
export function contractOfCallee(ts: TypeScript, checker: TS.TypeChecker, layer: LayerModel, callee: TS.Expression): ContractModel | undefined {
  const node = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
  const decl = resolveDeclaration(ts, checker, checker.getSymbolAtLocation(node));
  return decl ? layer.contractByDeclaration.get(decl) : undefined;
}

/** Bind a contract call's arguments to the contract's parameters, expanding defaults. */
export function bindArguments(ts: TypeScript, checker: TS.TypeChecker, contract: ContractModel, call: TS.CallExpression): BoundArgument[] {
  const args = call.arguments;
  for (const a of args) if (ts.isSpreadElement(a)) throw new Refusal(a, "Spread arguments cannot be bound to the contract's parameters.", "Pass each argument literally.");
  if (args.length > contract.parameters.length) {
    throw new Refusal(args[contract.parameters.length]!, `\`${contract.name}\` takes ${contract.parameters.length} argument(s).`, "Remove the extra arguments.");
  }
  return contract.parameters.map((p, i) => {
    const arg = args[i];
    if (arg) return { parameter: p, value: readLiteral(ts, checker, arg), defaulted: false };
    if (p.node.initializer) return { parameter: p, value: readLiteral(ts, checker, p.node.initializer), defaulted: true };
    throw new Refusal(call, `Argument \`${p.name}\` of \`${contract.name}\` is missing.`, `Pass a literal for \`${p.name}\`.`);
  });
}

/**
 * Read `export const guarantees = [contract(args), ...]` of an agent program. Each entry must be a
 * call of a trusted contract with literal arguments, or `noGuarantees()`.
 */
export function readGuarantees(ts: TypeScript, checker: TS.TypeChecker, layer: LayerModel, file: TS.SourceFile): GuaranteeList {
  const guarantees: GuaranteeModel[] = [];
  const none: TS.CallExpression[] = [];
  const refusals: Refusal[] = [];
  let declaration: TS.VariableDeclaration | undefined;
  for (const stmt of file.statements) {
    if (!ts.isVariableStatement(stmt)) continue;
    for (const decl of stmt.declarationList.declarations) {
      if (ts.isIdentifier(decl.name) && decl.name.text === "guarantees") declaration = decl;
    }
  }
  if (!declaration) return { guarantees, none, refusals, declaration };
  const init = declaration.initializer ? skipParens(ts, declaration.initializer) : undefined;
  if (!init || !ts.isArrayLiteralExpression(init)) {
    refusals.push(new Refusal(declaration, "`guarantees` must be an array literal of contract calls.", "Write `export const guarantees = [lib.contract(\"literal\"), ...]`."));
    return { guarantees, none, refusals, declaration };
  }
  for (const el of init.elements) {
    try {
      const e = skipParens(ts, el as TS.Expression);
      if (!ts.isCallExpression(e)) {
        throw new Refusal(el, "Each guarantee must be a call of a trusted contract.", "Write `lib.contractName(literal, ...)`.");
      }
      if (runtimeExportAt(ts, checker, e.expression) === "noGuarantees") {
        none.push(e);
        continue;
      }
      const contract = contractOfCallee(ts, checker, layer, e.expression);
      if (!contract) {
        throw new Refusal(e.expression, `\`${e.expression.getText()}\` is not a contract of the trusted layer.`, "Call a contract exported by a trusted library (`export const name = contract(...)`).");
      }
      guarantees.push({ contract, args: bindArguments(ts, checker, contract, e), node: e, span: spanOf(e) });
    } catch (error) {
      if (error instanceof Refusal) refusals.push(error);
      else throw error;
    }
  }
  return { guarantees, none, refusals, declaration };
}

/** `filesystem.onlyReadsFiles(files=[FilePath("test.md")])`: the library-qualified call with named arguments. */
export function qualifiedCall(g: GuaranteeModel): string {
  return `${g.contract.qualifiedName}(${g.args.map((a) => `${a.parameter.name}=${literalText(a.value)}`).join(", ")})`;
}
