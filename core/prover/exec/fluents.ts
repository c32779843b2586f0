/**
 * Fluents in the executor: `Fluent.final.all(p)` and `Fluent.final.at(k).equals(v)` in contract
 * bodies, and the writes of a tool's `updates(...)` at a call, recorded as `update` facts in
 * program order (the encoder folds them, encode-final.ts).
 */
import type * as TS from "typescript";
import type { FluentModel, FluentScalar, ToolModel, UpdateArgument } from "../../model";
import { ite } from "../smt";
import { bool, num, str, type Sym } from "../values";
import { refuse, skip, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { freshValue } from "./fresh";
import type { State } from "./state";

const KINDS: Readonly<Record<FluentScalar, Sym["k"]>> = { string: "str", number: "num", boolean: "bool" };

function onlyInContracts(ex: Exec, e: TS.Node, fluent: FluentModel): void {
  if (ex.contractStack.length === 0) {
    refuse(e, `The fluent \`${fluent.name}\` is used outside a contract.`, `Read a fluent's final state in a contract of a trusted library (\`${fluent.name}.final.at(key).equals(value)\`); only trusted tools write it, through \`updates(...)\`.`);
  }
}

/** `Fluent.final` */
export function fluentProperty(ex: Exec, target: Extract<Sym, { k: "fluent" }>, e: TS.PropertyAccessExpression): Sym {
  onlyInContracts(ex, e, target.fluent);
  if (e.name.text !== "final" || target.final) refuse(e.name, `\`${e.getText()}\` is not a fluent query.`, `Write \`${target.fluent.name}.final.all((e) => …)\` or \`${target.fluent.name}.final.at(key).equals(value)\`.`);
  return { k: "fluent", fluent: target.fluent, final: true };
}

/** `Fluent.final.all(p)`, `Fluent.final.at(k)` and `….equals(v)` */
export function fluentMethod(ex: Exec, target: Extract<Sym, { k: "fluent" | "finalAt" }>, name: string, e: TS.CallExpression, st: State): Sym {
  const fluent = target.fluent;
  onlyInContracts(ex, e, fluent);
  const ts = ex.ts;
  const scalar = (arg: TS.Expression | undefined, type: FluentScalar, what: string): Sym => {
    const v = arg && evalExpr(ex, arg, st);
    if (!arg || !v || v.k !== KINDS[type]) refuse(arg ?? e, `The ${what} of \`${fluent.name}\` is a ${type}.`, `Pass a ${type} (a literal or a contract parameter).`);
    return v;
  };
  if (target.k === "fluent" && target.final && name === "all") {
    const a = e.arguments[0];
    const fn = a && skip(ex, a);
    if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || e.arguments.length !== 1) {
      refuse(a ?? e, "`final.all` takes one inline arrow function.", "Write `Fluent.final.all((e) => condition over e.key and e.value)`.");
    }
    return { k: "spec", spec: { k: "finalAll", fluent, pred: { fn, env: new Map(st.env) }, node: e } };
  }
  if (target.k === "fluent" && target.final && name === "at") {
    if (e.arguments.length !== 1) refuse(e, "`final.at` takes one key.", "Write `Fluent.final.at(key).equals(value)`.");
    return { k: "finalAt", fluent, key: scalar(e.arguments[0], fluent.key, "key") };
  }
  if (target.k === "finalAt" && name === "equals") {
    if (e.arguments.length !== 1) refuse(e, "`equals` takes one value.", "Write `Fluent.final.at(key).equals(value)`.");
    return { k: "spec", spec: { k: "finalAt", fluent, key: target.key, value: scalar(e.arguments[0], fluent.value, "value"), node: e } };
  }
  refuse(e, `\`${name}\` is not a fluent query here.`, `Write \`${fluent.name}.final.all((e) => …)\` or \`${fluent.name}.final.at(key).equals(value)\`; only trusted tools write a fluent, through \`updates(...)\`.`);
}

