/**
 * Element promises of tool results (`ensures((r, prefix) => r.every((n) => n.startsWith(prefix)))`,
 * see core/element-promise.ts): the element condition is assumed of every element the program
 * reads — the element of a quantified loop's index, each unrolled element, the element an
 * `includes` over the result binds — and of the first few elements eagerly, so a counterexample's
 * short arrays keep the promise. Instantiating it per element read, instead of one quantified
 * assumption, keeps queries free of quantifiers; it assumes no more than the promise says.
 */
import type * as TS from "typescript";
import { ELEMENT_PROMISE_FORM, elementPromiseOf } from "../../element-promise";
import type { ToolModel } from "../../model";
import { and, implies } from "../smt";
import { UNDEF, type Sym } from "../values";
import { refuse, symbolOfDecl, withPure, type Exec } from "./context";
import { cond } from "./guards";
import { bindObjectArgument } from "./objects";
import { evalFunctionBodyValue } from "./statements";

/**
 * The quantified loop indices an element index depends on: none for a numeral, the index itself
 * for a loop's index, the loop indices inside a computed index (`(+ 2 i!4)`, a slice's element).
 */
export function indexLoops(ex: Exec, index: string): string[] {
  if (/^\d+$/.test(index)) return [];
  if (/^[^\s()]+$/.test(index)) return [index];
  return [...new Set(index.match(/[^\s()]+/g) ?? [])].filter((t) => ex.world.loopRanges.has(t));
}

/** Elements 0…EAGER_ELEMENTS-1 get the promise up front (the counterexample search shortens arrays to 3). */
const EAGER_ELEMENTS = 3;

/** Whether an `ensures` is about the result's elements (its promise is assumed here, not as a whole). */
export function isElementPromise(ex: Exec, fn: TS.ArrowFunction | TS.FunctionExpression): boolean {
  return elementPromiseOf(ex.ts, fn, ex.checker).kind !== "none";
}

/**
 * The result with its element promises attached: every element read through it is assumed to keep
 * them, in every run that makes the call (`pc`), for indices within the result's length.
 */
export function promiseElements(ex: Exec, tool: ToolModel, result: Sym, args: ReadonlyMap<string, Sym>, pc: string, callLoops: readonly string[]): Sym {
  const promises: { fn: TS.ArrowFunction | TS.FunctionExpression; element: TS.ArrowFunction | TS.FunctionExpression }[] = [];
  for (const en of tool.ensures) {
    const shape = elementPromiseOf(ex.ts, en.fn, ex.checker);
    if (shape.kind === "malformed") refuse(shape.node, shape.problem, ELEMENT_PROMISE_FORM);
    if (shape.kind === "element") promises.push({ fn: en.fn, element: shape.element });
  }
  if (promises.length === 0) return result;
  if (result.k !== "sarr") {
    refuse(promises[0]!.fn, `\`${tool.name}\` promises something of its result's elements, but its result is not an array of modelled values.`, "Return an array of strings, numbers, booleans or interfaces of those.");
  }
  const array = result;
  const seen = new Set<string>();
  const at = (index: string): Sym => {
    const v = array.at(index);
    // Only while `main` runs: reading a model afterwards adds nothing to the world.
    if (ex.steps === undefined || seen.has(index)) return v;
    seen.add(index);
    const numeric = /^\d+$/.test(index);
    const inRange = numeric ? `(< ${index} ${array.len})` : `(and (<= 0 ${index}) (< ${index} ${array.len}))`;
    for (const p of promises) {
      const env = new Map<TS.Symbol, Sym>();
      if (tool.objectParameter) {
        const object = p.fn.parameters[1];
        if (object) bindObjectArgument(ex, object, args, env);
      } else p.fn.parameters.slice(1).forEach((param) => env.set(symbolOfDecl(ex, param), args.get(param.name.getText()) ?? UNDEF));
      env.set(symbolOfDecl(ex, p.element.parameters[0]!), v);
      const holds = cond(withPure(ex, () => evalFunctionBodyValue(ex, p.element, { pc: "true", env })), p.element);
      if (holds !== "true") ex.world.assumptions.push({ term: implies(and(pc, inRange), holds), loops: [...callLoops, ...indexLoops(ex, index)] });
    }
    return v;
  };
  const promised: Sym = { ...array, at };
  for (let j = 0; j < Math.max(EAGER_ELEMENTS, array.bound ?? 0); j++) at(String(j));
  return promised;
}
