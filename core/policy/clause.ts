/**
 * A policy clause: one contract call with literal arguments, written as `clauz3 describe` shows a
 * qualified call — `email.atMostEmailsTo("ceo@example.com", 0)` (positional) or
 * `email.atMostEmailsTo(recipient="ceo@example.com", n=0)` (named), positional ones first. The
 * callee is the library-qualified name up to the first `(` (a library's domain is a folder name,
 * which need not be an identifier); the argument list is parsed by TypeScript's parser, and each
 * argument must be a literal: a string, a number (a leading `-` allowed), `true`/`false`,
 * `FilePath("…")`, `DirectoryPath("…")` or an array of those. Anything else is a `ClauseSyntaxError`.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import type { LiteralValue } from "../guarantees";

export interface ParsedClause {
  /** `email.atMostEmailsTo` */
  readonly callee: string;
  readonly positional: readonly LiteralValue[];
  readonly named: readonly { readonly name: string; readonly value: LiteralValue }[];
}

/** Why a clause is not a contract call with literal arguments. */
export class ClauseSyntaxError extends Error {
  constructor(readonly problem: string) {
    super(problem);
    this.name = "ClauseSyntaxError";
  }
}

const QUALIFIED = "a contract call written as `clauz3 describe` shows it, e.g. `email.atMostEmailsTo(\"ceo@example.com\", 0)` or `email.atMostEmailsTo(recipient=\"ceo@example.com\", n=0)`";
const LITERALS = "a string, a number, true or false, FilePath(\"…\"), DirectoryPath(\"…\") or an array of those";

/** Whether the parser flagged a node of the tree (a syntax error anywhere in it). */
function hasError(ts: TypeScript, node: TS.Node): boolean {
  if ((node.flags & ts.NodeFlags.ThisNodeHasError) !== 0) return true;
  if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && node.isUnterminated) return true;
  return ts.forEachChild(node, (child) => (hasError(ts, child) ? true : undefined)) ?? false;
}

function literal(ts: TypeScript, e: TS.Expression, text: (n: TS.Node) => string): LiteralValue {
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return { kind: "string", value: e.text };
  if (ts.isNumericLiteral(e)) return { kind: "number", value: Number(e.text) };
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand)) return { kind: "number", value: -Number(e.operand.text) };
  if (e.kind === ts.SyntaxKind.TrueKeyword) return { kind: "boolean", value: true };
  if (e.kind === ts.SyntaxKind.FalseKeyword) return { kind: "boolean", value: false };
  if (ts.isArrayLiteralExpression(e)) {
    return {
      kind: "array",
      items: e.elements.map((el) => {
        if (ts.isSpreadElement(el) || ts.isOmittedExpression(el)) throw new ClauseSyntaxError(`has \`${text(el) || "a hole"}\` in an array: list each element literally (${LITERALS})`);
        return literal(ts, el, text);
      }),
    };
  }
  if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && (e.expression.text === "FilePath" || e.expression.text === "DirectoryPath") && !e.typeArguments && !e.questionDotToken) {
    const kind = e.expression.text;
    const inner = e.arguments.length === 1 ? e.arguments[0]! : undefined;
    if (!inner || !(ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner))) throw new ClauseSyntaxError(`has \`${text(e)}\`: ${kind}(…) takes one string literal`);
    return { kind, value: inner.text };
  }
  throw new ClauseSyntaxError(`has \`${text(e)}\` as an argument, which is not a literal: write ${LITERALS}`);
}

/** Parse one clause; throws `ClauseSyntaxError` saying what is wrong. */
export function parseClause(ts: TypeScript, clause: string): ParsedClause {
  const open = clause.indexOf("(");
  const callee = (open < 0 ? clause : clause.slice(0, open)).trim();
  if (open < 0 || callee === "") throw new ClauseSyntaxError(`is not ${QUALIFIED}`);
  if (!/^[^\s.()"'`]+(?:\.[^\s.()"'`]+)+$/.test(callee)) throw new ClauseSyntaxError(`names \`${callee}\`, which is not a library-qualified contract name (\`library.contract\`): write ${QUALIFIED}`);
  // The argument list, parsed as the arguments of a call of a placeholder.
  const source = `__clause${clause.slice(open)}`;
  const file = ts.createSourceFile("clause.ts", source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const text = (n: TS.Node): string => n.getText(file);
  const statement = file.statements[0];
  const call = statement && ts.isExpressionStatement(statement) ? statement.expression : undefined;
  if (hasError(ts, file) || file.statements.length !== 1 || !call || !ts.isCallExpression(call) || !ts.isIdentifier(call.expression) || call.expression.text !== "__clause" || call.typeArguments || call.questionDotToken) {
    throw new ClauseSyntaxError(`does not parse as ${QUALIFIED}`);
  }
  const positional: LiteralValue[] = [];
  const named: { name: string; value: LiteralValue }[] = [];
  for (const arg of call.arguments) {
    if (ts.isBinaryExpression(arg) && arg.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      if (!ts.isIdentifier(arg.left)) throw new ClauseSyntaxError(`has \`${text(arg)}\`: a named argument is \`name=literal\``);
      const name = arg.left.text;
      if (named.some((n) => n.name === name)) throw new ClauseSyntaxError(`names the argument \`${name}\` twice`);
      named.push({ name, value: literal(ts, arg.right, text) });
      continue;
    }
    if (named.length > 0) throw new ClauseSyntaxError(`has the positional argument \`${text(arg)}\` after a named one: positional arguments come first`);
    if (ts.isSpreadElement(arg)) throw new ClauseSyntaxError(`has \`${text(arg)}\`: pass each argument literally`);
    positional.push(literal(ts, arg, text));
  }
  return { callee, positional, named };
}
