/** What an identifier refers to: a local, a contract, an event class, a helper, a module constant, a modelled global. */
import type * as TS from "typescript";
import { resolveDeclaration } from "../../runtime-symbols";
import { holeOpen } from "../holes";
import { num, UNDEF, type Sym } from "../values";
import { inside, isAgentDecl, isDefaultLibSymbol, refuse, skip, type Exec } from "./context";
import { evalExpr } from "./expressions";
import type { State } from "./state";

export function lookup(ex: Exec, id: TS.Identifier, st: State): Sym {
  const ts = ex.ts;
  // `{ to }`: the name stands for the variable `to`, not for the property (objects.ts).
  const sym = ts.isShorthandPropertyAssignment(id.parent) && id.parent.name === id ? ex.checker.getShorthandAssignmentValueSymbol(id.parent) : ex.checker.getSymbolAtLocation(id);
  if (id.text === "undefined" && (!sym || !sym.declarations?.length || isDefaultLibSymbol(ex, sym))) return UNDEF;
  if (sym && st.env.has(sym)) return st.env.get(sym)!;
  if (!sym) refuse(id, `\`${id.text}\` cannot be resolved.`, "Declare it, or import it from a trusted library.");
  const decl = resolveDeclaration(ts, ex.checker, sym);
  if (!decl) refuse(id, `\`${id.text}\` has no declaration clauz3 can see.`, "Declare it, or import it from a trusted library.");
  if (ex.layer.toolByDeclaration.has(decl)) {
    refuse(id, `The trusted tool \`${id.text}\` is used as a value (aliasing, callbacks and indirect calls hide calls from the prover).`, `Call it directly: \`${id.text}(...)\`.`);
  }
  const contract = ex.layer.contractByDeclaration.get(decl);
  if (contract) return { k: "contract", contract };
  const event = ex.layer.eventByDeclaration.get(decl);
  if (event) return { k: "eventClass", event };
  const fluent = ex.layer.fluentByDeclaration?.get(decl);
  if (fluent) return { k: "fluent", fluent };
  if (isAgentDecl(ex, decl) && ex.mainFile && decl.getSourceFile() !== ex.mainFile && !inside(id, decl.getSourceFile())) {
    refuse(id, `\`${id.text}\` is declared in another agent module; the prover inlines only helpers declared in the program itself.`, "Declare the helper in this file, or make it a trusted tool with a reviewed `performs`.");
  }
  if ((ts.isFunctionDeclaration(decl) || ts.isFunctionExpression(decl) || ts.isArrowFunction(decl)) && isAgentDecl(ex, decl)) return { k: "fn", node: decl };
  // Module-level constants are initialised before `main` runs; a local one is in `env` once its
  // declaration has run, so reaching here for a local means it has not (the temporal dead zone).
  const moduleLevel = ts.isVariableDeclaration(decl) && ts.isSourceFile(decl.parent.parent.parent);
  if (ts.isVariableDeclaration(decl) && isAgentDecl(ex, decl) && decl.initializer && (moduleLevel || holeOpen("tdz"))) {
    const init = skip(ex, decl.initializer);
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) {
      if (!(decl.parent.flags & ts.NodeFlags.Const)) refuse(id, "Helpers must be declared with `const`.", "Write `const helper = (...) => ...`.");
      return { k: "fn", node: init };
    }
    if (ts.isSourceFile(decl.parent.parent.parent) && decl.parent.flags & ts.NodeFlags.Const) return moduleConst(ex, decl, init);
  }
  if (isDefaultLibSymbol(ex, sym)) {
    if (id.text === "NaN") return num(NaN);
    if (id.text === "Infinity") return num(Infinity);
    if (["eval", "Function", "globalThis", "require", "Reflect", "Proxy", "setTimeout", "setInterval", "queueMicrotask", "Promise"].includes(id.text)) {
      refuse(id, `\`${id.text}\` can run code the prover cannot see.`, "Call trusted tools and local helpers directly.");
    }
  }
  if (ts.isVariableDeclaration(decl) && ts.isVariableDeclarationList(decl.parent) && decl.parent.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) {
    const scope = decl.parent.parent.parent;
    if (scope && inside(id, scope)) {
      refuse(id, `\`${id.text}\` is read before its declaration runs on this path (JavaScript throws a ReferenceError: the temporal dead zone).`, `Declare \`${id.text}\` before the code that reads it, including code in helpers called earlier.`);
    }
  }
  if (ts.isParameter(decl) || ts.isVariableDeclaration(decl)) {
    refuse(id, `\`${id.text}\` is not in scope on this path (captured from a place the prover does not model).`, "Pass the value as a parameter.");
  }
  refuse(id, `\`${id.text}\` is not a trusted tool, a local helper or a modelled built-in.`, "Call trusted tools and local helpers; compute with the modelled operators and methods.");
}

function moduleConst(ex: Exec, decl: TS.VariableDeclaration, init: TS.Expression): Sym {
  const known = ex.moduleConsts.get(decl);
  if (known) return known;
  const saved = ex.pureOnly;
  ex.pureOnly = true;
  try {
    const v = evalExpr(ex, init, { pc: "true", env: new Map() });
    ex.moduleConsts.set(decl, v);
    return v;
  } finally {
    ex.pureOnly = saved;
  }
}
