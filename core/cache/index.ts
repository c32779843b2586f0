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

/** A program's cache lookup: its stored verdict when there is one, and the key to store a new one under. */
export interface Lookup {
  readonly known?: ProgramVerdict;
  readonly key?: string;
}

/** Look a program up in the cache (nothing when caching is off or its key cannot be computed). */
export function lookUp(file: TS.SourceFile, cache: CacheUse | undefined): Lookup {
  if (!cache) return {};
  let key: string | undefined;
  try {
    key = cache.keys.keyOf(file);
  } catch {
    return {}; // a key that cannot be computed means no caching, never a failed proof
  }
  const known = cache.store.get(key, file.fileName);
  return known ? { known, key } : { key };
}

/** Store a verdict proved after a miss (the store keeps only final verdicts). */
export function remember(cache: CacheUse | undefined, lookup: Lookup, verdict: ProgramVerdict): void {
  if (cache && lookup.key !== undefined) cache.store.put(lookup.key, verdict);
}

/** `proveProgram`, answered from the cache when it holds the verdict, and stored after when final. */
export async function proveCached(input: { ts: TypeScript; program: TS.Program; file: TS.SourceFile; options: ProveOptions }, layer: LayerResult, cache: CacheUse | undefined, proveLayer: LayerResult = layer): Promise<ProgramVerdict> {
  const lookup = lookUp(input.file, cache);
  if (lookup.known) return lookup.known;
  const verdict = await proveProgram(input, proveLayer);
  remember(cache, lookup, verdict);
  return verdict;
}
