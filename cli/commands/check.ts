/**
 * `clauz3 check [--project] [paths…]`: the CI gate. Runs the trusted-layer rules over the project, verifies
 * its trusted files against `clauz3.lock` (never writing it), and proves every agent program in it
 * (non-trusted sources that export `guarantees` or `main`; with paths, those among them). Output
 * and exit codes: cli/format/ and docs/cli.md.
 */
import * as path from "node:path";
import type { Command } from "commander";
import type * as TS from "typescript";
import { exportsProgram } from "../../core/prover/diagnostics";
import { action, type CliContext } from "../command";
import { addOutputOptions, chooseOutput, emitReport, type OutputFlags } from "../format/output";
import { withHelp } from "../format/help";
import { makeReport } from "../format/report";
import { parseShard, programsDigest, shardOf, type ShardInfo } from "../format/shard";
import { expandInputs, type Input } from "../inputs";
import { openGate } from "../../core/gate";
import { CliError, EXIT, type Io } from "../io";
import { loadProject, projectConfigPath, verifiedLock } from "../project";
import { RunRecorder, replayRun } from "../run-cache";
import { isCacheable } from "../../core/cache";
import { colourWanted } from "../format/colour";
import { isUnreadable, proveFiles, shown, startWorkers, warmUpSolver } from "../proofs";
import { CACHE_LOCATION_OPTION, cacheDirFromFlags, cacheFromFlags, timingsFromFlags, typeCheckStateFromFlags, JOBS_OPTION, NO_CACHE_OPTION, parseJobs, parseSolverOptions, PROGRAM_TIMEOUT_OPTION, RLIMIT_OPTION, TIMEOUT_OPTION, type CacheFlags, type JobsFlags, type SolverFlags } from "../options";
import { progressFor } from "../format/progress";

interface Options extends SolverFlags, CacheFlags, JobsFlags, OutputFlags {
  readonly project?: string;
  readonly shard?: string;
}

export default function register(program: Command, context: CliContext): void {
  const command = program
    .command("check")
    .description("check the trusted layer's rules and prove every agent program of the project (CI gate)")
    .argument("[paths...]", "prove only the agent programs among these files, directories or globs (default: every one)")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .option(...RLIMIT_OPTION)
    .option(...TIMEOUT_OPTION)
    .option(...PROGRAM_TIMEOUT_OPTION)
    .option(...NO_CACHE_OPTION)
    .option(...CACHE_LOCATION_OPTION)
    .option(...JOBS_OPTION)
    .option("--shard <i/n>", "prove only the i-th of n deterministic shares of the programs (CI matrices; merge the reports with `clauz3 merge-reports`)");
  addOutputOptions(command);
  withHelp(command, [
    ["clauz3 check", "the CI gate: pretty on a terminal, tsc's plain format when piped"],
    ["clauz3 check plans/", "prove only the agent programs under plans/"],
    ["clauz3 check --format sarif -o clauz3.sarif", "a SARIF 2.1.0 log for code scanning"],
    ["clauz3 check --json --max-warnings 0", "one JSON document (schema/report.schema.json); warnings fail too"],
    ["clauz3 check --shard 2/4 --json -o shard-2.json", "the second of four shares; `clauz3 merge-reports shard-*.json` joins them"],
  ]);
  command.action(
      action(context, async (paths: string[], opts: Options) => {
        // The whole-run cache records every read from here on (cli/run-cache.ts, docs/cache.md).
        const recorder = RunRecorder.start(opts);
        try {
          return await check(context.io, paths, opts, recorder);
        } finally {
          recorder?.abandon();
        }
      }),
    );
}

