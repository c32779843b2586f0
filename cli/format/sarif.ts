/**
 * `--format sarif`: a SARIF 2.1.0 log (the OASIS standard code scanning reads) built with
 * node-sarif-builder. What code scanning relies on: `ruleId` (`TS93003`) with rule metadata from
 * the rule table (name, description, help, helpUri), relative `uri`s with the `%SRCROOT%`
 * `uriBaseId`, regions in UTF-16 columns as TypeScript counts them, and `partialFingerprints` that
 * follow the reported text rather than its line, so an alert survives edits above it.
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import { SarifBuilder, SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } from "node-sarif-builder";
import type { Artifact, ReportingDescriptor, Result } from "sarif";
import type { ProgramVerdict } from "../../core/prover/api";
import { shown } from "../proofs";
import { problemsOf, type Problem, type Report } from "./report";
import type { ShardInfo } from "./shard";
import type { ToolInfo } from "./output";
import { explainMarkdown, explainText, ruleInfo } from "./rules";

export const SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/** The base the relative `uri`s resolve against: the directory clauz3 ran in (the checkout, in CI). */
export const SRCROOT = "%SRCROOT%";
/** The run's property that describes a shard (`check --shard i/n --format sarif`). */
export const SHARD_PROPERTY = "clauz3/shard";

export interface ShardProperty extends ShardInfo {
  readonly programs: readonly { readonly file: string; readonly verdict: ProgramVerdict["verdict"] }[];
}

function shardProperty(report: Report): ShardProperty {
  return { ...report.shard!, programs: report.verdicts.map((v) => ({ file: shown(v.file, report.cwd), verdict: v.verdict })) };
}

function ruleOf(code: number, rulesUri: string): ReportingDescriptor {
  const rule = ruleInfo(code);
  if (!rule) {
    // TypeScript's own diagnostics (a type error in a program) keep tsc's code.
    return { id: `TS${code}`, name: `typescript-${code}`, shortDescription: { text: `TypeScript diagnostic TS${code} (a program that does not type-check is never proved)` } };
  }
  return {
    id: rule.name,
    name: rule.id,
    shortDescription: { text: rule.doc },
    fullDescription: { text: rule.doc },
    help: { text: explainText(rule), markdown: explainMarkdown(rule) },
    helpUri: rulesUri,
    defaultConfiguration: { level: "error" },
  };
}

/** A stable identity of a result: rule, file, the reported text and its rank among equal ones. */
function fingerprint(p: Problem, seen: Map<string, number>): string {
  const key = `TS${p.code}\0${p.location?.file ?? ""}\0${(p.text ?? p.message).replace(/\s+/g, " ").trim()}`;
  const n = (seen.get(key) ?? 0) + 1;
  seen.set(key, n);
  return createHash("sha256").update(`${key}\0${n}`).digest("hex").slice(0, 32);
}

function uriOf(file: string): { uri: string; uriBaseId?: string } {
  // Paths outside the current directory are shown absolute: those get a file URI of their own.
  if (path.isAbsolute(file)) return { uri: new URL(`file://${file.startsWith("/") ? "" : "/"}${file}`).href };
  return { uri: file.split("/").map(encodeURIComponent).join("/"), uriBaseId: SRCROOT };
}

export function renderSarif(report: Report, tool: ToolInfo): string {
  const problems = problemsOf(report);
  const run = new SarifRunBuilder().initSimple({ toolDriverName: "clauz3", toolDriverVersion: tool.version, url: tool.rulesUri });
  run.run.columnKind = "utf16CodeUnits";
  const codes = [...new Set(problems.map((p) => p.code))].sort((a, b) => a - b);
  for (const code of codes) run.addRule(new SarifRuleBuilder(ruleOf(code, tool.rulesUri)));
  const artifacts: Artifact[] = [];
  const seen = new Map<string, number>();
  for (const p of problems) {
    const result: Result = {
      ruleId: `TS${p.code}`,
      level: p.severity,
      message: { text: p.message },
      partialFingerprints: { "clauz3/v1": fingerprint(p, seen) },
    };
    if (p.location) {
      const artifactLocation = uriOf(p.location.file);
      if (!artifacts.some((a) => a.location?.uri === artifactLocation.uri)) artifacts.push({ location: artifactLocation });
      result.locations = [
        {
          physicalLocation: {
            artifactLocation,
            region: { startLine: p.location.line, startColumn: p.location.column, endLine: p.location.endLine, endColumn: p.location.endColumn },
          },
        },
      ];
    }
    run.addResult(new SarifResultBuilder(result));
  }
  // A shard says which share it is and which programs it proved, for `merge-reports` (a property bag, which SARIF leaves to the tool).
  if (report.shard) run.run.properties = { [SHARD_PROPERTY]: shardProperty(report) };
  // Listed before the builder completes the run, so each artifact keeps its uriBaseId.
  run.run.artifacts = artifacts;
  const log = new SarifBuilder({ $schema: SARIF_SCHEMA_URI, version: "2.1.0", runs: [] });
  log.addRun(run);
  return `${log.buildSarifJsonString({ indent: true })}\n`;
}
