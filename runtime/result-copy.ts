/**
 * A trusted call's result, handed to its caller as the caller's own copy: arrays and plain objects
 * are copied at every depth (not frozen: the program may sort or extend what it was given), other
 * values are passed as they are (primitives are immutable; class instances, Buffers and Dates
 * keep their identity). The prover models each call's result as a value of its own, so the copy
 * makes that true of every implementation: a tool that returns its internal array, or the same
 * array from two calls, or changes it after it returned, cannot make what the program holds
 * differ from what `ensures` was checked on, and a program that sorts its copy changes no other
 * result and no tool state. Objects reached twice are copied once (shape and cycles kept).
 */
import { ArrayIsArray, MapCtor, ReflectDefineProperty, ReflectGetPrototypeOf, append, mapGet, mapSet } from "./intrinsics";

const ObjectKeys = Object.keys;
const ObjectCreate = Object.create;
const ObjectPrototype = Object.prototype;

export function resultCopy<T>(value: T): T {
  return copy(value, new MapCtor<object, unknown>()) as T;
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  const known = mapGet(seen, value);
  if (known !== undefined) return known;
  if (ArrayIsArray(value)) {
    const out: unknown[] = [];
    mapSet(seen, value, out);
    const length = (value as unknown[]).length;
    for (let i = 0; i < length; i++) append(out, copy((value as unknown[])[i], seen));
    return out;
  }
  const proto = ReflectGetPrototypeOf(value);
  if (proto !== ObjectPrototype && proto !== null) return value;
  const out: Record<string, unknown> = proto === null ? (ObjectCreate(null) as Record<string, unknown>) : {};
  mapSet(seen, value, out);
  const keys = ObjectKeys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    ReflectDefineProperty(out, key, { __proto__: null, value: copy((value as Record<string, unknown>)[key], seen), writable: true, enumerable: true, configurable: true } as PropertyDescriptor);
  }
  return out;
}
