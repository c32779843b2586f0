/**
 * Editing a user's JSON files in place with `jsonc-parser`: each edit is a text edit at the
 * field's place, so comments, key order, indentation and line endings stay as the user wrote
 * them. `tsconfig.json` and `.vscode/settings.json` are JSON with comments; `package.json` is
 * plain JSON (npm reads it with `JSON.parse`).
 */
import { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree, printParseErrorCode, type FormattingOptions, type Node, type ParseError } from "jsonc-parser";

/** A file `clauz3 init` cannot edit: which file, which field, what is wrong. */
export class InitError extends Error {
  constructor(
    readonly file: string,
    /** `compilerOptions.plugins`, `the document`, or `the text at line 3, column 5`. */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${file}: ${field} ${problem}`);
    this.name = "InitError";
  }
}

export type Segment = string | number;

export interface JsonDocument {
  /** The file as shown in messages (relative to the project). */
  readonly shown: string;
  readonly text: string;
  readonly root: Node;
  readonly format: FormattingOptions;
}

/** Indentation and line ending as the file already has them (two spaces and `\n` for a new file). */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent?.startsWith("\t")) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}

/** `compilerOptions.plugins[1].name`: dots between names, numbers in brackets. */
export function fieldName(segments: readonly Segment[]): string {
  if (segments.length === 0) return "the document";
  return segments.map((s, i) => (typeof s === "number" ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? (i === 0 ? s : `.${s}`) : `[${JSON.stringify(s)}]`)).join("");
}

/** Parse a file's text; a syntax error or a document that is not an object is an `InitError` with its line and column. */
export function readJson(shown: string, text: string, withComments: boolean): JsonDocument {
  const errors: ParseError[] = [];
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const root = parseTree(body, errors, { allowTrailingComma: withComments, disallowComments: !withComments, allowEmptyContent: false });
  const first = errors[0];
  if (first) {
    const before = body.slice(0, first.offset).split("\n");
    const kind = withComments ? "JSON with comments" : "JSON";
    throw new InitError(shown, `the text at line ${before.length}, column ${before[before.length - 1]!.length + 1}`, `is not valid ${kind} (${printParseErrorCode(first.error)})`);
  }
  if (!root || root.type !== "object") throw new InitError(shown, "the document", "must be a JSON object");
  return { shown, text: body, root, format: formattingOf(body) };
}

/** The JSON type of the value at `segments` (`undefined` when absent). */
export function typeAt(doc: JsonDocument, segments: readonly Segment[]): string | undefined {
  const node = findNodeAtLocation(doc.root, [...segments]);
  if (!node) return undefined;
  return node.type === "null" ? "null" : node.type;
}

/** The value at `segments`, as plain data. */
export function valueAt(doc: JsonDocument, segments: readonly Segment[]): unknown {
  const node = findNodeAtLocation(doc.root, [...segments]);
  return node ? getNodeValue(node) : undefined;
}

/** Require the value at `segments` to be absent or of `type`; returns whether it is present. */
export function expectType(doc: JsonDocument, segments: readonly Segment[], type: "object" | "array" | "string"): boolean {
  const actual = typeAt(doc, segments);
  if (actual === undefined) return false;
  if (actual !== type) throw new InitError(doc.shown, fieldName(segments), `must be ${type === "array" ? "an array" : `a ${type === "object" ? "JSON object" : type}`} (it is ${actual === "array" ? "an array" : actual === "object" ? "an object" : `a ${actual}`})`);
  return true;
}

/** The document with `value` set at `segments` (appended, for an array index of -1). */
export function withValue(doc: JsonDocument, segments: readonly Segment[], value: unknown): JsonDocument {
  const edits = modify(doc.text, [...segments], value, { formattingOptions: doc.format, isArrayInsertion: segments[segments.length - 1] === -1 });
  return readJson(doc.shown, applyEdits(doc.text, edits), true);
}
