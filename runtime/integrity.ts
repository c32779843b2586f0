/**
 * The realm's built-ins as they were when clauz3 loaded. Contract predicates, `requires` and
 * `ensures` are layer code that calls the live built-ins (`e.path.startsWith(prefix)`), so agent
 * code that replaces one could make a check pass that should fail. The runtime therefore refuses
 * to check anything while a built-in differs from this snapshot: every property of the standard
 * constructors and prototypes (added, removed or replaced), their prototypes, and the global
 * bindings of their names. Anything loaded before clauz3 (a polyfill) is part of the baseline.
 */
import { IntrinsicsChangedError } from "./errors";
import { ObjectIs, ReflectApply, ReflectGetOwnPropertyDescriptor, ReflectGetPrototypeOf, ReflectOwnKeys, StringOf, append } from "./intrinsics";

interface Baseline {
  readonly name: string;
  readonly object: object;
  readonly prototype: object | null;
  /** Every own key when `complete`; otherwise only the listed ones are watched. */
  readonly keys: readonly PropertyKey[];
  readonly complete: boolean;
  readonly descriptors: readonly (PropertyDescriptor | undefined)[];
}

const SymbolPrototypeToString = Symbol.prototype.toString;
const protoOf = (value: object): object => ReflectGetPrototypeOf(value) as object;
const arrayIterator = protoOf([][Symbol.iterator]());

/** Objects whose every own property is watched. */
const ROOTS: readonly (readonly [string, object])[] = [
  ["Object", Object],
  ["Object.prototype", Object.prototype],
  ["Function", Function],
  ["Function.prototype", Function.prototype],
  ["Array", Array],
  ["Array.prototype", Array.prototype],
  ["String", String],
  ["String.prototype", String.prototype],
  ["Number", Number],
  ["Number.prototype", Number.prototype],
  ["Boolean.prototype", Boolean.prototype],
  ["BigInt.prototype", BigInt.prototype],
  ["Symbol", Symbol],
  ["Symbol.prototype", Symbol.prototype],
  ["Math", Math],
  ["JSON", JSON],
  ["Reflect", Reflect],
  ["RegExp", RegExp],
  ["RegExp.prototype", RegExp.prototype],
  ["Map", Map],
  ["Map.prototype", Map.prototype],
  ["Set", Set],
  ["Set.prototype", Set.prototype],
  ["WeakMap.prototype", WeakMap.prototype],
  ["WeakSet.prototype", WeakSet.prototype],
  ["Promise", Promise],
  ["Promise.prototype", Promise.prototype],
  ["%IteratorPrototype%", protoOf(arrayIterator)],
  ["%ArrayIteratorPrototype%", arrayIterator],
  ["%StringIteratorPrototype%", protoOf(""[Symbol.iterator]())],
  ["%MapIteratorPrototype%", protoOf(new Map()[Symbol.iterator]())],
  ["%SetIteratorPrototype%", protoOf(new Set()[Symbol.iterator]())],
  ["%RegExpStringIteratorPrototype%", protoOf(/(?:)/g[Symbol.matchAll](""))],
];

/** Global bindings a predicate may name (`String(x)`, `Math.max`, `Number.isInteger`). */
const GLOBALS: readonly string[] = [
  "Object", "Function", "Array", "String", "Number", "Boolean", "BigInt", "Symbol", "Math", "JSON", "Reflect",
  "RegExp", "Map", "Set", "WeakMap", "WeakSet", "Promise", "Proxy", "parseInt", "parseFloat", "isNaN", "isFinite",
  "encodeURI", "encodeURIComponent", "decodeURI", "decodeURIComponent", "globalThis",
];

function baseline(name: string, object: object, keys: readonly PropertyKey[], complete: boolean): Baseline {
  const descriptors: (PropertyDescriptor | undefined)[] = [];
  for (let i = 0; i < keys.length; i++) append(descriptors, ReflectGetOwnPropertyDescriptor(object, keys[i]!));
  return { name, object, prototype: ReflectGetPrototypeOf(object), keys, complete, descriptors };
}

const BASELINES: readonly Baseline[] = (() => {
  const out: Baseline[] = [];
  for (let i = 0; i < ROOTS.length; i++) {
    const root = ROOTS[i]!;
    append(out, baseline(root[0], root[1], ReflectOwnKeys(root[1]), true));
  }
  append(out, baseline("globalThis", globalThis, GLOBALS, false));
  return out;
})();

function keyName(key: PropertyKey): string {
  return typeof key === "symbol" ? `[${StringOf(ReflectApply(SymbolPrototypeToString, key, []))}]` : StringOf(key);
}

function member(owner: string, key: PropertyKey): string {
  return owner === "globalThis" ? `the global ${keyName(key)}` : `${owner}${typeof key === "symbol" ? "" : "."}${keyName(key)}`;
}

function same(a: PropertyDescriptor | undefined, b: PropertyDescriptor | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return ObjectIs(a.value, b.value) && a.get === b.get && a.set === b.set;
}

/** What differs from the baseline (e.g. `String.prototype.startsWith`), or undefined when nothing does. */
export function changedIntrinsic(): string | undefined {
  for (let i = 0; i < BASELINES.length; i++) {
    const b = BASELINES[i]!;
    if (ReflectGetPrototypeOf(b.object) !== b.prototype) return `the prototype of ${b.name}`;
    for (let k = 0; k < b.keys.length; k++) {
      if (!same(ReflectGetOwnPropertyDescriptor(b.object, b.keys[k]!), b.descriptors[k])) return member(b.name, b.keys[k]!);
    }
    if (!b.complete) continue;
    const now = ReflectOwnKeys(b.object);
    if (now.length !== b.keys.length) {
      for (let k = 0; k < now.length; k++) {
        let known = false;
        for (let j = 0; j < b.keys.length && !known; j++) known = b.keys[j] === now[k];
        if (!known) return member(b.name, now[k]!);
      }
    }
  }
  return undefined;
}

/**
 * Throw `IntrinsicsChangedError` when a built-in differs from the baseline. `tool` names the call
 * being refused (omitted when `enforce` itself checks).
 */
export function assertIntrinsicsIntact(tool?: string): void {
  const changed = changedIntrinsic();
  if (changed !== undefined) throw new IntrinsicsChangedError(tool, changed);
}
