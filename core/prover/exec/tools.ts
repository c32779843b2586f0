/** Calls of trusted tools: `requires` as obligations, `performs` as facts, the result constrained by `ensures`. */
import type * as TS from "typescript";
import type { ToolModel, ValueType } from "../../model";
import { showValueType } from "../../types";
import { and, implies } from "../smt";
import { UNDEF, type Sym } from "../values";
import { BOUNDED_UNROLL_CAP } from "./caps";
import { refuse, skip, symbolOfDecl, withPure, type Exec } from "./context";
import { isElementPromise, promiseElements } from "./elements";
import { evalExpr } from "./expressions";
import { recordWrites } from "./fluents";
import { bounded, freshValue } from "./fresh";
import { integerRanges } from "./ranges";
import { cond, definite, noFunctionValue } from "./guards";
import type { State } from "./state";
import { insideTry, mayFail } from "./try";
import { exitOrder } from "./exit-states";
import { bindObjectArgument, toolObjectArguments } from "./objects";
import { evalFunctionBodyValue } from "./statements";

/** A trusted call: preconditions become obligations, events become facts under the path, `ensures` become assumptions. */
export function callTool(ex: Exec, tool: ToolModel, e: TS.CallExpression, st: State): Sym {
  if (ex.pureOnly || ex.contractStack.length > 0) refuse(e, "Tools cannot be called here (module top level, contract bodies and predicates are pure).", "Call tools inside `main` or its helpers.");
  const args = new Map<string, Sym>();
  if (tool.objectParameter) {
    // One object of named arguments (objects.ts): each property is checked as a parameter.
    const given = toolObjectArguments(ex, tool, e, st);
    const at = e.arguments[0]!;
    for (const p of tool.parameters) {
      const v = definite(ex, given.get(p.name)!, at, st);
      noFunctionValue(v, at);
      checkKind(v, p.type, at, `${tool.name}({ ${p.name} })`);
      args.set(p.name, v);
    }
  } else {
    if (e.arguments.length !== tool.parameters.length) refuse(e, `\`${tool.name}\` takes ${tool.parameters.length} argument(s).`, "Pass every parameter explicitly.");
    tool.parameters.forEach((p, i) => {
      const v = definite(ex, evalExpr(ex, e.arguments[i]!, st), e.arguments[i]!, st);
      noFunctionValue(v, e.arguments[i]!);
      checkKind(v, p.type, e.arguments[i]!, `${tool.name}(${p.name})`);
      args.set(p.name, v);
    });
  }
  const loops = [...ex.loops];
  const bindNamed = (fn: TS.ArrowFunction | TS.FunctionExpression, offset: number): Map<TS.Symbol, Sym> => {
    const env = new Map<TS.Symbol, Sym>();
    const object = fn.parameters[offset];
    if (tool.objectParameter) {
      if (object) bindObjectArgument(ex, object, args, env);
    } else fn.parameters.slice(offset).forEach((p) => env.set(symbolOfDecl(ex, p), args.get(p.name.getText()) ?? UNDEF));
    return env;
  };
  let pc = st.pc;
  for (const r of tool.requires) {
    const env = bindNamed(r.fn, 0);
    const holds = cond(withPure(ex, () => evalFunctionBodyValue(ex, r.fn, { pc: "true", env })), r.fn);
    ex.world.obligations.push({ tool, message: r.message ?? r.fn.getText(), holds, guard: pc, site: e, args, loops, order: exitOrder(ex, st), ...(insideTry(ex) ? { inTry: true as const } : {}) });
    pc = and(pc, holds);
  }
  const order = ex.world.nextOrder();
  const unordered = ex.unordered > 0 ? { unordered: true as const } : {};
  ex.world.facts.push({ kind: "call", event: undefined, tool, fields: args, guard: pc, site: e, loops, order, ...unordered });
  for (const ev of tool.performs?.events ?? []) {
    const event = ex.layer.events.get(ev.eventId);
    if (!event) continue;
    const fields = new Map<string, Sym>();
    for (const f of event.fields) fields.set(f.name, args.get(ev.fields[f.name]!) ?? UNDEF);
    ex.world.facts.push({ kind: "event", event, tool, fields, guard: pc, site: e, loops, order: ex.world.nextOrder(), ...unordered });
  }
  // Inside a `try`, the implementation may throw after the events (try.ts): `after` is the path on which it returned.
  const pos = e.getSourceFile().getLineAndCharacterOfPosition(e.getStart());
  const label = `${tool.name}@${pos.line + 1}:${pos.character + 1}`;
  const after = mayFail(ex, pc, label, st);
  recordWrites(ex, tool, args, pc, after, loops, e);
  // The result: a fresh value of the declared type, constrained by the tool's `ensures`.
  const fresh = freshValue(ex, label, tool.returnType, e, [], integerRanges(ex, tool));
  const result = promiseElements(ex, tool, fresh.k === "sarr" ? bounded(ex, fresh, lengthBound(ex, tool)) : fresh, args, pc, loops);
  // The result exists after the call's events: a counterexample at this call does not show it.
  if (result.k !== "undef" && result.k !== "opaque") ex.world.toolResults.push({ label, sym: result, loops, order: ex.world.nextOrder(), guard: pc });
  for (const en of tool.ensures) {
    if (isElementPromise(ex, en.fn)) continue; // assumed of each element read (elements.ts)
    const env = bindNamed(en.fn, 1);
    const first = en.fn.parameters[0];
    if (first) env.set(symbolOfDecl(ex, first), result);
    const holds = cond(withPure(ex, () => evalFunctionBodyValue(ex, en.fn, { pc: "true", env })), en.fn);
    // A promise about the result holds in every run that makes the call: an assumption about
    // the world, not a condition on the path after the call. (On the path, a run in which the
    // promise fails would look like one that stops at the call, and "at least n events" would
    // fail for it.)
    if (holds !== "true") ex.world.assumptions.push({ term: implies(pc, holds), loops });
  }
  st.pc = after;
  return result;
}

