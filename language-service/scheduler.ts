/**
 * Background proofs for the editor. tsserver's API is synchronous and the prover is not, so a
 * request for diagnostics either finds the verdict of the program's current content in the cache
 * or queues a proof and shows no verdict yet; when the proof settles and its content is still
 * current, the requester is told (the plugin then calls `project.refreshDiagnostics()`).
 *
 * - Keys are content digests (the program, the agent modules it imports, every trusted file, the
 *   options), so a verdict is only ever shown for the text it was proved on.
 * - One proof runs at a time per process (the Z3 session is one per process anyway); a waiting
 *   proof is replaced when its slot (project + file) asks for newer content, so a burst of edits
 *   proves only the latest text. No key is ever proved twice at once.
 * - Settled verdicts stay in a bounded cache (undo shows the old verdict at once). A provisional
 *   verdict (an answer the wall clock cut short, not the solver's resource limit) is shown once
 *   and never kept: the next request for that content proves it again.
 */
import type { ProgramVerdict } from "../core/prover/api";

/** What a settled proof left: a verdict, or the unexpected failure of the prover (shown as an error). */
export type Settled = { readonly verdict: ProgramVerdict } | { readonly error: string };

/** A proof someone wants. */
export interface ProofJob {
  /** Content digest of everything the proof depends on. */
  readonly key: string;
  /** Who wants it: one program file of one project. A newer job of a slot replaces its waiting one. */
  readonly slot: string;
  /** Runs the proof (called once, later, outside the request that queued it). */
  readonly prove: () => Promise<ProgramVerdict>;
  /** Whether the requester still shows this content (a stale proof is skipped or not announced). */
  readonly isCurrent: () => boolean;
  /** Called when the proof settled and the job is still current. */
  readonly onSettled: () => void;
}

interface Running {
  readonly key: string;
  readonly jobs: ProofJob[];
}

const CACHE_SIZE = 256;

export class ProofScheduler {
  private readonly settled = new Map<string, Settled>();
  /** Keys whose settled verdict is provisional: dropped when first read. */
  private readonly provisional = new Set<string>();
  private readonly waiting = new Map<string, ProofJob>();
  private running: Running | undefined;
  /** Number of proofs started (for tests and the bench). */
  started = 0;

  constructor(private readonly log: (message: string) => void = () => undefined) {}

  /** The settled result of `key`, if any (refreshing its place in the cache). */
  peek(key: string): Settled | undefined {
    const hit = this.settled.get(key);
    if (hit) {
      this.settled.delete(key);
      if (this.provisional.delete(key)) return hit;
      this.settled.set(key, hit);
    }
    return hit;
  }

  /** The settled result of the job's key, or `undefined` after queueing the proof (or joining the running one). */
  request(job: ProofJob): Settled | undefined {
    const hit = this.peek(job.key);
    if (hit) {
      this.waiting.delete(job.slot);
      return hit;
    }
    if (this.running?.key === job.key) {
      if (!this.running.jobs.some((j) => j.slot === job.slot)) this.running.jobs.push(job);
      this.waiting.delete(job.slot);
      return undefined;
    }
    const queued = this.waiting.get(job.slot);
    if (queued?.key !== job.key) this.waiting.set(job.slot, job);
    this.pump();
    return undefined;
  }

  /** Whether a proof is running or waiting (for tests and the bench). */
  get busy(): boolean {
    return this.running !== undefined || this.waiting.size > 0;
  }

  private pump(): void {
    if (this.running) return;
    for (const [slot, job] of this.waiting) {
      this.waiting.delete(slot);
      if (!job.isCurrent()) continue;
      if (this.settled.has(job.key)) {
        job.onSettled();
        continue;
      }
      // Others waiting for the same content join this proof.
      const jobs = [job];
      for (const [s, other] of this.waiting) {
        if (other.key === job.key) {
          jobs.push(other);
          this.waiting.delete(s);
        }
      }
      this.start({ key: job.key, jobs });
      return;
    }
  }

  private start(running: Running): void {
    this.running = running;
    this.started++;
    const first = running.jobs[0]!;
    // Start outside the tsserver request that queued the proof: that request answers first.
    setImmediate(() => {
      let work: Promise<ProgramVerdict>;
      try {
        work = first.prove();
      } catch (error) {
        work = Promise.reject(error);
      }
      work
        .then(
          (verdict): Settled => ({ verdict }),
          (error: unknown): Settled => {
            this.log(`proof failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
            return { error: error instanceof Error ? error.message : String(error) };
          },
        )
        .then((result) => {
          this.settled.set(running.key, result);
          if ("verdict" in result && result.verdict.provisional !== undefined) this.provisional.add(running.key);
          while (this.settled.size > CACHE_SIZE) {
            const oldest = this.settled.keys().next().value!;
            this.settled.delete(oldest);
            this.provisional.delete(oldest);
          }
          this.running = undefined;
          for (const job of running.jobs) {
            try {
              if (job.isCurrent()) job.onSettled();
            } catch (error) {
              this.log(`announcing a proof failed: ${String(error)}`);
            }
          }
          this.pump();
        });
    });
  }
}
