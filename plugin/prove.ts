/** Proving during the build (the default; `"prove": false` opts out): every agent program, synchronously, through the warm worker. */
import * as path from "node:path";
import type { createSyncFn } from "synckit";
import type * as TS from "typescript";
import { ProofCache } from "../core/cache/store";
import type { Gate } from "../core/gate";
import type { ProgramVerdict } from "../core/prover/api";
import { failedProof } from "../core/prover/limits";
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

/**
 * The verdicts of the gate's agent programs: those it refused before proof (they do not
 * type-check) as it decided them, the others proved in the worker. The gate turns them into
 * diagnostics (`proofErrors`), as it does for `clauz3 check`.
 */
export function proveInWorker(gate: Gate, trustedRoots: readonly string[] | undefined, cache: boolean, programTimeoutMs?: number): ProgramVerdict[] {
  const { program } = gate;
  // Inside the worker itself (a program rebuilt for proving), never prove again.
  if (gate.programs.length === 0 || process.env.CLAUZ3_PROVE_WORKER === "1") return [];
  const pending = gate.programs.filter((f) => !gate.decided.has(f));
  let proved: readonly ProgramVerdict[] = [];
  if (pending.length > 0) {
    // synckit (with the worker and module-resolution modules it loads) on the first proof, not
    // with the plugin: a `"prove": false` build never loads it.
    proveSync ??= (require("synckit") as { createSyncFn: typeof createSyncFn }).createSyncFn(path.join(__dirname, "prove-worker.js"), { timeout: 30 * 60_000 });
    let response: ProveResponse;
    try {
      response = proveSync({
        typescript: typescriptPath(program.getCurrentDirectory()),
        rootNames: program.getRootFileNames(),
        options: plainOptions(program.getCompilerOptions()),
        cwd: program.getCurrentDirectory(),
        files: pending.map((f) => f.fileName),
        trustedRoots,
        cacheDir: cache ? ProofCache.forProgram(program).dir : undefined,
        programTimeoutMs,
      });
    } catch (error) {
      response = { error: error instanceof Error ? error.message : String(error) };
    }
    proved = "error" in response ? pending.map((f) => failedProof(f, new Error(`the proof worker failed: ${response.error.split("\n")[0]}`))) : response.verdicts;
  }
  let next = 0;
  return gate.programs.map((f) => gate.decided.get(f) ?? proved[next++]!);
}
