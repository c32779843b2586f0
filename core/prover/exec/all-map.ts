/**
 * `await Promise.all(xs.map(…))`: every element's callback, each element's calls made before any
 * settles (callbacks.ts runs the callbacks themselves; await.ts hands the expression here).
 */
import type * as TS from "typescript";
import { and, not, or } from "../smt";
import { num, UNDEF, type FunctionLike, type Sym } from "../values";
import { asyncImplementation, toolOf } from "./await";
import { keptIndex, mappedEntries, quantified, runWith, viewOf, type View } from "./callbacks";
import { isAsync, isDefaultLibSymbol, refuse, skip, type Exec } from "./context";
import { evalExpr } from "./expressions";
import type { State } from "./state";
import { insideTry } from "./try";

/**
 * `await Promise.all(xs.map(async (x) => …))` (await.ts hands it here). When the callback's body is
 * one call of a trusted tool (`tool(…)` or `await tool(…)`, not a helper of the program) whose arguments call only built-ins, every
 * element's call is made, in array order, before any settles. Any other async arrow (a block,
 * several awaits, an argument that calls) runs each element's callback in order too, but in a run
 * the callbacks' calls interleave once they reach an await: the facts are marked `unordered` (one
 * order among those a run may have), which bags and integer sums do not see; a Float64 sum over
 * them and a fluent written there are refused (encode.ts, fluents.ts). A failure rejects only that
 * element's promise (the others' calls still happen): each element runs under the path before the
 * `Promise.all`, and the path after it needs every element to have completed.
 */
export function awaitAllMap(ex: Exec, mapCall: TS.CallExpression, st: State): Sym {
  const ts = ex.ts;
  const callee = skip(ex, mapCall.expression);
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== "map" || mapCall.arguments.length !== 1) {
    refuse(mapCall, "`Promise.all` is modelled on an array literal of tool calls or on `xs.map(async (x) => tool(…))`.", "Write `await Promise.all(xs.map(async (x) => tool(x)))`, or await each call in turn: `for (const x of xs) { await tool(x); }`.");
  }
  const target = evalExpr(ex, callee.expression, st);
  const view = viewOf(target);
  if (!view) refuse(callee.expression, "`map` is modelled on arrays only.", "Call it on an array input, a literal array or an array returned by a tool.");
  const arg = skip(ex, mapCall.arguments[0]!);
  const shape = "The callback of `Promise.all(xs.map(…))` must be an `async` arrow function written in place (or an arrow that returns one call of an `async` tool, outside a `try`).";
  if (!ts.isArrowFunction(arg) || (!isAsync(ex, arg) && !returnsToolPromise(ex, arg))) refuse(arg, shape, "Write `async (x) => tool(x)` or `async (x) => { await a(x); await b(x); }`, or await the calls in turn with `for…of`.");
  const body = ts.isBlock(arg.body) ? undefined : skip(ex, ts.isAwaitExpression(skip(ex, arg.body)) ? (skip(ex, arg.body) as TS.AwaitExpression).expression : arg.body);
  // One call of a trusted tool whose arguments call nothing: every element's call is made, in
  // array order, before any settles. Anything else (a block, several awaits, a helper of the
  // program, which may await before its calls and throws: adv38 ca01, ca15) interleaves the
  // callbacks' calls once the first await is reached: their events are one order among those a
  // run may have, and the first rejection in time is any element's (`unordered`).
  const single = body !== undefined && ts.isCallExpression(body) && toolOf(ex, body) !== undefined && !body.arguments.some((a) => containsCallOrAwait(ex, a));
  const { fn } = callbackOfAsync(ex, arg);
  if (!single) ex.unordered++;
  const throwsBefore = ex.world.throws.length;
  try {
    const value = runAllMap(ex, view, fn, mapCall, st);
    if (!isAsync(ex, arg) && ex.world.throws.length > throwsBefore) {
      refuse(arg, "This arrow is not `async`, and evaluating its call's arguments may throw: JavaScript would stop `map` at that element (an `async` arrow rejects only its element's promise).", "Write `async (x) => tool(…)`, or make the arguments safe (test a value that may be undefined first).");
    }
    return value;
  } finally {
    if (!single) ex.unordered--;
  }
}

