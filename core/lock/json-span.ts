/** Where a field of the lock is in its text, for diagnostics on the exact key or value. */
import type * as TS from "typescript";
import type { TypeScript } from "../context";

export interface TextSpan {
  readonly start: number;
  readonly length: number;
}

/**
 * The span of the JSON value at `pointer` (or of its key, with `atKey`) in a parsed lock; the
 * deepest enclosing value that exists when part of the path is missing; the whole text when the
 * text is not an object.
 */
export function jsonSpan(ts: TypeScript, file: TS.JsonSourceFile, pointer: readonly string[], atKey = false): TextSpan {
  const root = file.statements[0]?.expression;
  if (!root) return { start: 0, length: 0 };
  let value: TS.Expression = root;
  let key: TS.Node | undefined;
  for (const segment of pointer) {
    if (!ts.isObjectLiteralExpression(value)) break;
    const property = value.properties.find(
      (p): p is TS.PropertyAssignment => ts.isPropertyAssignment(p) && (ts.isStringLiteral(p.name) || ts.isIdentifier(p.name)) && p.name.text === segment,
    );
    if (!property) {
      key = undefined;
      break;
    }
    key = property.name;
    value = property.initializer;
  }
  const node = atKey && key ? key : value;
  const start = node.getStart(file);
  return { start, length: node.getEnd() - start };
}
