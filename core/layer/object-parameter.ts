/**
 * Tools of one object of named arguments: `function sendEmail(msg: { to: string; subject: string })`,
 * the shape LLM tool calls have. The object's properties become the tool's named parameters in the
 * model, so events, `effect(tool)`, describe and the catalog treat them exactly as positional ones;
 * builders and predicates take the object in one parameter (destructured, or whole by name).
 */
import type * as TS from "typescript";
import { report, type ReadContext } from "../context";
import type { ObjectParameterModel, ParameterModel, ValueType } from "../model";
import { sameValueType, showValueType, valueTypeOf } from "../types";

/** Whether `type` is a plain object type declared as a type literal or an interface of the program (not a lib or package class). */
function isPlainObjectType(ctx: ReadContext, type: TS.Type): boolean {
  const { ts, checker, program } = ctx;
  if (!(type.flags & ts.TypeFlags.Object) || checker.isArrayType(type) || checker.isTupleType(type)) return false;
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) return false;
  const decls = type.getSymbol()?.getDeclarations() ?? [];
  return decls.length > 0 && decls.every((d) =>
    (ts.isTypeLiteralNode(d) || ts.isInterfaceDeclaration(d)) &&
    !program.isSourceFileDefaultLibrary(d.getSourceFile()) &&
    !program.isSourceFileFromExternalLibrary(d.getSourceFile()));
}

/**
 * The object parameter of a tool that takes exactly one parameter of a plain object type, with its
 * properties as the tool's parameters; reports every property that cannot be a named parameter.
 */
export function readObjectParameter(
  ctx: ReadContext,
  params: readonly TS.ParameterDeclaration[],
  tool: string,
): { readonly object: ObjectParameterModel; readonly parameters: ParameterModel[] } | undefined {
  const { ts, checker } = ctx;
  const [param] = params;
  if (params.length !== 1 || !param || !ts.isIdentifier(param.name) || param.dotDotDotToken || param.questionToken || param.initializer || !param.type) return undefined;
  const type = checker.getTypeFromTypeNode(param.type);
  if (!isPlainObjectType(ctx, type)) return undefined;
  const object: ObjectParameterModel = { name: param.name.text, typeText: param.type.getText(), node: param };
  const file = param.getSourceFile();
  const problem = (name: string, at: TS.Node | undefined, text: string): void => {
    // A property declared in another file is reported on the parameter (its span must be in this file).
    const node = at && at.getSourceFile() === file ? at : param;
    report(ctx, "objectParameterProperty", node, { name, parameter: object.name, tool, problem: text });
  };
  if (checker.getIndexInfosOfType(type).length > 0) problem("[key]", param.type, "is an index signature (any key), so the tool's parameters are not known");
  const props = checker.getPropertiesOfType(type);
  if (props.length === 0) problem("(none)", param.type, "does not exist: the object has no properties");
  const parameters: ParameterModel[] = [];
  for (const p of props) {
    const decl = p.valueDeclaration ?? p.declarations?.[0];
    const propType = checker.getTypeOfSymbol(p);
    const valueType = valueTypeOf(ctx, propType);
    const text =
      p.flags & ts.SymbolFlags.Optional ? "is optional"
      : p.flags & (ts.SymbolFlags.GetAccessor | ts.SymbolFlags.SetAccessor) ? "is an accessor (it runs code when read)"
      : p.flags & ts.SymbolFlags.Method || propType.getCallSignatures().length > 0 ? "is a method"
      : !modelled(valueType) ? `has type \`${checker.typeToString(propType)}\`, which is not modelled`
      : undefined;
    if (text) {
      problem(p.name, decl, text);
      continue;
    }
    const typeNode = decl && (ts.isPropertySignature(decl) || ts.isPropertyDeclaration(decl)) ? decl.type : undefined;
    parameters.push({ name: p.name, type: valueType, typeText: typeNode?.getText() ?? checker.typeToString(propType), optional: false, defaultText: undefined, rest: false, node: param });
  }
  return { object, parameters };
}

function modelled(t: ValueType): boolean {
  switch (t.kind) {
    case "string": case "number": case "boolean": case "FilePath": case "DirectoryPath": return true;
    case "array": return modelled(t.element) && t.element.kind !== "array";
    default: return false;
  }
}

