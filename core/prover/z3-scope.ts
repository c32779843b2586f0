/**
 * One query's Z3 objects (`Scope`): its context, the solvers of its engines, and the formulas parsed
 * into it; and what a wasm instance failure looks like. z3.ts runs the queries.
 */
import { SolverThreadCrash, type SolverThreads } from "./z3-threads";
import { TACTICS, type EngineName } from "./attempts";
import { endOfQuoted } from "./sexpr";

export type LowLevel = Awaited<ReturnType<typeof import("z3-solver").init>>["Z3"];

/** A solver error that is clauz3's fault (malformed query): fail closed, report as refused. */
export class SolverError extends Error {}

/** One wasm instance: its API and its threads. */
export interface Instance {
  readonly z3: LowLevel;
  readonly threads: SolverThreads;
  /** The context guessed models are confirmed and read in (`evaluationScope`). */
  evaluation?: Scope;
}

/**
 * The instance's evaluation context, created on first use and kept as long as the instance: a
 * guessed model (z3-guess.ts) is only parsed, built and evaluated, never solved, so what the context
 * held before cannot change its answer, and a query answered so needs no context of its own
 * (creating and deleting one costs about 2.5 ms in wasm, more than most such queries).
 */
export function evaluationScope(instance: Instance): Scope {
  return (instance.evaluation ??= openScope(instance));
}

/** One query's Z3 objects: its context, its solvers, and the terms it holds. */
export interface Scope {
  readonly z3: LowLevel;
  readonly threads: SolverThreads;
  readonly ctx: never;
  readonly engines: Map<EngineName, unknown>;
  /** The parser context the query as written was read into (`parseKept`), kept for reading models. */
  kept?: Kept;
}

/** A parser context that holds the query's declarations, and what was read into it since. */
interface Kept {
  readonly pc: never;
  /** Declarations made after the query was built, already sent (each may be sent once). */
  readonly sent: Set<string>;
  /** Probe constants declared so far: each read names its own. */
  probes: number;
  /** Reads so far: each names its Float64 literals apart (`internFloats`). */
  reads: number;
  /** A parse failed: the context may hold half of it (Z3 keeps a failed parse's assertions), so it is not used again. */
  broken: boolean;
  /** The terms read into it, each with a reference (`releaseKept` drops them in a context that lives on). */
  readonly refs: unknown[];
}

/** Whether an exception comes from the wasm instance itself (a trap, its stack, its memory), not from Z3 reporting an error. */
export function isInstanceFailure(error: unknown): boolean {
  return error instanceof RangeError || error instanceof SolverThreadCrash || (error instanceof Error && (error.constructor.name === "RuntimeError" || /out of memory|memory access out of bounds|unreachable/i.test(error.message)));
}

/** A fresh context for one query, with model generation on. */
export function openScope({ z3, threads }: Instance): Scope {
  const cfg = z3.mk_config();
  z3.set_param_value(cfg, "model", "true");
  const ctx = z3.mk_context_rc(cfg) as never;
  z3.del_config(cfg);
  return { z3, threads, ctx, engines: new Map() };
}

/** The solver of an engine in a query's context, created on first use. */
export function engine(scope: Scope, name: EngineName): never {
  const { z3, ctx } = scope;
  let solver = scope.engines.get(name);
  if (!solver) {
    if (name === "general") solver = z3.mk_solver(ctx);
    else if (name === "core") solver = z3.mk_simple_solver(ctx);
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
    scope.engines.set(name, solver);
  }
  return solver as never;
}

/** Delete a scope's context, and the parser context kept in it first (it holds terms of the context). */
export function closeScope(scope: Scope): void {
  const { z3, ctx, kept } = scope;
  scope.kept = undefined;
  if (kept) z3.parser_context_dec_ref(ctx, kept.pc);
  z3.del_context(ctx);
}

/**
 * Drop the kept parser context and every term read into it, leaving the context itself: for the
 * instance's evaluation context (`evaluationScope`), which lives as long as the instance.
 */
export function releaseKept(scope: Scope): void {
  const { z3, ctx, kept } = scope;
  if (!kept) return;
  scope.kept = undefined;
  for (const t of kept.refs) z3.dec_ref(ctx, t as never);
  z3.parser_context_dec_ref(ctx, kept.pc);
}

/** Parse SMT-LIB text into the scope's context (terms live until the context is deleted). */
export function parse(scope: Scope, text: string): unknown[] {
  const { z3, ctx } = scope;
  const script = internFloats(text);
  return formulasOf(scope, script, () => z3.parse_smtlib2_string(ctx, script, [], [], [], []));
}

/**
 * Parse the query as written into a parser context of its own, kept in the scope: its declarations
 * stay there, so a model is then read (`parseRead`) by parsing only the terms asked about. Each
 * separate parse builds and tears down an SMT-LIB command context, about 0.4 ms in wasm whatever
 * the text (a parse of 40 characters cost 0.41 ms, of 1 566 characters 0.54 ms), and a
 * counterexample takes up to ten reads. The terms are Z3's own (hash-consed): the same as a separate
 * parse gives (800 corpus queries compared). Fewer terms than `expected` fail the parse.
 */
