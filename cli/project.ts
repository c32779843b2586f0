/**
 * Loading a project for the CLI: its tsconfig, its own TypeScript (resolved from the project
 * directory, falling back to ours), a type-checked program whose current directory is the project
 * directory, the trusted layer (read once, with every rule) and its libraries.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as TS from "typescript";
import type { Clauz3Options, TypeScript } from "../core/context";
import type { TypeCheckState } from "../core/cache";
import { readLayer, type LayerResult } from "../core/layer/read";
import { verifyLock, type LockVerification } from "../core/lock/verify";
import { librariesOf, type Library } from "../core/manifest";
import { clauz3OptionsOf, PluginOptionsError } from "../core/plugin-options";
import { defaultCompilerOptions, defaultRootNames } from "../core/project-defaults";
import { isStackOverflow, MAX_NESTING } from "../core/prover/limits";
import { CliError, EXIT, type Io } from "./io";

export interface Project {
  readonly ts: TypeScript;
  readonly program: TS.Program;
  readonly projectDir: string;
  /** The tsconfig used; undefined when none was found (default options, every TypeScript file below the directory). */
  readonly configPath: string | undefined;
  readonly options: Clauz3Options;
  readonly layer: LayerResult;
  readonly libraries: readonly Library[];
  /**
   * Files TypeScript's parser could not read (absolute path → why): they stand in the program as
   * empty files, and every command refuses them, and the programs that load them, by name.
   */
  readonly unreadable: ReadonlyMap<string, string>;
  /** How it was loaded: a proof worker (cli/jobs/) loads the same program from it. */
  readonly load: LoadOptions;
  /** Keep TypeScript's incremental state for the next run (loaded with one; otherwise nothing). */
  saveTypeCheckState(): void;
}

export interface LoadOptions {
  readonly cwd: string;
  /** `--project`: a tsconfig file or a directory holding `tsconfig.json`. */
  readonly project?: string;
  /** Files added to the program's roots (for example the program `describe` is asked about). */
  readonly extraRoots?: readonly string[];
  /**
   * Use only `extraRoots` (and what they import) as the program's roots, with the tsconfig's
   * options: proving a few programs need not parse the whole project.
   */
  readonly onlyExtraRoots?: boolean;
}

/** The project's own TypeScript, else the one clauz3 depends on. */
export function loadTypeScript(projectDir: string): TypeScript {
  try {
    const resolved = require.resolve("typescript", { paths: [projectDir] });
    return require(resolved) as TypeScript;
  } catch {
    return require("typescript") as TypeScript;
  }
}

