/**
 * How long each program's proof took last time, kept beside the proof cache
 * (`<cache location>/timings.json`), so that `--jobs` hands the slowest programs out first.
 * Handed out in the order of the files, a slow program that comes late runs on alone while the
 * other workers idle: over the corpus, 105 s against 96 s for two workers.
 *
 * - A timing only orders the proofs: it never decides or changes a verdict. So it is kept with
 *   `--no-cache` too (which is about verdicts), and a file that is corrupt, foreign or written by
 *   the agent can at worst make a run slower.
 * - Keys are paths relative to the project directory (a cache restored into another checkout
 *   still applies); a program whose path is new has no timing and is handed out first.
 * - Reading and writing never fail a run; writes are atomic, and merge with what another run
 *   wrote meanwhile.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { writeAtomically } from "./write";

const FORMAT = "clauz3-proof-timings/1";
/** More programs than any project proves; beyond this the timings not refreshed by this run go first. */
const MAX_ENTRIES = 50_000;

interface TimingsFile {
  readonly format: string;
  readonly programs: Record<string, number>;
}

function read(file: string): Map<string, number> {
  const out = new Map<string, number>();
  try {
    const json = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<TimingsFile> | null;
    if (typeof json !== "object" || json === null || json.format !== FORMAT || typeof json.programs !== "object" || json.programs === null) return out;
    for (const [key, ms] of Object.entries(json.programs)) if (typeof ms === "number" && Number.isFinite(ms) && ms >= 0) out.set(key, ms);
  } catch {
    // absent, unreadable or not JSON: no timings
  }
  return out;
}

export class ProofTimings {
  private readonly known: Map<string, number>;
  private readonly fresh = new Map<string, number>();

  /** Timings of the programs under `projectDir`, kept in `dir` (the proof cache's location). */
  constructor(
    readonly dir: string,
    private readonly projectDir: string,
  ) {
    this.known = read(this.file);
  }

  get file(): string {
    return path.join(this.dir, "timings.json");
  }

  private keyOf(fileName: string): string {
    return path.relative(this.projectDir, fileName).replace(/\\/g, "/");
  }

  /** How long the program took last time, in milliseconds, if it was proved before. */
  estimate(fileName: string): number | undefined {
    const key = this.keyOf(fileName);
    return this.fresh.get(key) ?? this.known.get(key);
  }

  record(fileName: string, ms: number): void {
    this.fresh.set(this.keyOf(fileName), Math.round(ms));
  }

  /** Write this run's timings over what the file holds now (another run may have written it since). */
  save(): void {
    if (this.fresh.size === 0) return;
    const merged = read(this.file);
    for (const [key, ms] of this.fresh) {
      merged.delete(key); // re-inserted last: the oldest entries are the first to go
      merged.set(key, ms);
    }
    const entries = [...merged].slice(-MAX_ENTRIES);
    writeAtomically(this.file, JSON.stringify({ format: FORMAT, programs: Object.fromEntries(entries) } satisfies TimingsFile));
  }
}

/**
 * The order in which to hand out `indices` (of `files`): programs without a timing first, in
 * their order, then the others slowest first (longest-processing-time first, ties in file order).
 */
export function longestFirst(indices: readonly number[], estimate: (i: number) => number | undefined): number[] {
  const unknown = indices.filter((i) => estimate(i) === undefined);
  const known = indices.filter((i) => estimate(i) !== undefined);
  known.sort((a, b) => estimate(b)! - estimate(a)! || a - b);
  return [...unknown, ...known];
}
