import { ArgumentError } from "./errors";
import { ArrayIsArray, ObjectFreeze, ReflectDefineProperty, ReflectGetPrototypeOf, append, indexOf, isProxy } from "./intrinsics";

const ObjectKeys = Object.keys;

/**
 * Whether any call of the process has passed a value that is not copied (a function or a class
 * instance): its methods are the caller's code, which a predicate may reach in the middle of a
 * check. Until then no agent code can run between a call's first built-in check and its
 * implementation, and one check is enough (see tool.ts).
 */
let opaque = false;
export function opaqueArgumentSeen(): boolean {
  return opaque;
}
const ObjectCreate = Object.create;
const ObjectPrototype = Object.prototype;

/**
 * A trusted call reads each argument once: arrays and plain objects are copied (deeply, frozen)
 * before `requires`, the `performs` builder, the backstop and the implementation see them, so an
 * element getter or a later change cannot make the checked value differ from the used one.
 * Primitives are immutable; functions and class instances (Buffers, Dates) are passed as they
 * are. A Proxy answers each read with code of its own, so it is refused.
 */
export function snapshotArguments(tool: string, parameters: readonly string[], args: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < args.length; i++) append(out, snapshot(tool, parameters[i] ?? `#${i + 1}`, args[i], [], []));
  return out;
}

function snapshot(tool: string, parameter: string, value: unknown, from: unknown[], to: unknown[]): unknown {
  if (typeof value === "function") {
    opaque = true;
    return value;
  }
  if (typeof value !== "object" || value === null) return value;
  if (isProxy(value)) {
    throw new ArgumentError(tool, parameter, "is a Proxy, which may answer the checks and the tool differently; pass a plain value");
  }
  const seen = indexOf(from, value);
  if (seen >= 0) return to[seen];
  if (ArrayIsArray(value)) {
    const copy: unknown[] = [];
    append(from, value);
    append(to, copy);
    const length = (value as unknown[]).length;
    for (let i = 0; i < length; i++) append(copy, snapshot(tool, parameter, (value as unknown[])[i], from, to));
    return ObjectFreeze(copy);
  }
  const proto = ReflectGetPrototypeOf(value);
  if (proto !== ObjectPrototype && proto !== null) {
    opaque = true;
    return value;
  }
  const copy: Record<string, unknown> = proto === null ? (ObjectCreate(null) as Record<string, unknown>) : {};
  append(from, value);
  append(to, copy);
  const keys = ObjectKeys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const field = snapshot(tool, parameter, (value as Record<string, unknown>)[key], from, to);
    ReflectDefineProperty(copy, key, { __proto__: null, value: field, writable: true, enumerable: true, configurable: true } as PropertyDescriptor);
  }
  return ObjectFreeze(copy);
}
