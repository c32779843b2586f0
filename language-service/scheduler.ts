/**
 * Background proofs for the editor. tsserver's API is synchronous and the prover is not, so a
 * request for diagnostics either finds the verdict of the program's current content in the cache
 * or starts a proof and shows no verdict yet; when the proof settles and its content is still
 * current, the requester is told (the plugin then calls `project.refreshDiagnostics()`).
 *
 * - Keys are content digests (the program, the agent modules it imports, every trusted file, the
 *   options), so a verdict is only ever shown for the text it was proved on. No key is ever
 *   proved twice at once: a second requester joins the proof.
 * - Every wanted proof runs at once, but the process has one Z3, and each query of a proof waits
 *   for its turn on it (core/prover/turns.ts). Turns are handed out one query at a time:
 *   - a *young* proof (less than {@link YOUNG_MS} of solver time so far: a file just opened or
 *     changed, and every quick proof) goes before an old one, the most recently requested first;
 *   - an old proof's running query is interrupted when a young proof waits (it is asked again
 *     from the start at its next turn); a young one's when a more recently requested young proof
 *     waits and the query has run {@link SLICE_MS}, or when a young proof waits and it has grown old;
 *   - old proofs take turns by least solver time so far, so two slow proofs share the solver and
 *     each waits at most one query of the other.
 *   So a slow program delays another file's verdict by at most one query slice (docs/editor.md).
 *   Whether a running query may be interrupted is looked at again whenever a proof starts waiting
 *   and, while one waits, at the moment the answer could change (computed from the clock each
 *   time: a timer that fires early only looks again later).
 * - The steps of a proof that are not queries (symbolic execution, building query text) run on
 *   the host's thread; between them the proof pauses (`SolverShare.pause`). Paused proofs go on
 *   one step per turn of the event loop (so tsserver's waiting requests run in between), the
 *   most urgent first, in the order turns are handed out.
 * - A new content of a slot (project + file) abandons the slot's stale proof: its waiting query
 *   is cancelled, its running query interrupted in Z3, and its answer never shown. So does an
 *   edit of a file the proof reads, seen at its next pause or turn (`ProofJob.unchanged`):
 *   tsserver re-parses an edited file by moving the nodes of its old tree, which the proof holds.
 * - A proof that spends its editor budget (solver time, not counting queries preempted by other
 *   proofs) is abandoned the same way, and its verdict is the job's `budgetVerdict` (code 93085),
 *   kept for that content like any verdict (proving the same text again would spend the same).
 *   So is one whose symbolic execution of `main` would take more than the job's `hostSteps`:
 *   that runs on this thread in one piece, so without the cap a program with large unrolled loops
 *   would hold the editor for seconds (steps, not time: the same text always stops the same way).
 * - Settled verdicts stay in a bounded cache (undo shows the old verdict at once). A provisional
 *   verdict (an answer the wall clock cut short, not the solver's resource limit) is shown once
 *   and never kept: the next request for that content proves it again.
 */
import type { ProgramVerdict } from "../core/prover/api";
import { ProofAbandoned, type AbandonReason, type SolverShare, type SolverTurn } from "../core/prover/turns";

/** What a settled proof left: a verdict, or the unexpected failure of the prover (shown as an error). */
export type Settled = { readonly verdict: ProgramVerdict } | { readonly error: string };

/** A proof someone wants. */
export interface ProofJob {
  /** Content digest of everything the proof depends on. */
  readonly key: string;
  /** Who wants it: one program file of one project. A newer job of a slot abandons the older one's proof. */
  readonly slot: string;
  /** Runs the proof (called once, later, outside the request that queued it), taking turns through `share`. */
  readonly prove: (share: SolverShare) => Promise<ProgramVerdict>;
  /** Whether the requester still shows this content (a stale proof is skipped, abandoned or not announced). */
  readonly isCurrent: () => boolean;
  /**
   * Whether every file the proof reads is still the version it started on (default: yes). When
   * not, the proof is abandoned as stale at its next pause or turn, and what it settles is dropped.
   */
  readonly unchanged?: () => boolean;
  /** Called when the proof settled and the job is still current. */
  readonly onSettled: () => void;
  /** Solver time (ms) the proof may use before it is abandoned (default: unlimited). */
  readonly budgetMs?: number;
  /** Steps one symbolic execution of `main` may take on this thread (turns.ts `SolverShare.hostSteps`; default: unlimited). */
  readonly hostSteps?: number;
  /** The verdict shown when the proof spent its budget: of solver time, or of steps at once on this thread. */
  readonly budgetVerdict?: (spent: BudgetSpent) => ProgramVerdict;
}

