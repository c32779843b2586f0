/**
 * `clauz3 merge-reports`: the shards' reports (`check --shard i/n`) joined into the report `check`
 * gives for the whole project. JSON reports merge into one JSON report, SARIF logs into one SARIF
 * log with one run. The parts must be every shard of one run, once each: the same report version,
 * the same n, the same set of programs (ShardInfo.project), no program twice. The merged document
 * lists programs by path and findings (or SARIF results) by file, line, column and code, so it
 * does not depend on how the programs were split. Bad input is a usage error naming the file and
 * the field.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Log, ReportingDescriptor, Result, Run } from "sarif";
import { ajvProblems, createAjv, packageRoot } from "../../core/manifest";
import { CliError, EXIT } from "../io";
import { REPORT_VERSION, type FindingJson, type ReportJson } from "./json";
import { SHARD_PROPERTY, type ShardProperty } from "./sarif";
import { programsDigest, type ShardInfo } from "./shard";

/** A report read from a file, with the name it is reported under. */
export interface Part<T> {
  readonly file: string;
  readonly shard: ShardInfo;
  /** The programs it proved, with their verdicts. */
  readonly programs: readonly { readonly file: string; readonly verdict: string }[];
  readonly document: T;
}

export type Parts = { readonly kind: "json"; readonly parts: Part<ReportJson>[] } | { readonly kind: "sarif"; readonly parts: Part<Log>[] };

const bad = (file: string, why: string): CliError => new CliError(`clauz3 merge-reports: ${file}: ${why}`, EXIT.usage);

let validator: ValidateFunction | undefined;

