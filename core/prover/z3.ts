import * as fs from "node:fs";
import * as path from "node:path";
import { parseSExprs, type SExpr } from "./sexpr";
import { analyse, parseCommands, regexFormulation, wordFormulation, type Theories } from "./tactics";

type LowLevel = Awaited<ReturnType<typeof import("z3-solver").init>>["Z3"];

/** The solver's answer to one query. */
export type SolverAnswer<T> =
  | { readonly status: "sat"; readonly result: T }
  | { readonly status: "unsat" }
  | { readonly status: "unknown"; readonly reason: string };

/** A solver error that is clauz3's fault (malformed query): fail closed, report as refused. */
export class SolverError extends Error {}

/** The sorts a model value can be read as. */
export type ValueSort = "String" | "Float64" | "Bool" | "Int";
const SORTS: Record<ValueSort, string> = { String: "String", Float64: "(_ FloatingPoint 11 53)", Bool: "Bool", Int: "Int" };

/**
 * The solvers of a session, all in one context:
 * - `general`: Z3's default solver: the SMT core with every theory.
 * - `fp`: bit-blasting for floating point and Booleans only — `fpa2bv` turns IEEE operations into
 *   bit-vector circuits, `bit-blast` and `aig` into a compressed propositional formula, `sat`
 *   decides it. Complete and exact for that fragment (no approximation steps), and orders of
 *   magnitude faster than the SMT core's lazy floating-point theory on sums and products.
 * - `fpMixed`: the same translation to a propositional formula for the floating-point part,
 *   followed by the SMT core for the rest, for floating point next to strings, integers or
 *   functions (not conversions between floats and other sorts).
 * Every solver is reset after each attempt: an answer depends only on the query's text (and the
 * time it is given), never on the queries before it. Reusing the general solver with push/pop
 * was about 10% faster over the corpus, but Z3 keeps random state and caches across pops, which
 * made the time of one string query vary from 40 ms to over 20 s with what came before it.
 */
type EngineName = "general" | "fp" | "fpMixed";
const TACTICS: Record<Exclude<EngineName, "general">, readonly string[]> = {
  fp: ["simplify", "propagate-values", "fpa2bv", "propagate-values", "simplify", "bit-blast", "aig", "sat"],
  fpMixed: ["simplify", "propagate-values", "fpa2bv", "propagate-values", "simplify", "bit-blast", "aig", "smt"],
};

/** `words`: the original with literal prefixes and suffixes as substring equations. */
type Formulation = "original" | "regex" | "words";
interface Attempt {
  readonly engine: EngineName;
  readonly formulation: Formulation;
}

/** The first time slice of each attempt when a query has several; each round multiplies it by 4. */
const FIRST_SLICE_MS = 100;
const SLICE_OVER = "time slice over";
/** The regular-expression formulation is dropped when it is this much larger than the original. */
const REGEX_GROWTH = 8;

/**
 * The attempts for a query's theories, in order. Every attempt is exact for the query: its `unsat`
 * is an `unsat` of the query (engines never approximate; formulations are equivalences), and a
 * `sat` from anything but the general solver on the original text is checked by evaluating the
 * original assertions in the model before it is believed.
 */
export function attemptsFor(t: Theories): Attempt[] {
  if (t.other || t.quantifiers) return [{ engine: "general", formulation: "original" }];
  // Strings: the regular-expression formulation first (over the corpus it settles most string
  // queries fastest), then the word equations, then the original. None of the three dominates:
  // a negated 24-character prefix took 1.3 s as written and 20 ms as an equation, while the same
  // equation over a concatenation of two inputs did not finish in 20 s and the original took 0.6 s.
  const formulations: Formulation[] = t.strings ? ["regex", "words", "original"] : ["original"];
  if (t.fp && !t.fpConversion) {
    if (!t.strings && !t.arithmetic && !t.functions) return [{ engine: "fp", formulation: "original" }];
    return [...formulations.map((formulation) => ({ engine: "fpMixed" as const, formulation })), { engine: "general", formulation: "original" }];
  }
  return formulations.map((formulation) => ({ engine: "general" as const, formulation }));
}

