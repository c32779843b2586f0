/**
 * Proving through the proof cache (issue 14): a verdict is a pure function of its inputs
 * (key.ts), so a program whose inputs are unchanged gets its stored verdict without a solver call.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import type { LayerResult } from "../layer/read";
import type { ProgramVerdict, ProveOptions } from "../prover/api";
import { proveProgram } from "../prover/prove";
import { lookUp, remember, type CacheUse } from "./lookup";

export { CacheKeys, engineDigest } from "./key";
export { isCacheable, ProofCache, type CacheStats } from "./store";
export { cacheFor, lookUp, remember, type CacheUse, type Lookup } from "./lookup";
export { longestFirst, ProofTimings } from "./timings";
export { TypeCheckState } from "./type-check-state";

/** `proveProgram`, answered from the cache when it holds the verdict, and stored after when final. */
export async function proveCached(input: { ts: TypeScript; program: TS.Program; file: TS.SourceFile; options: ProveOptions }, layer: LayerResult, cache: CacheUse | undefined, proveLayer: LayerResult = layer): Promise<ProgramVerdict> {
  const lookup = lookUp(input.file, cache);
  if (lookup.known) return lookup.known;
  const verdict = await proveProgram(input, proveLayer);
  remember(cache, lookup, verdict);
  return verdict;
}
