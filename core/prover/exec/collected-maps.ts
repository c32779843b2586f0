/**
 * A Map a loop over an array of unknown length builds (`const totals = new Map<string, number>()`
 * right before the loop, at most one `m.set(k, v)` per iteration, string keys): collected.ts
 * carries its keys exactly, as it carries a Set's (`m.has(k)`: some earlier iteration set k, or
 * this one did; `m.size`: a ghost count), and after the loop the keys in insertion order are the
 * Set of the keys the iterations set (unique.ts: a later `set` of a key keeps its first position).
 *
 * Its values are not carried: a value is any value of the Map's value type, wherever it is read
 * (`m.get(k)` in the body or after the loop, the values of `entries()`, `values()` and `for…of`).
 * That over-approximates every run (World.forgottenMapValues), so a proof holds for every length,
 * and a model is a counterexample only once the search among short runs (Maps exact there) shows
 * it again (prove.ts). So grouping (`const list = m.get(k) ?? []; list.push(x); m.set(k, list)`,
 * `m.get(k)!.push(x)`) only evaluates what is pushed. Values that are Maps or arrays of arrays are refused.
 */
import type * as TS from "typescript";
import type { ValueType } from "../../model";
import { valueTypeOf } from "../../types";
import { and } from "../smt";
import type { Sym } from "../values";
import { makeView, PAIRS, renameSym, viewOf } from "./callbacks";
import { iteratedOnce } from "./collections";
import { refuse, type Exec } from "./context";
import { freshValue } from "./fresh";
import type { State } from "./state";
import { setHas } from "./unique";

export const MAP_VIEW_WHY = "a Map a loop over an array of unknown length built: here it can be iterated (`for…of`, `entries()`, `keys()`, `values()`), spread into an array, and read with `has`, `get` and `size`";

/** What a Map view was built from: the Set of its keys (unique.ts) and its value type. */
interface MapSource {
  readonly keys: Sym;
  readonly type: ValueType;
  readonly name: string;
}

const sources = new WeakMap<Sym, MapSource>();

/** The value type of the Map `decl` holds (`Map<string, V>`), refused unless its values can be indexed by iteration. */
export function mapValueType(ex: Exec, decl: TS.VariableDeclaration, at: TS.Node): ValueType {
  const t = ex.checker.getTypeAtLocation(decl.name);
  const args = ex.checker.getTypeArguments(t as TS.TypeReference);
  const value = args.length === 2 ? valueTypeOf({ ts: ex.ts, checker: ex.checker }, args[1]!) : undefined;
  if (!value || !indexable(value)) {
    refuse(at, `\`${decl.name.getText()}\` is a Map a loop over an array of unknown length builds, and its values are modelled for strings, numbers, booleans, records of those and arrays of them only.`, "Store strings, numbers, booleans, records of those or arrays of them (a count, a total or a group per key), or loop over an array with a bounded length.");
  }
  return value;
}

/** Scalars and records of them, or (`top`: the value itself, not a field) an array of those, possibly undefined. */
function indexable(t: ValueType, top = true): boolean {
  switch (t.kind) {
    case "string": case "number": case "boolean": case "FilePath": case "DirectoryPath": return true;
    case "optional": return t.inner.kind !== "optional" && indexable(t.inner, top);
    // A record's fields are renamed per index (renameSym), which reaches no array inside.
    case "record": return t.fields.every((f) => indexable(f.type, false));
    case "array": return top && t.element.kind !== "optional" && indexable(t.element, false);
    default: return false;
  }
}

/** A value of `type` the prover does not track: `undefined` where `present` is false (`m.get(k)`). */
export function forgottenValue(ex: Exec, name: string, type: ValueType, present: string, at: TS.Node): Sym {
  ex.world.forgottenMapValues++;
  const v = freshValue(ex, `${name}.value`, type, at);
  if (v.k === "opaque") refuse(at, `This value cannot be used: ${v.why}.`, "Store strings, numbers, booleans or records of those in the Map.");
  return v.k === "maybe" ? { k: "maybe", def: and(present, v.def), v: v.v } : { k: "maybe", def: present, v };
}