/** Which editor budget a proof spent. */
export type BudgetSpent = { readonly solverMs: number } | { readonly hostSteps: number };

const CACHE_SIZE = 256;
/** Solver time (ms) under which a proof is young: it goes first and preempts old proofs. */
export const YOUNG_MS = 1000;
/**
 * How long (ms) a young proof's query runs before a more recently requested young proof takes the
 * solver from it: short against a person's wait, long against the few milliseconds most queries
 * take, so quick queries end rather than being asked again.
 */
export const SLICE_MS = 100;

/** One query's turn (core/prover/turns.ts). */
class Turn implements SolverTurn {
  readonly started = performance.now();
  stopped = false;
  /** Stopped for another proof (not abandoned): its time is not charged to the budget. */
  preempted = false;
  readonly stop: Promise<void>;
  private release!: () => void;
  private readonly timers: NodeJS.Timeout[] = [];
  /** The pending second look at whether this turn may be interrupted (one at a time). */
  private look: NodeJS.Timeout | undefined;

  constructor(
    readonly proof: Proof,
    private readonly ended: (turn: Turn) => void,
  ) {
    this.stop = new Promise((resolve) => (this.release = resolve));
  }

  get elapsed(): number {
    return performance.now() - this.started;
  }

  /** Take the solver back (the session interrupts the running check). */
  interrupt(preempted: boolean): void {
    if (this.stopped) return;
    this.stopped = true;
    this.preempted = preempted && this.proof.abandoned === undefined;
    this.release();
  }

  after(ms: number, f: () => void): void {
    this.timers.push(setTimeout(f, Math.max(0, ms)));
  }

  /** Call `f` in `ms` (at least 1), replacing the look scheduled before. */
  lookAgain(ms: number, f: () => void): void {
    if (this.look) clearTimeout(this.look);
    this.look = setTimeout(f, Math.max(1, Math.ceil(ms)));
  }

  end(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.length = 0;
    if (this.look) clearTimeout(this.look);
    this.look = undefined;
    this.ended(this);
    if (this.proof.abandoned) throw new ProofAbandoned(this.proof.abandoned);
  }
}

/** A proof in progress: who wants it, how much solver time it has had, and its turn. */
class Proof {
  /** Solver time of all its turns (young or old). */
  attained = 0;
  /** Solver time charged to its budget (turns that were not preempted). */
  charged = 0;
  abandoned: AbandonReason | undefined;
  /** Its query waiting for a turn. */
  wanting: { readonly resolve: (turn: Turn) => void; readonly reject: (error: unknown) => void } | undefined;
  turn: Turn | undefined;
  /** The job whose `prove` runs (its program is the one the proof reads). */
  prover: ProofJob | undefined;
  /** When it was started, when its running step (on the host's thread) began, and the time of its steps so far (for the trace). */
  startedAt = 0;
  stepSince: number | undefined;
  steps = 0;

  constructor(
    readonly key: string,
    readonly jobs: ProofJob[],
    /** When it was last requested (larger: more recent). */
    public requested: number,
    private readonly youngMs: number,
  ) {}

  /** Solver time including the running turn. */
  get used(): number {
    return this.attained + (this.turn?.elapsed ?? 0);
  }

  get young(): boolean {
    return this.used < this.youngMs;
  }

  get budgetMs(): number {
    return this.jobs[0]?.budgetMs ?? Infinity;
  }
}

