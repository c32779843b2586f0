/**
 * `encodeURIComponent(s)`: a known string by JavaScript itself; an unknown one throws a URIError
 * exactly where it holds a lone surrogate (a reachable throw, reported and caught like the
 * program's own), and is otherwise the conversion checked against JavaScript
 * (core/prover/conversions.ts `URI_COMPONENT_KIND`).
 */
import type * as TS from "typescript";
import { URI_COMPONENT_KIND, WELL_FORMED_UTF16 } from "../conversions";
import { and, not } from "../smt";
import { str, type Sym } from "../values";
import { refuse, type Exec } from "./context";
import { convert } from "./conversions";
import { evalExpr } from "./expressions";
import { definite, noFunctionValue, notOpaque } from "./guards";
import type { State } from "./state";
import { exitOrder } from "./exit-states";

const INSTEAD = "Pass a string: `encodeURIComponent(String(n))` for a number.";

export function callEncodeURIComponent(ex: Exec, e: TS.CallExpression, st: State): Sym {
  if (e.arguments.length !== 1) refuse(e, "`encodeURIComponent` takes one argument.", INSTEAD);
  const arg = e.arguments[0]!;
  if (ex.pureOnly) refuse(e, "`encodeURIComponent` is not modelled in contract predicates and top-level values (it may throw).", "Encode inside `main`.");
  const raw = evalExpr(ex, arg, st);
  notOpaque(raw, arg);
  noFunctionValue(raw, arg);
  const v = definite(ex, raw, arg, st);
  if (v.k !== "str") refuse(arg, "`encodeURIComponent` is modelled on strings (JavaScript converts other values first).", INSTEAD);
  const message = "`encodeURIComponent` throws a URIError here: the text may hold a lone surrogate";
  if (v.c !== undefined) {
    try {
      return str(encodeURIComponent(v.c));
    } catch {
      ex.world.throws.push({ message, guard: st.pc, site: e, loops: [...ex.loops], order: exitOrder(ex, st) });
      st.pc = "false";
      return str("");
    }
  }
  const wellFormed = `(str.in_re ${v.t} ${WELL_FORMED_UTF16})`;
  ex.world.throws.push({ message, guard: and(st.pc, not(wellFormed)), site: e, loops: [...ex.loops], order: exitOrder(ex, st) });
  st.pc = and(st.pc, wellFormed);
  return convert(ex, URI_COMPONENT_KIND, v.t, e, { reason: "`encodeURIComponent` of a string the prover does not know is not modelled here", instead: "Encode inside `main`." });
}