function literalSym(v: string | number | boolean): Sym {
  return typeof v === "string" ? str(v) : typeof v === "number" ? num(v) : bool(v);
}

/** A scalar chosen by a Bool term: `c ? a : b` (same kinds). */
function iteScalar(c: string, a: Sym, b: Sym): Sym {
  if ((a.k === "str" || a.k === "num" || a.k === "bool") && a.k === b.k) return { k: a.k, t: ite(c, a.t, (b as { t: string }).t) } as Sym;
  throw new Error(`fluent values of different kinds (${a.k}, ${b.k})`);
}

/** Whether a term mentions a loop index constant (as a whole symbol). */
function mentions(term: string, index: string): boolean {
  const escaped = index.replace(/[.*+?^${}()|[\]\\!]/g, "\\$&");
  return new RegExp(`(^|[\\s()])${escaped}($|[\\s()])`).test(term);
}

/**
 * The writes of a call's `updates(...)`, after its events, under the call's path condition. A call
 * inside a `try` may fail after its writes began: then the key holds an unknown value (`after` is
 * the path on which the call returned). Inside a loop over an array of unknown length, a write is
 * modelled exactly only when every iteration writes the same value to the fluent (the last
 * iteration that writes a key then does not matter); every other write there is refused.
 */
export function recordWrites(ex: Exec, tool: ToolModel, args: ReadonlyMap<string, Sym>, pc: string, after: string, loops: readonly string[], e: TS.CallExpression): void {
  for (const w of tool.updates?.writes ?? []) {
    const fluent = ex.layer.fluents?.get(w.fluentId);
    if (!fluent) continue;
    const arg = (a: UpdateArgument): Sym => (a.kind === "literal" ? literalSym(a.value) : args.get(a.name)!);
    const key = arg(w.key);
    let value = arg(w.value);
    if (ex.unordered > 0) {
      refuse(e, `\`${tool.name}\` writes the fluent \`${fluent.name}\` in a callback of \`Promise.all\` that does more than make one call: the callbacks' calls interleave as they settle, so which write a key keeps last is not the program's.`, "Await the calls in turn (`for (const x of xs) { … }`), or make this call the callback's only one.");
    }
    if (after !== pc) value = iteScalar(after, value, freshValue(ex, `${fluent.name}.unknown`, { kind: fluent.value }, e));
    if (loops.length > 1) {
      refuse(e, `\`${tool.name}\` writes the fluent \`${fluent.name}\` inside nested loops over arrays of unknown length: the last iteration that writes a key decides its final value, and the prover does not model that order.`, "Loop over one array at a time, or over a literal array.");
    }
    const q = loops[0];
    if (q !== undefined) {
      const t = (value as { t: string }).t;
      if (mentions(t, q)) {
        refuse(e, `\`${tool.name}\` writes a value to the fluent \`${fluent.name}\` that may differ from one iteration to the next of a loop over an array of unknown length${after !== pc ? " (the call may fail inside this `try`, leaving the key unknown)" : ""}: the final value of a key depends on the last iteration that wrote it.`, "Write the same value in every iteration (a literal, or a value computed before the loop), outside a `try`; or loop over a literal array.");
      }
      const other = ex.world.facts.find((f) => f.kind === "update" && f.fluent === fluent && f.loops[0] === q && (f.fields.get("value") as { t: string }).t !== t);
      if (other) {
        refuse(e, `Two writes of the fluent \`${fluent.name}\` with different values in one loop over an array of unknown length (the other at line ${other.site.getSourceFile().getLineAndCharacterOfPosition(other.site.getStart()).line + 1}): which one a key keeps depends on the order of the iterations.`, "Write one value per fluent in such a loop, or split it into two loops.");
      }
    }
    ex.world.facts.push({ kind: "update", event: undefined, fluent, tool, fields: new Map([["key", key], ["value", value]]), guard: pc, site: e, loops, order: ex.world.nextOrder() });
  }
}
