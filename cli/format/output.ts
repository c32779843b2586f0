/**
 * The output options every reporting command shares, and the one place a report is written:
 * `--format pretty|plain|json|sarif` (`--json` is `--format json`; `--pretty`/`--no-pretty` choose
 * between the text formats, which default to pretty on a terminal and tsc's plain format
 * elsewhere), `-o, --output-file` (written atomically; the console still shows the text report),
 * `--max-warnings`, and the exit code that follows from the report (docs/cli.md).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Option, type Command } from "commander";
import { packageRoot } from "../../core/manifest";
import { CliError, EXIT, type Io } from "../io";
import { colourWanted } from "./colour";
import { renderJson } from "./json";
import { problemsOf, type Report } from "./report";
import { renderSarif } from "./sarif";
import { writeAtomically } from "./write";
import { renderPlain, renderPretty, type Rendered } from "./text";

export const FORMATS = ["pretty", "plain", "json", "sarif"] as const;
export type FormatName = (typeof FORMATS)[number];

/** The options as commander hands them over. */
export interface OutputFlags {
  readonly format?: FormatName;
  readonly json?: boolean;
  readonly pretty?: boolean;
  readonly outputFile?: string;
  readonly maxWarnings?: string;
}

export interface OutputChoice {
  /** The report's format (of the file, with `-o`). */
  readonly format: FormatName;
  /** The text format the console shows when the report goes to a file. */
  readonly console: "pretty" | "plain";
  /** Absolute path of `-o`. */
  readonly outputFile?: string;
  readonly maxWarnings?: number;
}

/** Add `--format`, `--json`, `--pretty`, `--no-pretty`, `-o` and `--max-warnings` to a command. */
export function addOutputOptions(command: Command): Command {
  return command
    .addOption(new Option("--format <format>", "report format (default: pretty on a terminal, plain otherwise)").choices(FORMATS))
    .option("--json", "same as --format json")
    .option("--pretty", "TypeScript's formatter with code frames, and one line per program")
    .option("--no-pretty", "TypeScript's plain format, file(line,col): error TS93101: message (what tsc prints when piped)")
    .option("-o, --output-file <path>", "write the report to a file (atomically); the console still shows the text report")
    .option("--max-warnings <n>", "exit 1 when there are more than n warnings (default: warnings alone exit 0)");
}

export function chooseOutput(flags: OutputFlags, io: Io): OutputChoice {
  if (flags.json && flags.format !== undefined && flags.format !== "json") throw new CliError(`clauz3: --json and --format ${flags.format} ask for two formats; give one.`, EXIT.usage);
  const explicit = flags.json ? "json" : flags.format;
  if (flags.pretty !== undefined && explicit !== undefined && explicit !== (flags.pretty ? "pretty" : "plain")) {
    throw new CliError(`clauz3: --${flags.pretty ? "" : "no-"}pretty chooses a text format; it does not go with --format ${explicit}.`, EXIT.usage);
  }
  const text = flags.pretty === undefined ? (io.stdoutIsTTY ? "pretty" : "plain") : flags.pretty ? "pretty" : "plain";
  let maxWarnings: number | undefined;
  if (flags.maxWarnings !== undefined) {
    maxWarnings = Number(flags.maxWarnings);
    if (!/^\d+$/.test(flags.maxWarnings) || !Number.isSafeInteger(maxWarnings)) throw new CliError(`clauz3: --max-warnings expects a whole number ≥ 0, not ${JSON.stringify(flags.maxWarnings)}.`, EXIT.usage);
  }
  let outputFile: string | undefined;
  if (flags.outputFile !== undefined) {
    outputFile = path.resolve(io.cwd, flags.outputFile);
    if (!fs.existsSync(path.dirname(outputFile)) || !fs.statSync(path.dirname(outputFile)).isDirectory()) throw new CliError(`clauz3: --output-file ${flags.outputFile}: the directory ${path.dirname(outputFile)} does not exist.`, EXIT.usage);
    if (fs.existsSync(outputFile) && fs.statSync(outputFile).isDirectory()) throw new CliError(`clauz3: --output-file ${flags.outputFile} is a directory; name a file.`, EXIT.usage);
  }
  // A file is no terminal: without --format or --pretty it gets the plain format.
  const format = explicit ?? (outputFile !== undefined && flags.pretty === undefined ? "plain" : text);
  return { format, console: text, ...(outputFile !== undefined ? { outputFile } : {}), ...(maxWarnings !== undefined ? { maxWarnings } : {}) };
}

/** clauz3's package.json fields the reports name: its version (SARIF, `--version`) and where it is documented. */
export interface ToolInfo {
  readonly version: string;
  /** The documentation of the rules: package.json's `homepage` at "Rules and codes", else the package's npm page there. */
  readonly rulesUri: string;
}

export function toolInfo(): ToolInfo {
  let pkg: { version?: unknown; homepage?: unknown } = {};
  try {
    pkg = JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as typeof pkg;
  } catch {
    // A broken installation still reports; the fallbacks below say nothing false.
  }
  const home = typeof pkg.homepage === "string" && /^https?:\/\//.test(pkg.homepage) ? pkg.homepage.replace(/#.*$/, "") : "https://www.npmjs.com/package/clauz3";
  return { version: typeof pkg.version === "string" ? pkg.version : "0.0.0", rulesUri: `${home}#rules-and-codes` };
}

function render(report: Report, format: FormatName, colour: boolean): Rendered {
  switch (format) {
    case "pretty":
      return renderPretty(report, colour);
    case "plain":
      return renderPlain(report);
    case "json":
      return { stderr: "", stdout: renderJson(report) };
    case "sarif":
      return { stderr: "", stdout: renderSarif(report, toolInfo()) };
  }
}

/** 0 nothing wrong, 1 an error (or a program not proved, or more warnings than `--max-warnings`). */
export function exitCodeOf(report: Report, maxWarnings: number | undefined): 0 | 1 {
  const problems = problemsOf(report);
  const errors = problems.filter((p) => p.severity === "error").length;
  const warnings = problems.length - errors;
  const failed = errors > 0 || report.verdicts.some((v) => v.verdict !== "proved") || (maxWarnings !== undefined && warnings > maxWarnings);
  return failed ? EXIT.failed : EXIT.ok;
}

/** Write the report where the options say (`wroteFile` hears of the `-o` file's text); returns the exit code. */
export function emitReport(io: Io, choice: OutputChoice, report: Report, wroteFile?: (file: string, text: string) => void): number {
  const env = io.env ?? {};
  if (choice.outputFile !== undefined) {
    const file = render(report, choice.format, false);
    writeAtomically(choice.outputFile, `${file.stderr}${file.stdout}`);
    wroteFile?.(choice.outputFile, `${file.stderr}${file.stdout}`);
  }
  const shown = choice.outputFile !== undefined ? render(report, choice.console, colourWanted(env, io.stderrIsTTY)) : render(report, choice.format, colourWanted(env, io.stderrIsTTY));
  if (shown.stderr) io.stderr(shown.stderr);
  if (shown.stdout) io.stdout(shown.stdout);
  const code = exitCodeOf(report, choice.maxWarnings);
  const warnings = problemsOf(report).filter((p) => p.severity === "warning").length;
  if (choice.maxWarnings !== undefined && warnings > choice.maxWarnings) io.stderr(`clauz3: ${warnings} warning(s), more than --max-warnings ${choice.maxWarnings}.\n`);
  return code;
}
