/**
 * Coverage → `ts.Diagnostic`s, from a verdict's `coverage` (the prover's, so build, editor and CLI
 * show the same): a required gap is an error, a silent gap a warning, a recommended gap a
 * suggestion, each on the program's `guarantees` with the first reachable use as related information.
 */
import * as path from "node:path";
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import type { ProgramVerdict } from "../prover/api";
import { COVERAGE_CODES } from "./rules";
import type { LibraryCoverage } from "./types";

export interface CoverageDiagnostics {
  /** Required gaps (errors) and silent gaps (warnings): `getSemanticDiagnostics`. */
  readonly problems: TS.Diagnostic[];
  /** Recommended gaps: `getSuggestionDiagnostics`. */
  readonly suggestions: TS.DiagnosticWithLocation[];
}

function usedBy(c: LibraryCoverage, base: string): string {
  const first = c.uses[0];
  if (!first) return "";
  const where = `${path.relative(base, first.location.fileName).replace(/\\/g, "/") || first.location.fileName}:${first.location.line}:${first.location.column}`;
  return ` (${first.tool} at ${where}${c.uses.length > 1 ? ` and ${c.uses.length - 1} more call(s)` : ""})`;
}

/** The message of one used library's status, or undefined when it is covered. */
export function coverageMessage(c: LibraryCoverage, base: string): string | undefined {
  const uses = `The program uses ${c.title} [${c.library}]${usedBy(c, base)}`;
  switch (c.status) {
    case "required-gap": {
      const missing = c.required.filter((r) => !r.stated).map((r) => `${r.contract}()`);
      const parts = [`${uses}, whose coverage policy requires ${missing.length ? missing.join(", ") : "contracts"}, which \`guarantees\` does not state.`];
      if (missing.length) parts.push("They are proved with the program's guarantees, but a reviewer approves what the program states: add them to `guarantees`.");
      if (c.problems.length) parts.push(`The library's policy cannot be applied: ${c.problems.join("; ")}.`);
      return parts.join(" ");
    }
    case "silent-gap":
      return `${uses} but states none of its contracts. State what the program keeps${c.recommended.length ? ` (recommended: ${c.recommended.map((r) => r.contract).join(", ")})` : ""}, or list \`noGuarantees(lib)\` to say it promises nothing about ${c.title}.`;
    case "recommended-gap":
      return `${uses}; its coverage policy recommends ${c.recommended.filter((r) => !r.stated).map((r) => r.contract).join(", ")}, which \`guarantees\` does not state.`;
    case "covered":
      return undefined;
  }
}

const CODES = { "required-gap": COVERAGE_CODES["coverage-required-gap"], "silent-gap": COVERAGE_CODES["coverage-silent-gap"], "recommended-gap": COVERAGE_CODES["coverage-recommended-gap"] } as const;

/** The coverage diagnostics of a verdict, anchored at `anchor` (the program's `guarantees`) in `file`. */
export function coverageDiagnostics(ts: TypeScript, program: TS.Program, file: TS.SourceFile, verdict: ProgramVerdict, anchor: { start: number; length: number }): CoverageDiagnostics {
  const problems: TS.Diagnostic[] = [];
  const suggestions: TS.DiagnosticWithLocation[] = [];
  const base = program.getCurrentDirectory();
  for (const c of verdict.coverage ?? []) {
    const messageText = coverageMessage(c, base);
    if (messageText === undefined || c.status === "covered") continue;
    const category = c.status === "required-gap" ? ts.DiagnosticCategory.Error : c.status === "silent-gap" ? ts.DiagnosticCategory.Warning : ts.DiagnosticCategory.Suggestion;
    const d: TS.DiagnosticWithLocation = { category, code: CODES[c.status], file, start: anchor.start, length: anchor.length, messageText, source: "clauz3" };
    const first = c.uses[0];
    const other = first && program.getSourceFile(first.location.fileName);
    if (first && other && first.location.start + first.location.length <= other.text.length) {
      d.relatedInformation = [{ category: ts.DiagnosticCategory.Message, code: d.code, file: other, start: first.location.start, length: first.location.length, messageText: `uses ${c.library} here` }];
    }
    if (c.status === "recommended-gap") suggestions.push(d);
    else problems.push(d);
  }
  return { problems, suggestions };
}
