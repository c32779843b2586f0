/**
 * Calls: which function a call reaches (a tool, a runtime export, a contract, a local helper, a
 * built-in method), and inlining local helpers.
 */
import type * as TS from "typescript";
import { Refusal } from "../../refusal";
import { resolveDeclaration, runtimeExportOf } from "../../runtime-symbols";
import { UNDEF, type FunctionLike, type Sym } from "../values";
import { checkAwaited, helperReturnsPromise, refusePromiseApi } from "./await";
import { callEncodeURIComponent } from "./uri";
import { callConsole, callMath, callMethod, callNumber } from "./builtins";
import { isAsync, isDefaultLibSymbol, refuse, skip, symbolOfDecl, type Exec } from "./context";
import { buildSpec } from "./contracts";
import { evalExpr } from "./expressions";
import { definite, noFunctionValue, notOpaque } from "./guards";
import { lookup } from "./names";
import { callArrayFrom } from "./array-from";
import { bindPattern, callObjectStatic } from "./objects";
import { callRuntime } from "./runtime";
import { branchValues, flowValue, type State } from "./state";
import { execBody } from "./statements";
import { callDate, callNumberGlobal, callParse, callStringGlobal } from "./strings";
import { callTool } from "./tools";
import { callJson } from "./json";
import { mapRead } from "./map-arrays";