/** Negative when `a` goes first: young before old; among young the most recently requested; among old the least solver time. */
function urgency(a: Proof, b: Proof): number {
  if (a.young !== b.young) return a.young ? -1 : 1;
  return a.young ? b.requested - a.requested : a.attained - b.attained || b.requested - a.requested;
}

export class ProofScheduler {
  private readonly settled = new Map<string, Settled>();
  /** Keys whose settled verdict is provisional: dropped when first read. */
  private readonly provisional = new Set<string>();
  /** Proofs in progress, by key. */
  private readonly proofs = new Map<string, Proof>();
  /** The turn holding the solver. */
  private running: Turn | undefined;
  private dispatching = false;
  /** Proofs paused between steps, and whether one is about to go on. */
  private readonly paused: { readonly proof: Proof; readonly go: () => void }[] = [];
  private resuming = false;
  private clock = 0;
  /** Number of proofs started (for tests and the bench). */
  started = 0;
  /** Number of queries interrupted for another proof, and of proofs abandoned (for tests and the bench). */
  readonly stats = { preempted: 0, stale: 0, budget: 0, steps: 0 };

  constructor(
    private readonly log: (message: string) => void = () => undefined,
    private readonly trace: (message: string) => void = () => undefined,
    /** {@link YOUNG_MS}; tests make it short. */
    private readonly youngMs = YOUNG_MS,
    /** {@link SLICE_MS}; tests set it. */
    private readonly sliceMs = SLICE_MS,
  ) {}

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

  /** The settled result of the job's key, or `undefined` after starting its proof (or joining the one running). */
  request(job: ProofJob): Settled | undefined {
    const hit = this.peek(job.key);
    // The slot's older content is stale now.
    this.leave(job.slot, job.key);
    if (hit) return hit;
    const known = this.proofs.get(job.key);
    if (known) {
      if (!known.jobs.some((j) => j.slot === job.slot)) known.jobs.push(job);
      known.requested = ++this.clock;
      this.dispatch();
      return undefined;
    }
    const proof = new Proof(job.key, [job], ++this.clock, this.youngMs);
    this.proofs.set(job.key, proof);
    // Start outside the tsserver request that wanted the proof: that request answers first.
    setImmediate(() => this.start(proof));
    return undefined;
  }

  /** Whether a proof is in progress (for tests and the bench). */
  get busy(): boolean {
    return this.proofs.size > 0;
  }

  /** Drop the slot's jobs of other keys; a proof nobody wants any more is abandoned. */
  private leave(slot: string, key: string): void {
    for (const proof of this.proofs.values()) {
      if (proof.key === key || !proof.jobs.some((j) => j.slot === slot)) continue;
      proof.jobs.splice(0, proof.jobs.length, ...proof.jobs.filter((j) => j.slot !== slot));
      if (proof.jobs.length === 0) this.abandon(proof, "stale");
    }
  }