function findConfig(from: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = path.join(dir, "tsconfig.json");
    if (fs.existsSync(candidate)) return candidate;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** `trustedRoots` from a clauz3 plugin entry (core/plugin-options.ts); a malformed entry is a usage error. */
function clauz3Options(compilerOptions: TS.CompilerOptions): Clauz3Options {
  try {
    return clauz3OptionsOf(compilerOptions);
  } catch (error) {
    if (error instanceof PluginOptionsError) throw new CliError(`clauz3: ${error.message}.`, EXIT.usage);
    throw error;
  }
}

/** The tsconfig.json a command uses: `--project` (a file or a directory), else the nearest one above `cwd`, else none. */
export function projectConfigPath(opts: Pick<LoadOptions, "cwd" | "project">): string | undefined {
  if (opts.project === undefined) return findConfig(opts.cwd);
  const p = path.resolve(opts.cwd, opts.project);
  const configPath = fs.existsSync(p) && fs.statSync(p).isDirectory() ? path.join(p, "tsconfig.json") : p;
  if (!fs.existsSync(configPath)) throw new CliError(`clauz3: --project ${opts.project}: ${configPath} does not exist.`, EXIT.usage);
  return configPath;
}

/**
 * Load the project. With `typeCheckState` (given the project directory, where TypeScript's
 * incremental state is kept: `check` with the proof cache on), the program's diagnostics come
 * through TypeScript's builder, which reuses those of the files nothing changed.
 */
export function loadProject(opts: LoadOptions, typeCheckState?: (projectDir: string, configPath: string | undefined) => TypeCheckState | undefined): Project {
  const configPath = projectConfigPath(opts);
  const projectDir = configPath ? path.dirname(configPath) : opts.cwd;
  const ts = loadTypeScript(projectDir);
  const extraRoots = (opts.extraRoots ?? []).map((f) => path.resolve(opts.cwd, f));
  let compilerOptions: TS.CompilerOptions;
  let rootNames: string[];
  let projectReferences: readonly TS.ProjectReference[] | undefined;
  if (configPath) {
    let fatal: TS.Diagnostic | undefined;
    const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => void (fatal = d),
    });
    // `errors` leaves out the JSON syntax errors of the file (and of the files it extends): those
    // are the parse diagnostics of the config source, which TypeScript returns separately.
    const errors = [...(fatal ? [fatal] : []), ...(parsed ? ts.getConfigFileParsingDiagnostics(parsed) : [])].filter(
      // "No inputs were found" does not matter when the command names its own file.
      (d) => !(d.code === 18003 && extraRoots.length > 0),
    );
    if (!parsed || errors.length > 0) {
      const host = { getCurrentDirectory: () => projectDir, getCanonicalFileName: (f: string) => f, getNewLine: () => "\n" };
      throw new CliError(`clauz3: cannot read ${configPath}:\n${ts.formatDiagnostics(errors, host).trimEnd()}`, EXIT.usage);
    }
    compilerOptions = parsed.options;
    rootNames = parsed.fileNames;
    projectReferences = parsed.projectReferences;
  } else {
    // No tsconfig.json: default options and every TypeScript source below the directory.
    compilerOptions = defaultCompilerOptions(ts);
    rootNames = defaultRootNames(ts, projectDir);
  }
  for (const f of extraRoots) {
    if (!fs.existsSync(f)) throw new CliError(`clauz3: ${path.relative(opts.cwd, f) || f} does not exist.`, EXIT.usage);
  }
  const options = clauz3Options(compilerOptions);
  const roots = opts.onlyExtraRoots && extraRoots.length > 0 ? [] : [...rootNames];
  for (const f of extraRoots) if (!roots.some((r) => path.resolve(r) === f)) roots.push(f);
  const state = typeCheckState?.(projectDir, configPath);
  const { program, unreadable, saveTypeCheckState } = state
    ? incrementalProgram(ts, { rootNames: roots, options: compilerOptions, projectReferences }, projectDir, state)
    : plainProgram(ts, { rootNames: roots, options: compilerOptions, projectReferences }, projectDir);
  const layer = readLayer(ts, program, options);
  return { ts, program, projectDir, configPath, options, layer, libraries: librariesOf(layer.model), unreadable, load: opts, saveTypeCheckState };
}

interface Loaded {
  readonly program: TS.Program;
  readonly unreadable: ReadonlyMap<string, string>;
  readonly saveTypeCheckState: () => void;
}

function plainProgram(ts: TypeScript, create: TS.CreateProgramOptions, projectDir: string): Loaded {
  const host = ts.createCompilerHost(create.options, true);
  host.getCurrentDirectory = () => projectDir;
  const unreadable = guardParser(ts, host);
  return { program: ts.createProgram({ ...create, host }), unreadable, saveTypeCheckState: () => undefined };
}

/**
 * The program through TypeScript's builder (as `tsc --incremental` runs it), with the state of the
 * last run read from `state`. The program handed out is the builder's, except that its semantic
 * diagnostics come from the builder (those of unchanged files from the state) and its options are
 * the project's own: `incremental` and the state's file are how clauz3 runs TypeScript, not part
 * of what the project asks for (nor of the proof cache's keys).
 *
 * The builder decides which files a change affects only as it hands out their diagnostics in
 * turn: the first request for any file's diagnostics asks for the whole program's first, so that
 * no file's diagnostics are read from the state before that is settled.
 */
