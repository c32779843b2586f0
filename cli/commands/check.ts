/**
 * `clauz3 check [--project]`: the CI gate. Runs the trusted-layer rules over the project, verifies
 * its trusted files against `clauz3.lock` (never writing it), and proves every agent program in it
 * (non-trusted sources that export `guarantees` or `main`). Exit 0 when the layer is clean and
 * pinned and every program is proved, 1 otherwise, 2 on usage or configuration errors (an invalid
 * lock among them).
 */
import type { Command } from "commander";
import { exportsProgram } from "../../core/prover/diagnostics";
import { action, type CliContext } from "../command";
import { EXIT, findingDiagnostics, printDiagnostics } from "../io";
import { loadProject, verifiedLock } from "../project";
import { isUnreadable, printHuman, proveFiles, toJson, warmUpSolver } from "../proofs";
import { parseSolverOptions, PROGRAM_TIMEOUT_OPTION, RLIMIT_OPTION, TIMEOUT_OPTION, type SolverFlags } from "../options";

interface Options extends SolverFlags {
  readonly json?: boolean;
  readonly project?: string;
}

export default function register(program: Command, context: CliContext): void {
  program
    .command("check")
    .description("check the trusted layer's rules and prove every agent program of the project (CI gate)")
    .option("--json", "print one JSON document with the findings and the proofs")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .option(...RLIMIT_OPTION)
    .option(...TIMEOUT_OPTION)
    .option(...PROGRAM_TIMEOUT_OPTION)
    .action(
      action(context, async (opts: Options) => {
        const { io } = context;
        const solver = parseSolverOptions(opts);
        warmUpSolver();
        const project = loadProject({ cwd: io.cwd, project: opts.project });
        const { ts, program, layer } = project;
        const lock = verifiedLock(project);
        const checker = program.getTypeChecker();
        // A file TypeScript could not parse is reported as a refused program, whatever it was meant to be.
        const programs = program.getSourceFiles().filter((f) => (layer.agentFiles.includes(f) && exportsProgram(ts, checker, f)) || isUnreadable(project, f));
        const findings = [...layer.findings.filter((f) => layer.isTrusted(f.file) || !programs.includes(f.file)), ...lock.findings];
        const verdicts = await proveFiles(project, programs, solver);
        if (opts.json) {
          const json = toJson(verdicts, io.cwd);
          const layerFindings = findingDiagnostics(ts, findings).map((d) => {
            const at = d.file!.getLineAndCharacterOfPosition(d.start!);
            return { file: d.file!.fileName, line: at.line + 1, column: at.character + 1, code: d.code, message: String(d.messageText) };
          });
          io.stdout(`${JSON.stringify({ findings: layerFindings, ...json }, null, 2)}\n`);
        } else {
          printDiagnostics(ts, io, project.projectDir, findingDiagnostics(ts, findings));
          printHuman(project, io, verdicts);
          io.stdout(`clauz3 check: ${findings.length} layer finding(s), ${verdicts.filter((v) => v.verdict === "proved").length}/${verdicts.length} program(s) proved\n`);
        }
        return findings.length === 0 && verdicts.every((v) => v.verdict === "proved") ? EXIT.ok : EXIT.failed;
      }),
    );
}