export function evalCall(ex: Exec, e: TS.CallExpression, st: State): Sym {
  const ts = ex.ts;
  if (e.questionDotToken) refuse(e, "Optional calls are not modelled.", "Call the function directly.");
  if (e.flags & ex.ts.NodeFlags.OptionalChain) return optionalMethodCall(ex, e, st);
  // `out.push(...more)` is an array's change (locals.ts); other spread arguments are refused.
  const pushes = ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === "push";
  if (!pushes) for (const a of e.arguments) if (ts.isSpreadElement(a)) refuse(a, "Spread arguments are not modelled.", "Pass each argument explicitly.");
  refusePromiseApi(ex, e);
  const callee = skip(ex, e.expression);
  if (callee !== e.expression && !ts.isParenthesizedExpression(e.expression)) {
    // `(x as any)(...)`: still resolve below.
  }
  if (ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee)) {
    if (ts.isPropertyAccessExpression(callee) && callee.questionDotToken) refuse(callee, "Optional chaining is not modelled.", "Call the function directly.");
    const nameNode = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
    const symbol = ex.checker.getSymbolAtLocation(nameNode);
    const runtime = runtimeExportOf(ts, ex.checker, symbol);
    const decl = resolveDeclaration(ts, ex.checker, symbol);
    const tool = decl ? ex.layer.toolByDeclaration.get(decl) : undefined;
    if (tool) {
      if (callee !== e.expression) refuse(e.expression, "Calling a tool through a type assertion or parentheses is not modelled.", `Call it directly: \`${tool.name}(...)\`.`);
      checkAwaited(ex, e, tool.async, `the async tool \`${tool.name}\``);
      return callTool(ex, tool, e, st);
    }
    if (runtime) return callRuntime(ex, runtime, e, st);
    const contract = decl ? ex.layer.contractByDeclaration.get(decl) : undefined;
    if (contract) {
      if (ex.contractStack.length === 0) refuse(e, "Contracts are applied in `guarantees`, not called from the program.", "List the contract in `export const guarantees = [...]`.");
      const args = e.arguments.map((a) => evalExpr(ex, a, st));
      return { k: "spec", spec: buildSpec(ex, contract, args, e) };
    }
    if (ts.isIdentifier(callee) && callee.text === "encodeURIComponent" && isDefaultLibSymbol(ex, ex.checker.getSymbolAtLocation(callee) ?? ({} as TS.Symbol))) {
      return callEncodeURIComponent(ex, e, st);
    }
    if (ts.isIdentifier(callee) && (callee.text === "parseInt" || callee.text === "parseFloat") && isDefaultLibSymbol(ex, ex.checker.getSymbolAtLocation(callee) ?? ({} as TS.Symbol))) {
      return callParse(ex, callee.text, e, st);
    }
    if (ts.isIdentifier(callee) && (callee.text === "String" || callee.text === "Number") && isDefaultLibSymbol(ex, ex.checker.getSymbolAtLocation(callee) ?? ({} as TS.Symbol))) {
      return callee.text === "String" ? callStringGlobal(ex, e, st) : callNumberGlobal(ex, e, st);
    }
    if (ts.isIdentifier(callee)) {
      let v: Sym;
      try {
        v = lookup(ex, callee, st);
      } catch (error) {
        if (error instanceof Refusal) refuseToolValues(ex, e.arguments);
        throw error;
      }
      if (v.k === "fn") {
        if (ex.pureOnly) refuse(e, "Calls are not allowed here (top-level values and contract predicates are pure).", "Compute the value inside `main`.");
        return callHelper(ex, v.node, e, st);
      }
      refuse(callee, `\`${callee.text}\` is not a function the prover can follow.`, "Call trusted tools and local helpers by name.");
    }
    if (ts.isPropertyAccessExpression(callee)) {
      if (ts.isIdentifier(callee.expression) && callee.expression.text === "Math" && isDefaultLibSymbol(ex, ex.checker.getSymbolAtLocation(callee.expression) ?? ({} as TS.Symbol))) {
        return callMath(ex, callee.name.text, e, st);
      }
      if (ts.isIdentifier(callee.expression) && callee.expression.text === "Number" && isDefaultLibSymbol(ex, ex.checker.getSymbolAtLocation(callee.expression) ?? ({} as TS.Symbol))) {
        return callNumber(ex, callee.name.text, e, st);
      }
      if (ts.isIdentifier(callee.expression) && callee.expression.text === "Date" && isDefaultLibSymbol(ex, ex.checker.getSymbolAtLocation(callee.expression) ?? ({} as TS.Symbol))) {
        return callDate(ex, callee.name.text, e);
      }
      if (ts.isIdentifier(callee.expression) && callee.expression.text === "JSON" && isDefaultLibSymbol(ex, ex.checker.getSymbolAtLocation(callee.expression) ?? ({} as TS.Symbol))) {
        return callJson(ex, callee.name.text, e, st);
      }
      if (ts.isIdentifier(callee.expression) && callee.expression.text === "console" && isDefaultLibSymbol(ex, ex.checker.getSymbolAtLocation(callee.expression) ?? ({} as TS.Symbol))) {
        return callConsole(ex, callee.name.text, e, st);
      }
      if (ts.isIdentifier(callee.expression) && (callee.expression.text === "Object" || callee.expression.text === "Array") && isDefaultLibSymbol(ex, ex.checker.getSymbolAtLocation(callee.expression) ?? ({} as TS.Symbol))) {
        if (callee.expression.text === "Object") return callObjectStatic(ex, callee.name.text, e, st);
        if (callee.name.text === "from") return callArrayFrom(ex, e, st);
        refuse(e, `\`Array.${callee.name.text}\` is not modelled.`, "Use `Array.from`, array literals and the modelled array methods.");
      }
      const target = definite(ex, evalExpr(ex, callee.expression, st), callee.expression, st);
      return callMethod(ex, target, callee.name.text, e, st);
    }
  }
  refuseToolValues(ex, e.arguments);
  refuse(e.expression, "This call cannot be resolved to a trusted tool, a local helper or a modelled built-in.", "Call tools and helpers directly by name.");
}

/** Methods that change their receiver in place: on a receiver that may be undefined, not modelled. */
const CHANGES_RECEIVER: ReadonlySet<string> = new Set(["push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin", "add", "set", "delete", "clear"]);

/**
 * `a?.m(…)` and `a?.b.m(…)`, a built-in method called in an optional chain: `undefined` where the
 * chain short-circuits (the arguments are not evaluated there), else the method's result on the
 * defined value. Only the chain's own `?.` makes a value in it undefined (objects.ts
 * `readOptional`), so the receiver's "defined" condition is the chain's.
 */
