/**
 * `clauz3 describe [--json] <program>`: the identity of each guarantee of an agent program — the
 * library title and badge, the library-qualified call, the sentence, the resolved symbol, the bound
 * parameters, the template digest, the renderer version and the source digests.
 */
import * as path from "node:path";
import type { Command } from "commander";
import { describeProgram, displayPath, type GuaranteeIdentity } from "../../core/describe";
import { action, type CliContext } from "../command";
import { CliError, EXIT, findingDiagnostics, printDiagnostics, refusalDiagnostic, terminalSafe } from "../io";
import { checkManifests, loadProject } from "../project";

interface Options {
  readonly json?: boolean;
  readonly project?: string;
}

function human(g: GuaranteeIdentity): string {
  const lines = [
    `${g.location.file}:${g.location.line}:${g.location.column}`,
    `  ${g.library.display}`,
    `  ${g.call}`,
    `  ${g.sentence ?? "(no description)"}`,
  ];
  if (g.sentenceSource !== "template") lines.push(`    (${g.sentenceSource === "documentation" ? "first JSDoc paragraph shown: " : ""}${g.sentenceProblem})`);
  lines.push(`  symbol: ${g.symbol}`);
  for (const p of g.parameters) lines.push(`  parameter ${p.name}: ${p.type} = ${p.literal}${p.defaulted ? " (default)" : ""}`);
  lines.push(g.templateSha256 ? `  template: sha256 ${g.templateSha256} (${g.rendererVersion})` : `  template: none (${g.rendererVersion})`);
  for (const s of g.sources) lines.push(`  source: ${s.file} sha256 ${s.sha256}`);
  return lines.map(terminalSafe).join("\n");
}

export default function register(program: Command, context: CliContext): void {
  program
    .command("describe")
    .description("print the identity and sentence of each guarantee of an agent program")
    .argument("<program>", "the agent program (a .ts file)")
    .option("--json", "print JSON")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .action(
      action(context, (file: string, opts: Options) => {
        const { io } = context;
        const project = loadProject({ cwd: io.cwd, project: opts.project, extraRoots: [file] });
        const { ts, program: tsProgram, layer } = project;
        const abs = path.resolve(io.cwd, file);
        const source = tsProgram.getSourceFiles().find((f) => path.resolve(f.fileName) === abs);
        if (!source) throw new CliError(`clauz3: ${file} is not a TypeScript source file of the project.`, EXIT.usage);
        const findings = layer.findings.filter((f) => layer.isTrusted(f.file) || f.file === source);
        const description = describeProgram({ ts, program: tsProgram, layer: layer.model, file: source, libraries: project.libraries });
        const used = new Set(description.guarantees.map((g) => g.library.id));
        checkManifests(project, project.libraries.filter((l) => used.has(l.id)));
        const diagnostics = [...findingDiagnostics(ts, findings), ...description.refusals.map((r) => refusalDiagnostic(ts, r))];
        printDiagnostics(ts, io, project.projectDir, diagnostics);
        if (opts.json) {
          const problems = diagnostics.map((d) => {
            const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
            return {
              file: d.file ? displayPath(d.file.fileName, project.projectDir) : null,
              line: at ? at.line + 1 : null,
              column: at ? at.character + 1 : null,
              code: d.code,
              message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
            };
          });
          const out = { program: description.program, guarantees: description.guarantees, noGuarantees: description.noGuarantees, diagnostics: problems };
          io.stdout(`${JSON.stringify(out, null, 2)}\n`);
        } else {
          if (!description.declared) io.stderr(`${description.program}: no \`export const guarantees = [...]\`; nothing to describe.\n`);
          const blocks = description.guarantees.map(human);
          if (description.noGuarantees > 0) blocks.push(`noGuarantees(): ${description.noGuarantees} explicit entr${description.noGuarantees === 1 ? "y" : "ies"} promising nothing`);
          if (blocks.length > 0) io.stdout(`${blocks.join("\n\n")}\n`);
        }
        return findings.length > 0 || description.refusals.length > 0 ? EXIT.failed : EXIT.ok;
      }),
    );
}
