/**
 * `--format json`: one document, described by schema/report.schema.json (strict: a field it does
 * not list is an error in the tests). `version` changes when a field changes meaning or goes away.
 */
import { toJson, type ProveJson } from "../proofs";
import { problemsOf, tally, type CommandName, type Place, type Report, type Tally } from "./report";
import { ruleInfo } from "./rules";
import type { ShardInfo } from "./shard";

export const REPORT_VERSION = 1;

export interface FindingJson {
  readonly code: number;
  /** The clauz3 rule's id; absent for TypeScript's own codes. */
  readonly rule?: string;
  readonly severity: "error" | "warning";
  readonly message: string;
  /** Absent for a finding about the whole project (a compiler option, say). */
  readonly location?: Place;
}

export interface ReportJson extends ProveJson {
  readonly version: typeof REPORT_VERSION;
  readonly command: CommandName;
  readonly summary: Tally;
  readonly findings: readonly FindingJson[];
  /** Present in a shard's report (`check --shard i/n`); `merge-reports` reads it and leaves it out. */
  readonly shard?: ShardInfo;
}

export function reportJson(report: Report): ReportJson {
  const problems = problemsOf(report);
  const findings = problems
    .filter((p) => report.findings.includes(p.diagnostic))
    .map((p): FindingJson => {
      const rule = ruleInfo(p.code);
      return {
        code: p.code,
        ...(rule ? { rule: rule.id } : {}),
        severity: p.severity,
        message: p.message,
        ...(p.location ? { location: { file: p.location.file, line: p.location.line, column: p.location.column } } : {}),
      };
    });
  return { version: REPORT_VERSION, command: report.command, summary: tally(report, problems), findings, ...toJson(report.verdicts, report.cwd), ...(report.shard ? { shard: { ...report.shard } } : {}) };
}

export function renderJson(report: Report): string {
  return `${JSON.stringify(reportJson(report), null, 2)}\n`;
}
