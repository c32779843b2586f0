/**
 * `clauz3 merge-reports <files…>`: the reports of `check --shard 1/n … n/n` joined into the report
 * of the whole project (cli/format/merge.ts), with the exit code `check` would have given it.
 * JSON reports merge into JSON (or its text formats), SARIF logs into one SARIF log.
 */
import type { Command } from "commander";
import { Option } from "commander";
import type { Log } from "sarif";
import { action, type CliContext } from "../command";
import { withHelp } from "../format/help";
import type { ReportJson } from "../format/json";
import { foundLine } from "../format/report";
import { mergeJson, mergeSarif, readParts } from "../format/merge";
import { writeAtomically } from "../format/write";
import { CliError, EXIT, terminalSafe } from "../io";
import * as path from "node:path";

const FORMATS = ["json", "sarif", "pretty", "plain"] as const;

interface Options {
  readonly format?: (typeof FORMATS)[number];
  readonly outputFile?: string;
  readonly maxWarnings?: string;
}

export default function register(program: Command, context: CliContext): void {
  const command = program
    .command("merge-reports")
    .description("merge the JSON reports or SARIF logs of `clauz3 check --shard i/n` (every shard once) into one")
    .argument("<files...>", "the shards' reports: all JSON (check --json) or all SARIF (check --format sarif)")
    .addOption(new Option("--format <format>", "the merged report's format (default: the inputs' kind; pretty and plain from JSON reports)").choices(FORMATS))
    .option("-o, --output-file <path>", "write the merged report to a file (atomically); the console shows the summary")
    .option("--max-warnings <n>", "exit 1 when there are more than n warnings");
  withHelp(command, [
    ["clauz3 merge-reports shard-*.json -o clauz3.json", "one JSON report of the whole project"],
    ["clauz3 merge-reports shard-*.sarif -o clauz3.sarif", "one SARIF log (one run) for code scanning"],
    ["clauz3 merge-reports shard-*.json --format plain", "the merged findings as tsc's plain lines"],
  ]);
  command.action(
    action(context, (files: string[], opts: Options) => {
      const { io } = context;
      let maxWarnings: number | undefined;
      if (opts.maxWarnings !== undefined) {
        maxWarnings = Number(opts.maxWarnings);
        if (!/^\d+$/.test(opts.maxWarnings) || !Number.isSafeInteger(maxWarnings)) throw new CliError(`clauz3: --max-warnings expects a whole number ≥ 0, not ${JSON.stringify(opts.maxWarnings)}.`, EXIT.usage);
      }
      const read = readParts(files, io.cwd);
      const format = opts.format ?? read.kind;
      if (read.kind === "sarif" && format !== "sarif") throw new CliError(`clauz3 merge-reports: SARIF logs merge into SARIF only (--format ${format} needs the shards' JSON reports).`, EXIT.usage);
      if (read.kind === "json" && format === "sarif") throw new CliError("clauz3 merge-reports: JSON reports do not hold what a SARIF log needs (rule texts, fingerprints); merge the shards' SARIF logs instead.", EXIT.usage);
      let text: string;
      let outcome: { errors: number; warnings: number; failedPrograms: number; programs: number; summary: string };
      if (read.kind === "json") {
        const merged = mergeJson(read.parts);
        text = format === "json" ? `${JSON.stringify(merged, null, 2)}\n` : renderText(merged, format === "pretty");
        const s = merged.summary;
        outcome = { errors: s.errors, warnings: s.warnings, failedPrograms: s.programs - s.proved, programs: s.programs, summary: summaryOf(merged, read.parts.length) };
      } else {
        const merged: Log = mergeSarif(read.parts);
        text = `${JSON.stringify(merged, null, 2)}\n`;
        const results = merged.runs[0]!.results ?? [];
        const programs = read.parts.flatMap((p) => p.programs);
        const errors = results.filter((r) => r.level === "error").length;
        const proved = programs.filter((p) => p.verdict === "proved").length;
        outcome = { errors, warnings: results.filter((r) => r.level === "warning").length, failedPrograms: programs.length - proved, programs: programs.length, summary: `clauz3 merge-reports: ${read.parts.length} shard(s), ${errors} error(s), ${proved}/${programs.length} program(s) proved\n` };
      }
      if (opts.outputFile !== undefined) {
        writeAtomically(path.resolve(io.cwd, opts.outputFile), text);
        io.stdout(outcome.summary);
      } else io.stdout(text);
      const tooMany = maxWarnings !== undefined && outcome.warnings > maxWarnings;
      if (tooMany) io.stderr(`clauz3: ${outcome.warnings} warning(s), more than --max-warnings ${maxWarnings}.\n`);
      return outcome.errors > 0 || outcome.failedPrograms > 0 || tooMany ? EXIT.failed : EXIT.ok;
    }),
  );
}

/** The summary line, as `check` words it (`shards`: how many reports were merged, when it is said). */
function summaryOf(r: ReportJson, shards?: number): string {
  const layer = r.findings.filter((f) => f.severity === "error").length;
  return `clauz3 merge-reports: ${shards !== undefined ? `${shards} shard(s), ` : ""}${layer} finding(s), ${r.summary.proved}/${r.summary.programs} program(s) proved\n`;
}

/**
 * The merged JSON as text: one `file(line,col): error TS93101: message` line per finding and per
 * result not proved (tsc's plain format, without code frames: the merge reads no sources), the
 * programs' verdicts when pretty, then the summary and tsc's "Found N errors" line.
 */
function renderText(r: ReportJson, pretty: boolean): string {
  const line = (severity: string, code: number, message: string, at?: { file: string; line: number; column: number }): string =>
    `${at ? `${terminalSafe(at.file)}(${at.line},${at.column}): ` : ""}${severity} TS${code}: ${terminalSafe(message).replace(/\n(?=\S)/g, "\n  ")}\n`;
  let out = r.findings.map((f) => line(f.severity, f.code, f.message, f.location)).join("");
  const failed = r.programs.flatMap((p) => p.results.filter((x) => x.verdict !== "proved"));
  out += failed.map((x) => line("error", x.code, x.message, x.location)).join("");
  if (pretty) {
    for (const p of r.programs) {
      out += `${terminalSafe(p.file)}: ${p.verdict}\n`;
      for (const x of p.results) out += x.verdict === "proved" ? (x.kind === "guarantee" ? `  ✓ ${terminalSafe(x.contract ?? "")}: ${terminalSafe(x.sentence ?? "proved")}\n` : "") : `  ✗ ${x.verdict} ${x.kind}${x.contract ? ` ${terminalSafe(x.contract)}` : x.tool ? ` of ${terminalSafe(x.tool)}` : ""} at ${terminalSafe(x.location.file)}:${x.location.line}:${x.location.column}\n`;
    }
  }
  const errors = [...r.findings, ...failed.map((x) => ({ severity: "error" as const, location: x.location }))];
  const found = foundLine(errors);
  return `${out}${summaryOf(r)}${found ? `\n${found}\n` : ""}`;
}
