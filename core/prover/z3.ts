import * as fs from "node:fs";
import * as path from "node:path";
import { parseSExprs, type SExpr } from "./sexpr";

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
 * One warm Z3 per process (wasm `z3-solver`). Queries run one at a time on a single solver inside
 * push/pop; formulas are parsed from SMT-LIB text with the synchronous parser, checked with the
 * asynchronous `solver_check` under an outside watchdog that interrupts Z3 (its own timeout can
 * overshoot). The text command interface (`eval_smtlib2_string`) is not used: its wasm binding
 * passes the command string on the stack to another thread, which races with the next call.
 */
export class Z3Session {
  private static instance: Promise<Z3Session> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private broken = false;

  private constructor(private readonly z3: LowLevel, private readonly ctx: never, private readonly solver: never) {}

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
        const solver = Z3.mk_solver(ctx);
        Z3.solver_inc_ref(ctx, solver);
        return new Z3Session(Z3, ctx as never, solver as never);
      })();
      Z3Session.instance.catch(() => (Z3Session.instance = undefined));
    }
    return Z3Session.instance;
  }

  private parse(script: string): unknown[] {
    const { z3, ctx } = this;
    let vec: ReturnType<LowLevel["parse_smtlib2_string"]>;
    try {
      vec = z3.parse_smtlib2_string(ctx, script, [], [], [], []);
    } catch (error) {
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
   * Check `assertions` under `declarations` in a fresh push/pop scope. When satisfiable, `onSat`
   * may read values from the model (`getValues`) before the scope is popped.
   */
  async query<T>(
    declarations: string,
    assertions: readonly string[],
    timeoutMs: number,
    onSat: (getValues: (terms: readonly { term: string; sort: ValueSort }[]) => Promise<SExpr[]>) => Promise<T>,
  ): Promise<SolverAnswer<T>> {
    const run = async (): Promise<SolverAnswer<T>> => {
      if (this.broken) throw new SolverError("the solver session was lost after a watchdog interrupt");
      const { z3, ctx, solver } = this;
      const params = z3.mk_params(ctx);
      z3.params_inc_ref(ctx, params);
      z3.params_set_uint(ctx, params, z3.mk_string_symbol(ctx, "timeout"), Math.max(1, Math.floor(timeoutMs)));
      z3.solver_set_params(ctx, solver, params);
      z3.params_dec_ref(ctx, params);
      z3.solver_push(ctx, solver);
      const owned: unknown[] = [];
      const text = `${declarations}\n${assertions.map((a) => `(assert ${a})`).join("\n")}`;
      const started = performance.now();
      let dumped = "error";
      try {
        const formulas = this.parse(text);
        owned.push(...formulas);
        for (const f of formulas) z3.solver_assert(ctx, solver, f as never);
        const status = await this.watchdog(z3.solver_check(ctx, solver), timeoutMs + 1000);
        dumped = status === undefined ? "timeout" : status === -1 ? "unsat" : status === 1 ? "sat" : "unknown";
        if (status === undefined) return { status: "unknown", reason: `no answer within ${timeoutMs} ms` };
        if (status === -1) return { status: "unsat" };
        if (status !== 1) return { status: "unknown", reason: `the solver answered unknown (${z3.solver_get_reason_unknown(ctx, solver)})` };
        const model = z3.solver_get_model(ctx, solver);
        z3.model_inc_ref(ctx, model);
        try {
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
        dump(text, dumped, performance.now() - started);
        for (const a of owned) z3.dec_ref(ctx, a as never);
        if (!this.broken) z3.solver_pop(ctx, solver, 1);
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Race a solver call against a timer; on timeout interrupt Z3 and wait for it to stop. */
  private async watchdog<R>(work: Promise<R>, ms: number): Promise<R | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
    const winner = await Promise.race([work, timeout]);
    clearTimeout(timer);
    if (winner !== "timeout") return winner;
    try {
      this.z3.solver_interrupt(this.ctx, this.solver);
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
/** `CLAUZ3_DUMP_SMT=<dir>`: write each query as a standalone .smt2 file with its answer and time. */
function dump(text: string, status: string, ms: number): void {
  const dir = process.env.CLAUZ3_DUMP_SMT;
  if (!dir) return;
  try {
    fs.mkdirSync(dir, { recursive: true });
    const name = `q${process.pid}-${String(dumpCounter++).padStart(5, "0")}.smt2`;
    fs.writeFileSync(path.join(dir, name), `(set-option :encoding bmp)\n${text}\n(check-sat)\n; status: ${status}\n; elapsed-ms: ${ms.toFixed(1)}\n`);
  } catch {
    /* dumping is best effort */
  }
}
