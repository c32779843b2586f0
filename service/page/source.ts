/**
 * The contract's captured source for the request page: the declaration of the guarantee's symbol
 * (with its JSDoc), read from the operator's layer — only from a file the request's lock pins,
 * and only while its bytes are still the ones the service verified against (SHA-256 compared), so
 * the page never shows source that was not the one proved.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import type { GuaranteeIdentity } from "../../core/describe";
import type { ApprovalRequest } from "../../core/approval/types";
import { sha256Hex } from "../../core/lock/digest";

export type CapturedSource = { readonly file: string; readonly text: string; readonly line: number } | { readonly problem: string };

/** The exported declaration named `name` in `file` (its JSDoc included), or undefined. */
function declarationText(file: ts.SourceFile, name: string): { text: string; line: number } | undefined {
  for (const statement of file.statements) {
    const named =
      ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name?.text === name) ||
      (ts.isVariableStatement(statement) && statement.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name));
    if (!named) continue;
    const start = statement.getStart(file, true);
    return { text: file.text.slice(start, statement.getEnd()), line: file.getLineAndCharacterOfPosition(start).line + 1 };
  }
  return undefined;
}

export function capturedSource(layerDir: string, request: ApprovalRequest, guarantee: GuaranteeIdentity): CapturedSource {
  const contractFile = guarantee.sources[0];
  const exported = guarantee.symbol.slice(guarantee.symbol.lastIndexOf("#") + 1);
  if (!contractFile) return { problem: "the identity names no contract file" };
  const pinned = request.layer.files.find((f) => f.path === contractFile.file);
  if (!pinned) return { problem: `${contractFile.file} is not a file the layer's lock pins` };
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path.join(layerDir, ...pinned.path.split("/")));
  } catch (error) {
    return { problem: `${pinned.path} cannot be read from the operator's layer (${(error as Error).message})` };
  }
  if (sha256Hex(bytes) !== contractFile.sha256) return { problem: `${pinned.path} changed in the operator's layer since this request was verified` };
  const file = ts.createSourceFile(pinned.path, bytes.toString("utf8"), ts.ScriptTarget.Latest, true);
  const found = declarationText(file, exported);
  return found ? { file: pinned.path, ...found } : { problem: `${exported} is not declared in ${pinned.path} itself (it is re-exported); its digest is listed below` };
}
