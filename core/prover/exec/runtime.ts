/** Calls of clauz3's runtime exports in programs and contracts: `FilePath`, `allOf`, `noGuarantees`, `effect`. */
import type * as TS from "typescript";
import { resolveDeclaration } from "../../runtime-symbols";
import type { Sym } from "../values";
import { refuse, skip, type Exec } from "./context";
import { evalExpr } from "./expressions";
import type { State } from "./state";

export function callRuntime(ex: Exec, which: string, e: TS.CallExpression, st: State): Sym {
  const ts = ex.ts;
  switch (which) {
    case "FilePath": case "DirectoryPath": {
      const v = evalExpr(ex, e.arguments[0]!, st);
      if (v.k !== "str") refuse(e, `${which}(...) takes a string.`, "Pass a string.");
      return v;
    }
    case "allOf": {
      const specs = e.arguments.map((a) => {
        const v = evalExpr(ex, a, st);
        if (v.k !== "spec") refuse(a, "`allOf` takes specifications.", "Pass relation queries or contract calls.");
        return v.spec;
      });
      return { k: "spec", spec: { k: "allOf", specs } };
    }
    case "noGuarantees":
      return { k: "spec", spec: { k: "none" } };
    case "effect": {
      const a = e.arguments[0] && skip(ex, e.arguments[0]);
      const node = a && (ts.isPropertyAccessExpression(a) ? a.name : a);
      const decl = node && resolveDeclaration(ts, ex.checker, ex.checker.getSymbolAtLocation(node));
      const tool = decl && ex.layer.toolByDeclaration.get(decl);
      if (!tool || ex.contractStack.length === 0) refuse(e, "`effect(tool)` takes a trusted tool, inside a contract.", "Write `effect(toolName)` in a contract body.");
      return { k: "rel", rel: { source: { kind: "effect", tool }, filters: [], node: e } };
    }
    default:
      refuse(e, `\`${which}\` is a trusted-layer declaration and cannot run in an agent program.`, "Move declarations into a trusted library; agent programs call tools and list guarantees.");
  }
}
