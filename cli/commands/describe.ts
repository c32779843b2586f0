/**
 * `clauz3 describe [--json] <program…>`: the identity of each guarantee of agent programs (files,
 * directories, globs) — the
 * library title and badge, the library-qualified call, the sentence, the resolved symbol, the bound
 * parameters, the template digest, the renderer version and the source digests; and which calls of
 * each program may run in parallel (their footprints commute for every input; `--no-calls` skips
 * the solver).
 */
import * as path from "node:path";
import type { Command } from "commander";
import type * as TS from "typescript";
import { exportsProgram } from "../../core/prover/diagnostics";
import { describeProgram, displayPath, type GuaranteeIdentity } from "../../core/describe";
import { parallelJson, parallelText } from "../../core/describe/parallel";
import { callPairs, type ProgramCalls } from "../../core/prover/commute";
import { action, type CliContext } from "../command";
import { colourWanted } from "../format/colour";
import { withHelp } from "../format/help";
import { renderDiagnostics } from "../format/text";
import { expandInputs } from "../inputs";
import { CliError, EXIT, findingDiagnostics, refusalDiagnostic, terminalSafe } from "../io";
import { checkManifests, loadProject } from "../project";

interface Options {
  readonly json?: boolean;
  readonly pretty?: boolean;
  readonly project?: string;
  readonly calls?: boolean;
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
  const command = program
    .command("describe")
    .description("print the identity and sentence of each guarantee of agent programs")
    .argument("<program...>", "agent programs: .ts files, directories or globs (from a directory or a glob, the files that export `guarantees` or `main`)")
    .option("--json", "print JSON: one object for one program, an array of them for several")
    .option("--pretty", "diagnostics with code frames (default on a terminal)")
    .option("--no-pretty", "diagnostics in TypeScript's plain format, file(line,col): error TS93104: … (default when piped)")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .option("--no-calls", "do not show which calls may run in parallel (skips the solver)");
  withHelp(command, [
    ["clauz3 describe plan.ts", "each guarantee's library, call, sentence, symbol and digests"],
    ["clauz3 describe plans --json", "the same for every agent program under plans/, as a JSON array"],
    ["clauz3 describe plan.ts --no-calls", "the guarantees only, without which calls may run in parallel"],
  ]);
  command.action(
      action(context, async (paths: string[], opts: Options) => {
        const { io } = context;
        const inputs = expandInputs(io.cwd, paths);
        const project = loadProject({ cwd: io.cwd, project: opts.project, extraRoots: inputs.map((i) => i.file) });
        const { ts, program: tsProgram, layer } = project;
        const checker = tsProgram.getTypeChecker();
        const sources: TS.SourceFile[] = [];
        for (const input of inputs) {
          const source = tsProgram.getSourceFiles().find((f) => path.resolve(f.fileName) === input.file);
          if (!source) throw new CliError(`clauz3: ${path.relative(io.cwd, input.file) || input.file} is not a TypeScript source file of the project.`, EXIT.usage);
          if (input.explicit || (!layer.isTrusted(source) && exportsProgram(ts, checker, source))) sources.push(source);
        }
        if (sources.length === 0) throw new CliError(`clauz3: no agent program (a file that exports \`guarantees\` or \`main\`) among ${paths.join(" ")}.`, EXIT.usage);
        const findings = layer.findings.filter((f) => layer.isTrusted(f.file) || sources.includes(f.file));
        const described = sources.map((source) => ({ source, description: describeProgram({ ts, program: tsProgram, layer: layer.model, file: source, libraries: project.libraries }) }));
        const descriptions = described.map((d) => d.description);
        // Which calls commute: symbolic execution and one solver query per pair of call sites.
        const parallel = new Map<TS.SourceFile, ProgramCalls>();
        if (opts.calls !== false) {
          for (const { source } of described) parallel.set(source, await callPairs({ ts, program: tsProgram, file: source, options: project.options }, layer));
        }
        const used = new Set(descriptions.flatMap((d) => d.guarantees.map((g) => g.library.id)));
        checkManifests(project, project.libraries.filter((l) => used.has(l.id)));
        const refusals = descriptions.flatMap((d) => d.refusals.map((r) => refusalDiagnostic(ts, r)));
        const diagnostics = [...findingDiagnostics(ts, findings), ...refusals];
        const pretty = opts.pretty ?? io.stdoutIsTTY === true;
        io.stderr(renderDiagnostics(ts, io.cwd, diagnostics, pretty, colourWanted(io.env ?? {}, io.stderrIsTTY)));
        if (opts.json) {
          const asJson = ({ source, description }: (typeof described)[number]) => {
            // Each program's object keeps the trusted layer's findings and its own.
            const own = diagnostics.filter((d) => !d.file || layer.isTrusted(d.file) || d.file === source);
            const problems = own.map((d) => {
              const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
              return {
                file: d.file ? displayPath(d.file.fileName, project.projectDir) : null,
                line: at ? at.line + 1 : null,
                column: at ? at.character + 1 : null,
                code: d.code,
                message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
              };
            });
            const deprecations = description.deprecations.flatMap((ds, guarantee) => ds.map((d) => ({ guarantee, query: d.query, instead: d.instead, contract: d.contract, file: displayPath(d.fileName, project.projectDir), line: d.line, column: d.column })));
            const calls = parallel.get(source);
            return { program: description.program, guarantees: description.guarantees, noGuarantees: description.noGuarantees, diagnostics: problems, ...(deprecations.length > 0 ? { deprecations } : {}), ...(calls ? { parallel: parallelJson(calls, project.projectDir) } : {}) };
          };
          const out = inputs.length === 1 && inputs[0]!.explicit ? asJson(described[0]!) : described.map(asJson);
          io.stdout(`${JSON.stringify(out, null, 2)}\n`);
        } else {
          const several = descriptions.length > 1;
          for (const { source, description } of described) {
            if (!description.declared) io.stderr(`${description.program}: no \`export const guarantees = [...]\`; nothing to describe.\n`);
            const blocks = description.guarantees.map((g, i) => [human(g), ...(description.deprecations[i] ?? []).map((d) => terminalSafe(`  deprecated: \`${d.query}\` in ${d.contract} (${displayPath(d.fileName, project.projectDir)}:${d.line}:${d.column}) is now \`${d.instead}\` (same meaning)`))].join("\n"));
            if (description.noGuarantees > 0) blocks.push(`noGuarantees(): ${description.noGuarantees} explicit entr${description.noGuarantees === 1 ? "y" : "ies"} promising nothing`);
            const calls = parallel.get(source);
            if (calls) blocks.push(terminalSafe(parallelText(calls)));
            if (blocks.length > 0) io.stdout(`${several ? `${terminalSafe(description.program)}\n\n` : ""}${blocks.join("\n\n")}\n${several ? "\n" : ""}`);
          }
        }
        return diagnostics.length > 0 ? EXIT.failed : EXIT.ok;
      }),
    );
}
