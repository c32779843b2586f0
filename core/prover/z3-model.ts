/**
 * Reading a confirmed model (a solver's, z3.ts, or a guessed one, z3-guess.ts): what the prover's
 * `onSat` asks of it (`GetValues`), answered by Z3's evaluator in the query's kept parser context.
 */
import type { SExpr } from "./sexpr";
import { parseSExprs } from "./sexpr";
import { parseRead, SolverError, type Scope } from "./z3-scope";

/** The sorts a model value can be read as. */
export type ValueSort = "String" | "Float64" | "Bool" | "Int";
const SORTS: Record<ValueSort, string> = { String: "String", Float64: "(_ FloatingPoint 11 53)", Bool: "Bool", Int: "Int" };

/**
 * Reads terms' values out of a satisfying model. `later`: declarations made after the query was
 * built (an array's element function is declared when an element is first read, which may be
 * while a counterexample is shown); they are unconstrained, and the model completes them.
 */
export type GetValues = (terms: readonly { term: string; sort: ValueSort }[], later?: readonly string[]) => Promise<SExpr[]>;

/**
 * The value a model shows for a Float64 term whose function or constant no assertion reaches: Z3
 * completes such a model with NaN, which made the counterexample unreadable and cost a pinning
 * query to turn into 0 (`ops/pay_all_invoices_no_budget_fail`: a 98 ms query for the `daysLate` of
 * invoices the violation never reads). Nothing the query asserts depends on it, so 0 extends the
 * model as well as NaN does.
 */
const POSITIVE_ZERO: SExpr = ["_", "+zero", "11", "53"];

/**
 * What a read returns for a term the model does not evaluate to a literal (a Bool term under a
 * quantifier, `results.some(…)` over an array of unknown length): not `true`, and no number. The
 * term Z3 gives back then holds the model's function tables expanded, and printing it took 411 s
 * on one counterexample (h57 i24 fail), outside every time budget.
 */
export const NOT_A_LITERAL: SExpr = "unread";

/** Nodes a literal has at most: `(fp #b… #b… #b…)` is four, `(- 5)` two. */
const LITERAL_NODES = 8;
const Z3_NUMERAL_AST = 0;
const Z3_APP_AST = 1;

/** Whether a model's value is a literal: numerals and applications of at most LITERAL_NODES nodes, no quantifier. */
function isLiteral(scope: Scope, value: unknown): boolean {
  const { z3, ctx } = scope;
  let left = LITERAL_NODES;
  const visit = (a: unknown): boolean => {
    if (--left < 0) return false;
    const kind = z3.get_ast_kind(ctx, a as never) as number;
    if (kind === Z3_NUMERAL_AST) return true;
    if (kind !== Z3_APP_AST) return false;
    const app = z3.to_app(ctx, a as never);
    for (let i = 0; i < z3.get_app_num_args(ctx, app); i++) if (!visit(z3.get_app_arg(ctx, app, i))) return false;
    return true;
  };
  return visit(value);
}

/** The symbol a term applies (or is): `(f 3)` → `f`, `x` → `x`. */
function headSymbol(term: string): string {
  const m = /^\(?\s*([^\s()]+)/.exec(term);
  return m ? m[1]! : term;
}

/**
 * What `onSat` makes of a confirmed model: terms are read from it (`getValues`) as the right-hand
 * side of an equation with a fresh probe constant, in the parser context that holds the query's
 * declarations (`original` parses the query there first: the same symbols, so the model's values).
 */
export function readModel<T>(scope: Scope, model: unknown, original: () => readonly unknown[], free: () => ReadonlySet<string>, onSat: (getValues: GetValues) => Promise<T>): Promise<T> {
  const { z3, ctx } = scope;
  const getValues: GetValues = async (terms, later = []) => {
    if (terms.length === 0) return [];
    original();
    const eqs = parseRead(scope, later, terms.map((t) => ({ term: t.term, sort: SORTS[t.sort] })));
    return eqs.map((eq, i) => {
      if (terms[i]!.sort === "Float64" && free().has(headSymbol(terms[i]!.term))) return POSITIVE_ZERO;
      const term = z3.get_app_arg(ctx, eq as never, 1);
      const value = z3.model_eval(ctx, model as never, term, true);
      if (value === null) throw new SolverError("the model has no value for a term");
      if (!isLiteral(scope, value)) return NOT_A_LITERAL;
      const [parsed] = parseSExprs(z3.ast_to_string(ctx, value));
      return parsed!;
    });
  };
  return onSat(getValues);
}
