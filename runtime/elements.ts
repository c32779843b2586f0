import { ArrayIsArray, ReflectApply, concat, sourceOf } from "./intrinsics";

// `ensures((r, prefix) => r.every((n) => n.startsWith(prefix)))`, as Node prints it once types are
// stripped: the predicate's whole body is `every` over its first parameter (the shape the layer
// rules allow for element promises, core/element-promise.ts).
const ELEMENT_SHAPE = /^\s*(?:\(\s*)?([A-Za-z_$][\w$]*)\s*(?:,[^)]*)?\)?\s*=>\s*\(?\s*\1\s*\.\s*every\s*\(/;

/**
 * The index of the first element that breaks an element promise, or undefined when the predicate
 * is not one (or no single element is to blame). For `r.every(p)`, `[x].every(p)` is `p(x)`, so
 * the predicate applied to each element alone names the first bad one; the empty array must
 * satisfy it, as it satisfies every `every`.
 */
export function firstBrokenElement(predicate: Function, result: unknown, params: readonly unknown[]): number | undefined {
  if (!ArrayIsArray(result)) return undefined;
  const source = sourceOf(predicate).replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
  if (!ELEMENT_SHAPE.test(source)) return undefined;
  if (ReflectApply(predicate, undefined, concat([[]], params)) !== true) return undefined;
  for (let i = 0; i < result.length; i++) {
    if (ReflectApply(predicate, undefined, concat([[result[i]]], params)) !== true) return i;
  }
  return undefined;
}
