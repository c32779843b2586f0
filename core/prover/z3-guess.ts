/**
 * A guess (guess/search.ts) written into a Z3 model and confirmed by Z3 itself: the model gives each
 * declared constant and function the guessed values, and it is believed only when Z3 evaluates
 * every assertion of the query as written to true in it (`model_eval` with completion, as a
 * solver's model is confirmed in z3.ts). The values are parsed from exact literals (smt.ts) in the
 * query's kept parser context, so the names are the query's own symbols.
 */
import { guessBudget, guessModel, type Guess } from "./guess/search";
import type { Sort, Value } from "./guess/values";
import type { SExpr } from "./sexpr";
import type { Trace } from "./query-dump";
import { FLOAT64, numLit, strLit } from "./smt";
import type { SolverAnswer } from "./z3";
import { readModel, type GetValues } from "./z3-model";
import { evaluationScope, isInstanceFailure, parseKept, parseRead, releaseKept, SolverError, type Instance, type Scope } from "./z3-scope";

/** Z3_sort_kind's value for integers (Z3_INT_SORT). */
const Z3_INT_SORT = 2;

const SORT_TEXT: Record<Sort, string> = { Bool: "Bool", Int: "Int", String: "String", Float64: FLOAT64 };

/**
 * Terms a deeper guess evaluates (about half a second), tried once when the first guess spent its
 * budget and Z3's first slice ran out: a list of a dozen records whose violation needs one cell
 * changed (h53 i58: a refund of 0 for an order under 5 cents) took 30 000 terms, beyond the first
 * guess's cap of 12 000, and Z3 could not find it in 50 million units.
 */
export const DEEP_GUESS_BUDGET = 400_000;

/**
 * The query answered by a guessed model (guess/search.ts), confirmed and read in the instance's
 * evaluation context (z3-scope.ts `evaluationScope`); "budget" when the guesser spent its budget
 * (a deeper guess may still find one), undefined when it found none otherwise or Z3 does not
 * confirm it; the attempts run as if there had been no guess.
 */
export async function answerFromGuess<T>(
  instance: Instance,
  text: string,
  asWritten: readonly SExpr[],
  asserted: number,
  free: () => ReadonlySet<string>,
  onSat: (getValues: GetValues) => Promise<T>,
  trace: Trace | undefined,
  budget = guessBudget(text.length),
): Promise<SolverAnswer<T> | "budget" | undefined> {
  const guess = guessModel(asWritten, budget);
  if (typeof guess === "string") {
    trace?.lines.push(`guess of ${Math.floor(budget)} terms: none (${guess})`);
    return guess === "budget" ? guess : undefined;
  }
  const scope = evaluationScope(instance);
  let formulas: readonly unknown[] | undefined;
  const original = (): readonly unknown[] => (formulas ??= parseKept(scope, text, asserted));
  let model: unknown;
  try {
    model = guessedModel(scope, guess, original());
    if (model === undefined) {
      trace?.lines.push("guess: not confirmed");
      return undefined;
    }
    trace?.lines.push("guess: sat, confirmed");
    return { status: "sat", result: await readModel(scope, model, original, free, onSat) };
  } catch (error) {
    // Z3 would not read a guessed value: the attempts still run.
    if (isInstanceFailure(error) || !(error instanceof SolverError)) throw error;
    trace?.lines.push(`guess rejected: ${error.message.slice(0, 200)}`);
    return undefined;
  } finally {
    if (model !== undefined) scope.z3.model_dec_ref(scope.ctx, model as never);
    releaseKept(scope);
  }
}

/** A value as an exact SMT-LIB literal of its sort. */
export function literalOf(value: Value): string {
  switch (typeof value) {
    case "boolean": return String(value);
    case "bigint": return value < 0n ? `(- ${-value})` : String(value);
    case "string": return strLit(value);
    case "number": return numLit(value);
  }
  throw new Error("a regular expression is not a cell's value");
}

/**
 * The guess as a Z3 model of the scope's query (`formulas`: its assertions as written, parsed into
 * the kept parser context), with a reference the caller releases; undefined (and released) when Z3
 * does not evaluate every assertion to true in it.
 */
