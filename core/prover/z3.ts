import { parseSExprs, type SExpr } from "./sexpr";

type LowLevel = Awaited<ReturnType<typeof import("z3-solver").init>>["Z3"];

/** The solver's answer to one query. */
export type SolverAnswer<T> =
  | { readonly status: "sat"; readonly result: T }
  | { readonly status: "unsat" }
  | { readonly status: "unknown"; readonly reason: string };

/** A solver error that is clauz3's fault (malformed query): fail closed, report as refused. */
export class SolverError extends Error {}

/**
 * One warm Z3 per process (wasm `z3-solver`, text interface). Queries run one at a time inside
 * push/pop on a single context; every check runs under an outside watchdog that interrupts Z3,
 * because Z3's own timeout can overshoot.
 */
export class Z3Session {
  private static instance: Promise<Z3Session> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private broken = false;

  private constructor(private readonly z3: LowLevel, private readonly ctx: unknown) {}

  /** The process's warm session (initialised on first use). */
  static get(): Promise<Z3Session> {
    if (!Z3Session.instance) {
      Z3Session.instance = (async () => {
        const { init } = await import("z3-solver");
        const { Z3 } = await init();
        const cfg = Z3.mk_config();
        Z3.set_param_value(cfg, "model", "true");
        const ctx = Z3.mk_context_rc(cfg);
        Z3.del_config(cfg);
        const session = new Z3Session(Z3, ctx);
        await session.send("(set-option :produce-models true)");
        return session;
      })();
      Z3Session.instance.catch(() => (Z3Session.instance = undefined));
    }
    return Z3Session.instance;
  }

  private async send(commands: string): Promise<string> {
    return (this.z3.eval_smtlib2_string as (c: unknown, s: string) => Promise<string>)(this.ctx, commands);
  }

  private async sendChecked(commands: string): Promise<SExpr[]> {
    const out = await this.send(commands);
    if (out.includes("(error ")) throw new SolverError(`Z3 rejected a query: ${out.trim().slice(0, 500)}`);
    return parseSExprs(out);
  }

  /**
   * Check `assertions` under `declarations` in a fresh push/pop scope. When satisfiable, `onSat`
   * may read values from the model (`getValues`) before the scope is popped.
   */
  async query<T>(
    declarations: string,
    assertions: readonly string[],
    timeoutMs: number,
    onSat: (getValues: (terms: readonly string[]) => Promise<SExpr[]>) => Promise<T>,
  ): Promise<SolverAnswer<T>> {
    const run = async (): Promise<SolverAnswer<T>> => {
      if (this.broken) throw new SolverError("the solver session was lost after a watchdog interrupt");
      await this.sendChecked(`(set-option :timeout ${Math.max(1, Math.floor(timeoutMs))})`);
      await this.sendChecked("(push)");
      try {
        const body = `${declarations}\n${assertions.map((a) => `(assert ${a})`).join("\n")}\n(check-sat)`;
        const status = await this.watchdog(this.sendChecked(body), timeoutMs + 1000);
        const answer = status === undefined ? "timeout" : String(status[status.length - 1] ?? "");
        if (answer === "unsat") return { status: "unsat" };
        if (answer !== "sat") return { status: "unknown", reason: answer === "timeout" ? `no answer within ${timeoutMs} ms` : `the solver answered ${answer}` };
        const getValues = async (terms: readonly string[]): Promise<SExpr[]> => {
          if (terms.length === 0) return [];
          const [pairs] = await this.sendChecked(`(get-value (${terms.join(" ")}))`);
          if (!Array.isArray(pairs)) throw new SolverError("unexpected get-value output");
          return pairs.map((p) => (Array.isArray(p) ? p[1]! : p));
        };
        return { status: "sat", result: await onSat(getValues) };
      } finally {
        if (!this.broken) await this.sendChecked("(pop)");
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
      this.z3.interrupt(this.ctx as never);
    } catch {
      /* interrupt is best effort */
    }
    const stopped = await Promise.race([work.then(() => true, () => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
    if (!stopped) this.broken = true;
    return undefined;
  }
}
