import { queryProblem, Z3_MEMORY_MB, type QueryLimits } from "./limits";
import { dump, type Trace } from "./query-dump";
import { skeletonOf } from "./abstraction";
import { groundOf } from "./grounding";
import { DEEP_STEP_LIMIT, readIntervals } from "./intervals";
import { prunedDisjuncts } from "./disjuncts";
import { formulate, MalformedQuery, type Formulations } from "./formulations";
import { FIRST_SLICE, GROUND_MAX, GROUND_SHARE, GROWTH, SKELETON_SLICE, type Attempt, type Formulation } from "./attempts";
import type { SolverTurn } from "./turns";
import { initZ3 } from "./z3-load";
import { answerFromGuess, DEEP_GUESS_BUDGET } from "./z3-guess";
import { runAttempt, runSkeleton, type AttemptHost } from "./z3-attempt";
import type { GetValues } from "./z3-model";
import { unreachedDeclarations } from "./theories";
import { guardThreads, SolverStderr, type SolverThreads } from "./z3-threads";
import { MEMORY_CAP, SLICE_OVER, type SolverAnswer } from "./z3-answers";
import { closeScope, engine, isInstanceFailure, openScope, parse, parseKept, SolverError, type Instance, type Scope } from "./z3-scope";

export { SolverError };
export type { GetValues, ValueSort } from "./z3-model";
export type { SolverAnswer } from "./z3-answers";

/**
 * One warm Z3 per process (wasm `z3-solver`). Queries run one at a time, each in a fresh context;
 * formulas are parsed from SMT-LIB text with the synchronous parser and checked with the
 * asynchronous `solver_check`. The text command interface (`eval_smtlib2_string`) is not used:
 * its wasm binding passes the command string on the stack to another thread, which races with the
 * next call.
 *
 * Each query goes to the solvers that suit the theories its text uses (`attemptsFor`). When there
 * are several attempts (for example the original and the regular-expression formulation of a
 * string query), they take turns with resource slices that grow fourfold each round until one
 * answers `sat` or `unsat` or the query's resource limit is spent; `unknown` only ever ends as
 * `unknown`. Work is counted by Z3's resource counter, so the answer and the model do not depend
 * on the machine's load. An outside watchdog interrupts Z3 at the query's wall-clock backstop; an
 * answer it cut short says so (`wallClock`) and is never final.
 *
 * Limits: a query beyond the text limits (`queryProblem`) is unknown before Z3 sees it; Z3's
 * memory is capped (`memory_max_size`); and when the wasm instance fails (a trap, a stack
 * overflow, a lost interrupt) it is dropped and the next query starts a fresh one.
 */
export class Z3Session {
  private static instance: Promise<Z3Session> | undefined;
  /** Added to every seed: the bench proves the corpus under several bases to find heavy tails. */
  static seedBase = 0;
  /** Z3's memory cap in MB, applied to each wasm instance when it starts (tests lower it). */
  static memoryMb = Z3_MEMORY_MB;
  /** Test-only fault injection: called before every check; whatever it throws is thrown there. */
  static beforeCheck: (() => void) | undefined;
  /** Test-only fault injection: the watchdog's interrupt is not delivered, as when Z3 ignores it. */
  static dropInterrupts = false;
  /** Whether queries are tried with ranges first (intervals.ts); tests turn it off to ask Z3 itself. */
  static intervals = true;
  /** Whether satisfiable queries are first tried with a guessed model (guess/search.ts); tests turn it off to ask Z3 itself. */
  static guesses = true;
  /** Whether queries are simplified before any attempt (simplify.ts); tests turn it off to ask Z3 the text as written. */
  static simplifies = true;
  /** Whether integral floating point is restated over integers (float-floors.ts); tests turn it off to ask the original. */
  static floors = true;
  /** Test-only fault injection: called once a check runs, with the threads running it. */
  static whileChecking: ((threads: SolverThreads) => void) | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** The wasm instance; replaced after it failed. */
  private z3: Promise<Instance> | undefined;
  /** How many wasm instances this session has started (1 until one failed). */
  instances = 0;

  private constructor() {}

  /** The process's warm session (initialised on first use). */
  static get(): Promise<Z3Session> {
    if (!Z3Session.instance) {
      Z3Session.instance = (async () => {
        const session = new Z3Session();
        await session.instance();
        return session;
      })();
      Z3Session.instance.catch(() => (Z3Session.instance = undefined));
    }
    return Z3Session.instance;
  }

