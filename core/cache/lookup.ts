/**
 * Cache lookups without the prover (core/gate loads the prover only when a program must be
 * proved: a build with `"prove": false` never loads it).
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import type { LayerResult } from "../layer/read";
import type { ProgramVerdict, ProveOptions } from "../prover/api";
import { CacheKeys, decisiveOptions } from "./key";
import type { ProofCache } from "./store";

/** A cache and the keys of one TypeScript program's agent programs. */
export interface CacheUse {
  readonly store: ProofCache;
  readonly keys: CacheKeys;
}

/** The keys made for a TypeScript program, by layer and decisive options: a program's keys are computed once however often it is looked up. */
const keysMade = new WeakMap<TS.Program, { layer: LayerResult; decisive: string; keys: CacheKeys }[]>();

/** The cache use for one TypeScript program, or undefined when caching is off (`store` undefined). */
export function cacheFor(store: ProofCache | undefined, ts: TypeScript, program: TS.Program, layer: LayerResult, options: ProveOptions): CacheUse | undefined {
  if (!store) return undefined;
  const decisive = JSON.stringify(decisiveOptions(options));
  const made = keysMade.get(program) ?? [];
  let entry = made.find((e) => e.layer === layer && e.decisive === decisive);
  if (!entry) {
    entry = { layer, decisive, keys: new CacheKeys({ ts, program, layer, options }) };
    keysMade.set(program, [...made, entry]);
  }
  return { store, keys: entry.keys };
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