function incrementalProgram(ts: TypeScript, create: TS.CreateProgramOptions, projectDir: string, state: TypeCheckState): Loaded {
  // Every property, `configFile` too (not enumerable): option errors are reported at their place in tsconfig.json.
  const options: TS.CompilerOptions = Object.defineProperties({}, Object.getOwnPropertyDescriptors(create.options));
  options.incremental = true;
  options.tsBuildInfoFile = state.file;
  const host = ts.createIncrementalCompilerHost(options);
  host.getCurrentDirectory = () => projectDir;
  const unreadable = guardParser(ts, host);
  let old: TS.EmitAndSemanticDiagnosticsBuilderProgram | undefined;
  try {
    old = ts.readBuilderProgram(options, { useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames, getCurrentDirectory: () => projectDir, readFile: (f) => (path.resolve(f) === path.resolve(state.file) ? state.read() : undefined) });
  } catch {
    old = undefined; // a state TypeScript cannot read: type-check from scratch
  }
  let builder: TS.EmitAndSemanticDiagnosticsBuilderProgram;
  try {
    builder = ts.createEmitAndSemanticDiagnosticsBuilderProgram(create.rootNames, options, host, old, undefined, create.projectReferences);
  } catch (error) {
    if (!old || isStackOverflow(error)) throw error;
    builder = ts.createEmitAndSemanticDiagnosticsBuilderProgram(create.rootNames, options, host, undefined, undefined, create.projectReferences);
  }
  const real = builder.getProgram();
  let settled = false;
  const program: TS.Program = {
    ...real,
    getCompilerOptions: () => create.options,
    getSemanticDiagnostics: (file, token) => {
      if (!settled) {
        builder.getSemanticDiagnostics(undefined, token);
        settled = true;
      }
      return builder.getSemanticDiagnostics(file, token);
    },
  };
  // `emitBuildInfo` is not in TypeScript's declarations (tsc calls it through `emit` under
  // `noEmit`, which would change the project's options): without it, the state is not kept.
  const withBuildInfo = builder as { emitBuildInfo?: (write: TS.WriteFileCallback) => unknown };
  const saveTypeCheckState = (): void => {
    try {
      withBuildInfo.emitBuildInfo?.((_file, text) => state.write(text));
    } catch {
      /* the state only ever saves work */
    }
  };
  return { program, unreadable, saveTypeCheckState };
}

/**
 * TypeScript's parser recurses over nesting: a file nested deeper than its stack allows (some
 * hundreds of parentheses) throws a RangeError out of `createProgram`, which would end the run
 * for every file. Such a file is read as empty instead and remembered, so that each command
 * refuses it (and the programs that load it) by name while the other files keep their verdicts.
 */
function guardParser(ts: TypeScript, host: TS.CompilerHost): Map<string, string> {
  const unreadable = new Map<string, string>();
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreateNewSourceFile) => {
    try {
      return read(fileName, languageVersion, onError, shouldCreateNewSourceFile);
    } catch (error) {
      if (!isStackOverflow(error)) throw error;
      unreadable.set(path.resolve(fileName), `TypeScript's parser ran out of stack reading it: it is nested too deeply (more than the prover's limit of ${MAX_NESTING} levels, far more than it can parse). Split deeply nested expressions into named \`const\`s and helper functions`);
      // TypeScript's builder asks every file for the version an incremental host gives it.
      return Object.assign(ts.createSourceFile(fileName, "", languageVersion), { version: "unreadable" });
    }
  };
  return unreadable;
}

/** Manifest problems of the given libraries as one configuration error (exit 2). */
export function checkManifests(project: Project, libraries: readonly Library[]): void {
  const bad = libraries.filter((l) => l.manifestProblems.length > 0);
  if (bad.length === 0) return;
  const lines = bad.flatMap((l) => [
    `${path.relative(project.projectDir, l.manifestPath).replace(/\\/g, "/")}: invalid library manifest`,
    ...l.manifestProblems.map((p) => `  ${p}`),
  ]);
  throw new CliError(`${lines.join("\n")}\nFix the manifest (schema: clauz3/schema/manifest.schema.json).`, EXIT.usage);
}

/**
 * The project's trusted files verified against its clauz3.lock (read, never written). A lock that
 * is not valid is a configuration error naming the file and the field (exit 2).
 */
export function verifiedLock(project: Project): LockVerification {
  const lock = verifyLock(project.ts, project.program, project.layer.isTrusted);
  if (lock.state === "invalid") {
    const where = path.relative(project.projectDir, lock.lockPath).replace(/\\/g, "/") || lock.lockPath;
    const what = lock.error ? `${lock.error.field} ${lock.error.problem}` : (lock.findings[0]?.message ?? "it could not be checked");
    throw new CliError(`clauz3: ${where} is not a valid lock: ${what}.\nWrite it again with \`clauz3 lock\` (schema: clauz3/schema/lock.schema.json).`, EXIT.usage);
  }
  return lock;
}

/** Say on stderr when no tsconfig.json was found and defaults are in use. */
export function noteDefaults(project: Project, io: Io): void {
  if (project.configPath === undefined) {
    io.stderr(`clauz3: no tsconfig.json in ${project.projectDir} or above; using default compiler options and every TypeScript file below it (pass --project to choose).\n`);
  }
}
