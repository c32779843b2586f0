import type * as TS from "typescript";
import { report, type ReadContext } from "../context";
import { ELEMENT_PROMISE_FORM, elementPromiseOf } from "../element-promise";
import type { FluentModel, ParameterModel, PerformedEventModel, PredicateModel, ToolModel } from "../model";
import { resolveDeclaration, runtimeExportAt } from "../runtime-symbols";
import { spanOf } from "../span";
import { parameterModel, resultTypeOf, sameValueType, showValueType, valueTypeOf } from "../types";
import { domainOf } from "./classify";
import { exportedConstOf, inlineFunction, returnedExpression, skipOuterExpressions } from "./declarations";
import type { EventReader } from "./events";
import { readFootprint } from "../footprint/read";
import { readUpdates } from "./fluents";
import { jsDocOf } from "./jsdoc";
import { bindObjectParameters, objectFieldArgument, readObjectParameter } from "./object-parameter";

/**
 * Check a parameter list: required plain identifiers; tool parameters must also declare their type
 * (builder and predicate parameters may leave it to the tool's: a declared one must match).
 */
export function checkParameterForms(ctx: ReadContext, params: readonly TS.ParameterDeclaration[], owner: string, requireType = true): boolean {
  const { ts } = ctx;
  let ok = true;
  for (const p of params) {
    const name = p.name.getText();
    const problem =
      !ts.isIdentifier(p.name) ? "is destructured"
      : p.dotDotDotToken ? "is variadic"
      : p.initializer ? "has a default value"
      : p.questionToken ? "is optional"
      : !p.type && requireType ? "has no declared type"
      : undefined;
    if (problem) {
      report(ctx, "toolParameterForm", p, { name, tool: owner, problem, type: p.type?.getText() ?? "string" });
      ok = false;
    }
  }
  return ok;
}

/** Read `export const name = trusted(...)`; reports every rule it breaks. */
export function readTool(ctx: ReadContext, events: EventReader, call: TS.CallExpression, fluents: ReadonlyMap<TS.Node, FluentModel> = new Map()): ToolModel | undefined {
  const { ts, checker } = ctx;
  const where = exportedConstOf(ts, call);
  if ("problem" in where) {
    report(ctx, "toolForm", call, { problem: where.problem });
    return undefined;
  }
  const name = where.name;
  const args = call.arguments;
  const implementation = inlineFunction(ts, args[args.length - 1]);
  if (!implementation) {
    report(ctx, "toolForm", args[args.length - 1] ?? call, { problem: `The last argument of \`trusted(...)\` for \`${name}\` must be the implementation, written inline as \`function ${name}(...) { ... }\`.` });
    return undefined;
  }
  if (implementation.typeParameters) {
    report(ctx, "toolForm", implementation.typeParameters[0]!, { problem: `Tool \`${name}\` is generic; its parameters must have fixed types.` });
  }
  checkParameterForms(ctx, implementation.parameters, name);
  // One object of named arguments: its properties are the tool's parameters.
  const objectForm = readObjectParameter(ctx, implementation.parameters, name);
  const parameters = objectForm?.parameters ?? implementation.parameters.map((p) => parameterModel(ctx, p));
  const object = objectForm !== undefined;
  const paramNames = parameters.map((p) => p.name);
  const byName = new Map(parameters.map((p) => [p.name, p]));
  let performs: ToolModel["performs"];
  let updates: ToolModel["updates"];
  let footprint: ToolModel["footprint"];
  const requires: PredicateModel[] = [];
  const ensures: PredicateModel[] = [];

  for (const arg of args.slice(0, -1)) {
    const inner = skipOuterExpressions(ts, arg);
    const kind = ts.isCallExpression(inner) ? runtimeExportAt(ts, checker, inner.expression) : undefined;
    if (!ts.isCallExpression(inner) || (kind !== "performs" && kind !== "updates" && kind !== "requires" && kind !== "ensures" && kind !== "footprint")) {
      report(ctx, "toolForm", arg, { problem: `Before the implementation, \`trusted(...)\` takes only \`performs(...)\`, \`updates(...)\`, \`requires(...)\`, \`ensures(...)\` and \`footprint(...)\`.` });
      continue;
    }
    if (kind === "updates") {
      if (updates) {
        report(ctx, "updatesForm", inner, { problem: `\`${name}\` already declares \`updates(...)\`; a second one is refused rather than added.` });
        continue;
      }
      updates = readUpdates(ctx, fluents, inner, byName, (params) => bindParameters(ctx, params, name, byName, paramNames, object), object);
      continue;
    }
    if (kind === "footprint") {
      if (footprint) report(ctx, "footprintForm", inner, { problem: `\`${name}\` already declares \`footprint(...)\`; list every selector in one.` });
      else footprint = readFootprint(ctx, inner, name, byName);
      continue;
    }
    if (kind === "performs") {
      if (performs) {
        report(ctx, "performsTwice", inner, { tool: name });
        continue;
      }
      performs = readPerforms(ctx, events, inner, name, byName, paramNames, object);
    } else {
      const predicate = readPredicate(ctx, inner, kind, name, byName, paramNames, implementation, object);
      if (predicate) (kind === "requires" ? requires : ensures).push(predicate);
    }
  }

  const signature = checker.getSignatureFromDeclaration(implementation);
  const returned = signature ? promisedType(ctx, checker.getReturnTypeOfSignature(signature)) : undefined;
  const returnType = returned ? resultTypeOf(ctx, returned.type) : { kind: "unsupported" as const, text: "unknown" };
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
    objectParameter: objectForm?.object,
    returnType,
    async: returned?.async ?? false,
    performs,
    updates,
    requires,
    ensures,
    ...(footprint ? { footprint } : {}),
    summary: doc.summary,
    documentation: doc.documentation,
    call,
    implementation,
    declaration: where.declaration,
    span: spanOf(where.declaration.name),
  };
}

