/**
 * The whole-run cache of `clauz3 check` (docs/cache.md, "A run nothing changed"). A warm proof
 * cache saves the solver, but a warm `check` still loaded TypeScript, parsed and bound the project
 * and read the layer: 3 s for a corpus the solver proves in 50. A run is a function of its
 * arguments, the code that runs it and what it reads, so `check` records what it read
 * (fs-trace.ts) and stores its output under a key of its arguments; the next run with the same
 * key checks that every read answers the same (every file's content, every path's existence,
 * every directory's entries, every module resolution) and that the same code is loaded, and then
 * writes the stored output instead of doing the work.
 *
 * Stored only when the run's verdicts are all final (isCacheable) and recording followed every
 * read. Proofs made in worker threads are trusted as the proof cache trusts them, by their keys,
 * which this thread computed from what it read. Entries are checked like the proof cache's: a
 * malformed, foreign or edited entry is ignored, and written again by the next full run.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { sha256Hex as sha256 } from "../lock/digest";
import { firstChange, loadedModules, type Observation, type Recording, type Resolution } from "./fs-trace";
import { writeAtomically } from "./write";

export const RUN_CACHE_FORMAT = "clauz3-run-cache/1";

/** At most this many stored runs per cache (the oldest go first): each is one command line's. */
const KEEP = 16;

/** What a run wrote, in order: the caller replays it. */
export interface RunOutput {
  /** What went to stdout (`out`) and stderr (`err`), in the order it was written. */
  readonly writes: readonly (readonly ["out" | "err", string])[];
  /** `-o`: the report file and its text. */
  readonly file?: { readonly path: string; readonly text: string };
  readonly code: number;
}

interface Body {
  /** The modules loaded before the run began, each with a digest of its file. */
  readonly modules: readonly (readonly [string, string])[];
  readonly observations: readonly Observation[];
  readonly resolutions: readonly Resolution[];
  readonly output: RunOutput;
}

interface Entry {
  readonly format: string;
  readonly key: string;
  /** SHA-256 of `JSON.stringify(body)`. */
  readonly digest: string;
  readonly body: Body;
}

/** What a run's key is made of besides the process's own facts (Node, platform, arguments of Node). */
export interface RunKeyInput {
  readonly command: string;
  readonly cwd: string;
  /** The command's arguments and options as parsed, and whatever else decides its output (terminals, colour). */
  readonly arguments: unknown;
}

/** The environment variables a run's key covers: Node's options and clauz3's own. */
function environment(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (value !== undefined && (name === "NODE_OPTIONS" || name.startsWith("CLAUZ3_"))) out[name] = value;
  }
  return out;
}

export function runKey(input: RunKeyInput): string {
  return sha256(
    JSON.stringify({
      format: RUN_CACHE_FORMAT,
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      execArgv: process.execArgv,
      // Relative paths a run reads are relative to the process's directory (the command's `cwd` may differ when embedded).
      processDirectory: process.cwd(),
      environment: environment(),
      ...input,
    }),
  );
}

const isString = (x: unknown): x is string => typeof x === "string";
const isTuple = (x: unknown, n: number): x is unknown[] => Array.isArray(x) && x.length === n;

function isBody(value: unknown): value is Body {
  const b = value as Partial<Body> | null;
  if (typeof b !== "object" || b === null || !Array.isArray(b.modules) || !Array.isArray(b.observations) || !Array.isArray(b.resolutions)) return false;
  if (!b.modules.every((m) => isTuple(m, 2) && m.every(isString))) return false;
  if (!b.observations.every((o) => isTuple(o, 3) && isString(o[0]) && Array.isArray(o[1]) && isString(o[1][0]) && isString(o[2]))) return false;
  if (!b.resolutions.every((r) => isTuple(r, 4) && isString(r[0]) && (r[1] === null || isString(r[1])) && isString(r[3]))) return false;
  const o = b.output as Partial<RunOutput> | undefined;
  if (typeof o !== "object" || o === null || !Array.isArray(o.writes) || ![0, 1, 2].includes(o.code as number)) return false;
  if (!o.writes.every((w) => isTuple(w, 2) && (w[0] === "out" || w[0] === "err") && isString(w[1]))) return false;
  return o.file === undefined || (typeof o.file === "object" && o.file !== null && isString(o.file.path) && isString(o.file.text));
}

export class RunCache {
  /** `dir` holds the entries (created on the first write). */
  constructor(readonly dir: string) {}

  /** The stored runs of a proof cache directory: its `runs/`. */
  static in(cacheDir: string): RunCache {
    return new RunCache(path.join(cacheDir, "runs"));
  }

  private fileOf(key: string): string {
    return path.join(this.dir, `${key}.json`);
  }

  /**
   * The stored output of the run `key` names, when one is stored, whole and ours, this process
   * loaded the same code as that run, and every read of that run answers the same now.
   */
  replay(key: string, startup: readonly string[]): RunOutput | undefined {
    let entry: Partial<Entry> | null;
    try {
      entry = JSON.parse(fs.readFileSync(this.fileOf(key), "utf8")) as Partial<Entry> | null;
    } catch {
      return undefined;
    }
    if (typeof entry !== "object" || entry === null || entry.format !== RUN_CACHE_FORMAT || entry.key !== key || !isBody(entry.body)) return undefined;
    if (entry.digest !== sha256(JSON.stringify(entry.body))) return undefined;
    const body = entry.body;
    // The same code: the modules this process started with are those the stored run started with, unchanged.
    const recorded = new Map(body.modules.map(([file, digest]) => [file, digest]));
    if (startup.length !== recorded.size || !startup.every((f) => recorded.has(f))) return undefined;
    const now = new Map(loadedModules(startup));
    if (body.modules.some(([file, digest]) => now.get(file) !== digest)) return undefined;
    return firstChange(body) === undefined ? body.output : undefined;
  }

  /** Store a run: only one recording followed entirely (the caller decides whether its verdicts are final). */
  store(key: string, startup: readonly string[], recording: Recording, output: RunOutput): boolean {
    if (recording.spoiled !== undefined) return false;
    const body: Body = { modules: loadedModules(startup), observations: recording.observations, resolutions: recording.resolutions, output };
    const entry: Entry = { format: RUN_CACHE_FORMAT, key, digest: sha256(JSON.stringify(body)), body };
    const written = writeAtomically(this.fileOf(key), JSON.stringify(entry));
    if (written) this.prune(key);
    return written;
  }

  /** Keep the `KEEP` most recent entries. */
  private prune(kept: string): void {
    try {
      const entries = fs
        .readdirSync(this.dir)
        .filter((f) => /^[0-9a-f]{64}\.json$/.test(f) && f !== `${kept}.json`)
        .map((f) => ({ f, t: fs.statSync(path.join(this.dir, f)).mtimeMs }))
        .sort((a, b) => b.t - a.t);
      for (const { f } of entries.slice(KEEP - 1)) fs.rmSync(path.join(this.dir, f), { force: true });
    } catch {
      /* a cache that cannot be pruned only takes more room */
    }
  }
}
