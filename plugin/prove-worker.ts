/**
 * The `prove: true` worker: `tspc` transformers are synchronous, so proofs run here, in a worker
 * kept warm by synckit (one Z3 for the whole build), and the transformer waits for the answer.
 * The worker rebuilds the program from its roots and options with the caller's TypeScript.
 */
import { runAsWorker } from "synckit";
import type * as TS from "typescript";
import { readLayer } from "../core/layer/read";
import type { ProgramVerdict } from "../core/prover/api";
import { cacheFor, proveCached, ProofCache } from "../core/cache";

/** What the transformer sends: everything needed to rebuild the same program. */
export interface ProveRequest {
  readonly typescript: string;
  readonly rootNames: readonly string[];
  readonly options: TS.CompilerOptions;
  readonly cwd: string;
  readonly files: readonly string[];
  readonly trustedRoots: readonly string[] | undefined;
  /** The proof cache's directory, or undefined to prove without it. */
  readonly cacheDir: string | undefined;
  /** The entry's `programTimeoutMs`, or undefined for the default. */
  readonly programTimeoutMs?: number | undefined;
}

export type ProveResponse = { readonly verdicts: readonly ProgramVerdict[] } | { readonly error: string };

process.env.CLAUZ3_PROVE_WORKER = "1";

runAsWorker(async (request: ProveRequest): Promise<ProveResponse> => {
  try {
    const ts = require(request.typescript) as typeof TS;
    const host = ts.createCompilerHost(request.options, true);
    host.getCurrentDirectory = () => request.cwd;
    const program = ts.createProgram({ rootNames: [...request.rootNames], options: request.options, host });
    const options = request.trustedRoots ? { trustedRoots: request.trustedRoots } : {};
    const layer = readLayer(ts, program, options);
    const cache = cacheFor(request.cacheDir === undefined ? undefined : new ProofCache(request.cacheDir), ts, program, layer, options);
    const verdicts: ProgramVerdict[] = [];
    for (const name of request.files) {
      const file = program.getSourceFile(name);
      if (!file) return { error: `${name} is not part of the rebuilt program` };
      const proveOptions = request.programTimeoutMs === undefined ? options : { ...options, programTimeoutMs: request.programTimeoutMs };
      verdicts.push(await proveCached({ ts, program, file, options: proveOptions }, layer, cache));
    }
    return { verdicts };
  } catch (error) {
    return { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
});
