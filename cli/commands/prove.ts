/**
 * `clauz3 prove [--project tsconfig.json] [--format …] <paths…>`: prove agent programs (files,
 * directories, globs) in one warm process. Output and exit codes: cli/format/ and docs/cli.md.
 */
import * as path from "node:path";
import type { Command } from "commander";
import type * as TS from "typescript";
import { exportsProgram } from "../../core/prover/diagnostics";
import { action, type CliContext } from "../command";
import { addOutputOptions, chooseOutput, emitReport, type OutputFlags } from "../format/output";
import { withHelp } from "../format/help";
import { makeReport } from "../format/report";
import { expandInputs } from "../inputs";
import { openGate } from "../../core/gate";
import { CliError, EXIT } from "../io";
import { CACHE_LOCATION_OPTION, cacheFromFlags, timingsFromFlags, JOBS_OPTION, NO_CACHE_OPTION, parseJobs, parseSolverOptions, PROGRAM_TIMEOUT_OPTION, RLIMIT_OPTION, TIMEOUT_OPTION, type CacheFlags, type JobsFlags, type SolverFlags } from "../options";
import { progressFor } from "../format/progress";
import { loadProject, verifiedLock } from "../project";
import { isUnreadable, proveFiles, shown, startWorkers, warmUpSolver } from "../proofs";

interface Options extends SolverFlags, CacheFlags, JobsFlags, OutputFlags {
  readonly project?: string;
}

export default function register(program: Command, context: CliContext): void {
  const command = program
    .command("prove")
    .description("prove the guarantees, preconditions and throws of agent programs")
    .argument("<paths...>", "agent programs: .ts files, directories or globs (from a directory or a glob, the files that export `guarantees` or `main`)")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .option(...RLIMIT_OPTION)
    .option(...TIMEOUT_OPTION)
    .option(...PROGRAM_TIMEOUT_OPTION)
    .option(...NO_CACHE_OPTION)
    .option(...CACHE_LOCATION_OPTION)
    .option(...JOBS_OPTION);
  addOutputOptions(command);
  withHelp(command, [
    ["clauz3 prove plan.ts", "prove one agent program"],
    ["clauz3 prove plans", "every agent program under plans/"],
    ["clauz3 prove 'plans/**/*-plan.ts' --no-pretty", "a glob (quoted), in tsc's plain format"],
    ["clauz3 prove plan.ts --json -o proof.json", "the JSON report in a file (schema/report.schema.json)"],
  ]);
  command.action(
      action(context, async (paths: string[], opts: Options) => {
        const { io } = context;
        const output = chooseOutput(opts, io);
        const solver = parseSolverOptions(opts);
        const jobs = parseJobs(opts);
        const inputs = expandInputs(io.cwd, paths);
        // With workers, each starts its own Z3 (cli/jobs/); this process proves only a lone program.
        if (jobs === 1 || inputs.length === 1) warmUpSolver();
        const project = loadProject({ cwd: io.cwd, project: opts.project, extraRoots: inputs.map((i) => i.file), onlyExtraRoots: true });
        // An invalid lock is a configuration error; unpinned files refuse the programs that reach them.
        verifiedLock(project);
        const { ts, program: tsProgram, layer } = project;
        const checker = tsProgram.getTypeChecker();
        const sources: TS.SourceFile[] = [];
        for (const input of inputs) {
          const shownName = path.relative(io.cwd, input.file) || input.file;
          const source = tsProgram.getSourceFiles().find((s) => path.resolve(s.fileName) === input.file);
          if (!source) throw new CliError(`clauz3: ${shownName} is not a TypeScript source file of the project.`, EXIT.usage);
          if (input.explicit) {
            if (layer.isTrusted(source)) throw new CliError(`clauz3: ${shownName} belongs to the trusted layer; prove agent programs (files that export \`guarantees\` and \`main\`).`, EXIT.usage);
            sources.push(source);
          } else if (isUnreadable(project, source) || (!layer.isTrusted(source) && exportsProgram(ts, checker, source))) {
            // From a directory or a glob: the agent programs, and every file TypeScript could not parse.
            sources.push(source);
          }
        }
        if (sources.length === 0) throw new CliError(`clauz3: no agent program (a file that exports \`guarantees\` or \`main\`) among ${paths.join(" ")}.`, EXIT.usage);
        // The gate check and tspc run (core/gate), over the files these programs read.
        const cache = cacheFromFlags(opts, project.projectDir, io.cwd);
        // Workers load the project while this process runs the gate's checks.
        const workers = startWorkers(project, sources, solver, cache, jobs);
        const gate = openGate({ ts, program: tsProgram, options: project.options, layer, libraries: project.libraries, programs: sources });
        const progress = progressFor(io, opts, (f) => shown(f, io.cwd));
        const verdicts = await proveFiles(project, sources, solver, gate, cache, { jobs, progress, workers, timings: timingsFromFlags(opts, project.projectDir, io.cwd) });
        const code = emitReport(io, output, makeReport("prove", ts, tsProgram, io.cwd, [...gate.typescript, ...gate.configuration, ...gate.findings], verdicts));
        return gate.configurationError ? EXIT.usage : code;
      }),
    );
}
