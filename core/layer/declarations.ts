import type * as TS from "typescript";
import type { TypeScript } from "../context";

/**
 * For a call `trusted(...)`/`contract(...)`: the `export const name = <call>` declaration it
 * initialises at module top level, or a description of why it is not in that form.
 */
export function exportedConstOf(ts: TypeScript, call: TS.CallExpression): { declaration: TS.VariableDeclaration; name: string; statement: TS.VariableStatement } | { problem: string } {
  const decl = call.parent;
  if (!ts.isVariableDeclaration(decl) || decl.initializer !== call) {
    return { problem: "The call is not the initializer of an exported `const`." };
  }
  if (!ts.isIdentifier(decl.name)) return { problem: "The declaration's name is destructured." };
  const list = decl.parent;
  const statement = list.parent;
  if (!ts.isVariableDeclarationList(list) || !(list.flags & ts.NodeFlags.Const)) {
    return { problem: `\`${decl.name.text}\` is not declared with \`const\`.` };
  }
  if (!ts.isVariableStatement(statement) || !ts.isSourceFile(statement.parent)) {
    return { problem: `\`${decl.name.text}\` is not declared at the top level of its module.` };
  }
  const exported = (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  if (!exported) return { problem: `\`${decl.name.text}\` is not exported.` };
  return { declaration: decl, name: decl.name.text, statement };
}

/** An inline function argument (arrow or function expression), parentheses removed. */
export function inlineFunction(ts: TypeScript, node: TS.Node | undefined): TS.ArrowFunction | TS.FunctionExpression | undefined {
  let n = node;
  while (n && ts.isParenthesizedExpression(n)) n = n.expression;
  return n && (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) ? n : undefined;
}

/** The single returned expression of a function: an expression body, or a block `{ return e; }`. */
export function returnedExpression(ts: TypeScript, fn: TS.ArrowFunction | TS.FunctionExpression): TS.Expression | undefined {
  if (!ts.isBlock(fn.body)) return fn.body;
  const [only, ...rest] = fn.body.statements;
  return only && rest.length === 0 && ts.isReturnStatement(only) ? only.expression : undefined;
}

/** Strip parentheses and type assertions that do not change a value. */
export function skipOuterExpressions(ts: TypeScript, node: TS.Expression): TS.Expression {
  let n = node;
  for (;;) {
    if (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n) || ts.isNonNullExpression(n)) n = n.expression;
    else return n;
  }
}
