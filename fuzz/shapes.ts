import ts from "typescript";

/** The shape of a value the oracle must supply (a `main` input or a tool result), read from its TypeScript type. */
export type Shape =
  | { readonly k: "string" }
  | { readonly k: "number" }
  | { readonly k: "boolean" }
  | { readonly k: "undefined" }
  | { readonly k: "null" }
  | { readonly k: "array"; readonly of: Shape }
  | { readonly k: "record"; readonly fields: readonly (readonly [string, Shape])[] }
  | { readonly k: "union"; readonly of: readonly Shape[] };

/** The shape of a TypeScript type; throws for types the oracle cannot supply values of (functions, generics). */
export function shapeOf(checker: ts.TypeChecker, type: ts.Type, depth = 0): Shape {
  if (depth > 6) throw new Error(`fuzz: type too deep: ${checker.typeToString(type)}`);
  const f = type.flags;
  // An async tool's result is what its promise resolves to.
  const promised = type.getSymbol()?.getName() === "Promise" ? checker.getTypeArguments(type as ts.TypeReference)[0] : undefined;
  if (promised) return shapeOf(checker, promised, depth + 1);
  if (type.isUnion()) {
    // `boolean` is the union true | false.
    const members = type.types.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral));
    const hasBool = members.length < type.types.length;
    const of = [...(hasBool ? [{ k: "boolean" } as const] : []), ...members.map((t) => shapeOf(checker, t, depth + 1))];
    return of.length === 1 ? of[0]! : { k: "union", of };
  }
  if (f & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral)) return { k: "string" };
  if (f & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)) return { k: "number" };
  if (f & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { k: "boolean" };
  if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return { k: "undefined" };
  if (f & ts.TypeFlags.Null) return { k: "null" };
  if (checker.isArrayType(type)) {
    const [element] = checker.getTypeArguments(type as ts.TypeReference);
    return { k: "array", of: shapeOf(checker, element!, depth + 1) };
  }
  if (f & ts.TypeFlags.Object && type.getCallSignatures().length === 0) {
    return { k: "record", fields: type.getProperties().map((p) => [p.name, shapeOf(checker, checker.getTypeOfSymbol(p), depth + 1)] as const) };
  }
  throw new Error(`fuzz: no values of type ${checker.typeToString(type)}`);
}