  /** The current wasm instance, started (and warmed up with one context) on first use. */
  private instance(): Promise<Instance> {
    if (!this.z3) {
      this.instances++;
      const started = (async (): Promise<Instance> => {
        const stderr = new SolverStderr();
        const { Z3, em } = await initZ3({ printErr: stderr.printErr });
        const threads = guardThreads(em, stderr);
        // A thread that dies while no check runs still ends the instance: the next query starts a fresh one.
        threads.crashed.catch(() => {
          if (this.z3 === started) this.retire();
        });
        // Characters are UTF-16 code units, as JavaScript sees strings: restrict Z3's alphabet to the BMP range.
        Z3.global_param_set("encoding", "bmp");
        Z3.global_param_set("memory_max_size", String(Z3Session.memoryMb));
        const instance = { z3: Z3, threads };
        const scope = openScope(instance);
        engine(scope, "general");
        Z3.del_context(scope.ctx);
        return instance;
      })();
      started.catch(() => (this.z3 = undefined));
      this.z3 = started;
    }
    return this.z3;
  }

  /**
   * Drop the wasm instance: nothing it says can be trusted any more; the next query starts a fresh
   * one. Its threads are killed, so a check that ignored its interrupt stops using a core.
   */
  private retire(): void {
    const retired = this.z3;
    this.z3 = undefined;
    retired?.then(
      (instance) => instance.threads.terminate(),
      () => undefined,
    );
  }

  /** What one check needs from the session (z3-attempt.ts), read when the check starts. */
  private host(): AttemptHost {
    return {
      retire: () => this.retire(),
      seedBase: Z3Session.seedBase,
      memoryMb: Z3Session.memoryMb,
      beforeCheck: Z3Session.beforeCheck,
      whileChecking: Z3Session.whileChecking,
      dropInterrupts: Z3Session.dropInterrupts,
    };
  }

  /**
   * Check `assertions` under `declarations` within `limits`. When satisfiable, `onSat` may read
   * values from the model (`getValues`) before the solver moves on.
   *
   * With `limits.share` (turns.ts) the query first waits for its proof's turn; when the turn is
   * stopped before the query answered, Z3 is interrupted and the query is asked again from the
   * start at the proof's next turn (or throws `ProofAbandoned` when the proof was abandoned).
   */
  async query<T>(
    declarations: string,
    assertions: readonly string[],
    limits: QueryLimits,
    onSat: (getValues: GetValues) => Promise<T>,
  ): Promise<SolverAnswer<T>> {
    const share = limits.share;
    if (!share) return this.queued(declarations, assertions, limits, onSat, undefined);
    for (;;) {
      const turn = await share.turn();
      let answer: SolverAnswer<T>;
      try {
        answer = await this.queued(declarations, assertions, limits, onSat, turn);
      } catch (error) {
        turn.end(); // throws ProofAbandoned instead when the proof was abandoned
        throw error;
      }
      turn.end();
      // Only an answer the stop cut short is asked again; one that came first stands.
      if (!(turn.stopped && answer.status === "unknown" && answer.wallClock)) return answer;
    }
  }

