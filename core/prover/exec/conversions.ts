/**
 * The text (or, for `Number`, the number) of a conversion with no exact model (core/prover/conversions.ts): a function of its
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
  const number = kind.to === "Float64";
  const abstract = freshValue(ex, number ? "number" : "text", { kind: number ? "number" : "string" }, at);
  if (abstract.k !== "str" && abstract.k !== "num") throw new Error("a fresh string or number is a string or number");
  const t = ex.world.conversions.apply(kind, input, at, ex.world.declarations, abstract.t);
  return number ? { k: "num", t } : { k: "str", t };
}
