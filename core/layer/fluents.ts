/**
 * Fluents (runtime/fluent.ts): `export const Name = fluent("Name", { key, value, initial })` and a
 * tool's `updates(builder)`, read like event classes and `performs` (one reader for tspc, the
 * editor and the CLI).
 */
import type * as TS from "typescript";
import { report, type ReadContext } from "../context";
import type { FluentModel, FluentScalar, ParameterModel, ToolModel, UpdateArgument, UpdateModel, ValueType } from "../model";
import { resolveDeclaration } from "../runtime-symbols";
import { spanOf } from "../span";
import { exportedConstOf, inlineFunction, returnedExpression, skipOuterExpressions } from "./declarations";
import { jsDocOf } from "./jsdoc";
import { objectFieldArgument } from "./object-parameter";

const TAGS: Readonly<Record<string, FluentScalar>> = { String: "string", Number: "number", Boolean: "boolean" };

/** A literal `"a"`, `3`, `-1.5`, `true`, `false`, or undefined for anything else. */
export function scalarLiteral(ts: typeof TS, node: TS.Expression): string | number | boolean | undefined {
  const e = skipOuterExpressions(ts, node);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
  if (ts.isNumericLiteral(e)) return Number(e.text);
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand)) return -Number(e.operand.text);
  if (e.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (e.kind === ts.SyntaxKind.FalseKeyword) return false;
  return undefined;
}

/** The fluent scalar a tool parameter's type is, if any (paths are strings at run time). */
function scalarOf(type: ValueType): FluentScalar | undefined {
  switch (type.kind) {
    case "string": case "FilePath": case "DirectoryPath": return "string";
    case "number": return "number";
    case "boolean": return "boolean";
    default: return undefined;
  }
}

/** Read `export const Name = fluent("Name", {...})`; reports what breaks rule 93050. */
export function readFluent(ctx: ReadContext, call: TS.CallExpression): FluentModel | undefined {
  const { ts, checker, program } = ctx;
  const where = exportedConstOf(ts, call);
  if ("problem" in where) {
    report(ctx, "fluentForm", call, { problem: where.problem });
    return undefined;
  }
  const [nameArg, declArg, ...extra] = call.arguments;
  if (!nameArg || !ts.isStringLiteral(nameArg) || nameArg.text !== where.name) {
    report(ctx, "fluentForm", nameArg ?? call, { problem: `The first argument of \`fluent(...)\` is the name \`"${where.name}"\` as a string literal.` });
    return undefined;
  }
  const object = declArg && skipOuterExpressions(ts, declArg);
  if (!object || !ts.isObjectLiteralExpression(object) || extra.length > 0) {
    report(ctx, "fluentForm", declArg ?? call, { problem: "The second argument of `fluent(...)` is an object literal `{ key, value, initial }`." });
    return undefined;
  }
  const props = new Map<string, TS.Expression>();
  for (const p of object.properties) {
    if (!ts.isPropertyAssignment(p) || !ts.isIdentifier(p.name) || !["key", "value", "initial"].includes(p.name.text) || props.has(p.name.text)) {
      report(ctx, "fluentForm", p, { problem: "A fluent declaration has exactly the properties `key`, `value` and `initial`, each written `name: expression`." });
      return undefined;
    }
    props.set(p.name.text, p.initializer);
  }
  const tag = (which: "key" | "value"): FluentScalar | undefined => {
    const e = props.get(which);
    const x = e && skipOuterExpressions(ts, e);
    // `String` (the global), or its name as a string literal (`"string"`).
    const named = x && ts.isStringLiteral(x) && (x.text === "string" || x.text === "number" || x.text === "boolean") ? (x.text as FluentScalar) : undefined;
    const scalar = named ?? (x && ts.isIdentifier(x) ? TAGS[x.text] : undefined);
    const decl = x && !named ? resolveDeclaration(ts, checker, checker.getSymbolAtLocation(x)) : undefined;
    const global = named !== undefined || (decl !== undefined && program.isSourceFileDefaultLibrary(decl.getSourceFile()));
    if (!scalar || !global) {
      report(ctx, "fluentForm", e ?? object, { problem: `The fluent's \`${which}\` is \`String\`, \`Number\` or \`Boolean\`.` });
      return undefined;
    }
    return scalar;
  };
  const key = tag("key");
  const value = tag("value");
  if (!key || !value) return undefined;
  const init = props.get("initial");
  const initial = init && scalarLiteral(ts, init);
  if (initial === undefined || typeof initial !== value || (typeof initial === "number" && !Number.isFinite(initial))) {
    report(ctx, "fluentForm", init ?? object, { problem: `The fluent's \`initial\` is a literal ${value}.` });
    return undefined;
  }
  const file = call.getSourceFile();
  return {
    id: `${file.fileName}#${where.name}`,
    name: where.name,
    fileName: file.fileName,
    key,
    value,
    initial,
    summary: jsDocOf(ts, where.statement).summary,
    declaration: where.declaration,
    span: spanOf(where.declaration.name),
  };
}