/**
 * The Map after the loop: a view whose element i is `[key, value]` of the i-th key the Set `keys`
 * holds (its base index), kept where the Set keeps it; values are fresh functions of the index.
 */
export function collectedMap(ex: Exec, keys: Sym, type: ValueType, name: string, at: TS.Node): Sym {
  const kv = viewOf(keys);
  if (!kv || kv.base.k !== "sarr") throw new Error("a collected Map without a Set view of its keys");
  const base = kv.base;
  const indexed = indexedFresh(ex, `${name}.value`, type, at);
  const valueAt = (i: string): Sym => {
    ex.world.forgottenMapValues++;
    return indexed(i);
  };
  const entries: Extract<Sym, { k: "sarr" }> = { ...base, at: (i) => ({ k: "arr", items: [base.at(i), valueAt(i)] }), elem: PAIRS, label: `${base.label}.entries` };
  const view = makeView({ base: entries, ...(kv.keep ? { keep: kv.keep } : {}), ...(kv.facts ? { facts: kv.facts } : {}) }, MAP_VIEW_WHY);
  sources.set(view, { keys, type, name });
  const values: Extract<Sym, { k: "sarr" }> = { ...base, at: valueAt, elem: type, label: `${base.label}.values` };
  derived.set(view, {
    keys: makeView({ base, ...(kv.keep ? { keep: kv.keep } : {}), ...(kv.facts ? { facts: kv.facts } : {}) }),
    values: makeView({ base: values, ...(kv.keep ? { keep: kv.keep } : {}), ...(kv.facts ? { facts: kv.facts } : {}) }),
  });
  return view;
}

/**
 * A fresh value of `type` as a function of an index: one value per index, renamed from a template
 * (scalars, records); an array (whose length and elements the renaming does not reach) is made
 * afresh per index term, so two terms for one index may read two arrays: more runs than there
 * are, never fewer.
 */
function indexedFresh(ex: Exec, prefix: string, type: ValueType, at: TS.Node): (i: string) => Sym {
  if (type.kind === "array" || (type.kind === "optional" && type.inner.kind === "array")) {
    const made = new Map<string, Sym>();
    return (i) => {
      let v = made.get(i);
      if (!v) made.set(i, (v = freshValue(ex, prefix, type, at, [i])));
      return v;
    };
  }
  const p = ex.world.fresh("p");
  const template = freshValue(ex, prefix, type, at, [p]);
  return (i) => renameSym(template, new Map([[p, i]]));
}

const derived = new WeakMap<Sym, { readonly keys: Sym; readonly values: Sym }>();

/** The Set of a collected Map's keys (for its `size`), or undefined when `m` is not such a Map. */
export function collectedMapKeys(m: Sym): Sym | undefined {
  return sources.get(m)?.keys;
}

/**
 * A method of a Map a loop over an array of unknown length built, after the loop: `has` (exact),
 * `get` (a value the prover does not track, where the key is there), and `entries`, `keys`,
 * `values` where a `for…of` iterates them or a spread copies them. Anything else is refused.
 */
export function collectedMapMethod(ex: Exec, m: Sym, name: string, e: TS.CallExpression, st: State): Sym {
  const source = sources.get(m)!;
  if (name === "has") return setHas(ex, source.keys, e, st)!;
  if (name === "get") {
    const has = setHas(ex, source.keys, e, st)!;
    return forgottenValue(ex, source.name, source.type, has.k === "bool" ? has.t : "false", e);
  }
  if (name === "entries" || name === "keys" || name === "values") {
    iteratedOnce(ex, name, e);
    return name === "entries" ? m : derived.get(m)![name];
  }
  if (name === "set" || name === "delete" || name === "clear") {
    refuse(e, `\`${name}\` of ${MAP_VIEW_WHY} is not modelled (its values are not tracked after the loop).`, "Build a new Map, or change it inside the loop that builds it.");
  }
  refuse(e, `\`${name}\` of ${MAP_VIEW_WHY}.`, "Loop with `for (const [k, v] of m)`, spread its `entries()`, or read a key with `has` and `get`.");
}

/** Whether `v` is a Map a loop over an array of unknown length built. */
export function isCollectedMap(v: Sym): boolean {
  return sources.has(v);
}
