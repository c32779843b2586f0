/**
 * Promises about a tool result's elements: `ensures((r, prefix) => r.every((n) => n.startsWith(prefix)))`.
 * One reader of the shape serves the layer rules (which refuse every other use of `every` in an
 * `ensures`, on its node) and the prover (which assumes the element condition for every element
 * it reads), so the two cannot disagree about what is modelled.
 */
import type * as TS from "typescript";
import type { TypeScript } from "./context";

export type ElementPromise =
  /** The predicate does not use `every`: an ordinary promise about the result. */
  | { readonly kind: "none" }
  /** `(r, ...params) => r.every((x) => condition)`: `condition` holds of every element. */
  | { readonly kind: "element"; readonly element: TS.ArrowFunction | TS.FunctionExpression }
  /** `every` used in a shape the prover does not model: refused on `node`. */
  | { readonly kind: "malformed"; readonly node: TS.Node; readonly problem: string };

export const ELEMENT_PROMISE_FORM = "Write an element promise as its own `ensures((r, param) => r.every((x) => condition over x and the parameters))`, and other facts (`r.length <= N`) in another `ensures`.";

function unwrap(ts: TypeScript, e: TS.Expression): TS.Expression {
  let x = e;
  while (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isSatisfiesExpression(x) || ts.isNonNullExpression(x)) x = x.expression;
  return x;
}

/** Every `.every(...)` call in `node` (nested functions included). */
function everyCalls(ts: TypeScript, node: TS.Node): TS.CallExpression[] {
  const out: TS.CallExpression[] = [];
  const visit = (n: TS.Node): void => {
    if (ts.isCallExpression(n)) {
      const callee = unwrap(ts, n.expression);
      if ((ts.isPropertyAccessExpression(callee) && callee.name.text === "every") || (ts.isElementAccessExpression(callee) && ts.isStringLiteralLike(callee.argumentExpression) && callee.argumentExpression.text === "every")) out.push(n);
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

/** Whether `node` mentions the identifier declared by `decl` (by symbol when a checker is given, else by name). */
function mentions(ts: TypeScript, node: TS.Node, name: string, checker: TS.TypeChecker | undefined, decl: TS.Declaration): TS.Identifier | undefined {
  const target = checker?.getSymbolAtLocation((decl as TS.ParameterDeclaration).name);
  let found: TS.Identifier | undefined;
  const visit = (n: TS.Node): void => {
    if (found) return;
    if (ts.isIdentifier(n) && n.text === name) {
      const parent = n.parent;
      const isPropertyName = parent && ts.isPropertyAccessExpression(parent) && parent.name === n;
      if (!isPropertyName && (!checker || !target || checker.getSymbolAtLocation(n) === target)) found = n;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** The shape of an `ensures` predicate with respect to `every`. */
export function elementPromiseOf(ts: TypeScript, fn: TS.ArrowFunction | TS.FunctionExpression, checker?: TS.TypeChecker): ElementPromise {
  const calls = everyCalls(ts, fn.body);
  if (calls.length === 0) return { kind: "none" };
  const result = fn.parameters[0];
  const resultName = result && ts.isIdentifier(result.name) ? result.name.text : undefined;
  const body = ts.isBlock(fn.body) ? undefined : unwrap(ts, fn.body);
  const top = body && ts.isCallExpression(body) && calls.includes(body) ? body : undefined;
  if (!top || !resultName) {
    return { kind: "malformed", node: calls[0]!, problem: "`every` in an `ensures` is modelled only as the whole predicate, over the result." };
  }
  const target = unwrap(ts, (unwrap(ts, top.expression) as TS.PropertyAccessExpression | TS.ElementAccessExpression).expression);
  if (!ts.isIdentifier(target) || target.text !== resultName) {
    return { kind: "malformed", node: top, problem: `\`every\` in an \`ensures\` is modelled only on the result \`${resultName}\`.` };
  }
  const inner = calls.find((c) => c !== top);
  if (inner) return { kind: "malformed", node: inner, problem: "An element condition cannot use `every` again (arrays inside elements are not modelled)." };
  const arg = top.arguments[0] && unwrap(ts, top.arguments[0]);
  if (top.arguments.length !== 1 || !arg || !(ts.isArrowFunction(arg) || ts.isFunctionExpression(arg))) {
    return { kind: "malformed", node: top.arguments[0] ?? top, problem: "`every` takes one inline function of the element." };
  }
  const param = arg.parameters[0];
  if (arg.parameters.length !== 1 || !param || !ts.isIdentifier(param.name) || param.dotDotDotToken || param.initializer || param.questionToken) {
    return { kind: "malformed", node: arg.parameters.length > 0 ? arg.parameters[Math.min(1, arg.parameters.length - 1)]! : arg, problem: "The element condition takes exactly one plain parameter, the element (no index, no array)." };
  }
  if (arg.asteriskToken || arg.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) {
    return { kind: "malformed", node: arg, problem: "The element condition is a plain synchronous function." };
  }
  const again = mentions(ts, arg.body, resultName, checker, result!);
  if (again) return { kind: "malformed", node: again, problem: `The element condition reads the whole result \`${resultName}\`; it may read only the element and the tool's parameters.` };
  return { kind: "element", element: arg };
}
