/**
 * `await` and async functions. An async tool's call, or an async helper's, is modelled only where
 * its promise is awaited at once (`await tool(…)`, or `return tool(…)` in an async function): the
 * program then runs one call at a time, so a sequence of awaits is program order, exactly like
 * synchronous calls, and the awaited value is the tool's `T` (or the helper's returned value).
 * A call whose promise is kept (stored, passed, dropped, chained with `.then`) still performs its
 * events, in an order the program no longer controls: refused on its node.
 */
import type * as TS from "typescript";
import type { ToolModel } from "../../model";
import { resolveDeclaration } from "../../runtime-symbols";
import { and } from "../smt";
import type { FunctionLike, Sym } from "../values";
import { isDefaultLibSymbol, refuse, skip, type Exec } from "./context";
import { evalExpr } from "./expressions";
import type { State } from "./state";
import { callTool } from "./tools";
import { awaitAllMap } from "./all-map";

const AWAIT_EACH = "Await each call where you make it: `const r = await tool(…)`, or `for (const x of xs) { await tool(x); }` for several.";

/** `await e`: `e` must be a call of an async tool or async helper (checked where the call resolves). */
export function evalAwait(ex: Exec, e: TS.AwaitExpression, st: State): Sym {
  const ts = ex.ts;
  const operand = skip(ex, e.expression);
  if (ts.isCallExpression(operand) && isPromiseMethod(ex, operand, "all")) return awaitAll(ex, operand, st);
  if (ts.isCallExpression(operand)) return evalExpr(ex, e.expression, st);
  if (ts.isIdentifier(operand) || ts.isPropertyAccessExpression(operand) || ts.isElementAccessExpression(operand)) {
    if (isPromiseType(ex, ex.checker.getTypeAtLocation(operand))) {
      refuse(e, "A promise stored and awaited later: its call started where it was stored, and other calls may run in between.", AWAIT_EACH);
    }
  }
  refuse(e, "`await` of a value that is not the call of an async tool or async helper.", "Await only calls of async tools and async helpers; use other values directly.");
}

/**
 * The promise of `call` is awaited at once: the call is the operand of `await`, or it is returned
 * (`return f(…)`, or an arrow's expression body) from an async function.
 */
export function awaitedAtOnce(ex: Exec, call: TS.CallExpression): boolean {
  const ts = ex.ts;
  let node: TS.Node = call;
  while (
    ts.isParenthesizedExpression(node.parent) || ts.isAsExpression(node.parent) || ts.isSatisfiesExpression(node.parent) ||
    ts.isNonNullExpression(node.parent) || ts.isTypeAssertionExpression(node.parent)
  ) node = node.parent;
  const parent = node.parent;
  if (ts.isAwaitExpression(parent)) return true;
  if (ts.isArrowFunction(parent) && parent.body === node) return isAsyncFunction(ex, parent) || mapCallbackOfAwaitedAll(ex, parent);
  if (ts.isReturnStatement(parent)) {
    let fn: TS.Node | undefined = parent.parent;
    while (fn && !ts.isFunctionLike(fn)) fn = fn.parent;
    return fn !== undefined && isAsyncFunction(ex, fn as TS.SignatureDeclaration);
  }
  return false;
}

/**
 * The arrow is the callback of `await Promise.all(xs.map(arrow))`: the promise it returns is the
 * element's promise, awaited by the `Promise.all` (all-map.ts `awaitAllMap` decides which arrows
 * that are not `async` it accepts there).
 */
function mapCallbackOfAwaitedAll(ex: Exec, arrow: TS.ArrowFunction): boolean {
  const ts = ex.ts;
  const up = (n: TS.Node): TS.Node => {
    let x = n;
    while (ts.isParenthesizedExpression(x.parent)) x = x.parent;
    return x;
  };
  const map = up(arrow).parent;
  if (!map || !ts.isCallExpression(map) || map.arguments.length !== 1 || up(map.arguments[0]!) !== up(arrow)) return false;
  const callee = skip(ex, map.expression);
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== "map") return false;
  const all = up(map).parent;
  if (!all || !ts.isCallExpression(all) || all.arguments.length !== 1 || !isPromiseMethod(ex, all, "all")) return false;
  return ts.isAwaitExpression(up(all).parent);
}

