/**
 * The built-ins the runtime itself calls, captured when clauz3 loads (before any agent module
 * runs) and called only through these bindings. Agent code that replaces
 * `String.prototype.startsWith` or `Array.prototype.filter` after that cannot change what the
 * checker, the recorder or the tool wrapper compute. (Contract predicates are layer code that
 * uses the live built-ins; `integrity.ts` refuses to check with changed ones.)
 *
 * Nothing here may use spread, `for…of`, destructuring of arrays or `instanceof`: each goes
 * through a patchable protocol (`Symbol.iterator`, `Symbol.hasInstance`).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as types from "node:util/types";

const reflect = Reflect;
export const ReflectApply = reflect.apply;
export const ReflectOwnKeys = reflect.ownKeys;
export const ReflectGetOwnPropertyDescriptor = reflect.getOwnPropertyDescriptor;
export const ReflectGetPrototypeOf = reflect.getPrototypeOf;
export const ReflectDefineProperty = reflect.defineProperty;
export const ObjectFreeze = Object.freeze;
export const ObjectIs = Object.is;
export const ObjectIsExtensible = Object.isExtensible;
export const ArrayIsArray = Array.isArray;
export const JSONStringify = JSON.stringify;
export const StringOf = String;
export const ErrorCtor = Error;
export const isPromise = types.isPromise;
export const isAsyncFunction = types.isAsyncFunction;
export const PromiseCtor = Promise;
export const MapCtor = Map;
export const isProxy = types.isProxy;

const FunctionPrototypeToString = Function.prototype.toString;
const FunctionPrototypeHasInstance = Function.prototype[Symbol.hasInstance];
const ArrayPrototypeJoin = Array.prototype.join;
const ArrayPrototypeSlice = Array.prototype.slice;
const ArrayPrototypeSplice = Array.prototype.splice;
const WeakSetPrototypeAdd = WeakSet.prototype.add;
const MapPrototypeGet = Map.prototype.get;
const MapPrototypeHas = Map.prototype.has;
const MapPrototypeSet = Map.prototype.set;
const WeakMapPrototypeGet = WeakMap.prototype.get;
const WeakMapPrototypeSet = WeakMap.prototype.set;
const WeakSetPrototypeHas = WeakSet.prototype.has;
const PromisePrototypeThen = Promise.prototype.then;
const AlsRun = AsyncLocalStorage.prototype.run;
const AlsGetStore = AsyncLocalStorage.prototype.getStore;

/** `value instanceof cls` by the ordinary algorithm: a static `Symbol.hasInstance` on `cls` is ignored. */
export function isInstance(value: unknown, cls: Function): boolean {
  return ReflectApply(FunctionPrototypeHasInstance, cls, [value]) as boolean;
}

/** The source text of a function (for messages). */
export function sourceOf(fn: Function): string {
  return ReflectApply(FunctionPrototypeToString, fn, []) as string;
}

/** Append one value to an array without going through a setter on `Array.prototype`. */
export function append<T>(array: T[], value: T): void {
  const descriptor = { __proto__: null, value, writable: true, enumerable: true, configurable: true } as PropertyDescriptor;
  if (!ReflectDefineProperty(array, array.length, descriptor)) throw new TypeError("clauz3: cannot append to a frozen trace");
}

/** `object[key] = value` as an own data property (a key named `__proto__` stays a key). */
export function setField(object: object, key: string, value: unknown): void {
  ReflectDefineProperty(object, key, { __proto__: null, value, writable: true, enumerable: true, configurable: true } as PropertyDescriptor);
}

/** Remove the first occurrence of `value` from `array`, if any. */
export function remove<T>(array: T[], value: T): void {
  const i = indexOf(array, value);
  if (i >= 0) ReflectApply(ArrayPrototypeSplice, array, [i, 1]);
}

export function weakAdd<T extends object>(set: WeakSet<T>, value: T): void {
  ReflectApply(WeakSetPrototypeAdd, set, [value]);
}

export function mapGet<K, V>(map: Map<K, V>, key: K): V | undefined {
  return ReflectApply(MapPrototypeGet, map, [key]) as V | undefined;
}

