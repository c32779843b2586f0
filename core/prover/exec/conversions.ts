/**
 * The text of a conversion with no exact model (core/prover/conversions.ts): a function of its
 * input the solver does not know, checked against JavaScript at every model, beside a fresh text
 * of the loop indices in scope for the first, abstract query. Contract predicates and top-level
 * values are evaluated where no model is checked (inside quantifiers), so they refuse it.
 */
import type * as TS from "typescript";
import type { ConversionKind } from "../conversions";
import { FLOAT64 } from "../smt";
import type { Sym } from "../values";
import { refuse, type Exec } from "./context";
import { freshValue } from "./fresh";
import { nameTerm } from "./state";

export function convert(ex: Exec, kind: ConversionKind, arg: string, at: TS.Node, pure: { readonly reason: string; readonly instead: string }): Sym {
  if (ex.pureOnly) refuse(at, `${pure.reason} (contract predicates and top-level values).`, pure.instead);
  const input = nameTerm(ex, arg, kind.from === "Float64" ? FLOAT64 : "String", "x");
  const abstract = freshValue(ex, "text", { kind: "string" }, at);
  if (abstract.k !== "str") throw new Error("a fresh string is a string");
  return { k: "str", t: ex.world.conversions.apply(kind, input, at, ex.world.declarations, abstract.t) };
}