/** Bind a builder's parameters to the tool's (tools.ts). */
export type BindParameters = (params: readonly TS.ParameterDeclaration[]) => string[];

/** Read `updates(builder)`: each returned `Fluent.set(key, value)` with arguments that are builder parameters or literals. */
export function readUpdates(
  ctx: ReadContext,
  fluents: ReadonlyMap<TS.Node, FluentModel>,
  call: TS.CallExpression,
  byName: ReadonlyMap<string, ParameterModel>,
  bind: BindParameters,
  object: boolean,
): ToolModel["updates"] {
  const { ts, checker } = ctx;
  const builder = inlineFunction(ts, call.arguments[0]);
  if (!builder || call.arguments.length !== 1) {
    report(ctx, "updatesForm", call.arguments[0] ?? call, { problem: "Pass one inline arrow function to `updates`." });
    return undefined;
  }
  const builderParameters = bind(builder.parameters);
  const builderParamDecls = new Set<TS.Node>(builder.parameters);
  const returned = returnedExpression(ts, builder);
  if (!returned) {
    report(ctx, "updatesForm", builder.body, { problem: "The builder's body must be a single expression (or `{ return ...; }`)." });
    return { builderParameters, writes: [], node: call };
  }
  const value = skipOuterExpressions(ts, returned);
  const elements: readonly TS.Expression[] = ts.isArrayLiteralExpression(value) ? value.elements : [value];
  const writes: UpdateModel[] = [];
  for (const element of elements) {
    const e = skipOuterExpressions(ts, element);
    const target = ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === "set" ? e.expression.expression : undefined;
    const decl = target && resolveDeclaration(ts, checker, checker.getSymbolAtLocation(ts.isPropertyAccessExpression(target) ? target.name : target));
    const model = decl && fluents.get(decl);
    if (!ts.isCallExpression(e) || !model) {
      report(ctx, "updatesForm", element, { problem: ts.isSpreadElement(element) ? "Spread elements are not allowed." : `\`${element.getText()}\` is not a write \`Fluent.set(key, value)\` of a fluent of the trusted layer.` });
      continue;
    }
    if (e.arguments.length !== 2) {
      report(ctx, "updatesForm", e, { problem: "`set` takes a key and a value." });
      continue;
    }
    const argument = (arg: TS.Expression, which: "key" | "value"): UpdateArgument | undefined => {
      const expected = which === "key" ? model.key : model.value;
      const literal = scalarLiteral(ts, arg);
      if (literal !== undefined) {
        if (typeof literal !== expected || (typeof literal === "number" && !Number.isFinite(literal))) {
          report(ctx, "updateArgumentType", arg, { what: `The ${which}`, fluent: model.name, actual: `the literal \`${arg.getText()}\``, expected: `a ${expected} ${which}` });
          return undefined;
        }
        return { kind: "literal", value: literal };
      }
      const named = object ? objectFieldArgument(ctx, arg, builder) : undefined;
      let param: ParameterModel | undefined;
      if (named) param = byName.get(named.property);
      else {
        const symbol = ts.isIdentifier(arg) ? checker.getSymbolAtLocation(arg) : undefined;
        const paramDecl = symbol?.valueDeclaration;
        if (ts.isIdentifier(arg) && paramDecl && builderParamDecls.has(paramDecl)) param = byName.get(arg.text);
        else {
          report(ctx, "updatesForm", arg, { problem: `The ${which} \`${arg.getText()}\` is neither a builder parameter nor a literal.` });
          return undefined;
        }
      }
      if (!param) return undefined; // reported as an unknown builder parameter
      if (scalarOf(param.type) !== expected) {
        report(ctx, "updateArgumentType", arg, { what: `The ${which}`, fluent: model.name, actual: `tool parameter \`${param.name}: ${param.typeText}\``, expected: `a ${expected} ${which}` });
        return undefined;
      }
      return { kind: "parameter", name: param.name };
    };
    const k = argument(e.arguments[0]!, "key");
    const v = argument(e.arguments[1]!, "value");
    if (k && v) writes.push({ fluentId: model.id, key: k, value: v, node: e });
  }
  return { builderParameters, writes, node: call };
}
