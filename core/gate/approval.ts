/**
 * Rule 93015 across the layer and the manifests: a library whose `clauz3.json` says
 * `"requiresApproval": true` says so in every tool module (`requireApproval("<id>")`), and only
 * such a library does. The manifest alone is not enough at run time: a build without the clauz3
 * plugin into another outDir leaves it behind, and the tools would run without an approval
 * (runtime/approval.ts). The reader checks the statement's form (core/layer/read.ts).
 */
import type * as TS from "typescript";
import type { Finding, TypeScript } from "../context";
import { libraryOfFile, type Library } from "../manifest";
import type { LayerModel } from "../model";
import { formatMessage, RULES } from "../rules";

export function approvalDeclarationFindings(ts: TypeScript, program: TS.Program, model: LayerModel, libraries: readonly Library[]): Finding[] {
  const out: Finding[] = [];
  const at = (node: TS.Node, problem: string, library: string): void => {
    const file = node.getSourceFile();
    const start = node.getStart(file);
    out.push({ rule: "approvalDeclaration", file, start, length: node.getEnd() - start, message: formatMessage(RULES.approvalDeclaration, { problem, library }) });
  };
  // The first tool of each trusted file, where a missing declaration is reported.
  const firstTool = new Map<string, TS.Node>();
  for (const tool of model.tools.values()) {
    const known = firstTool.get(tool.fileName);
    if (!known || tool.declaration.getStart() < known.getStart()) firstTool.set(tool.fileName, tool.declaration.name);
  }
  const files = new Set([...firstTool.keys(), ...(model.approvals?.keys() ?? [])]);
  for (const fileName of [...files].sort()) {
    if (!program.getSourceFile(fileName)) continue;
    const library = libraryOfFile(libraries, fileName);
    const required = library?.manifest?.requiresApproval === true;
    const declared = model.approvals?.get(fileName);
    const id = library?.id ?? "<library id>";
    if (required && !declared) {
      at(firstTool.get(fileName)!, `The manifest of library "${id}" requires approval, but this module does not say so in code: built without the clauz3 plugin into another folder, its tools would run without an approval.`, id);
    } else if (declared && !required) {
      at(declared.call, library?.manifest
        ? `\`requireApproval\` in library "${id}", whose ${library.manifestPath.replace(/\\/g, "/").split("/").slice(-2).join("/")} does not say \`"requiresApproval": true\`: reviewers read the manifest, so the two must agree. Add \`"requiresApproval": true\` to the manifest, or remove the call.`
        : `\`requireApproval\` in a module of ${library ? `library "${id}", which has no valid clauz3.json` : "no library"}: reviewers read the manifest, so the two must agree. Add a clauz3.json with \`"requiresApproval": true\`, or remove the call.`, id);
    } else if (declared && declared.library !== id) {
      at(declared.call.arguments[0] ?? declared.call, `\`requireApproval("${declared.library}")\` names another library than this module's, "${id}" (approval refusals name it).`, id);
    }
  }
  return out;
}
