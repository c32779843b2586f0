/**
 * Deep-frozen copies of guarantee arguments. A guarantee is proved for the literal arguments the
 * program was read with; agent code must not change them afterwards (`args[0].push(...)` on the
 * array inside a guarantee would change what the runtime checks). The built-ins used here are
 * captured when clauz3 loads, before any agent module runs, and no spread or `for…of` is used
 * (both go through the patchable `Symbol.iterator`).
 */
const ObjectFreeze = Object.freeze;
const ArrayIsArray = Array.isArray;
const ObjectGetPrototypeOf = Object.getPrototypeOf;
const ObjectKeys = Object.keys;
const ReflectDefineProperty = Reflect.defineProperty;
const ObjectCreate = Object.create;
const ObjectPrototype = Object.prototype;

function define(target: object, key: PropertyKey, value: unknown): void {
  ReflectDefineProperty(target, key, { __proto__: null, value, writable: true, enumerable: true, configurable: true } as PropertyDescriptor);
}

/**
 * A frozen copy of `value`: arrays and plain objects are copied element by element and frozen, at
 * every depth; primitives (strings, typed paths, numbers, booleans) are returned as they are.
 * Other objects (functions, class instances) are frozen in place, not copied.
 */
export function frozenCopy<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (ArrayIsArray(value)) {
    const source = value as unknown as readonly unknown[];
    const out: unknown[] = [];
    for (let i = 0; i < source.length; i++) define(out, i, frozenCopy(source[i]));
    return ObjectFreeze(out) as unknown as T;
  }
  const proto = ObjectGetPrototypeOf(value) as object | null;
  if (proto === ObjectPrototype || proto === null) {
    const out: Record<string, unknown> = proto === null ? (ObjectCreate(null) as Record<string, unknown>) : {};
    const keys = ObjectKeys(value);
    for (let i = 0; i < keys.length; i++) define(out, keys[i]!, frozenCopy((value as Record<string, unknown>)[keys[i]!]));
    return ObjectFreeze(out) as unknown as T;
  }
  return ObjectFreeze(value);
}
