/**
 * A query `A ∧ (d1 ∨ … ∨ dn)` asked without the disjuncts the ranges refute on their own
 * (intervals.ts: `A ∧ di` is unsatisfiable): an equisatisfiable query whose models are models of
 * the original, so its answer, unsat or a model, is the query's.
 *
 * Why: a query over several candidates (a precondition at several calls, the violations of one
 * guarantee on several paths, queries asked together) is one disjunction, and one hard candidate
 * the ranges settle keeps Z3 from the others: h52 i73 asked `min(max(floor(budget / perReplica),
 * 1), 50)` is a whole number from 1 to 50 (bit-blasted division: 105 s undecided) beside a
 * message's length (9 s); the ranges refute the first in a millisecond, but only on its own.
 */
import { DEEP_STEP_LIMIT, readIntervals } from "./intervals";
import { isList, printSExpr, type SExpr } from "./sexpr";

/** Disjunctions with more disjuncts than this are left whole (each costs one reading of the query). */
const DISJUNCTS_LIMIT = 24;

/** The query with refuted disjuncts of its top-level disjunctions left out; undefined when none is. */
export function prunedDisjuncts(commands: readonly SExpr[], steps = DEEP_STEP_LIMIT): { readonly text: string; readonly dropped: number; readonly of: number } | undefined {
  let current = [...commands];
  let dropped = 0;
  let of = 0;
  current.forEach((c, i) => {
    if (!isList(c) || c[0] !== "assert" || c.length !== 2) return;
    const term = c[1]!;
    if (!isList(term) || term[0] !== "or" || term.length < 3 || term.length - 1 > DISJUNCTS_LIMIT) return;
    const disjuncts = term.slice(1);
    const alone = (d: SExpr): SExpr[] => current.map((x, j) => (j === i ? ["assert", d] : x));
    const kept = disjuncts.filter((d) => readIntervals(alone(d), steps) !== "refuted");
    of += disjuncts.length;
    if (kept.length === disjuncts.length) return;
    dropped += disjuncts.length - kept.length;
    const rest: SExpr = kept.length === 0 ? "false" : kept.length === 1 ? kept[0]! : ["or", ...kept];
    current = current.map((x, j) => (j === i ? ["assert", rest] : x));
  });
  return dropped === 0 ? undefined : { text: current.map(printSExpr).join("\n"), dropped, of };
}