export function mapHas<K, V>(map: Map<K, V>, key: K): boolean {
  return ReflectApply(MapPrototypeHas, map, [key]) as boolean;
}

export function mapSet<K, V>(map: Map<K, V>, key: K, value: V): void {
  ReflectApply(MapPrototypeSet, map, [key, value]);
}

export function weakMapGet<K extends object, V>(map: WeakMap<K, V>, key: K): V | undefined {
  return ReflectApply(WeakMapPrototypeGet, map, [key]) as V | undefined;
}

export function weakMapSet<K extends object, V>(map: WeakMap<K, V>, key: K, value: V): void {
  ReflectApply(WeakMapPrototypeSet, map, [key, value]);
}

export function weakHas<T extends object>(set: WeakSet<T>, value: T): boolean {
  return ReflectApply(WeakSetPrototypeHas, set, [value]) as boolean;
}

/** Append every element of `values` to `array`. */
export function appendAll<T>(array: T[], values: readonly T[]): void {
  for (let i = 0; i < values.length; i++) append(array, values[i]!);
}

/** A fresh array holding `a`'s elements and then `b`'s (and `c`'s). */
export function concat<T>(a: readonly T[], b: readonly T[], c?: readonly T[]): T[] {
  const out: T[] = [];
  appendAll(out, a);
  appendAll(out, b);
  if (c) appendAll(out, c);
  return out;
}

/** A fresh copy of an array. */
export function copy<T>(array: readonly T[]): T[] {
  return ReflectApply(ArrayPrototypeSlice, array, []) as T[];
}

/** A fresh copy of `array` from index `start` on. */
export function slice<T>(array: readonly T[], start: number): T[] {
  return ReflectApply(ArrayPrototypeSlice, array, [start]) as T[];
}

/** `array.map(f)` through a plain loop. */
export function map<T, U>(array: readonly T[], f: (value: T, index: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < array.length; i++) append(out, f(array[i]!, i));
  return out;
}

/** Whether `array` holds `value` (SameValueZero, like `includes`). */
export function includes<T>(array: readonly T[], value: T): boolean {
  for (let i = 0; i < array.length; i++) if (array[i] === value || (value !== value && array[i] !== array[i])) return true;
  return false;
}

/** The index of `value` in `array`, or -1. */
export function indexOf<T>(array: readonly T[], value: T): number {
  for (let i = 0; i < array.length; i++) if (array[i] === value) return i;
  return -1;
}

export function join(array: readonly unknown[], separator: string): string {
  return ReflectApply(ArrayPrototypeJoin, array, [separator]) as string;
}

/** `promise.then(onFulfilled, onRejected)` with the captured `then` (not named `then`: a module exporting `then` is a thenable). */
export function promiseThen<T, U>(
  promise: Promise<T>,
  onFulfilled: (value: T) => U | PromiseLike<U>,
  onRejected?: (reason: unknown) => U | PromiseLike<U>,
): Promise<U> {
  return ReflectApply(PromisePrototypeThen, promise, [onFulfilled, onRejected]) as Promise<U>;
}

/** A promise rejected with `reason`, made with the captured constructor. */
export function rejected<T = never>(reason: unknown): Promise<T> {
  return new PromiseCtor<T>((_resolve, reject) => reject(reason));
}

/** `storage.run(store, body)` with the captured method. */
export function runWith<S, R>(storage: AsyncLocalStorage<S>, store: S, body: () => R): R {
  return ReflectApply(AlsRun, storage, [store, body]) as R;
}

/** `storage.getStore()` with the captured method. */
export function storeOf<S>(storage: AsyncLocalStorage<S>): S | undefined {
  return ReflectApply(AlsGetStore, storage, []) as S | undefined;
}

/** JSON text of a value for messages; never throws (a value that cannot be shown is shown as `String(value)`). */
export function show(value: unknown): string {
  try {
    return JSONStringify(value) ?? StringOf(value);
  } catch {
    try {
      return StringOf(value);
    } catch {
      return "<unprintable value>";
    }
  }
}