/** Builder or predicate parameters: each names a tool parameter and has its declared type. */
function bindParameters(
  ctx: ReadContext,
  params: readonly TS.ParameterDeclaration[],
  tool: string,
  byName: ReadonlyMap<string, ParameterModel>,
  paramNames: readonly string[],
  object = false,
): string[] {
  const { ts, checker } = ctx;
  if (object) return bindObjectParameters(ctx, params, tool, byName);
  checkParameterForms(ctx, params, tool, false);
  const names: string[] = [];
  for (const p of params) {
    if (!ts.isIdentifier(p.name)) continue;
    const target = byName.get(p.name.text);
    if (!target) {
      report(ctx, "unknownBuilderParameter", p.name, { name: p.name.text, tool, parameters: paramNames.join(", ") || "none" });
      continue;
    }
    names.push(p.name.text);
    if (p.type) {
      const declared = valueTypeOf(ctx, checker.getTypeFromTypeNode(p.type));
      if (!sameValueType(declared, target.type)) {
        report(ctx, "parameterTypeMismatch", p, {
          what: `Parameter \`${p.name.text}\``,
          actual: p.type.getText(),
          parameter: target.name,
          tool,
          expected: target.typeText,
        });
      }
    }
  }
  return names;
}

function readPerforms(
  ctx: ReadContext,
  events: EventReader,
  call: TS.CallExpression,
  tool: string,
  byName: ReadonlyMap<string, ParameterModel>,
  paramNames: readonly string[],
  object: boolean,
): ToolModel["performs"] {
  const { ts, checker } = ctx;
  const builder = inlineFunction(ts, call.arguments[0]);
  if (!builder || call.arguments.length !== 1) {
    report(ctx, "builderReturn", call.arguments[0] ?? call, { problem: "Pass one inline arrow function to `performs`." });
    return undefined;
  }
  const builderParameters = bindParameters(ctx, builder.parameters, tool, byName, paramNames, object);
  const builderParamDecls = new Set<TS.Node>(builder.parameters);
  const returned = returnedExpression(ts, builder);
  if (!returned) {
    report(ctx, "builderReturn", builder.body, { problem: "The builder's body must be a single expression (or `{ return ...; }`)." });
    return { builderParameters, events: [], node: call };
  }
  const value = skipOuterExpressions(ts, returned);
  const constructions: TS.Expression[] = [];
  if (ts.isArrayLiteralExpression(value)) constructions.push(...value.elements);
  else constructions.push(value);
  const performed: PerformedEventModel[] = [];
  for (const element of constructions) {
    const e = ts.isSpreadElement(element) ? element : skipOuterExpressions(ts, element);
    if (!ts.isNewExpression(e)) {
      report(ctx, "builderReturn", ts.isArrayLiteralExpression(value) ? element : returned, {
        problem: ts.isSpreadElement(e) ? "Spread elements are not allowed." : `\`${element.getText()}\` is not an event construction.`,
      });
      continue;
    }
    const decl = resolveDeclaration(ts, checker, checker.getSymbolAtLocation(ts.isPropertyAccessExpression(e.expression) ? e.expression.name : e.expression));
    const model = decl && ts.isClassDeclaration(decl) ? events.read(decl) : null;
    if (!model) {
      report(ctx, "builderReturn", e.expression, { problem: `\`${e.expression.getText()}\` is not an event class of the trusted layer.` });
      continue;
    }
    const args = e.arguments ?? ts.factory.createNodeArray();
    if (args.length !== model.fields.length) {
      report(ctx, "eventFieldArgument", e, {
        field: model.fields.map((f) => f.name).join(", ") || "(none)",
        event: model.name,
        what: `${args.length} argument(s) for ${model.fields.length} field(s)`,
      });
      continue;
    }
    const fields: Record<string, string> = {};
    let complete = true;
    args.forEach((arg, i) => {
      const field = model.fields[i]!;
      const named = object ? objectFieldArgument(ctx, arg, builder) : undefined;
      if (named) {
        const param = byName.get(named.property);
        if (!param) {
          // A destructured name is reported where the builder destructures it.
          if (!ts.isIdentifier(arg)) report(ctx, "unknownBuilderParameter", named.node, { name: named.property, tool, parameters: paramNames.join(", ") || "none" });
          complete = false;
          return;
        }
        fields[field.name] = param.name;
        if (!sameValueType(field.type, param.type)) {
          report(ctx, "parameterTypeMismatch", arg, { what: `Event field \`${model.name}.${field.name}\``, actual: showValueType(field.type), parameter: param.name, tool, expected: param.typeText });
        }
        return;
      }
      const symbol = ts.isIdentifier(arg) ? checker.getSymbolAtLocation(arg) : undefined;
      const paramDecl = symbol?.valueDeclaration;
      if (!ts.isIdentifier(arg) || !paramDecl || !builderParamDecls.has(paramDecl)) {
        const what = ts.isLiteralExpression(arg) || arg.kind === ts.SyntaxKind.TrueKeyword || arg.kind === ts.SyntaxKind.FalseKeyword || ts.isNoSubstitutionTemplateLiteral(arg)
          ? `the literal \`${arg.getText()}\``
          : ts.isIdentifier(arg) ? `\`${arg.text}\`, which is not a parameter of the builder` : `the computed value \`${arg.getText()}\``;
        report(ctx, "eventFieldArgument", arg, { field: field.name, event: model.name, what });
        complete = false;
        return;
      }
      const param = byName.get(arg.text);
      if (!param) return; // reported as an unknown builder parameter
      fields[field.name] = param.name;
      if (!sameValueType(field.type, param.type)) {
        report(ctx, "parameterTypeMismatch", arg, {
          what: `Event field \`${model.name}.${field.name}\``,
          actual: showValueType(field.type),
          parameter: param.name,
          tool,
          expected: param.typeText,
        });
      }
    });
    if (complete) performed.push({ eventId: model.id, fields, node: e });
  }
  return { builderParameters, events: performed, node: call };
}

