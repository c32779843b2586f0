/**
 * Contract bodies: applying a contract to its arguments, relation queries (`where`, `all`, `count`,
 * …), comparisons of aggregates, and the lambdas the encoder applies to events.
 */
import type * as TS from "typescript";
import type { ContractModel } from "../../model";
import type { Comparison, Lambda, RelationIR, SpecIR, Sym } from "../values";
import { refuse, skip, symbolOfDecl, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { joinSpec } from "./join";
import type { State } from "./state";
import { evalFunctionBodyValue } from "./statements";

const COMPARISONS: readonly Comparison[] = ["atMost", "atLeast", "lessThan", "greaterThan", "equals", "between"];

/** Evaluate a contract applied to concrete arguments into a specification. */
export function buildSpec(ex: Exec, contract: ContractModel, args: readonly Sym[], at: TS.Node): SpecIR {
  if (ex.contractStack.includes(contract)) refuse(at, `Contract \`${contract.name}\` calls itself.`, "Contracts may call other contracts, not themselves.");
  ex.contractStack.push(contract);
  try {
    const env = new Map<TS.Symbol, Sym>();
    contract.body.parameters.forEach((p, i) => {
      let v = args[i];
      if (v === undefined) {
        if (!p.initializer) refuse(at, `Argument \`${p.name.getText()}\` of \`${contract.name}\` is missing.`, "Pass every argument.");
        v = evalExpr(ex, p.initializer, { pc: "true", env });
      }
      env.set(symbolOfDecl(ex, p), v);
    });
    const st: State = { pc: "true", env };
    ex.frames.push({ fn: contract.body, loopBody: undefined });
    let result: Sym;
    try {
      result = evalFunctionBodyValue(ex, contract.body, st);
    } finally {
      ex.frames.pop();
    }
    if (result.k !== "spec") refuse(contract.body, `The body of \`${contract.name}\` does not return a specification.`, "Return `Event.all(...)`, `.count().atMost(n)`, `allOf(...)` or another contract's result.");
    return result.spec;
  } finally {
    ex.contractStack.pop();
  }
}

/** Apply a contract lambda (predicate, selector, key) to an event or call record. */
export function applyLambda(ex: Exec, lambda: Lambda, item: Sym): Sym {
  const { fn } = lambda;
  const env = new Map(lambda.env);
  const p = fn.parameters[0];
  if (fn.parameters.length !== 1 || !p || !ex.ts.isIdentifier(p.name)) {
    refuse(fn, "A relation's predicate takes exactly one parameter (the event).", "Write `(e) => condition over e's fields`.");
  }
  env.set(symbolOfDecl(ex, p), item);
  const st: State = { pc: "true", env };
  const saved = ex.pureOnly;
  ex.pureOnly = true;
  ex.frames.push({ fn, loopBody: undefined });
  try {
    return evalFunctionBodyValue(ex, fn, st);
  } finally {
    ex.frames.pop();
    ex.pureOnly = saved;
  }
}

/** `count()` or `sum(...)` compared with literal bounds: `.atMost(n)`, `.between(a, b)`, … */
export function compareAggregate(target: Extract<Sym, { k: "agg" }>, name: string, e: TS.CallExpression, args: () => Sym[]): Sym {
  if (!COMPARISONS.includes(name as Comparison)) refuse(e, `\`${name}\` is not a comparison of count() or sum().`, `Use one of ${COMPARISONS.join(", ")}.`);
  const bounds = args().map((b, i) => {
    if (b.k !== "num" || b.c === undefined) refuse(e.arguments[i]!, "Bounds must be literal numbers (or contract parameters bound to literals).", "Pass a number.");
    return b.c;
  });
  if (bounds.length !== (name === "between" ? 2 : 1)) refuse(e, `\`${name}\` takes ${name === "between" ? 2 : 1} bound(s).`, "Pass the bounds.");
  return { k: "spec", spec: { k: "compare", rel: target.rel, agg: target.agg, op: name as Comparison, bounds, node: e } };
}

function lambdaArg(ex: Exec, e: TS.CallExpression, st: State): Lambda {
  const ts = ex.ts;
  const a = e.arguments[0];
  const fn = a && skip(ex, a);
  if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || e.arguments.length !== 1) {
    refuse(a ?? e, "Relations take one inline arrow function.", "Write `(e) => condition`.");
  }
  return { fn, env: new Map(st.env) };
}

export function relationMethod(ex: Exec, rel: RelationIR, name: string, e: TS.CallExpression, st: State): Sym {
  if (ex.contractStack.length === 0) refuse(e, "Relations belong in contracts.", "Use relations inside `contract(...)` bodies of a trusted library.");
  switch (name) {
    case "where": return { k: "rel", rel: { ...rel, filters: [...rel.filters, lambdaArg(ex, e, st)], node: e } };
    case "all": return { k: "spec", spec: { k: "all", rel, pred: lambdaArg(ex, e, st), node: e } };
    case "empty": return { k: "spec", spec: { k: "empty", rel, node: e } };
    case "count": return { k: "agg", rel, agg: { k: "count" } };
    case "sum": return { k: "agg", rel, agg: { k: "sum", sel: lambdaArg(ex, e, st) } };
    case "distinct": case "allSameValue": return { k: "spec", spec: { k: name, rel, key: lambdaArg(ex, e, st), node: e } };
    case "sharesValue": return { k: "spec", spec: { k: "allSameValue", rel, key: lambdaArg(ex, e, st), node: e } }; // deprecated alias
    case "sharesValueWith": return joinSpec(ex, rel, e, st);
    default: refuse(e, `\`${name}\` is not a relation query.`, "Use all, where, empty, count, sum, distinct, allSameValue or sharesValueWith.");
  }
}
