/**
 * Shared by `clauz3 prove` and `clauz3 check`: prove agent programs in one warm process and report
 * them as TypeScript diagnostics (human) or one JSON document.
 */
import * as path from "node:path";
import type * as TS from "typescript";
import type { BudgetOptions } from "../core/prover/limits";
import { PROOF_CODES } from "../core/rules";
import { spanOf } from "../core/span";
import { proveProgram } from "../core/prover/prove";
import { proveGate, type Gate } from "../core/gate";
import { cacheFor, type ProofCache, type ProofTimings } from "../core/cache";
import { Z3Session } from "../core/prover/z3";
import { coverageJson, type CoverageJson } from "../core/coverage/json";
import type { Counterexample, ProgramVerdict, ProofResult, ShownValue } from "../core/prover/api";
import type { Span } from "../core/model";
import { terminalSafe } from "./io";
import type { ProgressLine } from "./format/progress";
import { ProofPool } from "./jobs/pool";
import type { Project } from "./project";

type Place = { readonly file: string; readonly line: number; readonly column: number };

/** A counterexample as JSON: call sites are places relative to the current directory. */
export type CounterexampleJson = Omit<Counterexample, "callSite" | "otherEvent"> & {
  readonly callSite?: Place;
  readonly otherEvent?: { readonly name: string; readonly fields: Readonly<Record<string, ShownValue>>; readonly callSite?: Place };
};

/** The programs of the JSON report (schema/report.schema.json). */
export interface ProveJson {
  readonly programs: readonly {
    readonly file: string;
    readonly verdict: ProgramVerdict["verdict"];
    /** Why the verdict is not final (an answer the wall clock cut short), when it is not. */
    readonly provisional?: string;
    readonly results: readonly {
      readonly kind: ProofResult["kind"];
      readonly contract?: string;
      readonly sentence?: string;
      readonly tool?: string;
      readonly requires?: string;
      readonly requiredBy?: string;
      readonly verdict: ProofResult["verdict"];
      readonly code: number;
      readonly message: string;
      readonly location: { readonly file: string; readonly line: number; readonly column: number };
      readonly guarantee?: { readonly file: string; readonly line: number; readonly column: number };
      readonly counterexample?: CounterexampleJson;
    }[];
    /** Each used library that declares a coverage policy, worst status first (docs/coverage.md). */
    readonly coverage?: readonly CoverageJson[];
  }[];
}

/** A path as shown: relative to `cwd` with forward slashes, absolute when outside it. */
export function shown(fileName: string, cwd: string): string {
  const rel = path.relative(cwd, fileName).replace(/\\/g, "/");
  return rel === "" || rel.startsWith("../") || path.isAbsolute(rel) ? fileName.replace(/\\/g, "/") : rel;
}

function place(span: Span, cwd: string): { file: string; line: number; column: number } {
  return { file: shown(span.fileName, cwd), line: span.line, column: span.column };
}

/**
 * Start Z3 (wasm compilation, worker threads) before the synchronous TypeScript work, so the two
 * overlap in a cold process. A failure here surfaces again, as a refusal, at the first query.
 */
export function warmUpSolver(): void {
  Z3Session.get().catch(() => undefined);
}

/** How a run proves: in how many worker processes (1: this one), and with which progress line. */
export interface RunOptions {
  readonly jobs: number;
  readonly progress?: ProgressLine;
  /** Workers started before the gate's checks (`startWorkers`). */
  readonly workers?: Workers;
  /** How long each program took last time: workers take the slowest first; saved after the run. */
  readonly timings?: ProofTimings;
}

/** A pool started early, and how many programs it was sized for. */
export interface Workers {
  readonly pool: Promise<ProofPool>;
  readonly size: number;
}

/**
 * With `jobs` > 1, start the workers before the gate's checks when at least two of `files` have
 * no proof cache entry, so that they load the project and start Z3 while this process
 * type-checks. The estimate may be high (a program the gate refuses, an entry that is not valid):
 * `proveFiles` uses or closes the pool either way.
 */