function optionalMethodCall(ex: Exec, e: TS.CallExpression, st: State): Sym {
  const ts = ex.ts;
  const callee = skip(ex, e.expression);
  if (e.questionDotToken || !ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.name)) {
    refuse(e, "Optional calls (`f?.()`, `a.m?.()`) are not modelled.", "Call the function directly.");
  }
  const name = callee.name.text;
  // `m.get(k)?.push(x)`: the array a Map holds, where it holds one (map-arrays.ts).
  const grouped = (name === "push" || name === "unshift") && mapRead(ex, callee.expression) !== undefined;
  if (CHANGES_RECEIVER.has(name) && !grouped) refuse(e, `\`${name}\` in an optional chain changes a value that may be undefined, which is not modelled.`, `Test first: \`if (xs !== undefined) xs.${name}(…)\`.`);
  const receiver = evalExpr(ex, callee.expression, st);
  notOpaque(receiver, callee.expression);
  if (receiver.k === "undef") return UNDEF;
  if (receiver.k !== "maybe") return callMethod(ex, definite(ex, receiver, callee.expression, st), name, e, st);
  return branchValues(ex, st, receiver.def, (s) => callMethod(ex, receiver.v, name, e, s), () => UNDEF, e);
}

/** Inline a local helper: its events, obligations and throws happen at the call, under the caller's path. */
function callHelper(ex: Exec, fn: FunctionLike, call: TS.CallExpression, st: State): Sym {
  const ts = ex.ts;
  if (ex.inlining.includes(fn)) refuse(call, "Recursion is not modelled.", "Rewrite the helper without calling itself (for example, a `for` loop with a literal bound).");
  if (fn.asteriskToken) refuse(fn, "Generators are not modelled.", "Return an array instead.");
  checkAwaited(ex, call, helperReturnsPromise(ex, fn), isAsync(ex, fn) ? "an async helper" : "a helper");
  if (ex.inlining.length > 64) refuse(call, "Helpers are nested too deeply.", "Flatten the helpers.");
  const args: Sym[] = [];
  for (const a of call.arguments) {
    if (ts.isSpreadElement(a)) refuse(a, "Spread arguments are not modelled.", "Pass each argument explicitly.");
    args.push(evalExpr(ex, a, st));
  }
  const inner: State = { pc: st.pc, env: new Map(st.env) };
  fn.parameters.forEach((p, i) => {
    if (ts.isArrayBindingPattern(p.name) || p.dotDotDotToken) refuse(p, "Array-destructured and rest parameters are not modelled.", "Use plain parameters.");
    // A default applies whenever the argument is `undefined`: missing, passed as `undefined`, or
    // a possibly-undefined value on the paths where it is.
    let v = args[i] ?? UNDEF;
    if (p.initializer) {
      const init = p.initializer;
      if (v.k === "undef") v = evalExpr(ex, init, inner);
      else if (v.k === "maybe") {
        const given = v;
        v = branchValues(ex, inner, given.def, () => given.v, (s) => evalExpr(ex, init, s), p);
      }
    }
    noFunctionValue(v, call.arguments[i] ?? p);
    // `function f({ to, subject }: Message)` (objects.ts).
    if (!ts.isIdentifier(p.name)) bindPattern(ex, p.name, v, inner, call.arguments[i] ?? p);
    else inner.env.set(symbolOfDecl(ex, p), v);
  });
  ex.inlining.push(fn);
  ex.frames.push({ fn, loopBody: undefined });
  try {
    const flow = execBody(ex, fn, inner);
    const value = flowValue(flow, inner, fn);
    st.pc = inner.pc;
    noFunctionValue(value, call);
    return value;
  } finally {
    ex.frames.pop();
    ex.inlining.pop();
  }
}

/** A tool passed along (a callback, an alias) is the sharper refusal: report it on its own node. */
export function refuseToolValues(ex: Exec, nodes: readonly TS.Node[]): void {
  const ts = ex.ts;
  const visit = (n: TS.Node): void => {
    if (ts.isIdentifier(n) || ts.isPropertyAccessExpression(n)) {
      const name = ts.isPropertyAccessExpression(n) ? n.name : n;
      const decl = resolveDeclaration(ts, ex.checker, ex.checker.getSymbolAtLocation(name));
      const direct = ts.isCallExpression(n.parent) && n.parent.expression === n;
      if (decl && ex.layer.toolByDeclaration.has(decl) && !direct) {
        refuse(n, `The trusted tool \`${name.getText()}\` is used as a value (aliasing, callbacks and indirect calls hide calls from the prover).`, `Call it directly: \`${n.getText()}(...)\`.`);
      }
      if (ts.isPropertyAccessExpression(n)) visit(n.expression);
      return;
    }
    ts.forEachChild(n, visit);
  };
  nodes.forEach(visit);
}
