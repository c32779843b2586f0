/**
 * Coverage policies as build findings: each problem of a manifest's `coverage` that only the layer
 * can reveal (a tool or contract the library does not have, a required contract that takes
 * arguments) is an error on its field in `clauz3.json` (93043), from `check`, `prove` and `tspc`.
 * Schema problems of the same field are the manifest's (93023).
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import { jsonSpan } from "../lock/json-span";
import { defaultReadBytes, type Library, type ReadBytes } from "../manifest";
import type { LayerModel } from "../model";
import { fieldText, resolveCoverage } from "./declaration";
import { COVERAGE_CODES } from "./rules";

export function coveragePolicyDiagnostics(ts: TypeScript, layer: LayerModel, libraries: readonly Library[], readBytes: ReadBytes = defaultReadBytes): TS.Diagnostic[] {
  const out: TS.Diagnostic[] = [];
  for (const policy of resolveCoverage(layer, libraries)) {
    if (policy.problems.length === 0) continue;
    const file = ts.parseJsonText(policy.library.manifestPath, readBytes(policy.library.manifestPath)?.toString("utf8") ?? "");
    for (const p of policy.problems) {
      const span = jsonSpan(ts, file, p.path.map(String));
      out.push({
        category: ts.DiagnosticCategory.Error,
        code: COVERAGE_CODES["coverage-policy"],
        file,
        start: span.start,
        length: span.length,
        messageText: `clauz3.json: ${fieldText(p.path)}: ${p.problem}. Name a tool (\`whenUsed\`) or contract (\`required\`, \`recommended\`) the library exports (docs/coverage.md).`,
        source: "clauz3",
      });
    }
  }
  return out;
}