/** The gate itself; a stored run nothing changed is replayed instead (`recorder`, when the cache is on). */
async function check(io: Io, paths: string[], opts: Options, recorder: RunRecorder | undefined): Promise<number> {
  const output = chooseOutput(opts, io);
  const solver = parseSolverOptions(opts);
  const jobs = parseJobs(opts);
  const split = opts.shard !== undefined ? parseShard(opts.shard) : undefined;
  if (recorder) {
    const configPath = projectConfigPath({ cwd: io.cwd, project: opts.project });
    const cacheDir = cacheDirFromFlags(opts, configPath ? path.dirname(configPath) : io.cwd, io.cwd);
    const terminal = { stdout: io.stdoutIsTTY === true, stderr: io.stderrIsTTY, colour: colourWanted(io.env ?? {}, io.stderrIsTTY) };
    const stored = recorder.lookUp(cacheDir, { command: "check", cwd: io.cwd, arguments: { paths, opts, jobs, terminal } }, output.outputFile);
    if (stored) return replayRun(io, stored);
  }
  const selected = paths.length > 0 ? expandInputs(io.cwd, paths) : undefined;
  // With workers, each starts its own Z3 (cli/jobs/); this process proves only a lone program.
  if (jobs === 1) warmUpSolver();
  // With the proof cache on, TypeScript's diagnostics of unchanged files come from its incremental state.
  const project = loadProject({ cwd: io.cwd, project: opts.project }, typeCheckStateFromFlags(opts, io.cwd));
  const { ts, program, layer } = project;
  const lock = verifiedLock(project);
  const checker = program.getTypeChecker();
  const chosen = selected && chosenFiles(program, selected, io.cwd);
  // A file TypeScript could not parse is reported as a refused program, whatever it was meant to be.
  const every = program
    .getSourceFiles()
    .filter((f) => (layer.agentFiles.includes(f) && exportsProgram(ts, checker, f)) || isUnreadable(project, f))
    .filter((f) => !chosen || chosen.has(f));
  // A shard proves the programs whose path hashes to it; findings in a program's file go with the
  // program, every other finding with shard 1 (cli/format/shard.ts), so the shards report each once.
  const mine = (f: TS.SourceFile): boolean => !split || shardOf(path.relative(project.projectDir, f.fileName), split.count) === split.index;
  const programs = every.filter(mine);
  const shard: ShardInfo | undefined = split && { ...split, project: programsDigest(every.map((f) => shown(f.fileName, io.cwd))) };
  const everySet = new Set(every);
  const inShard = (d: TS.Diagnostic): boolean => !split || (d.file && everySet.has(d.file) ? mine(d.file) : split.index === 1);
  // The gate (core/gate), as `prove` and tspc run it: TypeScript's own diagnostics, configuration,
  // manifests, layer rules and the lock, then the proofs (a program that does not type-check is refused).
  const cache = cacheFromFlags(opts, project.projectDir, io.cwd);
  // Workers load the project while this process runs the gate's checks.
  const workers = startWorkers(project, programs, solver, cache, jobs);
  const gate = openGate({ ts, program, options: project.options, layer, libraries: project.libraries, programs });
  const inScope = (d: TS.Diagnostic): boolean => !chosen || !d.file || !layer.agentFiles.includes(d.file) || chosen.has(d.file);
  const findings = [...gate.typescript, ...gate.configuration, ...gate.findings].filter(inScope).filter(inShard);
  const progress = progressFor(io, opts, (f) => shown(f, io.cwd));
  const verdicts = await proveFiles(project, programs, solver, gate, cache, { jobs, progress, workers, timings: timingsFromFlags(opts, project.projectDir, io.cwd) });
  const shownIo = recorder ? recorder.tee(io) : io;
  const code = emitReport(shownIo, output, makeReport("check", ts, program, io.cwd, findings, verdicts, shard), (file, text) => recorder?.wroteFile(file, text));
  project.saveTypeCheckState();
  const exit = gate.configurationError ? EXIT.usage : code;
  const inputs = [...program.getSourceFiles().map((f) => f.fileName), ...project.libraries.map((l) => l.manifestPath), ...(lock.state === "missing" ? [] : [lock.lockPath])];
  recorder?.finish(exit, verdicts.every(isCacheable), inputs);
  return exit;
}

/** The project files the paths name; a file named on the command line must be one of them. */
function chosenFiles(program: TS.Program, inputs: readonly Input[], cwd: string): Set<TS.SourceFile> {
  const byPath = new Map(program.getSourceFiles().map((f) => [path.resolve(f.fileName), f]));
  const out = new Set<TS.SourceFile>();
  for (const input of inputs) {
    const file = byPath.get(input.file);
    if (file) out.add(file);
    else if (input.explicit) throw new CliError(`clauz3: ${path.relative(cwd, input.file) || input.file} is not a TypeScript source file of the project.`, EXIT.usage);
  }
  return out;
}