export function guessedModel(scope: Scope, guess: Guess, formulas: readonly unknown[]): unknown {
  const { z3, ctx } = scope;
  // One read: each constant and its value, each function's applications and values, its default.
  const terms: { term: string; sort: string }[] = [];
  for (const c of guess.constants) terms.push({ term: c.name, sort: SORT_TEXT[c.sort] }, { term: literalOf(c.value), sort: SORT_TEXT[c.sort] });
  for (const f of guess.functions) {
    const sort = SORT_TEXT[f.sort];
    const at = (args: readonly Value[]): string => `(${f.name} ${args.map(literalOf).join(" ")})`;
    // The default first, at the first argument the function has (any one names it).
    const named = f.entries[0] ? at(f.entries[0].args) : `(${f.name} ${f.domain.map(defaultLiteral).join(" ")})`;
    terms.push({ term: named, sort }, { term: literalOf(f.elseValue), sort });
    for (const e of f.entries) terms.push({ term: at(e.args), sort }, { term: literalOf(e.value), sort });
  }
  const read = terms.length === 0 ? [] : parseRead(scope, [], terms).map((eq) => z3.get_app_arg(ctx, eq as never, 1));
  const values = read.map((t, i) => (i % 2 === 1 ? asValue(scope, t) : t));
  const model = z3.mk_model(ctx);
  z3.model_inc_ref(ctx, model);
  let confirmed = false;
  try {
    let i = 0;
    for (let k = 0; k < guess.constants.length; k++, i += 2) {
      z3.add_const_interp(ctx, model, z3.get_app_decl(ctx, z3.to_app(ctx, read[i]!)), values[i + 1]!);
    }
    for (const f of guess.functions) {
      const decl = z3.get_app_decl(ctx, z3.to_app(ctx, read[i]!));
      const interp = z3.add_func_interp(ctx, model, decl, values[i + 1]!);
      z3.func_interp_inc_ref(ctx, interp);
      i += 2;
      try {
        for (let e = 0; e < f.entries.length; e++, i += 2) {
          const app = z3.to_app(ctx, read[i]!);
          const args = z3.mk_ast_vector(ctx);
          z3.ast_vector_inc_ref(ctx, args);
          for (let a = 0; a < f.domain.length; a++) z3.ast_vector_push(ctx, args, asValue(scope, z3.get_app_arg(ctx, app, a)));
          z3.func_interp_add_entry(ctx, interp, args, values[i + 1]!);
          z3.ast_vector_dec_ref(ctx, args);
        }
      } finally {
        z3.func_interp_dec_ref(ctx, interp);
      }
    }
    confirmed = formulas.every((f) => {
      const value = z3.model_eval(ctx, model, f as never, true);
      return value !== null && z3.get_bool_value(ctx, value) === 1;
    });
    return confirmed ? model : undefined;
  } finally {
    if (!confirmed) z3.model_dec_ref(ctx, model);
  }
}

/**
 * A parsed literal as a value: a negative integer parses as an application (`(- 4)`), which a
 * model must not hold (Z3's evaluator takes interpretations as values and does not simplify them:
 * `n < f(2)` was left as `(not (<= 0 (- 4)))`), so it is made a numeral. The numeral is released
 * with the scope's kept reads.
 */
function asValue(scope: Scope, term: unknown): never {
  const { z3, ctx } = scope;
  const t = term as never;
  if (z3.is_numeral_ast(ctx, t) || z3.get_sort_kind(ctx, z3.get_sort(ctx, t)) !== Z3_INT_SORT) return t;
  const value = z3.mk_numeral(ctx, String(evalNegated(scope, t)), z3.get_sort(ctx, t));
  z3.inc_ref(ctx, value);
  scope.kept?.refs.push(value);
  return value as never;
}

/** The integer `(- n)` stands for. */
function evalNegated(scope: Scope, term: never): bigint {
  const { z3, ctx } = scope;
  const app = z3.to_app(ctx, term);
  if (z3.get_app_num_args(ctx, app) !== 1) throw new SolverError("a guessed integer is not a literal");
  return -BigInt(z3.get_numeral_string(ctx, z3.get_app_arg(ctx, app, 0)));
}

function defaultLiteral(sort: Sort): string {
  return sort === "Bool" ? "false" : sort === "Int" ? "0" : sort === "String" ? '""' : numLit(0);
}