/** One query's record for `CLAUZ3_DUMP_SMT`. */
interface Trace {
  readonly lines: string[];
  regex?: string;
  words?: string;
}

/**
 * One warm Z3 per process (wasm `z3-solver`). Queries run one at a time; formulas are parsed from
 * SMT-LIB text with the synchronous parser, checked with the asynchronous `solver_check` under an
 * outside watchdog that interrupts Z3 (its own timeout can overshoot). The text command interface
 * (`eval_smtlib2_string`) is not used: its wasm binding passes the command string on the stack to
 * another thread, which races with the next call.
 *
 * Each query goes to the solvers that suit the theories its text uses (`attemptsFor`). When there
 * are several attempts (for example the original and the regular-expression formulation of a
 * string query), they take turns with time slices that grow fourfold each round until one answers
 * `sat` or `unsat` or the query's time is up; `unknown` and timeouts only ever end as `unknown`.
 */
export class Z3Session {
  private static instance: Promise<Z3Session> | undefined;
  /** Added to every seed: the bench proves the corpus under several bases to find heavy tails. */
  static seedBase = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private broken = false;
  private readonly engines = new Map<EngineName, unknown>();
  /** The solver the current check runs on (for the watchdog's interrupt). */
  private running: unknown;

  private constructor(private readonly z3: LowLevel, private readonly ctx: never) {}

  /** The process's warm session (initialised on first use). */
  static get(): Promise<Z3Session> {
    if (!Z3Session.instance) {
      Z3Session.instance = (async () => {
        const { init } = await import("z3-solver");
        const { Z3 } = await init();
        // Characters are UTF-16 code units, as JavaScript sees strings: restrict Z3's alphabet to the BMP range.
        Z3.global_param_set("encoding", "bmp");
        const cfg = Z3.mk_config();
        Z3.set_param_value(cfg, "model", "true");
        const ctx = Z3.mk_context_rc(cfg);
        Z3.del_config(cfg);
        const session = new Z3Session(Z3, ctx as never);
        session.engine("general");
        return session;
      })();
      Z3Session.instance.catch(() => (Z3Session.instance = undefined));
    }
    return Z3Session.instance;
  }

  /** The solver of an engine, created on first use and kept for the session. */
  private engine(name: EngineName): never {
    const { z3, ctx } = this;
    let solver = this.engines.get(name);
    if (!solver) {
      if (name === "general") solver = z3.mk_solver(ctx);
      else {
        const tactics = TACTICS[name].map((t) => {
          const tactic = z3.mk_tactic(ctx, t);
          z3.tactic_inc_ref(ctx, tactic);
          return tactic;
        });
        let chain = tactics[0]!;
        for (const next of tactics.slice(1)) {
          const both = z3.tactic_and_then(ctx, chain, next);
          z3.tactic_inc_ref(ctx, both);
          chain = both;
        }
        solver = z3.mk_solver_from_tactic(ctx, chain);
      }
      z3.solver_inc_ref(ctx, solver as never);
      this.engines.set(name, solver);
    }
    return solver as never;
  }

  private parse(script: string): unknown[] {
    const { z3, ctx } = this;
    let vec: ReturnType<LowLevel["parse_smtlib2_string"]>;
    try {
      vec = z3.parse_smtlib2_string(ctx, script, [], [], [], []);
    } catch (error) {
      if (error instanceof RangeError || (error instanceof Error && error.constructor.name === "RuntimeError")) {
        // Not Z3 rejecting the text: the wasm instance itself failed (memory). Nothing it says
        // can be trusted any more; the next caller gets a fresh session.
        this.broken = true;
        Z3Session.instance = undefined;
        throw new SolverError(`the solver failed while reading a query (${String((error as Error).message)}); a new solver will be started`);
      }
      const m = /line (\d+) column/.exec(String(error));
      const line = m ? script.split("\n")[Number(m[1]) - 1] : undefined;
      throw new SolverError(`Z3 rejected a query: ${String((error as Error).message ?? error).slice(0, 300)}${line ? ` at: ${line.slice(0, 300)}` : ""}`);
    }
    z3.ast_vector_inc_ref(ctx, vec);
    try {
      const n = z3.ast_vector_size(ctx, vec);
      const out: unknown[] = [];
      for (let i = 0; i < n; i++) {
        const a = z3.ast_vector_get(ctx, vec, i);
        z3.inc_ref(ctx, a);
        out.push(a);
      }
      return out;
    } finally {
      z3.ast_vector_dec_ref(ctx, vec);
    }
  }

