/**
 * `check --shard i/n`: which share of the agent programs a shard proves, and which of the other
 * findings it reports, so that the n shards together report the whole project exactly once.
 *
 * A program belongs to shard `1 + (h mod n)`, where h is the first 32 bits of the SHA-256 of its
 * path relative to the project directory (forward slashes). That depends on the path alone: not on
 * the order of files on disk, nor on which other files exist, nor on the machine. The shares are
 * balanced as a hash is (each program lands in any shard with probability 1/n), not exactly.
 * A finding in a program's file goes with that program; every other finding (the trusted layer,
 * manifests, the lock, configuration, modules that are not programs) is reported by shard 1.
 */
import { createHash } from "node:crypto";
import { CliError, EXIT } from "../io";

export interface Shard {
  /** From 1. */
  readonly index: number;
  readonly count: number;
}

/** What a shard's report says of itself, so `merge-reports` can tell its parts apart and check they cover the project. */
export interface ShardInfo extends Shard {
  /** SHA-256 of the sorted paths (as reported) of every program the unsharded run would prove, NUL-separated. */
  readonly project: string;
}

/** `i/n` with 1 ≤ i ≤ n, whole numbers; anything else is a usage error. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) {
    throw new CliError(`clauz3: --shard expects i/n with whole numbers 1 ≤ i ≤ n (e.g. --shard 1/3), not ${JSON.stringify(text)}.`, EXIT.usage);
  }
  return { index, count };
}

/** The shard (from 1) a program belongs to, by its path relative to the project directory. */
export function shardOf(relativePath: string, count: number): number {
  const digest = createHash("sha256").update(relativePath.replace(/\\/g, "/")).digest();
  return 1 + (digest.readUInt32BE(0) % count);
}

/** The digest that names the whole set of programs the shards divide (see ShardInfo.project). */
export function programsDigest(files: readonly string[]): string {
  return createHash("sha256").update([...files].sort().join("\0")).digest("hex");
}
