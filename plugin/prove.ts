/** `prove: true`: prove every agent program of the build synchronously, through the warm worker. */
import * as path from "node:path";
import { createSyncFn } from "synckit";
import type * as TS from "typescript";
import type { LayerResult } from "../core/layer/read";
import { exportsProgram, failureDiagnostic, proofDiagnostics } from "../core/prover/diagnostics";
import type { ProveRequest, ProveResponse } from "./prove-worker";

let proveSync: ((request: ProveRequest) => ProveResponse) | undefined;

/**
 * The TypeScript library the worker loads: the project's own (`tspc` runs a patched `tsc.js`,
 * which must never be loaded in the worker: it would start another compilation).
 */
function typescriptPath(cwd: string): string {
  return require.resolve("typescript", { paths: [cwd, __dirname] });
}

/** Compiler options as plain data (the parsed tsconfig object itself is not needed to rebuild). */
function plainOptions(options: TS.CompilerOptions): TS.CompilerOptions {
  const out: TS.CompilerOptions = {};
  for (const [k, v] of Object.entries(options)) {
    if (k === "configFile" || typeof v === "function") continue;
    out[k] = v as TS.CompilerOptionsValue;
  }
  return JSON.parse(JSON.stringify(out)) as TS.CompilerOptions;
}

/** Proof diagnostics (violations, refusals) of every agent program in the program. */
export function proofDiagnosticsOf(ts: typeof TS, program: TS.Program, layer: LayerResult, trustedRoots: readonly string[] | undefined): TS.Diagnostic[] {
  const checker = program.getTypeChecker();
  const programs = layer.agentFiles.filter((f) => exportsProgram(ts, checker, f));
  // Inside the worker itself (a program rebuilt for proving), never prove again.
  if (programs.length === 0 || process.env.CLAUZ3_PROVE_WORKER === "1") return [];
  proveSync ??= createSyncFn(path.join(__dirname, "prove-worker.js"), { timeout: 30 * 60_000 });
  let response: ProveResponse;
  try {
    response = proveSync({
      typescript: typescriptPath(program.getCurrentDirectory()),
      rootNames: program.getRootFileNames(),
      options: plainOptions(program.getCompilerOptions()),
      cwd: program.getCurrentDirectory(),
      files: programs.map((f) => f.fileName),
      trustedRoots,
    });
  } catch (error) {
    response = { error: error instanceof Error ? error.message : String(error) };
  }
  if ("error" in response) return programs.map((f) => failureDiagnostic(ts, f, `the proof worker failed: ${response.error.split("\n")[0]}`));
  return response.verdicts.flatMap((v, i) => proofDiagnostics(ts, program, programs[i]!, v).errors);
}