/** The call's operand position is `await` (as opposed to a `return` in an async function). */
function underAwait(ex: Exec, call: TS.CallExpression): TS.AwaitExpression | undefined {
  const ts = ex.ts;
  let node: TS.Node = call.parent;
  while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node) || ts.isTypeAssertionExpression(node)) node = node.parent;
  return ts.isAwaitExpression(node) ? node : undefined;
}

/**
 * Check how a resolved call meets `await`: an async target must be awaited at once; `await` of a
 * synchronous target is refused (it would only add a tick, but it says the author expected a
 * promise, and a later change to the tool would go unnoticed).
 */
export function checkAwaited(ex: Exec, call: TS.CallExpression, async: boolean, what: string): void {
  if (async && !awaitedAtOnce(ex, call)) {
    refuse(call, `The promise of ${what} is not awaited where it is made: the call still performs its events, at a time the program does not control (fire-and-forget, stored or chained promises are not modelled).`, AWAIT_EACH);
  }
  const awaiting = underAwait(ex, call);
  if (!async && awaiting) refuse(awaiting, `\`await\` of ${what}, which does not return a promise.`, "Call it without `await`.");
}

/**
 * `await Promise.all([tool(a), tool(b), …])`, each element a direct call of a tool whose
 * implementation is `async`, with arguments that call nothing. Every call is made, in array order,
 * before any of them settles: a trusted call records its events when it is made, so the trace
 * holds them in array order (only the order in which they finish is not the program's, and no
 * contract sees it). A failed `requires` rejects that call's promise without stopping the calls
 * after it, so each call happens under the path before the `Promise.all`, and the path after it
 * needs every precondition. The value is the array of the results.
 */
function awaitAll(ex: Exec, call: TS.CallExpression, st: State): Sym {
  const ts = ex.ts;
  const arg = call.arguments.length === 1 ? skip(ex, call.arguments[0]!) : undefined;
  if (arg && ts.isCallExpression(arg) && ts.isPropertyAccessExpression(skip(ex, arg.expression)) && (skip(ex, arg.expression) as TS.PropertyAccessExpression).name.text === "map") return awaitAllMap(ex, arg, st);
  if (!arg || !ts.isArrayLiteralExpression(arg)) {
    refuse(call, "`Promise.all` is modelled only on an array literal of tool calls (`Promise.all(xs.map(…))` runs callbacks whose calls may interleave).", "Write `await Promise.all([tool(a), tool(b)])`, or await each call in turn: `for (const x of xs) { await tool(x); }`.");
  }
  const calls = arg.elements.map((el) => {
    const c = skip(ex, el as TS.Expression);
    const tool = ts.isCallExpression(c) && c.expression === skip(ex, c.expression) ? toolOf(ex, c) : undefined;
    if (!tool || !ts.isCallExpression(c) || c.questionDotToken || !asyncImplementation(ex, tool)) {
      refuse(el, "Each element of `Promise.all([…])` must be a direct call of a trusted tool whose implementation is `async` (anything else may stop or interleave the other calls).", "Call the async tool directly in the array, or await the calls in turn.");
    }
    for (const a of c.arguments) {
      if (containsCall(ex, a)) refuse(a, "An argument of a call in `Promise.all([…])` calls or awaits something: the calls would no longer all be made before any settles.", "Compute the argument first: `const x = …;` before the `Promise.all`.");
    }
    return { tool, call: c };
  });
  const before = st.pc;
  const after: string[] = [];
  const items: Sym[] = [];
  for (const { tool, call: c } of calls) {
    st.pc = before;
    items.push(callTool(ex, tool, c, st));
    after.push(st.pc);
  }
  st.pc = after.length === 0 ? before : and(...after);
  return { k: "arr", items };
}

