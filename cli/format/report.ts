/**
 * What a command found, in one shape every format renders: the findings (TypeScript's diagnostics,
 * rule, lock and manifest findings) and the programs' verdicts, with their proof diagnostics
 * computed once. Locations are relative to the current directory, as tsc prints them (VS Code's
 * `$tsc` matcher and GitHub's resolve them from there).
 */
import type * as TS from "typescript";
import type { TypeScript } from "../../core/context";
import type { ProgramVerdict } from "../../core/prover/api";
import { proofDiagnostics } from "../../core/prover/diagnostics";
import { shown } from "../proofs";
import type { ShardInfo } from "./shard";

export type CommandName = "check" | "prove";

export interface Report {
  readonly command: CommandName;
  readonly ts: TypeScript;
  /** The directory locations are relative to. */
  readonly cwd: string;
  /** Everything wrong besides the proofs, in order of trust. */
  readonly findings: readonly TS.Diagnostic[];
  readonly verdicts: readonly ProgramVerdict[];
  /** The errors of the verdicts as diagnostics on the agent programs. */
  readonly proofs: readonly TS.Diagnostic[];
  /** Which share of the programs this is (`check --shard`), when it is one. */
  readonly shard?: ShardInfo;
}

/** A report of `findings` and the `verdicts` of programs in `program`. */
export function makeReport(command: CommandName, ts: TypeScript, program: TS.Program, cwd: string, findings: readonly TS.Diagnostic[], verdicts: readonly ProgramVerdict[], shard?: ShardInfo): Report {
  const proofs: TS.Diagnostic[] = [];
  for (const v of verdicts) {
    const file = program.getSourceFile(v.file);
    if (file) proofs.push(...proofDiagnostics(ts, program, file, v).errors);
  }
  return { command, ts, cwd, findings, verdicts, proofs, ...(shard ? { shard } : {}) };
}

export interface Place {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export interface Problem {
  readonly severity: "error" | "warning";
  readonly code: number;
  /** The message with its chain flattened (lines after the first indented, as tsc does). */
  readonly message: string;
  readonly location?: Place & { readonly endLine: number; readonly endColumn: number };
  /** The reported source text (fingerprints are computed from it, not from line numbers). */
  readonly text?: string;
  readonly diagnostic: TS.Diagnostic;
}

/** Errors and warnings, findings first; suggestions and messages are not problems. */
export function problemsOf(report: Report): Problem[] {
  const { ts } = report;
  const out: Problem[] = [];
  for (const d of [...report.findings, ...report.proofs]) {
    const severity = d.category === ts.DiagnosticCategory.Error ? "error" : d.category === ts.DiagnosticCategory.Warning ? "warning" : undefined;
    if (!severity) continue;
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!d.file || d.start === undefined) {
      out.push({ severity, code: d.code, message, diagnostic: d });
      continue;
    }
    const start = d.file.getLineAndCharacterOfPosition(d.start);
    const end = d.file.getLineAndCharacterOfPosition(d.start + (d.length ?? 0));
    out.push({
      severity,
      code: d.code,
      message,
      location: { file: shown(d.file.fileName, report.cwd), line: start.line + 1, column: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 },
      text: d.file.text.slice(d.start, d.start + (d.length ?? 0)),
      diagnostic: d,
    });
  }
  return out;
}

export interface Tally {
  readonly errors: number;
  readonly warnings: number;
  /** Distinct files with an error. */
  readonly files: number;
  readonly programs: number;
  readonly proved: number;
}

export function tally(report: Report, problems: readonly Problem[]): Tally {
  const errors = problems.filter((p) => p.severity === "error");
  return {
    errors: errors.length,
    warnings: problems.length - errors.length,
    files: new Set(errors.flatMap((p) => (p.location ? [p.location.file] : []))).size,
    programs: report.verdicts.length,
    proved: report.verdicts.filter((v) => v.verdict === "proved").length,
  };
}

/**
 * tsc's closing line, in its words (`getErrorSummaryText`): "Found 1 error in plan.ts:7", "Found 3
 * errors in the same file, starting at: plan.ts:7", "Found 3 errors in 2 files.", "Found 2
 * errors."; nothing when there is no error. Files are counted as distinct files.
 */
export function foundLine(problems: readonly { readonly severity: Problem["severity"]; readonly location?: { readonly file: string; readonly line: number } }[]): string | undefined {
  const errors = problems.filter((p) => p.severity === "error");
  if (errors.length === 0) return undefined;
  const located = errors.flatMap((p) => (p.location ? [p.location] : []));
  const first = located[0] && `${located[0].file}:${located[0].line}`;
  const files = new Set(located.map((l) => l.file)).size;
  if (errors.length === 1) return first && errors[0]!.location ? `Found 1 error in ${first}` : "Found 1 error.";
  if (files === 0) return `Found ${errors.length} errors.`;
  if (files === 1) return `Found ${errors.length} errors in the same file, starting at: ${first}`;
  return `Found ${errors.length} errors in ${files} files.`;
}