/**
 * The one parameter of a builder or predicate (after the result, for `ensures`) of a tool of named
 * arguments: the tool properties it names (all of them when it takes the whole object).
 */
export function bindObjectParameters(
  ctx: ReadContext,
  params: readonly TS.ParameterDeclaration[],
  tool: string,
  byName: ReadonlyMap<string, ParameterModel>,
): string[] {
  const { ts, checker } = ctx;
  const [param, ...extra] = params;
  for (const x of extra) report(ctx, "objectBuilderForm", x, { problem: `\`${tool}\` takes one object of named arguments; this is a second parameter.` });
  if (!param) return [];
  if (param.dotDotDotToken || param.questionToken || param.initializer) {
    report(ctx, "objectBuilderForm", param, { problem: `The parameter standing for \`${tool}\`'s object is ${param.dotDotDotToken ? "variadic" : param.questionToken ? "optional" : "defaulted"}.` });
    return [];
  }
  const known = [...byName.keys()].join(", ") || "none";
  const names: string[] = [];
  const declared = param.type ? checker.getTypeFromTypeNode(param.type) : undefined;
  const checkType = (property: string, at: TS.Node): void => {
    if (!declared || !param.type) return;
    const target = byName.get(property)!;
    const prop = declared.getProperty(property);
    const actual = prop ? valueTypeOf(ctx, checker.getTypeOfSymbol(prop)) : undefined;
    if (!actual || !sameValueType(actual, target.type)) {
      report(ctx, "parameterTypeMismatch", at, { what: `Property \`${property}\``, actual: actual ? showValueType(actual) : "(missing)", parameter: property, tool, expected: target.typeText });
    }
  };
  if (ts.isIdentifier(param.name)) {
    for (const name of byName.keys()) {
      names.push(name);
      checkType(name, param);
    }
    return names;
  }
  if (!ts.isObjectBindingPattern(param.name)) {
    report(ctx, "objectBuilderForm", param.name, { problem: `\`${tool}\` takes an object, not an array.` });
    return [];
  }
  for (const el of param.name.elements) {
    const property = el.propertyName && (ts.isIdentifier(el.propertyName) || ts.isStringLiteral(el.propertyName)) ? el.propertyName.text : !el.propertyName && ts.isIdentifier(el.name) ? el.name.text : undefined;
    const problem =
      el.dotDotDotToken ? "A rest element collects properties the builder cannot name."
      : el.initializer ? `The property \`${el.name.getText()}\` has a default value (a property is never missing: the call passes every one).`
      : !ts.isIdentifier(el.name) ? "A nested pattern is not a property name."
      : property === undefined ? "A computed key does not name a property."
      : undefined;
    if (problem) {
      report(ctx, "objectBuilderForm", el, { problem });
      continue;
    }
    if (!byName.has(property!)) {
      report(ctx, "unknownBuilderParameter", el.propertyName ?? el.name, { name: property!, tool, parameters: known });
      continue;
    }
    names.push(property!);
    checkType(property!, el);
  }
  return names;
}

/**
 * The tool property an event field argument of an object-form builder stands for: a destructured
 * name (`to`), or a property of the whole object (`msg.to`); undefined for anything else.
 */
export function objectFieldArgument(ctx: ReadContext, arg: TS.Expression, builder: TS.ArrowFunction | TS.FunctionExpression): { readonly property: string; readonly node: TS.Node } | undefined {
  const { ts, checker } = ctx;
  const param = builder.parameters[0];
  if (!param) return undefined;
  if (ts.isIdentifier(arg)) {
    const decl = checker.getSymbolAtLocation(arg)?.valueDeclaration;
    if (!decl || !ts.isBindingElement(decl) || decl.parent !== param.name || !ts.isIdentifier(decl.name)) return undefined;
    const key = decl.propertyName;
    return { property: key && (ts.isIdentifier(key) || ts.isStringLiteral(key)) ? key.text : decl.name.text, node: arg };
  }
  if (ts.isPropertyAccessExpression(arg) && !arg.questionDotToken && ts.isIdentifier(arg.expression) && ts.isIdentifier(param.name)) {
    const decl = checker.getSymbolAtLocation(arg.expression)?.valueDeclaration;
    if (decl === param) return { property: arg.name.text, node: arg.name };
  }
  return undefined;
}
