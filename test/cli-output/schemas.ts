/**
 * Validators for what the CLI writes: the JSON report against schema/report.schema.json (ajv's
 * 2019-09 build, strict), SARIF logs against the official SARIF 2.1.0 schema vendored in
 * schema/vendor/sarif/ (draft-04, hence ajv-draft-04).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv2019 from "ajv/dist/2019";
import AjvDraft04 from "ajv-draft-04";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";

const ROOT = path.resolve(__dirname, "../..");
const read = (rel: string): object => JSON.parse(fs.readFileSync(path.join(ROOT, rel), "utf8")) as object;

let report: ValidateFunction | undefined;
let sarif: ValidateFunction | undefined;

/** schema/report.schema.json, compiled in strict mode (a schema mistake fails too). */
export function reportValidator(): ValidateFunction {
  if (!report) {
    const ajv = new Ajv2019({ strict: true, allErrors: true });
    report = ajv.compile(read("schema/report.schema.json"));
  }
  return report;
}

export function sarifValidator(): ValidateFunction {
  if (!sarif) {
    const ajv = new AjvDraft04({ strict: false, allErrors: true });
    addFormats(ajv);
    sarif = ajv.compile(read("schema/vendor/sarif/sarif-schema-2.1.0.json"));
  }
  return sarif;
}

/** The validator's errors as one line, for an assertion message. */
export function errorsOf(validate: ValidateFunction): string {
  return JSON.stringify(validate.errors ?? []);
}

/**
 * Throw unless a `check`/`prove` run that printed a JSON report printed one the schema accepts
 * (every CLI test runs its commands through this: test/cli/helpers.ts `clauz3`).
 */
export function assertReport(args: readonly string[], status: number | null, stdout: string): void {
  const json = args.includes("--json") || args.some((a, i) => a === "--format" && args[i + 1] === "json");
  if (!(args[0] === "check" || args[0] === "prove") || !json || !(status === 0 || status === 1) || args.includes("-o") || args.includes("--output-file")) return;
  const validate = reportValidator();
  if (!validate(JSON.parse(stdout))) throw new Error(`clauz3 ${args.join(" ")} printed a report that does not match schema/report.schema.json: ${errorsOf(validate)}`);
}
