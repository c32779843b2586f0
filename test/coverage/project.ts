/**
 * Coverage test projects on disk (manifests are read from disk): the email, text and bank fixture
 * layers under `tools/`, each with the `clauz3.json` a test gives, agent programs under `plans/`,
 * and a lock written by the built `clauz3 lock`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { lockProject, removeProject, ROOT, writeFilesAndLink } from "../../fixtures/projects/project.mjs";
import { openGate, proveGate } from "../../core/gate";
import type { ProgramVerdict } from "../../core/prover/api";
import { loadProject } from "../../cli/project";

export const TSCONFIG = JSON.stringify({
  compilerOptions: { target: "ES2022", module: "node16", moduleResolution: "node16", lib: ["ES2022"], types: ["node"], strict: true, skipLibCheck: true, rootDir: ".", outDir: "out" },
  include: ["tools", "plans"],
}, null, 2);

/** The policies of the hand-computed table (docs/coverage.md). */
export const EMAIL_POLICY = { whenUsed: ["sendEmail", "forwardLatest"], required: ["noForwards"], recommended: ["sendsAtMost"] };
export const TEXT_POLICY = { recommended: ["noErrorLogs"] };

export function manifest(title: string, coverage?: unknown): string {
  return `${JSON.stringify({ title, summary: `The ${title.toLowerCase()} fixture library.`, ...(coverage === undefined ? {} : { coverage }) }, null, 2)}\n`;
}

export const IMPORTS = `import { sendEmail, forwardLatest, listInbox } from "../tools/email/trusted/effects";
import * as email from "../tools/email/trusted/contracts";
import { print, log } from "../tools/text/trusted/effects";
import * as text from "../tools/text/trusted/contracts";
import * as bank from "../tools/bank/trusted/contracts"; import { transfer } from "../tools/bank/trusted/effects";
import { noGuarantees } from "clauz3/spec";
`;

export interface CoverageProject {
  readonly dir: string;
  remove(): void;
}

/** A project with the three layers, `manifests` (domain → clauz3.json text) and `plans` (name → program text, IMPORTS prepended). */
export function coverageProject(manifests: Readonly<Record<string, string>>, plans: Readonly<Record<string, string>>): CoverageProject {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-coverage-"));
  const files: Record<string, string> = { "tsconfig.json": TSCONFIG };
  for (const domain of ["email", "text", "bank"]) {
    const src = path.join(ROOT, "fixtures/layers", domain, "trusted");
    for (const name of fs.readdirSync(src)) files[`tools/${domain}/trusted/${name}`] = fs.readFileSync(path.join(src, name), "utf8");
    files[`tools/${domain}/clauz3.json`] = manifests[domain] ?? manifest(domain[0]!.toUpperCase() + domain.slice(1));
  }
  for (const [name, body] of Object.entries(plans)) files[`plans/${name}.ts`] = IMPORTS + body;
  writeFilesAndLink(dir, files);
  lockProject(dir);
  return { dir, remove: () => removeProject(dir) };
}

/** The verdict of each plan, through the gate as `check` runs it (in this process), and the gate's findings. */
export async function proveAll(dir: string): Promise<{ verdicts: Map<string, ProgramVerdict>; findings: string[] }> {
  const project = loadProject({ cwd: dir });
  const { ts, program, layer } = project;
  const gate = openGate({ ts, program, options: project.options, layer, libraries: project.libraries });
  const verdicts = await proveGate(gate);
  const byName = new Map(verdicts.map((v) => [path.basename(v.file, ".ts"), v]));
  const findings = gate.findings.map((d) => `${d.file ? path.relative(dir, d.file.fileName) : "?"}: TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
  return { verdicts: byName, findings };
}