  /** One run of a query, after the queries before it in this session. */
  private queued<T>(
    declarations: string,
    assertions: readonly string[],
    limits: QueryLimits,
    onSat: (getValues: GetValues) => Promise<T>,
    turn: SolverTurn | undefined,
  ): Promise<SolverAnswer<T>> {
    const run = async (): Promise<SolverAnswer<T>> => {
      const text = `${declarations}\n${assertions.map((a) => `(assert ${a})`).join("\n")}`;
      // Sizes first: neither the parsers nor Z3 see a query they cannot read in bounded time and stack.
      const problem = queryProblem(text);
      if (problem) return { status: "unknown", reason: problem };
      const instance = await this.instance();
      // The query's own context, opened when an attempt first needs it: a query the ranges or a
      // guess answer needs none.
      let scope: Scope | undefined;
      const open = (): Scope => (scope ??= openScope(instance));
      // A new context for the attempts after a first try that ran out (`solve`).
      const renew = (): Scope => {
        const old = scope;
        scope = openScope(instance); // first: the `finally` below deletes whichever is current
        if (old) closeScope(old);
        return scope;
      };
      const started = performance.now();
      const trace: Trace | undefined = process.env.CLAUZ3_DUMP_SMT ? { lines: [] } : undefined;
      let status = "error";
      let spent = 0;
      try {
        const answer = await this.solve(instance, open, renew, text, limits, started, onSat, trace, (used) => (spent += used), turn);
        status = answer.status === "unknown" ? `unknown (${answer.reason})` : answer.status;
        // After Z3 ran out of memory its wasm heap stays at the cap: start afresh.
        if (answer.status === "unknown" && answer.reason.startsWith(MEMORY_CAP)) this.retire();
        return { ...answer, used: spent };
      } catch (error) {
        if (isInstanceFailure(error)) {
          this.retire();
          throw new SolverError(`the solver failed (${String((error as Error).message).slice(0, 200)}); a new solver is started for the next query`);
        }
        throw error;
      } finally {
        if (trace) dump(text, trace, status, performance.now() - started, spent);
        try {
          if (scope && this.z3 && (await this.z3) === instance) closeScope(scope);
        } catch {
          this.retire();
        }
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The attempts of one query, in turns, until an answer, the resource limit or the backstop. */
  private async solve<T>(
    instance: Instance,
    /** The query's context, opened on first use. */
    open: () => Scope,
    /** Deletes the query's context and opens another one. */
    renew: () => Scope,
    written: string,
    limits: QueryLimits,
    started: number,
    onSat: (getValues: GetValues) => Promise<T>,
    trace: Trace | undefined,
    charge: (used: number) => void,
    held: SolverTurn | undefined,
    /** The query over-approximates (the ground query): only its `unsat` is believed, and a `sat` ends it unread. */
    abstract = false,
    /** Its refuted disjuncts were left out already (disjuncts.ts). */
    pruned = false,
  ): Promise<SolverAnswer<T>> {
    let formulated: Formulations;
    try {
      formulated = formulate(written, trace, Z3Session.simplifies, Z3Session.floors, abstract);
    } catch (error) {
      if (error instanceof MalformedQuery) throw new SolverError(error.message);
      throw error;
    }
    // From here on the query is its simplified text (formulations.ts), an equivalent one.
    const { text, asWritten, asserted, lifting, theories, attempts, regexText, wordsText } = formulated;
    // Ranges first (intervals.ts): a bound over float or integer arithmetic, or string lengths, that
    // they settle needs no solver (bank/fee_arith_pass: 1.5 s of bit-blasted multiplication, 0.1 ms
    // of ranges; a subject built from a literal is never empty; a check whose conditions are all
    // constant, `(and true (not true))`, which costs Z3 a context and a check all the same).
    const firstRead = Z3Session.intervals ? readIntervals(asWritten) : "open";
    if (firstRead === "refuted") {
      trace?.lines.push("intervals: unsat");
      return { status: "unsat" };
    }
    // Ranges that ran out of steps read the query once more, deeper, when Z3 did not answer it within its first slice.
    let deepTried = firstRead !== "out of steps";
    const tryDeep = (): boolean => {
      deepTried = true;
      const refuted = readIntervals(asWritten, DEEP_STEP_LIMIT) === "refuted";
      trace?.lines.push(`intervals with ${DEEP_STEP_LIMIT} steps: ${refuted ? "unsat" : "open"}`);
      return refuted;
    };
    // The declarations no assertion reaches, for reading models (attempt's `getValues`): computed once, when a model is read.
    let unreached: ReadonlySet<string> | undefined;
    const free = (): ReadonlySet<string> => (unreached ??= unreachedDeclarations(asWritten));
    // The guesser next (guess/search.ts): a satisfiable query answered by a model Z3 only
    // evaluates, with no check (a string check costs several milliseconds of theory set-up) and no
    // context of the query's own.
    // A guess that spent its budget is tried once more, deeper, when Z3's first slice ran out.
    let deepGuess = false;
    if (Z3Session.guesses && !theories.quantifiers) {
      const answer = await answerFromGuess(instance, text, asWritten, asserted, free, onSat, trace);
      if (answer === "budget") deepGuess = true;
      else if (answer) return answer;
    }
    let scope = open();
    // Z3 reads the text as written only when an attempt solves it or a model is checked against
    // it: a string query that its reformulation answers unsat never needs it (about 1.5 ms a query).
    let parsedOriginal: unknown[] | undefined;
    const original = (): readonly unknown[] => {
      if (!parsedOriginal) {
        // Into the scope's kept parser context: a model is read against its declarations (`getValues`).
        parsedOriginal = parseKept(scope, text, asserted);
      }
      return parsedOriginal;
    };
    const formulas = new Map<Formulation, readonly unknown[] | undefined>();
    const formulasOf = (f: Formulation): readonly unknown[] | undefined => {
      if (!formulas.has(f) && f === "original") formulas.set(f, lifting ? parse(scope, lifting.text) : original());
      if (!formulas.has(f)) {
        const reformulated = f === "regex" ? regexText() : wordsText();
        let parsed: unknown[] | undefined;
        try {
          parsed = reformulated === undefined ? undefined : parse(scope, reformulated);
        } catch (error) {
          if (isInstanceFailure(error)) throw error;
          trace?.lines.push(`${f} formulation rejected: ${String(error).slice(0, 200)}`);
          parsed = undefined; // a reformulation Z3 rejects is skipped; the original still runs
        }
        formulas.set(f, parsed);
      }
      return formulas.get(f);
    };
    let live = attempts.filter((a) => (a.formulation === "regex" ? regexText() : a.formulation === "words" ? wordsText() : text) !== undefined);
    // Fallbacks wait until only they are left.
    const turn = (): Attempt[] => (live.some((a) => !a.fallback) ? live.filter((a) => !a.fallback) : live);
    const deadline = started + limits.backstopMs;
    const reasons: string[] = [];
    let spent = 0;
    // The skeleton of the query as written (abstraction.ts): when it is unsat, so is the query. It
    // is tried once, after the first attempt that ran out of its slice (not counting the one-time
    // first try): an easy query never pays for it (over the async corpus, most skeletons are
    // satisfiable and cost more than they save).
    let skeletonTried = !(theories.fp || theories.strings);
    const trySkeleton = async (): Promise<SolverAnswer<T> | undefined> => {
      skeletonTried = true;
      const skeleton = skeletonOf(asWritten);
      if (skeleton === undefined) return undefined;
      const end = await runSkeleton(this.host(), scope, skeleton, Math.min(limits.rlimit - spent, SKELETON_SLICE), deadline, trace, held?.stop);
      spent += end.used;
      charge(end.used);
      if (end.kind === "wallClock") return { status: "unknown", reason: held?.stopped ? "the scheduler took the solver back" : (limits.backstopReason ?? `the query reached its wall-clock backstop of ${limits.backstopMs} ms`), wallClock: true };
      if (end.kind === "none" && end.reason.startsWith(MEMORY_CAP)) return { status: "unknown", reason: end.reason };
      return end.kind === "answer" ? { status: "unsat" } : undefined;
    };
    // The ground query (grounding.ts): a query with quantifiers has only the general solver, which
    // often cannot settle floating point; without its quantified formulas the query goes to the
    // quantifier-free engines. Its `unsat` is the query's; tried once, after the first slice ran out.
    let groundTried = !theories.quantifiers;
    const tryGround = async (): Promise<SolverAnswer<T> | undefined> => {
      groundTried = true;
      const ground = groundOf(asWritten);
      if (ground === undefined) return undefined;
      const sub: Trace | undefined = trace ? { lines: [] } : undefined;
      const charged = (used: number): void => {
        spent += used;
        charge(used);
      };
      // Its models are never read: the quantified formulas may not hold in them.
      const answer = await this.aside(instance, ground, { ...limits, rlimit: Math.min(limits.rlimit - spent, Math.floor(limits.rlimit * GROUND_SHARE), GROUND_MAX) }, started, async () => undefined as never, sub, charged, held, true, false);
      trace?.lines.push(`ground query: ${answer.status === "unknown" ? `unknown (${answer.reason})` : answer.status === "sat" ? "sat (not read)" : "unsat"}${sub ? ` [${sub.lines.join(" | ")}]` : ""}`);
      if (answer.status === "unsat") return { status: "unsat" };
      if (answer.status === "unknown" && (answer.wallClock || answer.reason.startsWith(MEMORY_CAP))) return answer;
      return undefined;
    };
    // Without the disjuncts the ranges refute on their own (disjuncts.ts): an equisatisfiable query
    // whose models are the query's, asked in its place with what is left, once the first slice ran out.
    let pruneTried = pruned || !Z3Session.intervals;
    const tryPruned = async (): Promise<SolverAnswer<T> | undefined> => {
      pruneTried = true;
      const rest = prunedDisjuncts(asWritten);
      if (rest === undefined) return undefined;
      trace?.lines.push(`ranges refuted ${rest.dropped} of ${rest.of} disjuncts; the others asked alone`);
      const charged = (used: number): void => {
        spent += used;
        charge(used);
      };
      return this.aside(instance, rest.text, { ...limits, rlimit: limits.rlimit - spent }, started, onSat, trace, charged, held, abstract, true);
    };
    for (let round = 0; live.length > 0; round++) {
      const takers = turn();
      for (const attempt of takers) {
        if (held?.stopped) return { status: "unknown", reason: "the scheduler took the solver back", wallClock: true };
        const attemptFormulas = formulasOf(attempt.formulation);
        if (attemptFormulas === undefined) {
          live = live.filter((a) => a.formulation !== attempt.formulation);
          continue;
        }
        const left = limits.rlimit - spent;
        if (left < 1) {
          const others = [...new Set(reasons)].filter((r) => r !== SLICE_OVER);
          return { status: "unknown", reason: `no answer within the resource limit of ${limits.rlimit} units${others.length > 0 ? ` (${others.join("; ")})` : ""}; raise it with --rlimit <units>` };
        }
        // A lone attempt takes all that is left, but a query with quantifiers keeps room for its ground query.
        const alone = takers.filter((a) => a.once === undefined).length === 1 && groundTried;
        const slice = attempt.once !== undefined ? Math.min(Math.ceil(left / 2), attempt.once) : alone ? left : Math.min(left, FIRST_SLICE * GROWTH ** round);
        const end = await runAttempt(this.host(), scope, attempt, attemptFormulas, original, !lifting, !theories.quantifiers, slice, deadline, round, free, onSat, trace, held?.stop, lifting?.restore, abstract);
        spent += end.used;
        charge(end.used);
        if (end.kind === "wallClock") {
          if (held?.stopped) return { status: "unknown", reason: "the scheduler took the solver back", wallClock: true };
          return { status: "unknown", reason: limits.backstopReason ?? `the query reached its wall-clock backstop of ${limits.backstopMs} ms`, wallClock: true };
        }
        if (end.kind === "none") {
          if (end.reason.startsWith(MEMORY_CAP)) return { status: "unknown", reason: end.reason };
          reasons.push(end.reason);
          if (!deepTried && (end.reason === SLICE_OVER || attempt.once !== undefined || limits.rlimit - spent < 1) && tryDeep()) return { status: "unsat" };
          if (deepGuess && !abstract && (end.reason === SLICE_OVER || attempt.once !== undefined || limits.rlimit - spent < 1)) {
            deepGuess = false;
            const guessed = await answerFromGuess(instance, text, asWritten, asserted, free, onSat, trace, DEEP_GUESS_BUDGET);
            if (guessed && guessed !== "budget") return guessed;
          }
          // Only a resource slice that ran out is worth a larger one; other unknowns are final for the attempt.
          if (attempt.once !== undefined) {
            live = live.filter((a) => a !== attempt);
            // The attempts after it get a context of their own, as if the first try had not been:
            // the terms it created would number theirs differently, and that alone took one
            // query's words attempt from 353 000 resource units to 601 000.
            scope = renew();
            formulas.clear();
            parsedOriginal = undefined;
          } else if (end.reason !== SLICE_OVER) live = live.filter((a) => a !== attempt);
          else if (limits.rlimit - spent > 0) {
            // Each once, after a slice ran out: the query without the disjuncts the ranges refute
            // (when there are some: it answers in the query's place), then its skeleton, and the
            // next time its ground query.
            const pruned = pruneTried ? undefined : await tryPruned();
            if (pruned) return pruned;
            if (!skeletonTried) {
              const settled = await trySkeleton();
              if (settled) return settled;
            } else if (!groundTried) {
              const settled = await tryGround();
              if (settled) return settled;
            }
          }
          continue;
        }
        return end.answer;
      }
    }
    return { status: "unknown", reason: [...new Set(reasons)].join("; ") };
  }

  /** `solve` of another query (the ground query, the query without refuted disjuncts) in a context of its own, deleted after. */
  private async aside<T>(
    instance: Instance,
    text: string,
    limits: QueryLimits,
    started: number,
    onSat: (getValues: GetValues) => Promise<T>,
    trace: Trace | undefined,
    charge: (used: number) => void,
    held: SolverTurn | undefined,
    abstract: boolean,
    pruned: boolean,
  ): Promise<SolverAnswer<T>> {
    let own: Scope | undefined;
    const open = (): Scope => (own ??= openScope(instance));
    const renew = (): Scope => {
      const old = own;
      own = openScope(instance);
      if (old) closeScope(old);
      return own;
    };
    try {
      return await this.solve(instance, open, renew, text, limits, started, onSat, trace, charge, held, abstract, pruned);
    } finally {
      if (own) closeScope(own);
    }
  }
}