function reportErrors(data: unknown): ErrorObject[] {
  validator ??= createAjv().compile(JSON.parse(fs.readFileSync(path.join(packageRoot(), "schema", "report.schema.json"), "utf8")) as object);
  return validator(data) ? [] : [...(validator.errors ?? [])];
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

function shardOfJson(file: string, value: unknown, field: string): ShardInfo {
  if (value === undefined) throw bad(file, `${field} is missing: not a shard's report (write one with \`clauz3 check --shard i/n\`).`);
  const s = value as Partial<ShardInfo>;
  const whole = (x: unknown): x is number => typeof x === "number" && Number.isSafeInteger(x) && x >= 1;
  if (!isObject(value) || !whole(s.index) || !whole(s.count) || s.index > s.count || typeof s.project !== "string" || !/^[0-9a-f]{64}$/.test(s.project)) {
    throw bad(file, `${field} must be { index, count, project } with 1 ≤ index ≤ count and project a SHA-256 in hex.`);
  }
  return { index: s.index, count: s.count, project: s.project };
}

function readJsonReport(file: string, data: Record<string, unknown>): Part<ReportJson> {
  if (data.version !== REPORT_VERSION) throw bad(file, `version is ${JSON.stringify(data.version)}; this clauz3 reads reports of version ${REPORT_VERSION} (merge reports written by the same clauz3).`);
  const problem = ajvProblems(reportErrors(data), "report")[0];
  if (problem) throw bad(file, `not a clauz3 report (schema/report.schema.json): ${problem}.`);
  const report = data as unknown as ReportJson;
  if (report.command !== "check") throw bad(file, `command is "${report.command}": only \`clauz3 check --shard\` reports merge.`);
  const shard = shardOfJson(file, report.shard, "shard");
  return { file, shard, programs: report.programs.map((p) => ({ file: p.file, verdict: p.verdict })), document: report };
}

function readSarif(file: string, data: Record<string, unknown>): Part<Log> {
  if (data.version !== "2.1.0") throw bad(file, `version is ${JSON.stringify(data.version)}; a SARIF log of version 2.1.0 was expected.`);
  const runs = data.runs;
  if (!Array.isArray(runs) || runs.length !== 1 || !isObject(runs[0])) throw bad(file, "runs must hold exactly one run (the one `clauz3 check --format sarif` writes).");
  const run = runs[0] as unknown as Run;
  if (run.tool?.driver?.name !== "clauz3") throw bad(file, `runs[0].tool.driver.name is ${JSON.stringify(run.tool?.driver?.name)}, not "clauz3".`);
  if (run.results !== undefined && !Array.isArray(run.results)) throw bad(file, "runs[0].results must be an array.");
  const property = (run.properties as Record<string, unknown> | undefined)?.[SHARD_PROPERTY] as Partial<ShardProperty> | undefined;
  const field = `runs[0].properties["${SHARD_PROPERTY}"]`;
  const shard = shardOfJson(file, property, field);
  const programs = property!.programs;
  if (!Array.isArray(programs) || !programs.every((p) => isObject(p) && typeof p.file === "string" && p.file !== "" && ["proved", "violated", "refused"].includes(p.verdict as string))) {
    throw bad(file, `${field}.programs must list { file, verdict } for every program the shard proved.`);
  }
  return { file, shard, programs: programs.map((p) => ({ file: p.file, verdict: p.verdict })), document: data as unknown as Log };
}

/** Read and check the parts: one kind, one run's shards, each once, no program twice, every program of the project. */
export function readParts(files: readonly string[], cwd: string): Parts {
  const json: Part<ReportJson>[] = [];
  const sarif: Part<Log>[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(path.resolve(cwd, file), "utf8");
    } catch (error) {
      throw bad(file, `cannot read it (${error instanceof Error && "code" in error ? String((error as NodeJS.ErrnoException).code) : String(error)}).`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw bad(file, `not JSON (${error instanceof Error ? error.message : String(error)}).`);
    }
    if (!isObject(data)) throw bad(file, "not a clauz3 report or SARIF log (the document is not an object).");
    if ("runs" in data || data.$schema !== undefined) sarif.push(readSarif(file, data));
    else json.push(readJsonReport(file, data));
  }
  if (json.length > 0 && sarif.length > 0) throw new CliError(`clauz3 merge-reports: ${json[0]!.file} is a JSON report and ${sarif[0]!.file} a SARIF log; merge one kind at a time.`, EXIT.usage);
  const parts: Part<unknown>[] = json.length > 0 ? json : sarif;
  const first = parts[0]!;
  const byIndex = new Map<number, Part<unknown>>();
  const owner = new Map<string, string>();
  for (const part of parts) {
    if (part.shard.count !== first.shard.count) throw bad(part.file, `shard ${part.shard.index}/${part.shard.count} is of a split into ${part.shard.count}, ${first.file} of one into ${first.shard.count}.`);
    if (part.shard.project !== first.shard.project) throw bad(part.file, `shard.project differs from ${first.file}'s: a shard of a different project (or another selection of programs, or another revision).`);
    const twin = byIndex.get(part.shard.index);
    if (twin) throw bad(part.file, `shard ${part.shard.index}/${part.shard.count} is also ${twin.file}.`);
    byIndex.set(part.shard.index, part);
    for (const p of part.programs) {
      const other = owner.get(p.file);
      if (other !== undefined) throw bad(part.file, `program ${p.file} is also reported by ${other}: the shards overlap.`);
      owner.set(p.file, part.file);
    }
  }
  const missing = Array.from({ length: first.shard.count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) throw new CliError(`clauz3 merge-reports: shard${missing.length > 1 ? "s" : ""} ${missing.map((i) => `${i}/${first.shard.count}`).join(", ")} missing; the merged report must cover every program.`, EXIT.usage);
  if (programsDigest([...owner.keys()]) !== first.shard.project) {
    throw new CliError(`clauz3 merge-reports: the shards' programs are not the project's (shard.project names another set); were the shards run from different directories or revisions?`, EXIT.usage);
  }
  return json.length > 0 ? { kind: "json", parts: json } : { kind: "sarif", parts: sarif };
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Findings without a place first, then by file, line, column, code and message. */
export function compareFindings(a: FindingJson, b: FindingJson): number {
  const la = a.location;
  const lb = b.location;
  if (!la || !lb) return (la ? 1 : 0) - (lb ? 1 : 0) || a.code - b.code || byText(a.message, b.message);
  return byText(la.file, lb.file) || la.line - lb.line || la.column - lb.column || a.code - b.code || byText(a.message, b.message);
}

/** One JSON report: findings and programs of every shard, sorted; the summary is the shards' sums (their error files are disjoint). */
export function mergeJson(parts: readonly Part<ReportJson>[]): ReportJson {
  const sum = (key: keyof ReportJson["summary"]): number => parts.reduce((n, p) => n + p.document.summary[key], 0);
  return {
    version: REPORT_VERSION,
    command: "check",
    summary: { errors: sum("errors"), warnings: sum("warnings"), files: sum("files"), programs: sum("programs"), proved: sum("proved") },
    findings: parts.flatMap((p) => p.document.findings).sort(compareFindings),
    programs: parts.flatMap((p) => p.document.programs).sort((a, b) => byText(a.file, b.file)),
  };
}

function resultKey(r: Result): [string, number, number, string, string] {
  const loc = r.locations?.[0]?.physicalLocation;
  return [loc?.artifactLocation?.uri ?? "", loc?.region?.startLine ?? 0, loc?.region?.startColumn ?? 0, r.ruleId ?? "", r.message?.text ?? ""];
}

/** Results by file, line, column, rule and message (results without a place first). */
export function compareResults(a: Result, b: Result): number {
  const ka = resultKey(a);
  const kb = resultKey(b);
  return byText(ka[0], kb[0]) || ka[1] - kb[1] || ka[2] - kb[2] || byText(ka[3], kb[3]) || byText(ka[4], kb[4]);
}

const codeOf = (id: string): number => Number(/\d+$/.exec(id)?.[0] ?? Infinity);

/** One SARIF log with one run: the first shard's tool, every shard's rules (by code), artifacts and results (sorted). */
export function mergeSarif(parts: readonly Part<Log>[]): Log {
  const runs = parts.map((p) => p.document.runs[0]!);
  const first = runs[0]!;
  for (const [i, run] of runs.entries()) {
    if (run.tool.driver.version !== first.tool.driver.version) throw bad(parts[i]!.file, `written by clauz3 ${run.tool.driver.version ?? "(no version)"}, ${parts[0]!.file} by ${first.tool.driver.version ?? "(no version)"}; merge logs of one clauz3.`);
  }
  const rules = new Map<string, ReportingDescriptor>();
  for (const run of runs) for (const rule of run.tool.driver.rules ?? []) if (!rules.has(rule.id)) rules.set(rule.id, rule);
  const ruleList = [...rules.values()].sort((a, b) => codeOf(a.id) - codeOf(b.id));
  const ruleIndex = new Map(ruleList.map((r, i) => [r.id, i]));
  const artifacts = new Map<string, NonNullable<Run["artifacts"]>[number]>();
  // Each shard numbered its rules and artifacts itself: the merged run numbers them again.
  const results = runs
    .flatMap((r) => r.results ?? [])
    .sort(compareResults)
    .map((r): Result => {
      const locations = r.locations?.map((l) => {
        const at = l.physicalLocation?.artifactLocation;
        if (!l.physicalLocation || at?.uri === undefined) return l;
        if (!artifacts.has(at.uri)) artifacts.set(at.uri, { location: { ...at, index: artifacts.size } });
        return { ...l, physicalLocation: { ...l.physicalLocation, artifactLocation: { ...at, index: artifacts.get(at.uri)!.location!.index! } } };
      });
      const index = r.ruleId !== undefined ? ruleIndex.get(r.ruleId) : undefined;
      const { ruleIndex: _old, ...rest } = r;
      return { ...rest, ...(index !== undefined ? { ruleIndex: index } : {}), ...(locations ? { locations } : {}) };
    });
  const { properties: _shard, ...rest } = first;
  const run: Run = {
    ...rest,
    tool: { ...first.tool, driver: { ...first.tool.driver, rules: ruleList } },
    artifacts: [...artifacts.values()],
    results,
  };
  return { ...parts[0]!.document, runs: [run] };
}
