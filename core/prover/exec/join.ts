/** `R.sharesValueWith(S, key)` in a contract body: the existential join of two relations. */
import type * as TS from "typescript";
import type { RelationIR, Sym } from "../values";
import { refuse, skip, type Exec } from "./context";
import { evalExpr } from "./expressions";
import type { State } from "./state";

/** The join spec: the other relation (an event class, its `where(...)`, or `effect(tool)`) and one inline key. */
export function joinSpec(ex: Exec, rel: RelationIR, e: TS.CallExpression, st: State): Sym {
  const ts = ex.ts;
  const [otherArg, keyArg] = e.arguments;
  const fn = keyArg && skip(ex, keyArg);
  if (!otherArg || !fn || e.arguments.length !== 2 || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) {
    refuse(e, "`sharesValueWith` takes the other relation and one inline key function.", "Write `R.where(p).sharesValueWith(S.where(q), (e) => e.field)`.");
  }
  const other = evalExpr(ex, otherArg, st);
  const otherRel: RelationIR | undefined =
    other.k === "rel" ? other.rel
    : other.k === "eventClass" ? { source: { kind: "event", event: other.event }, filters: [], node: otherArg }
    : undefined;
  if (!otherRel) refuse(otherArg, "The first argument of `sharesValueWith` is not a relation.", "Pass an event class, its `where(...)`, or `effect(tool)`.");
  return { k: "spec", spec: { k: "sharesValueWith", rel, other: otherRel, key: { fn, env: new Map(st.env) }, node: e } };
}