  private start(proof: Proof): void {
    if (proof.abandoned || !proof.jobs.some((j) => j.isCurrent())) {
      this.proofs.delete(proof.key);
      return;
    }
    this.started++;
    proof.startedAt = proof.stepSince = performance.now();
    const hostSteps = proof.jobs[0]?.hostSteps;
    const share: SolverShare = { turn: () => this.turnFor(proof), pause: () => this.pause(proof), ...(hostSteps === undefined ? {} : { hostSteps }) };
    proof.prover = proof.jobs[0]!;
    let work: Promise<ProgramVerdict>;
    try {
      work = proof.prover.prove(share);
    } catch (error) {
      work = Promise.reject(error);
    }
    work
      .then(
        (verdict): Settled | undefined => ({ verdict }),
        (error: unknown): Settled | undefined => {
          if (error instanceof ProofAbandoned) {
            const job = proof.jobs[0];
            if (error.reason === "budget" && job?.budgetVerdict) return { verdict: job.budgetVerdict({ solverMs: proof.budgetMs }) };
            // Thrown by the proof itself (its symbolic execution), not by `abandon`.
            if (error.reason === "steps") this.stats.steps++;
            if (error.reason === "steps" && job?.budgetVerdict && hostSteps !== undefined) return { verdict: job.budgetVerdict({ hostSteps }) };
            return undefined;
          }
          this.log(`proof failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          return { error: error instanceof Error ? error.message : String(error) };
        },
      )
      .then((result) => {
        this.stepEnded(proof);
        if (this.proofs.get(proof.key) === proof) this.proofs.delete(proof.key);
        if (!result) return;
        this.trace(`settled the proof of ${proof.key.split("\0")[0]} after ${(performance.now() - proof.startedAt).toFixed(0)} ms: ${proof.steps.toFixed(0)} ms in its steps on this thread, ${proof.attained.toFixed(0)} ms holding the solver`);
        if (!this.unchanged(proof)) return this.announce(proof);
        this.settled.set(proof.key, result);
        if ("verdict" in result && result.verdict.provisional !== undefined) this.provisional.add(proof.key);
        while (this.settled.size > CACHE_SIZE) {
          const oldest = this.settled.keys().next().value!;
          this.settled.delete(oldest);
          this.provisional.delete(oldest);
        }
        this.announce(proof);
      });
  }

  /** Tell the requesters that still show the proof's content to ask again. */
  private announce(proof: Proof): void {
    for (const job of proof.jobs) {
      try {
        if (job.isCurrent()) job.onSettled();
      } catch (error) {
        this.log(`announcing a proof failed: ${String(error)}`);
      }
    }
  }

  /** Whether the files the proof reads are the versions it started on. */
  private unchanged(proof: Proof): boolean {
    try {
      return proof.prover?.unchanged?.() ?? true;
    } catch (error) {
      this.log(`checking the versions of a proof's files failed: ${String(error)}`);
      return false;
    }
  }

  /**
   * Abandon the proof when nobody shows its content any more or a file it reads changed. In the
   * second case its content may still be shown (a file saved or reloaded with the same text): its
   * requesters are told to ask again, which proves that content afresh on the new program.
   */
  private abandonIfStale(proof: Proof): void {
    if (proof.abandoned) return;
    if (!proof.jobs.some((j) => j.isCurrent())) return this.abandon(proof, "stale");
    if (this.unchanged(proof)) return;
    this.trace(`a file the proof of ${proof.key.split("\0")[0]} reads changed`);
    this.abandon(proof, "stale");
    this.announce(proof);
  }

  /** The proof's step on the host's thread ended (it pauses, waits for a turn, or settled). */
  private stepEnded(proof: Proof): void {
    if (proof.stepSince !== undefined) proof.steps += performance.now() - proof.stepSince;
    proof.stepSince = undefined;
  }

  /** The proof's steps that are not queries pause here: tsserver's waiting requests and more urgent proofs' steps go first. */
  private pause(proof: Proof): Promise<void> {
    this.stepEnded(proof);
    return new Promise<void>((resolve, reject) => {
      this.paused.push({
        proof,
        go: () => {
          this.abandonIfStale(proof);
          if (proof.abandoned) return reject(new ProofAbandoned(proof.abandoned));
          proof.stepSince = performance.now();
          resolve();
        },
      });
      this.resumeNext();
    });
  }

  /** Let the most urgent paused proof take its next step, in the event loop's next turn. */
  private resumeNext(): void {
    if (this.resuming || this.paused.length === 0) return;
    this.resuming = true;
    setImmediate(() => {
      this.resuming = false;
      let best = 0;
      for (let i = 1; i < this.paused.length; i++) if (urgency(this.paused[i]!.proof, this.paused[best]!.proof) < 0) best = i;
      const [next] = this.paused.splice(best, 1);
      next!.go();
      this.resumeNext();
    });
  }

  /** The proof's next query waits here for its turn (the yield point between query slices). */
  private turnFor(proof: Proof): Promise<Turn> {
    this.stepEnded(proof);
    this.abandonIfStale(proof);
    if (proof.abandoned) return Promise.reject(new ProofAbandoned(proof.abandoned));
    return new Promise<Turn>((resolve, reject) => {
      proof.wanting = { resolve, reject };
      this.dispatch();
    });
  }

  /** Stop a proof: its waiting query is rejected, its running query interrupted. */
  private abandon(proof: Proof, reason: AbandonReason): void {
    if (proof.abandoned) return;
    proof.abandoned = reason;
    this.stats[reason]++;
    this.trace(`abandoned the proof of ${proof.key.split("\0")[0]} (${reason}) after ${proof.used.toFixed(0)} ms of solver time`);
    // A stale proof is forgotten now (its content may come back: then it is proved afresh); one out
    // of budget stays until its budget verdict settles, so a request meanwhile joins it.
    if (reason === "stale" && this.proofs.get(proof.key) === proof) this.proofs.delete(proof.key);
    const wanting = proof.wanting;
    proof.wanting = undefined;
    wanting?.reject(new ProofAbandoned(reason));
    if (proof.turn) {
      this.trace(`interrupting the running query of ${proof.key.split("\0")[0]}`);
      proof.turn.interrupt(false);
    }
  }

  /** Decide on the next turn after the current microtasks (a proof's next query is usually asked within them). */
  private dispatch(): void {
    if (this.dispatching) return;
    this.dispatching = true;
    setImmediate(() => {
      this.dispatching = false;
      this.decide();
    });
  }

  private decide(): void {
    const waiting = [...this.proofs.values()].filter((p) => p.wanting && !p.abandoned);
    if (this.running) {
      this.considerPreempting(waiting);
      return;
    }
    if (waiting.length === 0) return;
    waiting.sort(urgency);
    this.grant(waiting[0]!);
  }

  private grant(proof: Proof): void {
    const wanting = proof.wanting!;
    proof.wanting = undefined;
    if (proof.attained === 0) this.trace(`first query of ${proof.key.split("\0")[0]}`);
    const turn = new Turn(proof, (t) => this.ended(proof, t));
    proof.turn = turn;
    this.running = turn;
    const left = proof.budgetMs - proof.charged;
    if (Number.isFinite(left)) turn.after(left, () => this.abandon(proof, "budget"));
    wanting.resolve(turn);
  }

  /**
   * A young proof waiting takes the solver from an old one at once, and from a young one when it
   * was requested more recently and the query has run a slice, or when the holder has grown old.
   * Otherwise, while a young proof waits, look again when that could change. Each look reads the
   * clock afresh: Node's timers count whole milliseconds of the event loop's clock and can fire up
   * to a millisecond before `performance.now()` says their time has passed, so one look set when
   * the holder got the solver could find it still young, and then nothing would look again.
   */
  private considerPreempting(waiting: readonly Proof[]): void {
    const turn = this.running!;
    const holder = turn.proof;
    if (turn.stopped) return;
    const young = waiting.filter((p) => p !== holder && p.young);
    if (young.length === 0) return;
    if (!holder.young) return this.preempt(turn, "a young proof");
    const newer = young.some((p) => p.requested > holder.requested);
    if (newer && turn.elapsed >= this.sliceMs) return this.preempt(turn, "a more recently requested young proof");
    // When it grows old, or (for a newer proof) when its slice ends, whichever comes first.
    const wait = Math.min(this.youngMs - holder.used, newer ? this.sliceMs - turn.elapsed : Infinity);
    turn.lookAgain(wait, () => this.dispatch());
  }

  private preempt(turn: Turn, reason: string): void {
    this.stats.preempted++;
    this.trace(`preempted a query of ${turn.proof.key.split("\0")[0]} after ${turn.elapsed.toFixed(0)} ms for ${reason}`);
    turn.interrupt(true);
  }

  private ended(proof: Proof, turn: Turn): void {
    const elapsed = turn.elapsed;
    // What the proof does next, until it pauses or asks for a turn, is a step on this thread.
    proof.stepSince = performance.now();
    proof.attained += elapsed;
    if (!turn.preempted) proof.charged += elapsed;
    if (proof.turn === turn) proof.turn = undefined;
    if (this.running === turn) this.running = undefined;
    this.dispatch();
  }
}