export function startWorkers(project: Project, files: readonly TS.SourceFile[], solver: BudgetOptions, cache: ProofCache | undefined, jobs: number): Workers | undefined {
  if (jobs < 2 || files.length < 2) return undefined;
  let misses = files.length;
  if (cache) {
    const use = cacheFor(cache, project.ts, project.program, project.layer, { ...project.options, ...solver })!;
    misses = files.filter((f) => {
      try {
        return !cache.has(use.keys.keyOf(f));
      } catch {
        return true;
      }
    }).length;
  }
  if (misses < 2) return undefined;
  const size = Math.min(jobs, misses);
  return { pool: ProofPool.open({ size, load: project.load, solver }), size };
}

/**
 * Prove each file. With `jobs` > 1 and at least two programs the cache does not answer, they go
 * to a pool of worker processes (cli/jobs/); the verdicts come back in the order of `files`.
 */
export async function proveFiles(project: Project, files: readonly TS.SourceFile[], solver: BudgetOptions = {}, gate?: Gate, cache?: ProofCache, run: RunOptions = { jobs: 1 }): Promise<ProgramVerdict[]> {
  let pool = run.workers?.pool;
  try {
    // The gate (core/gate) refuses a program that does not type-check before the prover runs.
    if (!gate) return await proveHere(project, files, solver);
    let elsewhere = false;
    const parallel = (misses: number) => {
      if (run.jobs < 2 || misses < 2) return undefined;
      elsewhere = true;
      const opened = (pool ??= ProofPool.open({ size: Math.min(run.jobs, misses), load: project.load, solver }));
      return async (file: TS.SourceFile, started: () => void) => (await opened).prove(file, started);
    };
    const proving = proveGate(gate, solver, files, (file) => unreadableVerdict(project, file), cache, { parallel, progress: run.progress, timings: run.timings });
    // While workers prove, this process would idle: type-check now what the report needs next.
    if (elsewhere) await typeCheckInSlices(project.program, proving);
    return await proving;
  } finally {
    run.progress?.end();
    run.timings?.save();
    if (pool) await (await pool).close();
  }
}

/**
 * TypeScript's diagnostics of every file, one file per turn of the event loop (the program caches
 * them, so the report's `getPreEmitDiagnostics` finds them ready), until `until` settles.
 * The turns let the pool hand out the next program as soon as a worker is free.
 */
async function typeCheckInSlices(program: TS.Program, until: Promise<unknown>): Promise<void> {
  let settled = false;
  until.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (const file of program.getSourceFiles()) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (settled) return;
    program.getSyntacticDiagnostics(file);
    program.getSemanticDiagnostics(file);
  }
}

async function proveHere(project: Project, files: readonly TS.SourceFile[], solver: BudgetOptions): Promise<ProgramVerdict[]> {
  const out: ProgramVerdict[] = [];
  for (const file of files) {
    const blocked = unreadableVerdict(project, file);
    if (blocked) {
      out.push(blocked);
      continue;
    }
    out.push(await proveProgram({ ts: project.ts, program: project.program, file, options: { ...project.options, ...solver } }, project.layer));
  }
  return out;
}