function readPredicate(
  ctx: ReadContext,
  call: TS.CallExpression,
  kind: "requires" | "ensures",
  tool: string,
  byName: ReadonlyMap<string, ParameterModel>,
  paramNames: readonly string[],
  implementation: TS.ArrowFunction | TS.FunctionExpression,
  object: boolean,
): PredicateModel | undefined {
  const { ts, checker } = ctx;
  const fn = inlineFunction(ts, call.arguments[0]);
  if (!fn) {
    report(ctx, "predicateForm", call.arguments[0] ?? call, { problem: `\`${kind}\` of \`${tool}\` needs an inline predicate.` });
    return undefined;
  }
  const messageArg = call.arguments[1];
  let message: string | undefined;
  if (messageArg) {
    if (ts.isStringLiteral(messageArg) || ts.isNoSubstitutionTemplateLiteral(messageArg)) message = messageArg.text;
    else report(ctx, "predicateForm", messageArg, { problem: `The message of \`${kind}\` must be a string literal.` });
  }
  for (const extra of call.arguments.slice(2)) report(ctx, "predicateForm", extra, { problem: `\`${kind}\` takes a predicate and an optional message only.` });
  let params = fn.parameters;
  let resultName: string | undefined;
  if (kind === "ensures") {
    const result = params[0];
    if (!result) {
      report(ctx, "predicateForm", fn, { problem: "The first parameter of an `ensures` predicate is the tool's result." });
      return undefined;
    }
    checkParameterForms(ctx, [result], tool, false);
    resultName = ts.isIdentifier(result.name) ? result.name.text : undefined;
    if (resultName && byName.has(resultName)) {
      report(ctx, "predicateForm", result.name, { problem: `The result parameter \`${resultName}\` shadows a parameter of \`${tool}\`; name it \`result\`.` });
    }
    const signature = checker.getSignatureFromDeclaration(implementation);
    if (result.type && signature) {
      const declared = valueTypeOf(ctx, checker.getTypeFromTypeNode(result.type));
      // An async tool's `ensures` is about the resolved value.
      const actual = valueTypeOf(ctx, promisedType(ctx, checker.getReturnTypeOfSignature(signature)).type);
      if (!sameValueType(declared, actual)) {
        report(ctx, "parameterTypeMismatch", result, { what: "The result parameter", actual: result.type.getText(), parameter: "(result)", tool, expected: showValueType(actual) });
      }
    }
    params = ts.factory.createNodeArray(params.slice(1));
    const shape = elementPromiseOf(ts, fn, checker);
    if (shape.kind === "malformed") report(ctx, "predicateForm", shape.node, { problem: `${shape.problem} ${ELEMENT_PROMISE_FORM}` });
  }
  const bound = bindParameters(ctx, params, tool, byName, paramNames, object);
  return { parameters: bound, resultName, message, fn, node: call };
}

/**
 * An async tool (`async function`, or one declared to return `Promise<T>`) is modelled by what
 * its promise resolves to: `T` once awaited. Only the global `Promise` counts; any other
 * thenable keeps its own type (and so is not a modelled result).
 */
function promisedType(ctx: ReadContext, type: TS.Type): { readonly type: TS.Type; readonly async: boolean } {
  const { checker, program } = ctx;
  const symbol = type.getSymbol();
  const decls = symbol?.getDeclarations() ?? [];
  const global = symbol?.getName() === "Promise" && decls.length > 0 && decls.every((d) => program.isSourceFileDefaultLibrary(d.getSourceFile()));
  const [inner] = global ? checker.getTypeArguments(type as TS.TypeReference) : [];
  return inner ? { type: inner, async: true } : { type, async: false };
}