/**
 * `(x) => tool({ … })`, not `async`: the arrow returns the promise of one call of a tool whose
 * implementation is `async` (its failed `requires` rejects that promise, as in an `async` arrow),
 * with arguments that call only built-ins (`Math.min(c.amount, 1000)`). What is left that differs
 * from `async (x) => tool(…)` is a throw while the arguments are evaluated (a value that may be
 * undefined, a built-in that throws), which would stop `map` at that element: `awaitAllMap`
 * refuses the arrow where its run records one, and it is refused inside a `try`.
 */
function returnsToolPromise(ex: Exec, arrow: TS.ArrowFunction): boolean {
  const ts = ex.ts;
  if (ts.isBlock(arrow.body) || insideTry(ex)) return false;
  const body = skip(ex, arrow.body);
  if (!ts.isCallExpression(body) || body.questionDotToken || body.expression !== skip(ex, body.expression)) return false;
  const tool = toolOf(ex, body);
  return tool !== undefined && asyncImplementation(ex, tool) && !body.arguments.some((a) => containsCallOrAwait(ex, a));
}

/** Every element's callback, for `awaitAllMap`. */
function runAllMap(ex: Exec, view: View, fn: FunctionLike, mapCall: TS.CallExpression, st: State): Sym {
  const base = view.base;
  const before = st.pc;
  if (base.k === "arr" || base.bound !== undefined) {
    const count = base.k === "arr" ? base.items.length : base.bound!;
    const after: string[] = [];
    const entries: { present: string; value: Sym }[] = [];
    const kept: string[] = [];
    for (let j = 0; j < count; j++) {
      const present = and(base.k === "arr" ? "true" : `(< ${j} ${base.len})`, view.keep ? view.keep(String(j)) : "true");
      if (present === "false") {
        entries.push({ present, value: UNDEF });
        continue;
      }
      const index = view.keep ? keptIndex(kept) : num(j);
      kept.push(present);
      const el: State = { pc: and(before, present), env: st.env };
      entries.push({ present, value: runWith(ex, fn, [base.k === "arr" ? base.items[j]! : base.at(String(j)), index], el) });
      after.push(el.pc === and(before, present) ? before : or(el.pc, and(before, not(present))));
    }
    st.pc = after.length === 0 ? before : and(...after);
    // The resolved values in array order (Promise.all keeps it, whatever order the calls settle in):
    // element j is the result of element j's call, the array `map` itself would give.
    return mappedEntries(ex, view, entries, mapCall);
  }
  return quantified(ex, view, fn, "map", mapCall, st, true);
}

/**
 * An argument that calls or awaits something other than a built-in (`encodeURIComponent(x)`,
 * `x.trim()`, `Math.min(a, b)`): a helper or a tool called there would run between the elements'
 * calls. A built-in performs no event, and one that throws rejects only its element's promise (the
 * callback is `async`), as a failed `requires` does; the prover models it or refuses it where it is.
 */
function containsCallOrAwait(ex: Exec, node: TS.Node): boolean {
  const ts = ex.ts;
  let found = false;
  const builtin = (call: TS.CallExpression): boolean => {
    const callee = skip(ex, call.expression);
    const symbol = ex.checker.getSymbolAtLocation(ts.isPropertyAccessExpression(callee) ? callee.name : callee);
    return symbol !== undefined && isDefaultLibSymbol(ex, symbol);
  };
  const visit = (n: TS.Node): void => {
    if (found) return;
    if ((ts.isCallExpression(n) && !builtin(n)) || ts.isAwaitExpression(n) || ts.isNewExpression(n) || ts.isTaggedTemplateExpression(n) || ts.isFunctionLike(n)) found = true;
    else ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

function callbackOfAsync(ex: Exec, fn: TS.ArrowFunction): { fn: FunctionLike } {
  const ts = ex.ts;
  if (fn.parameters.length > 2) refuse(fn.parameters[2]!, "The callback's parameter for the array itself is not modelled.", "Use the array by its own name.");
  fn.parameters.forEach((p, i) => {
    // The element may be destructured (`async ({ account, amount }) => pay({ account, amount })`): its
    // fields are read when the callback starts, before its call, as in a synchronous callback.
    const pattern = i === 0 && (ts.isObjectBindingPattern(p.name) || ts.isArrayBindingPattern(p.name));
    if ((!ts.isIdentifier(p.name) && !pattern) || p.dotDotDotToken || p.initializer || p.questionToken) {
      refuse(p, "The callback's parameters must be plain identifiers or, for the element, a pattern (element, index).", "Write `async (x) => tool(x)` or `async ({ a, b }) => tool(a, b)`.");
    }
  });
  return { fn };
}