/** A refusal when the program, or a module it loads, is one TypeScript could not parse (see `loadProject`). */
function unreadableVerdict(project: Project, file: TS.SourceFile): ProgramVerdict | undefined {
  if (project.unreadable.size === 0) return undefined;
  const { ts, program } = project;
  // The unreadable module stands in the program as an empty file, which the checker does not see
  // as a module: follow the import specifiers through module resolution instead.
  const seen = new Set<TS.SourceFile>();
  const queue = [file];
  let bad: TS.SourceFile | undefined;
  for (let f = queue.pop(); f && !bad; f = queue.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    if (isUnreadable(project, f)) bad = f;
    for (const s of f.statements) {
      const spec = (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? s.moduleSpecifier.text : undefined;
      const resolved = spec === undefined ? undefined : ts.resolveModuleName(spec, f.fileName, program.getCompilerOptions(), ts.sys).resolvedModule;
      const target = resolved && program.getSourceFile(resolved.resolvedFileName);
      if (target) queue.push(target);
    }
  }
  if (!bad) return undefined;
  const why = project.unreadable.get(path.resolve(bad.fileName))!;
  const what = bad === file ? "this program" : `${shown(bad.fileName, project.projectDir)}, which this program loads,`;
  return {
    file: file.fileName,
    verdict: "refused",
    results: [{ kind: "guarantee", verdict: "refused", code: PROOF_CODES.refused, location: spanOf(file), message: `refused: ${what} could not be read: ${why}.` }],
  };
}

/** Whether a project file is one TypeScript could not parse (`check` reports each as a refused program). */
export function isUnreadable(project: Project, file: TS.SourceFile): boolean {
  return project.unreadable.has(path.resolve(file.fileName));
}

/** A counterexample with every call site as a relative `{file,line,column}` (absent when unknown). */
function counterexampleJson(c: Counterexample, cwd: string): CounterexampleJson {
  const { callSite, otherEvent, ...rest } = c;
  return {
    ...rest,
    ...(callSite ? { callSite: place(callSite, cwd) } : {}),
    ...(otherEvent ? { otherEvent: { name: otherEvent.name, fields: otherEvent.fields, ...(otherEvent.callSite ? { callSite: place(otherEvent.callSite, cwd) } : {}) } } : {}),
  };
}

export function toJson(verdicts: readonly ProgramVerdict[], cwd: string): ProveJson {
  return {
    programs: verdicts.map((v) => ({
      file: shown(v.file, cwd),
      verdict: v.verdict,
      ...(v.provisional !== undefined ? { provisional: v.provisional } : {}),
      results: v.results.map((r) => ({
        kind: r.kind,
        ...(r.contract !== undefined ? { contract: r.contract } : {}),
        ...(r.sentence !== undefined ? { sentence: r.sentence } : {}),
        ...(r.tool !== undefined ? { tool: r.tool } : {}),
        ...(r.requires !== undefined ? { requires: r.requires } : {}),
        ...(r.requiredBy !== undefined ? { requiredBy: r.requiredBy } : {}),
        verdict: r.verdict,
        code: r.code,
        message: r.message,
        location: place(r.location, cwd),
        ...(r.guarantee ? { guarantee: place(r.guarantee, cwd) } : {}),
        ...(r.counterexample ? { counterexample: counterexampleJson(r.counterexample, cwd) } : {}),
      })),
      ...(v.coverage ? { coverage: coverageJson(v.coverage, (f) => shown(f, cwd)) } : {}),
    })),
  };
}

/** The pretty report's lines per program: its verdict, each proved guarantee, each failure (paths relative to `cwd`). */
export function verdictLines(verdicts: readonly ProgramVerdict[], cwd: string): string {
  let out = "";
  for (const v of verdicts) {
    const proved = v.results.filter((r) => r.kind === "guarantee" && r.verdict === "proved");
    out += `${terminalSafe(shown(v.file, cwd))}: ${v.verdict}\n`;
    for (const r of proved) out += `  ✓ ${terminalSafe(r.contract ?? "")}: ${terminalSafe(r.sentence ?? "proved")}${r.requiredBy ? ` (required by ${terminalSafe(r.requiredBy)}'s coverage policy)` : ""}\n`;
    for (const r of v.results.filter((x) => x.verdict !== "proved")) {
      // A precondition names its tool and the `requires` message it fails.
      const what = r.contract ? ` ${terminalSafe(r.contract)}` : r.tool ? ` of ${terminalSafe(r.tool)}${r.requires ? ` ("${terminalSafe(r.requires)}")` : ""}` : "";
      out += `  ✗ ${r.verdict} ${r.kind}${what} at ${terminalSafe(shown(r.location.fileName, cwd))}:${r.location.line}:${r.location.column}\n`;
    }
  }
  return out;
}
