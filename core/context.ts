import type * as TS from "typescript";
import { formatMessage, RULES, type RuleName } from "./rules";

/** The TypeScript module in use: always the caller's instance, never a second copy. */
export type TypeScript = typeof TS;

/** A rule violation found while reading, before it becomes a `ts.Diagnostic`. */
export interface Finding {
  readonly rule: RuleName;
  readonly file: TS.SourceFile;
  readonly start: number;
  readonly length: number;
  readonly message: string;
}

/** Options shared by every surface. */
export interface Clauz3Options {
  /** Globs (relative to the project directory) selecting trusted-layer files; default: a `trusted` path segment. */
  readonly trustedRoots?: readonly string[];
}

/** Everything a reader needs, passed explicitly. */
export interface ReadContext {
  readonly ts: TypeScript;
  readonly program: TS.Program;
  readonly checker: TS.TypeChecker;
  readonly findings: Finding[];
  readonly options: Clauz3Options;
}

/** Record a rule violation on exactly `node` (or `[start, end)` when given). */
export function report(
  ctx: ReadContext,
  rule: RuleName,
  node: TS.Node,
  data: Readonly<Record<string, string>> = {},
): void {
  const file = node.getSourceFile();
  const start = node.getStart(file);
  ctx.findings.push({ rule, file, start, length: node.getEnd() - start, message: formatMessage(RULES[rule], data) });
}

/** Turn a finding into a diagnostic: the one boundary where rule results become `ts.Diagnostic`s. */
export function toDiagnostic(ts: TypeScript, finding: Finding): TS.Diagnostic {
  return {
    category: ts.DiagnosticCategory.Error,
    code: RULES[finding.rule].code,
    file: finding.file,
    start: finding.start,
    length: finding.length,
    messageText: finding.message,
    source: "clauz3",
  };
}