export function toolOf(ex: Exec, call: TS.CallExpression): ToolModel | undefined {
  const ts = ex.ts;
  const callee = call.expression;
  if (!ts.isIdentifier(callee) && !ts.isPropertyAccessExpression(callee)) return undefined;
  const decl = resolveDeclaration(ts, ex.checker, ex.checker.getSymbolAtLocation(ts.isPropertyAccessExpression(callee) ? callee.name : callee));
  return decl ? ex.layer.toolByDeclaration.get(decl) : undefined;
}

/** The tool's implementation is an `async` function: its checks reject its promise instead of throwing. */
export function asyncImplementation(ex: Exec, tool: ToolModel): boolean {
  return tool.async && isAsyncFunction(ex, tool.implementation);
}

function containsCall(ex: Exec, node: TS.Node): boolean {
  const ts = ex.ts;
  let found = false;
  const visit = (n: TS.Node): void => {
    if (found) return;
    if (ts.isCallExpression(n) || ts.isAwaitExpression(n) || ts.isNewExpression(n) || ts.isTaggedTemplateExpression(n)) found = true;
    else ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** `Promise.<method>(…)` with the global `Promise`. */
function isPromiseMethod(ex: Exec, call: TS.CallExpression, method: string): boolean {
  const ts = ex.ts;
  const callee = skip(ex, call.expression);
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== method) return false;
  const target = skip(ex, callee.expression);
  const symbol = ts.isIdentifier(target) && target.text === "Promise" ? ex.checker.getSymbolAtLocation(target) : undefined;
  return symbol !== undefined && isDefaultLibSymbol(ex, symbol);
}

/** `Promise.all(…)` and the promise methods: refused on the call, before its arguments run. */
export function refusePromiseApi(ex: Exec, e: TS.CallExpression): void {
  const ts = ex.ts;
  const callee = skip(ex, e.expression);
  if (!ts.isPropertyAccessExpression(callee)) return;
  const method = callee.name.text;
  const target = skip(ex, callee.expression);
  if (ts.isIdentifier(target) && target.text === "Promise") {
    const symbol = ex.checker.getSymbolAtLocation(target);
    if (symbol && isDefaultLibSymbol(ex, symbol)) {
      refuse(
        e,
        method === "all"
          ? "`Promise.all` is modelled only when awaited at once (`await Promise.all([tool(a), tool(b)])`)."
          : method === "allSettled"
          ? "`Promise.allSettled` is not modelled (it hides which calls failed)."
          : `\`Promise.${method}\` is not modelled (${method === "race" || method === "any" ? "its result depends on which call settles first" : "promises made by hand hide when their calls run"}).`,
        AWAIT_EACH,
      );
    }
  }
  if ((method === "then" || method === "catch" || method === "finally") && isPromiseType(ex, ex.checker.getTypeAtLocation(callee.expression))) {
    refuse(e, `\`.${method}(…)\` chains on a promise are not modelled (the callback runs at a time the program does not control).`, "Write `const r = await tool(…)` and use `r` in the statements that follow.");
  }
}

/** A helper is awaited when it is `async` or returns a `Promise` (the calls inside it are checked where they are made). */
export function helperReturnsPromise(ex: Exec, fn: FunctionLike): boolean {
  if (isAsyncFunction(ex, fn)) return true;
  const signature = ex.checker.getSignatureFromDeclaration(fn);
  return signature !== undefined && isPromiseType(ex, ex.checker.getReturnTypeOfSignature(signature));
}

/** A type is the global `Promise<T>` (or a union containing one). */
export function isPromiseType(ex: Exec, type: TS.Type): boolean {
  if (type.isUnion()) return type.types.some((t) => isPromiseType(ex, t));
  const symbol = type.getSymbol();
  return symbol !== undefined && symbol.getName() === "Promise" && isDefaultLibSymbol(ex, symbol);
}

function isAsyncFunction(ex: Exec, fn: TS.SignatureDeclaration): boolean {
  return (ex.ts.getModifiers(fn as TS.HasModifiers) ?? []).some((m) => m.kind === ex.ts.SyntaxKind.AsyncKeyword);
}
