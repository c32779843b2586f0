/**
 * `clauz3 prove [--project tsconfig.json] [--json] <files…>`: prove agent programs in one warm
 * process. Exit 0 when every program is proved, 1 when any is violated or refused, 2 on usage or
 * configuration errors.
 */
import * as path from "node:path";
import type { Command } from "commander";
import { action, type CliContext } from "../command";
import { CliError, EXIT } from "../io";
import { parseSolverOptions, PROGRAM_TIMEOUT_OPTION, RLIMIT_OPTION, TIMEOUT_OPTION, type SolverFlags } from "../options";
import { loadProject, verifiedLock } from "../project";
import { printHuman, proveFiles, toJson, warmUpSolver } from "../proofs";

interface Options extends SolverFlags {
  readonly json?: boolean;
  readonly project?: string;
}

export default function register(program: Command, context: CliContext): void {
  program
    .command("prove")
    .description("prove the guarantees, preconditions and throws of agent programs")
    .argument("<files...>", "agent programs (.ts files)")
    .option("--json", "print one JSON document")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .option(...RLIMIT_OPTION)
    .option(...TIMEOUT_OPTION)
    .option(...PROGRAM_TIMEOUT_OPTION)
    .action(
      action(context, async (files: string[], opts: Options) => {
        const { io } = context;
        const solver = parseSolverOptions(opts);
        warmUpSolver();
        const project = loadProject({ cwd: io.cwd, project: opts.project, extraRoots: files, onlyExtraRoots: true });
        // An invalid lock is a configuration error; unpinned files refuse the programs that reach them.
        verifiedLock(project);
        const sources = files.map((f) => {
          const abs = path.resolve(io.cwd, f);
          const source = project.program.getSourceFiles().find((s) => path.resolve(s.fileName) === abs);
          if (!source) throw new CliError(`clauz3: ${f} is not a TypeScript source file of the project.`, EXIT.usage);
          if (project.layer.isTrusted(source)) throw new CliError(`clauz3: ${f} belongs to the trusted layer; prove agent programs (files that export \`guarantees\` and \`main\`).`, EXIT.usage);
          return source;
        });
        const verdicts = await proveFiles(project, sources, solver);
        if (opts.json) io.stdout(`${JSON.stringify(toJson(verdicts, io.cwd), null, 2)}\n`);
        else printHuman(project, io, verdicts);
        return verdicts.every((v) => v.verdict === "proved") ? EXIT.ok : EXIT.failed;
      }),
    );
}