/** `ensures((r) => r.length <= K)` (possibly inside `&&`) with a literal K: the result array is unrolled exactly. */
function lengthBound(ex: Exec, tool: ToolModel): number | undefined {
  const ts = ex.ts;
  for (const en of tool.ensures) {
    const fn = en.fn;
    const result = fn.parameters[0];
    if (!result || !ts.isIdentifier(result.name)) continue;
    const name = result.name.text;
    const body = ts.isBlock(fn.body) ? undefined : fn.body;
    const conj: TS.Expression[] = [];
    const collect = (x: TS.Expression): void => {
      const y = skip(ex, x);
      if (ts.isBinaryExpression(y) && y.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) { collect(y.left); collect(y.right); } else conj.push(y);
    };
    if (body) collect(body);
    for (const c of conj) {
      if (!ts.isBinaryExpression(c)) continue;
      const l = skip(ex, c.left), r = skip(ex, c.right);
      const isLen = ts.isPropertyAccessExpression(l) && l.name.text === "length" && ts.isIdentifier(l.expression) && l.expression.text === name;
      if (!isLen || !ts.isNumericLiteral(r)) continue;
      const k = Number(r.text);
      const bound = c.operatorToken.kind === ts.SyntaxKind.LessThanEqualsToken ? Math.floor(k) : c.operatorToken.kind === ts.SyntaxKind.LessThanToken ? Math.ceil(k) - 1 : undefined;
      if (bound !== undefined && bound >= 0 && bound <= BOUNDED_UNROLL_CAP) return bound;
    }
  }
  return undefined;
}

function checkKind(v: Sym, type: ValueType, at: TS.Node, what: string): void {
  const ok =
    type.kind === "string" || type.kind === "FilePath" || type.kind === "DirectoryPath" ? v.k === "str"
    : type.kind === "number" ? v.k === "num"
    : type.kind === "boolean" ? v.k === "bool"
    : type.kind === "array" ? v.k === "arr" || v.k === "sarr"
    : type.kind === "record" ? v.k === "rec"
    : false;
  if (!ok) refuse(at, `The argument for ${what} is not a modelled ${showValueType(type)} value.`, `Pass a ${showValueType(type)}.`);
}
