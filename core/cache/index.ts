/**
 * Proving through the proof cache (issue 14): a verdict is a pure function of its inputs
 * (key.ts), so a program whose inputs are unchanged gets its stored verdict without a solver call.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import type { LayerResult } from "../layer/read";
import type { ProgramVerdict, ProveOptions } from "../prover/api";
import { proveProgram } from "../prover/prove";
import { CacheKeys } from "./key";
import { ProofCache } from "./store";

export { CacheKeys, engineDigest } from "./key";
export { isCacheable, ProofCache, type CacheStats } from "./store";

/** A cache and the keys of one TypeScript program's agent programs. */
export interface CacheUse {
  readonly store: ProofCache;
  readonly keys: CacheKeys;
}

/** The cache use for one TypeScript program, or undefined when caching is off (`store` undefined). */
export function cacheFor(store: ProofCache | undefined, ts: TypeScript, program: TS.Program, layer: LayerResult, options: ProveOptions): CacheUse | undefined {
  return store ? { store, keys: new CacheKeys({ ts, program, layer, options }) } : undefined;
}

/** `proveProgram`, answered from the cache when it holds the verdict, and stored after when final. */
export async function proveCached(input: { ts: TypeScript; program: TS.Program; file: TS.SourceFile; options: ProveOptions }, layer: LayerResult, cache: CacheUse | undefined, proveLayer: LayerResult = layer): Promise<ProgramVerdict> {
  if (!cache) return proveProgram(input, proveLayer);
  let key: string | undefined;
  try {
    key = cache.keys.keyOf(input.file);
  } catch {
    key = undefined; // a key that cannot be computed means no caching, never a failed proof
  }
  const known = key === undefined ? undefined : cache.store.get(key, input.file.fileName);
  if (known) return known;
  const verdict = await proveProgram(input, proveLayer);
  if (key !== undefined) cache.store.put(key, verdict);
  return verdict;
}
