/** What a value must be where it is used: defined, of modelled truthiness, not a function. */
import type * as TS from "typescript";
import { holeOpen } from "../holes";
import { and, not } from "../smt";
import { truthy, type Sym } from "../values";
import { refuse, type Exec } from "./context";
import type { State } from "./state";
import { exitOrder } from "./exit-states";

/**
 * A value used where JavaScript needs it defined: when it may be `undefined` on this path, that is
 * reported (like a reachable throw) and the path continues where it is defined.
 */
export function definite(ex: Exec, v: Sym, at: TS.Node, st: State): Sym {
  if (v.k !== "maybe") return v;
  ex.world.throws.push({ message: `\`${at.getText()}\` may be undefined here`, guard: and(st.pc, not(v.def)), site: at, loops: [...ex.loops], order: exitOrder(ex, st) });
  st.pc = and(st.pc, v.def);
  return v.v;
}

/**
 * JavaScript truthiness of a value used as a condition. A value of a type the prover does not
 * model (`string | undefined`, `T | null`, objects with optional fields) may be falsy, undefined or
 * null: it is refused, never assumed truthy.
 */
export function cond(v: Sym, at: TS.Node): string {
  notOpaque(v, at);
  return truthy(v);
}

/** Refuses a branch on a value whose truthiness, definedness or nullishness is not modelled. */
export function notOpaque(v: Sym, at: TS.Node): void {
  const inner = v.k === "maybe" ? v.v : v;
  if (inner.k === "opaque" && !holeOpen("opaque-truthy")) {
    refuse(at, `This value may be undefined, null or falsy in ways the prover does not model: ${inner.why}.`, "Have the tool return a modelled type (string, number, boolean, arrays, interfaces of those without optional fields), or compare the value with a literal of a modelled type.");
  }
}

export function noFunctionValue(v: Sym, at: TS.Node): void {
  if (v.k === "fn") refuse(at, "Functions passed or returned as values are not modelled.", "Call the helper directly by name.");
}
