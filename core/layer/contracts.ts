import type * as TS from "typescript";
import { report, type ReadContext } from "../context";
import type { ContractModel } from "../model";
import { spanOf } from "../span";
import { validateTemplate } from "../template";
import { parameterModel } from "../types";
import { domainOf } from "./classify";
import { exportedConstOf, inlineFunction } from "./declarations";
import { jsDocOf } from "./jsdoc";

/** Read `export const name = contract(options?, body)`; reports every rule it breaks. */
export function readContract(ctx: ReadContext, call: TS.CallExpression): ContractModel | undefined {
  const { ts } = ctx;
  const where = exportedConstOf(ts, call);
  if ("problem" in where) {
    report(ctx, "contractForm", call, { problem: where.problem });
    return undefined;
  }
  const name = where.name;
  const args = call.arguments;
  if (args.length < 1 || args.length > 2) {
    report(ctx, "contractForm", call, { problem: `\`contract\` takes an optional options object and the body.` });
    return undefined;
  }
  const body = inlineFunction(ts, args[args.length - 1]);
  if (!body) {
    report(ctx, "contractForm", args[args.length - 1]!, { problem: `The body of \`${name}\` must be an inline arrow function.` });
    return undefined;
  }
  let template: ContractModel["template"];
  if (args.length === 2) {
    const options = args[0]!;
    if (!ts.isObjectLiteralExpression(options)) {
      report(ctx, "contractForm", options, { problem: "The options of `contract` must be an object literal." });
    } else {
      for (const prop of options.properties) {
        const key = prop.name && (ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name)) ? prop.name.text : undefined;
        if (key !== "description" || !ts.isPropertyAssignment(prop)) {
          report(ctx, "contractForm", prop, { problem: "The options of `contract` hold only `description: \"…\"`." });
          continue;
        }
        const init = prop.initializer;
        if (ts.isStringLiteral(init) || ts.isNoSubstitutionTemplateLiteral(init)) template = { text: init.text, node: init };
        else report(ctx, "invalidTemplate", init, { contract: name, problem: "the description must be a string literal (it is reviewed library metadata, not computed)." });
      }
    }
  }
  if (body.typeParameters) report(ctx, "contractForm", body.typeParameters[0]!, { problem: `Contract \`${name}\` is generic.` });
  for (const p of body.parameters) {
    if (!ts.isIdentifier(p.name)) report(ctx, "contractForm", p, { problem: `Parameter \`${p.name.getText()}\` of \`${name}\` is destructured.` });
    else if (p.dotDotDotToken) report(ctx, "contractForm", p, { problem: `Parameter \`${p.name.text}\` of \`${name}\` is variadic; take an array instead.` });
    else if (!p.type) report(ctx, "contractForm", p, { problem: `Parameter \`${p.name.text}\` of \`${name}\` has no declared type.` });
  }
  if (ts.isBlock(body.body)) {
    const stmts = body.body.statements;
    stmts.forEach((s, i) => {
      const last = i === stmts.length - 1;
      if (last && ts.isReturnStatement(s) && s.expression) return;
      if (!last && ts.isVariableStatement(s) && s.declarationList.flags & ts.NodeFlags.Const) return;
      report(ctx, "contractForm", s, {
        problem: last ? "The body must end with `return <spec>;`." : "A contract body holds only `const` declarations before its `return`.",
      });
    });
    if (stmts.length === 0) report(ctx, "contractForm", body.body, { problem: "The body must return a specification." });
  }
  const parameters = body.parameters.map((p) => parameterModel(ctx, p));
  if (template) {
    const problems = validateTemplate(template.text, parameters);
    if (problems.length > 0) report(ctx, "invalidTemplate", template.node, { contract: name, problem: problems.join("; ") });
  }
  const file = call.getSourceFile();
  const doc = jsDocOf(ts, where.statement);
  const domain = domainOf(file.fileName);
  return {
    id: `${file.fileName}#${name}`,
    name,
    qualifiedName: `${domain}.${name}`,
    domain,
    fileName: file.fileName,
    parameters,
    template,
    summary: doc.summary,
    documentation: doc.documentation,
    body,
    call,
    declaration: where.declaration,
    span: spanOf(where.declaration.name),
  };
}