  /**
   * Check `assertions` under `declarations`. When satisfiable, `onSat` may read values from the
   * model (`getValues`) before the solver moves on.
   */
  async query<T>(
    declarations: string,
    assertions: readonly string[],
    timeoutMs: number,
    onSat: (getValues: (terms: readonly { term: string; sort: ValueSort }[]) => Promise<SExpr[]>) => Promise<T>,
  ): Promise<SolverAnswer<T>> {
    const run = async (): Promise<SolverAnswer<T>> => {
      if (this.broken) throw new SolverError("the solver session was lost after a watchdog interrupt");
      const text = `${declarations}\n${assertions.map((a) => `(assert ${a})`).join("\n")}`;
      const started = performance.now();
      const trace: Trace | undefined = process.env.CLAUZ3_DUMP_SMT ? { lines: [] } : undefined;
      let status = "error";
      const owned: unknown[] = [];
      try {
        const original = this.parse(text);
        owned.push(...original);
        let commands: SExpr[];
        try {
          commands = parseCommands(text);
        } catch (error) {
          throw new SolverError(`the query is malformed: ${(error as Error).message}`);
        }
        // Z3's parser lets some truncated input pass without an error: every assertion of the text must have been read.
        const asserted = commands.filter((c) => Array.isArray(c) && c[0] === "assert").length;
        if (asserted !== original.length) throw new SolverError(`Z3 read ${original.length} of the query's ${asserted} assertions`);
        const theories = analyse(commands);
        const attempts = attemptsFor(theories);
        // The reformulated text is cheap to compute; Z3 parses it only when its turn comes.
        let regexText: string | undefined;
        if (attempts.some((a) => a.formulation === "regex")) {
          try {
            regexText = regexFormulation(commands, REGEX_GROWTH * text.length + 10_000);
          } catch (error) {
            trace?.lines.push(`regex formulation failed: ${String(error).slice(0, 200)}`);
          }
          if (trace && regexText !== undefined) trace.regex = regexText;
        }
        const wordsText = attempts.some((a) => a.formulation === "words") ? wordFormulation(commands) : undefined;
        if (trace && wordsText !== undefined) trace.words = wordsText;
        const formulas = new Map<Formulation, unknown[] | undefined>([["original", original]]);
        const formulasOf = (f: Formulation): unknown[] | undefined => {
          if (!formulas.has(f)) {
            const reformulated = f === "regex" ? regexText : wordsText;
            let parsed: unknown[] | undefined;
            try {
              parsed = reformulated === undefined ? undefined : this.parse(reformulated);
              if (parsed) owned.push(...parsed);
            } catch (error) {
              trace?.lines.push(`${f} formulation rejected: ${String(error).slice(0, 200)}`);
              parsed = undefined; // a reformulation Z3 rejects is skipped; the original still runs
            }
            formulas.set(f, parsed);
          }
          return formulas.get(f);
        };
        let live = attempts.filter((a) => (a.formulation === "regex" ? regexText : a.formulation === "words" ? wordsText : text) !== undefined);
        const deadline = started + timeoutMs;
        const reasons: string[] = [];
        for (let round = 0; live.length > 0; round++) {
          for (const attempt of live) {
            const attemptFormulas = formulasOf(attempt.formulation);
            if (attemptFormulas === undefined) {
              live = live.filter((a) => a.formulation !== attempt.formulation);
              continue;
            }
            const left = deadline - performance.now();
            if (left < 1) {
              status = "timeout";
              const others = [...new Set(reasons)].filter((r) => r !== SLICE_OVER);
              return { status: "unknown", reason: others.length > 0 ? `no answer within ${timeoutMs} ms (${others.join("; ")})` : `no answer within ${timeoutMs} ms` };
            }
            const slice = live.length === 1 ? left : Math.min(left, FIRST_SLICE_MS * 4 ** round);
            const answer = await this.attempt(attempt, attemptFormulas, original, !theories.quantifiers, Math.max(1, Math.floor(slice)), round, declarations, onSat, owned, trace);
            if (answer === "lost") {
              status = "timeout";
              return { status: "unknown", reason: `no answer within ${timeoutMs} ms` };
            }
            if (typeof answer === "string") {
              reasons.push(answer);
              // Only a time slice that ran out is worth a longer one; other unknowns are final for the attempt.
              if (answer !== SLICE_OVER) live = live.filter((a) => a !== attempt);
              continue;
            }
            status = answer.status;
            return answer;
          }
        }
        status = "unknown";
        return { status: "unknown", reason: [...new Set(reasons)].join("; ") };
      } finally {
        if (trace) dump(text, trace, status, performance.now() - started);
        for (const a of owned) this.z3.dec_ref(this.ctx, a as never);
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * One attempt: the formulas on one engine for at most `ms`. Returns the answer, a reason string
   * when there is none (unknown, time slice over, unconfirmed model), or "lost" when the watchdog
   * had to interrupt Z3.
   */
  private async attempt<T>(
    attempt: Attempt,
    formulas: readonly unknown[],
    original: readonly unknown[],
    /** Evaluate the original assertions in a model before believing it (not for quantified queries, whose evaluation is unreliable). */
    confirm: boolean,
    ms: number,
    seed: number,
    declarations: string,
    onSat: (getValues: (terms: readonly { term: string; sort: ValueSort }[]) => Promise<SExpr[]>) => Promise<T>,
    owned: unknown[],
    trace: Trace | undefined,
  ): Promise<SolverAnswer<T> | string | "lost"> {
    const { z3, ctx } = this;
    const solver = this.engine(attempt.engine);
    const params = z3.mk_params(ctx);
    z3.params_inc_ref(ctx, params);
    z3.params_set_uint(ctx, params, z3.mk_string_symbol(ctx, "timeout"), ms);
    // Each round of a query's time slices starts afresh; another seed makes it a different try
    // rather than a longer replay of the last one (solving times are heavy-tailed).
    z3.params_set_uint(ctx, params, z3.mk_string_symbol(ctx, "random_seed"), Z3Session.seedBase + seed);
    z3.solver_set_params(ctx, solver, params);
    z3.params_dec_ref(ctx, params);
    const started = performance.now();
    let checked: number | undefined;
    let outcome = "error";
    try {
      for (const f of formulas) z3.solver_assert(ctx, solver, f as never);
      this.running = solver;
      const status = await this.watchdog(z3.solver_check(ctx, solver), ms + 1000);
      this.running = undefined;
      checked = performance.now();
      if (status === undefined) {
        outcome = "lost";
        return "lost";
      }
      if (status === -1) {
        outcome = "unsat";
        return { status: "unsat" };
      }
      if (status !== 1) {
        const why = z3.solver_get_reason_unknown(ctx, solver);
        outcome = `unknown (${why})`;
        return why === "timeout" || why === "canceled" ? SLICE_OVER : `the solver answered unknown (${why})`;
      }
      const model = z3.solver_get_model(ctx, solver);
      z3.model_inc_ref(ctx, model);
      try {
        // Every model is checked against the original text when it can be evaluated, including the
        // general solver's on the original: a counterexample is shown to a person, so it must be one.
        const confirmed = !confirm && attempt.engine === "general" && formulas === original;
        const holds = (f: unknown): boolean => {
          const value = z3.model_eval(ctx, model, f as never, true);
          return value !== null && z3.get_bool_value(ctx, value) === 1;
        };
        if (!confirmed && !original.every(holds)) {
          outcome = "sat, model not confirmed";
          return `a model from ${attempt.engine}/${attempt.formulation} did not satisfy the query`;
        }
        outcome = "sat";
        let probe = 0;
        const getValues = async (terms: readonly { term: string; sort: ValueSort }[]): Promise<SExpr[]> => {
          if (terms.length === 0) return [];
          // Each term is read as the right-hand side of an equation with a fresh probe constant.
          const names = terms.map(() => `probe!${probe++}`);
          const script = `${declarations}\n${terms.map((t, i) => `(declare-const ${names[i]} ${SORTS[t.sort]})\n(assert (= ${names[i]} ${t.term}))`).join("\n")}`;
          const eqs = this.parse(script);
          owned.push(...eqs);
          return eqs.map((eq) => {
            const term = z3.get_app_arg(ctx, eq as never, 1);
            const value = z3.model_eval(ctx, model, term, true);
            if (value === null) throw new SolverError("the model has no value for a term");
            const [parsed] = parseSExprs(z3.ast_to_string(ctx, value));
            return parsed!;
          });
        };
        return { status: "sat", result: await onSat(getValues) };
      } finally {
        z3.model_dec_ref(ctx, model);
      }
    } finally {
      const check = checked === undefined ? "" : ` (check ${(checked - started).toFixed(1)} ms)`;
      trace?.lines.push(`${attempt.engine}/${attempt.formulation} ≤${ms} ms: ${outcome} in ${(performance.now() - started).toFixed(1)} ms${check}`);
      if (!this.broken) z3.solver_reset(ctx, solver);
    }
  }

  /** Race a solver call against a timer; on timeout interrupt Z3 and wait for it to stop. */
  private async watchdog<R>(work: Promise<R>, ms: number): Promise<R | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
    const winner = await Promise.race([work, timeout]);
    clearTimeout(timer);
    if (winner !== "timeout") return winner;
    try {
      this.z3.solver_interrupt(this.ctx, this.running as never);
    } catch {
      /* interrupt is best effort */
    }
    const stopped = await Promise.race([work.then(() => true, () => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
    if (!stopped) {
      this.broken = true;
      Z3Session.instance = undefined; // the next caller gets a fresh session
    }
    return undefined;
  }
}

let dumpCounter = 0;
/**
 * `CLAUZ3_DUMP_SMT=<dir>`: write each query as a standalone .smt2 file (declarations, assertions,
 * `(check-sat)`) with the answer, the elapsed time and the attempts in comments at the end, and
 * the regular-expression formulation, when one was tried, next to it (`…-regex.smt2`).
 */
function dump(text: string, trace: Trace, status: string, ms: number): void {
  const dir = process.env.CLAUZ3_DUMP_SMT;
  if (!dir) return;
  try {
    fs.mkdirSync(dir, { recursive: true });
    const name = `q${process.pid}-${String(dumpCounter++).padStart(5, "0")}`;
    const comments = [`; status: ${status}`, `; elapsed-ms: ${ms.toFixed(1)}`, ...trace.lines.map((l) => `; attempt: ${l}`)].join("\n");
    fs.writeFileSync(path.join(dir, `${name}.smt2`), `(set-option :encoding bmp)\n${text}\n(check-sat)\n${comments}\n`);
    if (trace.regex) fs.writeFileSync(path.join(dir, `${name}-regex.smt2`), `(set-option :encoding bmp)\n${trace.regex}\n(check-sat)\n`);
    if (trace.words) fs.writeFileSync(path.join(dir, `${name}-words.smt2`), `(set-option :encoding bmp)\n${trace.words}\n(check-sat)\n`);
  } catch {
    /* dumping is best effort */
  }
}
