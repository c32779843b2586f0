/**
 * `check`'s whole-run cache as the command uses it (core/cache/runs.ts): record from the first
 * read, replay a stored run when nothing it read changed, else capture what the run writes and
 * store it when every verdict is final. `--no-cache` turns it off with the proof cache, and so
 * does `CLAUZ3_DUMP_SMT` (a run asked to write its queries must run them).
 */
import * as path from "node:path";
import { moduleFiles, startRecording, type RecordingHandle } from "../core/cache/fs-trace";
import { isWithin } from "../core/paths";
import { RunCache, runKey, type RunKeyInput, type RunOutput } from "../core/cache/runs";
import type { CacheFlags } from "./options";
import type { Io } from "./io";
import { writeAtomically } from "./format/write";

/**
 * z3-solver's package: a run's output depends on the solver only through its verdicts, which are
 * final (or the run is not stored) and keyed in the proof cache by the solver's version.
 */
function solverFiles(): string[] {
  try {
    return [path.dirname(path.dirname(require.resolve("z3-solver")))];
  } catch {
    return [];
  }
}

export class RunRecorder {
  private cache: RunCache | undefined;
  private key: string | undefined;
  private outputFile: string | undefined;
  private readonly writes: ["out" | "err", string][] = [];
  private file: { path: string; text: string } | undefined;

  private constructor(
    private readonly startup: readonly string[],
    private readonly recording: RecordingHandle,
    private excluded: readonly string[] = [],
  ) {}

  /** Start recording before the command's first read; undefined when the cache is off. */
  static start(flags: CacheFlags): RunRecorder | undefined {
    if (flags.cache === false || process.env.CLAUZ3_DUMP_SMT) return undefined;
    const startup = moduleFiles();
    let self: RunRecorder | undefined;
    const recording = startRecording({ excluded: () => self?.excluded ?? [], writable: () => (self?.outputFile ? [self.outputFile] : []) });
    self = new RunRecorder(startup, recording);
    return self;
  }

  /**
   * The stored output of this run, when the cache in `cacheDir` holds it and nothing it read
   * changed; the cache's own files are not reads of the run (their keys vouch for them), nor is
   * the report file.
   */
  lookUp(cacheDir: string, input: RunKeyInput, outputFile: string | undefined): RunOutput | undefined {
    this.excluded = [cacheDir, ...solverFiles()];
    this.outputFile = outputFile;
    this.cache = RunCache.in(cacheDir);
    this.key = runKey(input);
    const cache = this.cache;
    const key = this.key;
    const stored = this.recording.aside(() => cache.replay(key, this.startup));
    if (stored) this.recording.stop();
    return stored;
  }

  /** `io` with what the report writes captured for the store. */
  tee(io: Io): Io {
    return {
      ...io,
      stdout: (text) => {
        this.writes.push(["out", text]);
        io.stdout(text);
      },
      stderr: (text) => {
        this.writes.push(["err", text]);
        io.stderr(text);
      },
    };
  }

  /** The report file `-o` wrote. */
  wroteFile(path: string, text: string): void {
    this.file = { path, text };
  }

  /**
   * End the run: stored when `final` (every verdict final), recording followed every read, and it
   * saw each of `inputs` read (the program's source files, the manifests, the lock: a reader
   * holding its own copy of `fs` would read unseen; none does, and this makes sure).
   */
  finish(code: number, final: boolean, inputs: readonly string[]): void {
    const recording = this.recording.stop();
    if (!final || !this.cache || this.key === undefined) return;
    const read = new Set(recording.observations.filter((o) => o[0] === "readFileSync").map((o) => path.resolve(o[1][0] as string)));
    if (inputs.some((f) => !read.has(path.resolve(f)) && !this.excluded.some((d) => isWithin(d, path.resolve(f))))) return;
    this.cache.store(this.key, this.startup, recording, { writes: this.writes, ...(this.file ? { file: this.file } : {}), code });
  }

  /** Stop recording without storing (the command failed). */
  abandon(): void {
    this.recording.stop();
  }
}

/** Write a stored run's output as the run wrote it; its exit code. */
export function replayRun(io: Io, output: RunOutput): number {
  if (output.file) writeAtomically(output.file.path, output.file.text);
  for (const [stream, text] of output.writes) (stream === "out" ? io.stdout : io.stderr)(text);
  return output.code;
}
