/**
 * Fresh symbolic values: `main`'s inputs and tool results, scalars over the quantified loop indices
 * in scope, and arrays of symbolic length whose elements are uninterpreted functions.
 */
import type * as TS from "typescript";
import type { ValueType } from "../../model";
import { showValueType } from "../../types";
import { holeOpen } from "../holes";
import { FLOAT64, intLit, numLit } from "../smt";
import { boolT, intToFp, UNDEF, type Sym } from "../values";
import type { IntRange, IntRanges } from "./ranges";
import { refuse, type Exec } from "./context";

const NO_RANGES: IntRanges = new Map();

/** Integer ranges of at most this many values (plus one) get their Float64 term as a case split. */
const NARROW_RANGE = 16;

export function freshInput(ex: Exec, name: string, type: ValueType, at: TS.Node): Sym {
  if (!isInputType(type)) {
    refuse(at, `Input \`${name}\` has type ${showValueType(type)}, which is not modelled.`, "Declare `main`'s inputs as string, number, boolean, records of those (`{ sku: string; cents: number }`), or arrays of those.");
  }
  return bounded(ex, freshValue(ex, name, type, at));
}

/**
 * The types `main`'s inputs may have: scalars, records of inputs, arrays of scalars or records (not
 * arrays of arrays). The runner passes JSON values and checks them against these types before
 * the program runs (core/approval/inputs.ts), so the proof's inputs are the run's.
 */
export function isInputType(type: ValueType): boolean {
  switch (type.kind) {
    case "string": case "number": case "boolean": case "FilePath": case "DirectoryPath": return true;
    case "record": return type.fields.every((f) => isInputType(f.type));
    case "array": return type.element.kind !== "array" && isInputType(type.element);
    default: return false;
  }
}

/**
 * A fresh value of a modelled type (scalars, arrays with symbolic length, records). `ints` are the
 * integer ranges a tool promises of its result (ranges.ts), by path from the value (`path`).
 */
export function freshValue(ex: Exec, prefix: string, type: ValueType, at: TS.Node, extra: readonly string[] = [], ints: IntRanges = NO_RANGES, path = ""): Sym {
  switch (type.kind) {
    case "string": case "FilePath": case "DirectoryPath": case "number": case "boolean":
      return freshScalar(ex, prefix, type, extra, type.kind === "number" ? ints.get(path) : undefined);
    case "void":
      return UNDEF;
    case "optional": {
      // `T | undefined`: defined exactly when a fresh flag holds (never assumed defined).
      const v = freshValue(ex, prefix, type.inner, at, extra, ints, path);
      if (v.k === "opaque") return v;
      const def = freshScalar(ex, `${prefix}.defined`, { kind: "boolean" }, extra);
      return { k: "maybe", def: def.k === "bool" ? def.t : "false", v };
    }
    case "record": {
      const fields = new Map<string, Sym>();
      for (const f of type.fields) fields.set(f.name, freshValue(ex, `${prefix}.${f.name}`, f.type, at, extra, ints, `${path}.${f.name}`));
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
          v = elementValue(ex, `${prefix}[]`, elem, loops, index, instance, path === "" ? ints : NO_RANGES, "[]");
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
function freshScalar(ex: Exec, prefix: string, type: ValueType, extra: readonly string[] = [], range?: IntRange): Sym {
  const loops = [...ex.loops, ...extra];
  const applied = (name: string): string => (loops.length === 0 ? name : `(${name} ${loops.join(" ")})`);
  if (range) {
    return integerOfRange(ex, range, loops, (role) => {
      const name = ex.world.fresh(`${prefix}.${role}`);
      declare(ex, name, role === "int" ? "Int" : "Bool", loops.length);
      return applied(name);
    });
  }
  const sort = type.kind === "number" ? FLOAT64 : type.kind === "boolean" ? "Bool" : "String";
  const name = ex.world.fresh(prefix);
  declare(ex, name, sort, loops.length);
  return scalarOfTerm(applied(name), type, loops);
}

/**
 * A number the tool promises is an integer in `range` (integers.ts): an Int term kept in the
 * range, and a Float64 term equal to it, which is -0 where a fresh sign flag says so and the
 * integer is 0 (an integral result may be -0; only Float64 operations such as `1 / x` can tell).
 * `term(role)` gives the (declared, applied) term of the integer and of the sign flag; the range
 * holds for every iteration of `loops`. The range is never empty (ranges.ts).
 */
function integerOfRange(ex: Exec, range: IntRange, loops: readonly string[], term: (role: "int" | "negativeZero") => string): Sym {
  const i = term("int");
  ex.world.assumptions.push({ term: `(and (<= ${intLit(range.lo)} ${i}) (<= ${i} ${intLit(range.hi)}))`, loops: [...loops] });
  // A narrow range spells its doubles out (a conversion from Int is slow for the solver).
  let t = range.hi - range.lo <= NARROW_RANGE
    ? Array.from({ length: range.hi - range.lo }, (_, k) => range.lo + k).reduceRight((rest, n) => `(ite (= ${i} ${intLit(n)}) ${numLit(n)} ${rest})`, numLit(range.hi))
    : intToFp(i);
  if (range.lo <= 0 && range.hi >= 0) t = `(ite (and ${term("negativeZero")} (= ${i} 0)) (_ -zero 11 53) ${t})`;
  return { k: "num", t, int: i, mag: Math.max(Math.abs(range.lo), Math.abs(range.hi)) };
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

function elementValue(ex: Exec, prefix: string, type: ValueType, loops: readonly string[], index: string, instance: string, ints: IntRanges, path: string): Sym {
  if (type.kind === "record") {
    const fields = new Map<string, Sym>();
    for (const f of type.fields) fields.set(f.name, elementValue(ex, `${prefix}.${f.name}`, f.type, loops, index, instance, ints, `${path}.${f.name}`));
    return { k: "rec", fields };
  }
  if (type.kind !== "string" && type.kind !== "number" && type.kind !== "boolean" && type.kind !== "FilePath" && type.kind !== "DirectoryPath") {
    return { k: "opaque", why: `values of type ${showValueType(type)} are not modelled` };
  }
  const key = `${prefix}|${instance}|${loops.join(",")}`;
  const range = type.kind === "number" ? ints.get(path) : undefined;
  const indexLoops = /^\d+$/.test(index) ? loops : [...loops, index];
  const args = [...loops, index].join(" ");
  if (range) {
    // One Int function (and sign flag) per array, like the Float64 one, applied at this index.
    return integerOfRange(ex, range, indexLoops, (role) => {
      let name = ex.elementFns.get(`${key}|${role}`);
      if (!name) {
        name = ex.world.fresh(`${prefix}.${role}`);
        ex.elementFns.set(`${key}|${role}`, name);
        declare(ex, name, role === "int" ? "Int" : "Bool", loops.length + 1);
      }
      return `(${name} ${args})`;
    });
  }
  let name = ex.elementFns.get(key);
  if (!name) {
    name = ex.world.fresh(prefix);
    ex.elementFns.set(key, name);
    const sort = type.kind === "number" ? FLOAT64 : type.kind === "boolean" ? "Bool" : "String";
    declare(ex, name, sort, loops.length + 1);
  }
  const term = `(${name} ${args})`;
  return scalarOfTerm(term, type, indexLoops);
}

export function declare(ex: Exec, name: string, sort: string, arity = 0): void {
  ex.world.declarations.push(arity === 0 ? `(declare-const ${name} ${sort})` : `(declare-fun ${name} (${Array(arity).fill("Int").join(" ")}) ${sort})`);
}
