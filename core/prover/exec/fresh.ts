/**
 * Fresh symbolic values: `main`'s inputs and tool results, scalars over the quantified loop indices
 * in scope, and arrays of symbolic length whose elements are uninterpreted functions.
 */
import type * as TS from "typescript";
import type { ValueType } from "../../model";
import { showValueType } from "../../types";
import { holeOpen } from "../holes";
import { FLOAT64 } from "../smt";
import { boolT, UNDEF, type Sym } from "../values";
import { refuse, type Exec } from "./context";

export function freshInput(ex: Exec, name: string, type: ValueType, at: TS.Node): Sym {
  if (type.kind === "unsupported" || type.kind === "void" || type.kind === "record" || (type.kind === "array" && (type.element.kind === "array" || type.element.kind === "record" || type.element.kind === "unsupported"))) {
    refuse(at, `Input \`${name}\` has type ${showValueType(type)}, which is not modelled.`, "Declare `main`'s inputs as string, number, boolean, or arrays of those.");
  }
  return bounded(ex, freshValue(ex, name, type, at));
}

/** A fresh value of a modelled type (scalars, arrays with symbolic length, records). */
export function freshValue(ex: Exec, prefix: string, type: ValueType, at: TS.Node, extra: readonly string[] = []): Sym {
  switch (type.kind) {
    case "string": case "FilePath": case "DirectoryPath": case "number": case "boolean":
      return freshScalar(ex, prefix, type, extra);
    case "void":
      return UNDEF;
    case "optional": {
      // `T | undefined`: defined exactly when a fresh flag holds (never assumed defined).
      const v = freshValue(ex, prefix, type.inner, at, extra);
      if (v.k === "opaque") return v;
      const def = freshScalar(ex, `${prefix}.defined`, { kind: "boolean" }, extra);
      return { k: "maybe", def: def.k === "bool" ? def.t : "false", v };
    }
    case "record": {
      const fields = new Map<string, Sym>();
      for (const f of type.fields) fields.set(f.name, freshValue(ex, `${prefix}.${f.name}`, f.type, at, extra));
      return { k: "rec", fields };
    }
    case "array": {
      const loops = [...ex.loops, ...extra];
      const lenName = ex.world.fresh(`${prefix}.length`);
      declare(ex, lenName, "Int", loops.length);
      const len = loops.length === 0 ? lenName : `(${lenName} ${loops.join(" ")})`;
      ex.world.assumptions.push({ term: `(>= ${len} 0)`, loops });
      const elem = type.element;
      if (elem.kind === "array") {
        return { k: "opaque", why: "arrays of arrays are not modelled" };
      }
      const cache = new Map<string, Sym>();
      // Every array gets its own element functions: two executions of one call site (a helper
      // called twice, an unrolled loop) return two unrelated arrays.
      const instance = holeOpen("shared-call-results") ? "" : String(ex.arrays++);
      // Elements are uninterpreted functions of the enclosing loop indices and the element index.
      const makeElement = (index: string): Sym => {
        let v = cache.get(index);
        if (!v) {
          v = elementValue(ex, `${prefix}[]`, elem, loops, index, instance);
          cache.set(index, v);
        }
        return v;
      };
      return { k: "sarr", len, at: makeElement, elem, label: prefix };
    }
    default:
      return { k: "opaque", why: `values of type ${showValueType(type)} are not modelled` };
  }
}

/** In bounded mode, an array of at most `arrayBound` elements (loops over it are unrolled exactly). */
export function bounded(ex: Exec, v: Sym, bound?: number): Sym {
  if (v.k !== "sarr") return v;
  const k = ex.arrayBound === undefined ? bound : Math.min(bound ?? ex.arrayBound, ex.arrayBound);
  if (k === undefined) return v;
  if (ex.arrayBound !== undefined) ex.world.assumptions.push({ term: `(<= ${v.len} ${k})`, loops: [...ex.loops] });
  return { ...v, bound: k };
}

/** A fresh scalar depending on the current quantified loop indices. */
function freshScalar(ex: Exec, prefix: string, type: ValueType, extra: readonly string[] = []): Sym {
  const loops = [...ex.loops, ...extra];
  const sort = type.kind === "number" ? FLOAT64 : type.kind === "boolean" ? "Bool" : "String";
  const name = ex.world.fresh(prefix);
  declare(ex, name, sort, loops.length);
  const term = loops.length === 0 ? name : `(${name} ${loops.join(" ")})`;
  return scalarOfTerm(term, type, loops);
}

function scalarOfTerm(term: string, type: ValueType, loops: readonly string[]): Sym {
  switch (type.kind) {
    case "string": case "FilePath": case "DirectoryPath":
      // Every character is a UTF-16 code unit: the session runs Z3 with encoding=bmp (16-bit characters).
      return { k: "str", t: term };
    case "number":
      return { k: "num", t: term };
    case "boolean":
      return boolT(term);
    default:
      return { k: "opaque", why: `values of type ${showValueType(type)} are not modelled` };
  }
}

function elementValue(ex: Exec, prefix: string, type: ValueType, loops: readonly string[], index: string, instance: string): Sym {
  if (type.kind === "record") {
    const fields = new Map<string, Sym>();
    for (const f of type.fields) fields.set(f.name, elementValue(ex, `${prefix}.${f.name}`, f.type, loops, index, instance));
    return { k: "rec", fields };
  }
  if (type.kind !== "string" && type.kind !== "number" && type.kind !== "boolean" && type.kind !== "FilePath" && type.kind !== "DirectoryPath") {
    return { k: "opaque", why: `values of type ${showValueType(type)} are not modelled` };
  }
  const key = `${prefix}|${instance}|${loops.join(",")}`;
  let name = ex.elementFns.get(key);
  if (!name) {
    name = ex.world.fresh(prefix);
    ex.elementFns.set(key, name);
    const sort = type.kind === "number" ? FLOAT64 : type.kind === "boolean" ? "Bool" : "String";
    declare(ex, name, sort, loops.length + 1);
  }
  const term = `(${name} ${[...loops, index].join(" ")})`;
  const indexLoops = /^\d+$/.test(index) ? loops : [...loops, index];
  return scalarOfTerm(term, type, indexLoops);
}

export function declare(ex: Exec, name: string, sort: string, arity = 0): void {
  ex.world.declarations.push(arity === 0 ? `(declare-const ${name} ${sort})` : `(declare-fun ${name} (${Array(arity).fill("Int").join(" ")}) ${sort})`);
}
