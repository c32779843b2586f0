import type * as TS from "typescript";
import type { Span } from "./model";

/** The span of a node, with 1-based line and column. */
export function spanOf(node: TS.Node): Span {
  const file = node.getSourceFile();
  const start = node.getStart(file);
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  return { fileName: file.fileName, start, length: node.getEnd() - start, line: line + 1, column: character + 1 };
}
