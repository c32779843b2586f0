/**
 * The solver options shared by `clauz3 prove` and `clauz3 check`: the deterministic resource limit
 * of a query (`--rlimit`), the wall-clock backstop of a query (`--timeout`) and the wall-clock
 * budget of a program (`--program-timeout`). Defaults and how they were chosen:
 * docs/determinism.md and docs/robustness.md.
 */
import { DEFAULT_BACKSTOP_MS, DEFAULT_PROGRAM_TIMEOUT_MS, DEFAULT_RLIMIT, type BudgetOptions } from "../core/prover/limits";
import * as os from "node:os";
import * as path from "node:path";
import { ProofCache, ProofTimings, TypeCheckState } from "../core/cache";
import { CliError, EXIT } from "./io";

/** The options as commander hands them over. */
export interface SolverFlags {
  readonly rlimit?: string;
  readonly timeout?: string;
  readonly programTimeout?: string;
}

/** `--rlimit`, `--timeout` and `--program-timeout`, as arguments of commander's `.option()`. */
export const RLIMIT_OPTION = ["--rlimit <units>", `Z3 resource units per query, the deterministic bound of its work (default ${DEFAULT_RLIMIT})`] as const;
export const TIMEOUT_OPTION = ["--timeout <ms>", `per-query wall-clock backstop in milliseconds; an answer it cuts short is not final (default ${DEFAULT_BACKSTOP_MS})`] as const;
export const PROGRAM_TIMEOUT_OPTION = ["--program-timeout <ms>", `wall-clock budget of one program in milliseconds; the queries left when it runs out are refused (default ${DEFAULT_PROGRAM_TIMEOUT_MS})`] as const;

function positive(flag: string, unit: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new CliError(`clauz3: ${flag} expects a positive whole number of ${unit}, not ${JSON.stringify(value)}.`, EXIT.usage);
  return n;
}

/** The prove options the flags ask for (a usage error, exit 2, for a value that is not a positive integer). */
export function parseSolverOptions(flags: SolverFlags): BudgetOptions {
  const rlimit = positive("--rlimit", "resource units", flags.rlimit);
  if (rlimit !== undefined && rlimit > 0xffff_ffff) throw new CliError(`clauz3: --rlimit is at most ${0xffff_ffff} (Z3 counts in 32 bits), not ${flags.rlimit}.`, EXIT.usage);
  const timeoutMs = positive("--timeout", "milliseconds", flags.timeout);
  const programTimeoutMs = positive("--program-timeout", "milliseconds", flags.programTimeout);
  return { ...(rlimit !== undefined ? { rlimit } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(programTimeoutMs !== undefined ? { programTimeoutMs } : {}) };
}

/** `--no-cache` and `--cache-location`, as commander hands them over (`cache` is false for `--no-cache`). */
export interface CacheFlags {
  readonly cache?: boolean;
  readonly cacheLocation?: string;
}

export const NO_CACHE_OPTION = ["--no-cache", "prove every program again, neither reading nor writing the proof cache or a stored run (the proofs' timings, which only order them for --jobs, are kept)"] as const;
export const CACHE_LOCATION_OPTION = ["--cache-location <dir>", "where the proof cache lives (default node_modules/.cache/clauz3/proofs in the project)"] as const;

/** Where the cache lives: `--cache-location` (relative to `cwd`), else the project's default. */
export function cacheDirFromFlags(flags: CacheFlags, projectDir: string, cwd: string): string {
  if (flags.cacheLocation === undefined) return ProofCache.forProject(projectDir).dir;
  if (flags.cacheLocation.trim() === "") throw new CliError("clauz3: --cache-location needs a directory.", EXIT.usage);
  return path.resolve(cwd, flags.cacheLocation);
}

/** The proof cache the flags ask for: none with `--no-cache`; else `--cache-location` (relative to `cwd`) or the project's default. */
export function cacheFromFlags(flags: CacheFlags, projectDir: string, cwd: string): ProofCache | undefined {
  const dir = cacheDirFromFlags(flags, projectDir, cwd);
  return flags.cache === false ? undefined : new ProofCache(dir);
}

/**
 * Where `check` keeps TypeScript's incremental state (core/cache/type-check-state.ts): in the proof
 * cache's location, one file per project; none with `--no-cache`.
 */
export function typeCheckStateFromFlags(flags: CacheFlags, cwd: string): (projectDir: string, configPath: string | undefined) => TypeCheckState | undefined {
  return (projectDir, configPath) => (flags.cache === false ? undefined : TypeCheckState.in(cacheDirFromFlags(flags, projectDir, cwd), configPath ?? projectDir));
}

/**
 * The proofs' timings (core/cache/timings.ts), in the cache's location: kept with `--no-cache`
 * too, since they only order the proofs for `--jobs` and never decide a verdict.
 */
export function timingsFromFlags(flags: CacheFlags, projectDir: string, cwd: string): ProofTimings {
  return new ProofTimings(cacheDirFromFlags(flags, projectDir, cwd), projectDir);
}

/** `--jobs`, as commander hands it over. */
export interface JobsFlags {
  readonly jobs?: string;
}

export const JOBS_OPTION = ["-j, --jobs <n>", "prove programs in n worker processes, each with its own warm Z3; 1 proves them in this process (default: the available cores)"] as const;

/** The number of proof workers: `--jobs`, else the cores Node says are available. */
export function parseJobs(flags: JobsFlags): number {
  return positive("--jobs", "workers", flags.jobs) ?? os.availableParallelism();
}
