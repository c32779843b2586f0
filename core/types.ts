import type * as TS from "typescript";
import type { ReadContext } from "./context";
import type { ParameterModel, ValueType } from "./model";
import { runtimeExportOf } from "./runtime-symbols";

/** The modelled value type of a TypeScript type (unsupported types keep their text). */
export function valueTypeOf(ctx: Pick<ReadContext, "ts" | "checker">, type: TS.Type, depth = 0): ValueType {
  const { ts, checker } = ctx;
  const alias = type.aliasSymbol;
  if (alias) {
    const which = runtimeExportOf(ts, checker, alias);
    if (which === "FilePath" || which === "DirectoryPath") return { kind: which };
  }
  const f = type.flags;
  if (f & ts.TypeFlags.String) return { kind: "string" };
  if (f & ts.TypeFlags.Number) return { kind: "number" };
  if (f & ts.TypeFlags.Boolean) return { kind: "boolean" };
  if (f & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) return { kind: "void" };
  if (checker.isArrayType(type)) {
    const [element] = checker.getTypeArguments(type as TS.TypeReference);
    return element ? { kind: "array", element: valueTypeOf(ctx, element, depth + 1) } : { kind: "unsupported", text: checker.typeToString(type) };
  }
  if (
    depth < 4 &&
    f & ts.TypeFlags.Object &&
    !(type as TS.ObjectType).getCallSignatures().length &&
    checker.getIndexInfosOfType(type).length === 0
  ) {
    const props = checker.getPropertiesOfType(type);
    if (props.length > 0 && props.every((p) => !(p.flags & ts.SymbolFlags.Method) && !(p.flags & ts.SymbolFlags.Optional))) {
      const decl = props[0]!.valueDeclaration ?? props[0]!.declarations?.[0];
      const fields = props.map((p) => ({ name: p.name, type: valueTypeOf(ctx, checker.getTypeOfSymbol(p), depth + 1) }));
      if (decl && fields.every((x) => x.type.kind !== "unsupported")) {
        return { kind: "record", name: checker.typeToString(type), fields };
      }
    }
  }
  return { kind: "unsupported", text: checker.typeToString(type) };
}

/**
 * A tool's result type: `T | undefined` (or `T | void`) with a modelled `T` is an optional value,
 * modelled exactly (defined or `undefined`); anything else as {@link valueTypeOf}.
 */
export function resultTypeOf(ctx: Pick<ReadContext, "ts" | "checker">, type: TS.Type): ValueType {
  const { ts } = ctx;
  if (type.isUnion()) {
    const defined = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    if (defined.length > 0 && defined.length < type.types.length) {
      const inner =
        defined.length === 1 ? valueTypeOf(ctx, defined[0]!)
        : defined.length === 2 && defined.every((t) => t.flags & ts.TypeFlags.BooleanLiteral) ? ({ kind: "boolean" } as const)
        : undefined;
      if (inner && inner.kind !== "unsupported" && inner.kind !== "void") return { kind: "optional", inner };
    }
  }
  return valueTypeOf(ctx, type);
}

/** Structural equality of modelled types; unsupported types compare by their text. */
export function sameValueType(a: ValueType, b: ValueType): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Human text of a modelled type. */
export function showValueType(t: ValueType): string {
  switch (t.kind) {
    case "array":
      return `${showValueType(t.element)}[]`;
    case "record":
      return t.name;
    case "unsupported":
      return t.text;
    case "optional":
      return `${showValueType(t.inner)} | undefined`;
    default:
      return t.kind;
  }
}

/** Read a parameter declaration into the model. */
export function parameterModel(ctx: Pick<ReadContext, "ts" | "checker">, param: TS.ParameterDeclaration): ParameterModel {
  const { ts, checker } = ctx;
  const name = ts.isIdentifier(param.name) ? param.name.text : param.name.getText();
  let type = checker.getTypeAtLocation(param);
  if (param.dotDotDotToken === undefined && param.questionToken === undefined && param.initializer === undefined) {
    // keep declared type
  } else if (param.type) {
    type = checker.getTypeFromTypeNode(param.type);
  }
  return {
    name,
    type: valueTypeOf(ctx, type),
    typeText: param.type ? param.type.getText() : checker.typeToString(type),
    optional: param.questionToken !== undefined,
    defaultText: param.initializer?.getText(),
    rest: param.dotDotDotToken !== undefined,
    node: param,
  };
}