export function parseKept(scope: Scope, text: string, expected: number): unknown[] {
  const { z3, ctx } = scope;
  if (scope.kept) throw new SolverError("the query was read into its scope twice");
  const pc = z3.mk_parser_context(ctx) as never;
  z3.parser_context_inc_ref(ctx, pc);
  scope.kept = { pc, sent: new Set(), probes: 0, reads: 0, broken: false, refs: [] };
  return keptParse(scope, scope.kept, internFloats(text), expected, "the query's assertions");
}

/**
 * Read terms of a model of the kept query: declarations made since it was built (`later`, each sent
 * once), then each term as the right-hand side of an equation with a fresh probe constant.
 */
export function parseRead(scope: Scope, later: readonly string[], terms: readonly { term: string; sort: string }[]): unknown[] {
  const kept = scope.kept;
  if (!kept) throw new SolverError("a model was read before its query");
  const fresh = later.filter((d) => !kept.sent.has(d));
  const names = terms.map(() => `probe!${kept.probes++}`);
  const script = `${fresh.join("\n")}\n${terms.map((t, i) => `(declare-const ${names[i]} ${t.sort})\n(assert (= ${names[i]} ${t.term}))`).join("\n")}`;
  const eqs = keptParse(scope, kept, internFloats(script, `float@${++kept.reads}@`), terms.length, "the terms read from the model");
  for (const d of fresh) kept.sent.add(d);
  return eqs;
}

function keptParse(scope: Scope, kept: Kept, script: string, expected: number, what: string): unknown[] {
  const { z3, ctx } = scope;
  if (kept.broken) throw new SolverError("reading the model: an earlier read of this query failed");
  let out: unknown[] | undefined;
  try {
    out = formulasOf(scope, script, () => z3.parser_context_from_string(ctx, kept.pc, script));
    kept.refs.push(...out);
  } finally {
    // Z3's parser stops at an undeclared symbol without an error: terms read then would be
    // misaligned (the fuzzer found an array shown as ["ndefine"], `undefined` unquoted).
    if (out?.length !== expected) kept.broken = true;
  }
  if (out.length !== expected) throw new SolverError(`Z3 read ${out.length} of ${expected} of ${what}`);
  return out;
}

/** The formulas of one parse (`run`), each with a reference of its own. */
function formulasOf(scope: Scope, script: string, run: () => ReturnType<LowLevel["parse_smtlib2_string"]>): unknown[] {
  const { z3, ctx } = scope;
  let vec: ReturnType<LowLevel["parse_smtlib2_string"]>;
  try {
    vec = run();
  } catch (error) {
    if (isInstanceFailure(error)) throw error;
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

/** A Float64 literal as smt.ts writes it (`numLit`): sign, exponent and significand in binary. */
const FLOAT_LITERAL = /\(fp #b[01] #b[01]{11} #b[01]{52}\)/y;

/**
 * The text with each distinct Float64 literal written once, as a constant defined at the top, and
 * named where it was. Z3 reads a binary literal slowly (about 23 µs each in wasm): a loop unrolled
 * over twelve elements that compares each with `2` wrote 240 of them, and reading that query took
 * 7.7 ms where the same query with named literals took 2.1 ms. A defined constant is expanded
 * while parsing, so the solver gets the same terms (the same work and the same models). Literals
 * inside string literals and quoted symbols are text and stay as they are; the names (`prefix`
 * and a number) contain `@`, which no generated symbol does (they are word characters and `!`).
 * Texts parsed into one parser context (`parseRead`) each take a prefix of their own.
 */
export function internFloats(text: string, prefix = "float@"): string {
  if (!text.includes("(fp #b")) return text;
  const names = new Map<string, string>();
  let out = "";
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */ || ch === 124 /* | */) i = endOfQuoted(text, i);
    else if (ch === 40 /* ( */) {
      FLOAT_LITERAL.lastIndex = i;
      const m = FLOAT_LITERAL.exec(text);
      if (m) {
        let name = names.get(m[0]);
        if (!name) names.set(m[0], (name = `${prefix}${names.size}`));
        out += text.slice(from, i) + name;
        i += m[0].length;
        from = i;
      } else i++;
    } else i++;
  }
  if (names.size === 0) return text;
  const defined = [...names].map(([literal, name]) => `(define-fun ${name} () (_ FloatingPoint 11 53) ${literal})`).join("");
  return `${defined}${out}${text.slice(from)}`;
}

/** Z3's resource counter of the scope's context ("rlimit count": cumulative over the context). */
export function rlimitCount(scope: Scope, solver: unknown): number {
  const { z3, ctx } = scope;
  const stats = z3.solver_get_statistics(ctx, solver as never);
  z3.stats_inc_ref(ctx, stats);
  try {
    for (let i = 0; i < z3.stats_size(ctx, stats); i++) {
      if (z3.stats_get_key(ctx, stats, i) === "rlimit count") return z3.stats_get_uint_value(ctx, stats, i);
    }
    return 0;
  } finally {
    z3.stats_dec_ref(ctx, stats);
  }
}
