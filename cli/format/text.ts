/**
 * The two text formats. `plain` is TypeScript's own `file(line,col): error TS93101: message`
 * (ts.formatDiagnostics: what tsc prints when it is not pretty, and what VS Code's `$tsc` and
 * GitHub's problem matchers read); `pretty` is TypeScript's formatter with code frames, then one
 * line per program. Both end with the command's summary and tsc's "Found N errors" line.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../../core/context";
import { verdictLines } from "../proofs";
import { uncoloured } from "./colour";
import { foundLine, problemsOf, tally, type Report } from "./report";

/** Text for the two streams: diagnostics on stderr, the verdicts and the summary on stdout. */
export interface Rendered {
  readonly stderr: string;
  readonly stdout: string;
}

function host(cwd: string): TS.FormatDiagnosticsHost {
  return { getCurrentDirectory: () => cwd, getCanonicalFileName: (f) => f, getNewLine: () => "\n" };
}

function summaryLine(report: Report): string {
  const t = tally(report, problemsOf(report));
  const programs = `${t.proved}/${t.programs} program(s) proved`;
  if (report.command === "prove") return `clauz3 prove: ${programs}`;
  const shard = report.shard ? ` (shard ${report.shard.index}/${report.shard.count})` : "";
  return `clauz3 check${shard}: ${report.findings.filter((d) => d.category === report.ts.DiagnosticCategory.Error).length} finding(s), ${programs}`;
}

function closing(report: Report): string {
  const found = foundLine(problemsOf(report));
  return `${summaryLine(report)}\n${found ? `\n${found}\n` : ""}`;
}

/**
 * A message's later lines indented, as tsc indents a message chain: a line of a message never
 * starts where a problem matcher looks for a file name.
 */
function indented(ts: TypeScript, d: TS.Diagnostic): TS.Diagnostic {
  const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
  return text.includes("\n") ? { ...d, messageText: text.replace(/\n(?=\S)/g, "\n  ") } : d;
}

/** One line per diagnostic (continuation lines indented), on stdout. */
export function renderPlain(report: Report): Rendered {
  const problems = problemsOf(report).map((p) => indented(report.ts, p.diagnostic));
  return { stderr: "", stdout: `${report.ts.formatDiagnostics(problems, host(report.cwd))}${closing(report)}` };
}

/** Code frames (coloured when `colour`), then each program's verdict, proved guarantees and failures. */
export function renderPretty(report: Report, colour: boolean): Rendered {
  const problems = problemsOf(report).map((p) => p.diagnostic);
  const framed = problems.length === 0 ? "" : report.ts.formatDiagnosticsWithColorAndContext(problems, host(report.cwd));
  const out = verdictLines(report.verdicts, report.cwd);
  return { stderr: colour ? framed : uncoloured(framed), stdout: `${out}${closing(report)}` };
}

/** Diagnostics alone (for `describe`): pretty with code frames, or tsc's plain lines. */
export function renderDiagnostics(ts: TypeScript, cwd: string, diagnostics: readonly TS.Diagnostic[], pretty: boolean, colour: boolean): string {
  if (diagnostics.length === 0) return "";
  if (!pretty) return ts.formatDiagnostics(diagnostics.map((d) => indented(ts, d)), host(cwd));
  const framed = ts.formatDiagnosticsWithColorAndContext(diagnostics, host(cwd));
  return colour ? framed : uncoloured(framed);
}
