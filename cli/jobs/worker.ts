/**
 * A proof worker of `--jobs N` (pool.ts): a child process that loads the project the way the CLI
 * did (the same tsconfig, roots and options, so the same TypeScript program) and proves the
 * programs it is sent, one at a time, with one warm Z3 for its whole life. Each query gets a fresh
 * Z3 context (core/prover/z3.ts), so a verdict does not depend on which programs this worker
 * proved before: the output is the same as with `--jobs 1`.
 */
import * as path from "node:path";
import type { ProgramVerdict } from "../../core/prover/api";
import type { BudgetOptions } from "../../core/prover/limits";
import { proveProgram } from "../../core/prover/prove";
import { Z3Session } from "../../core/prover/z3";
import { loadProject, type LoadOptions, type Project } from "../project";

/** One task: a program of the project, and the proof options of the command. */
export interface ProveTask {
  readonly load: LoadOptions;
  /** The program's file name as the project's TypeScript program spells it. */
  readonly file: string;
  readonly solver: BudgetOptions;
}

/** A warm-up task: load the project and start Z3 before the first program arrives. */
export interface WarmTask {
  readonly load: LoadOptions;
  readonly warm: true;
}

let loaded: { readonly key: string; readonly project: Project } | undefined;

function projectFor(load: LoadOptions): Project {
  const key = JSON.stringify(load);
  if (loaded?.key !== key) loaded = { key, project: loadProject(load) };
  return loaded.project;
}

/** The task handler tinypool calls (by name: `prove`). */
export async function prove(task: ProveTask | WarmTask): Promise<ProgramVerdict | null> {
  if ("warm" in task) {
    Z3Session.get().catch(() => undefined); // a failure surfaces again, as a refusal, at the first query
    projectFor(task.load);
    return null;
  }
  const project = projectFor(task.load);
  const file = project.program.getSourceFile(task.file) ?? project.program.getSourceFiles().find((f) => path.resolve(f.fileName) === path.resolve(task.file));
  if (!file) throw new Error(`the proof worker's copy of the project has no source file ${task.file}`);
  // proveProgram turns every failure of the proof into a refused verdict: what throws here is a bug.
  return proveProgram({ ts: project.ts, program: project.program, file, options: { ...project.options, ...task.solver } }, project.layer);
}

// Orphaned (the CLI was killed): stop, rather than keep a core busy with a proof nobody reads.
process.on("disconnect", () => process.exit(0));
