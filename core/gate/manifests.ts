/**
 * Library manifests as findings: the validation `libraries` and `describe` do (the same schema,
 * the same ajv, the same wording), each problem reported on its field in `clauz3.json` (93023).
 */
import type * as TS from "typescript";
import type { ErrorObject } from "ajv";
import type { TypeScript } from "../context";
import { jsonSpan, type TextSpan } from "../lock/json-span";
import { ajvProblems, defaultReadBytes, manifestErrors, type Library, type ReadBytes } from "../manifest";
import { formatMessage, RULES } from "../rules";

const MANIFEST = "clauz3.json";

function diagnostic(ts: TypeScript, file: TS.SourceFile, span: TextSpan, problem: string): TS.Diagnostic {
  return {
    category: ts.DiagnosticCategory.Error,
    code: RULES.invalidManifest.code,
    file,
    start: span.start,
    length: span.length,
    messageText: formatMessage(RULES.invalidManifest, { manifest: MANIFEST, problem }),
    source: "clauz3",
  };
}

/** Where an ajv error is: an unexpected property on its key, anything else on the value at its path. */
function spanOf(ts: TypeScript, file: TS.JsonSourceFile, error: ErrorObject): TextSpan {
  const pointer = error.instancePath.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (error.keyword === "additionalProperties") {
    return jsonSpan(ts, file, [...pointer, (error.params as { additionalProperty: string }).additionalProperty], true);
  }
  return jsonSpan(ts, file, pointer);
}

/** One 93023 diagnostic per problem of each library's manifest (libraries without a manifest have none). */
export function manifestDiagnostics(ts: TypeScript, libraries: readonly Library[], readBytes: ReadBytes = defaultReadBytes): TS.Diagnostic[] {
  const out: TS.Diagnostic[] = [];
  for (const library of libraries) {
    if (library.manifestProblems.length === 0) continue;
    const text = readBytes(library.manifestPath)?.toString("utf8") ?? "";
    const file = ts.parseJsonText(library.manifestPath, text);
    const syntax = (file as TS.JsonSourceFile & { parseDiagnostics?: readonly TS.Diagnostic[] }).parseDiagnostics ?? [];
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      // Not JSON: the problem as `libraries` words it, on the first syntax error TypeScript's parser finds.
      const first = syntax[0];
      out.push(diagnostic(ts, file, { start: first?.start ?? 0, length: first?.length ?? 0 }, library.manifestProblems.join("; ")));
      continue;
    }
    const errors = manifestErrors(data);
    if (errors.length === 0) {
      // Changed since the layer was read: report what was found then, on the document.
      out.push(diagnostic(ts, file, jsonSpan(ts, file, []), library.manifestProblems.join("; ")));
      continue;
    }
    for (const error of errors) out.push(diagnostic(ts, file, spanOf(ts, file, error), ajvProblems([error])[0]!));
  }
  return out;
}
