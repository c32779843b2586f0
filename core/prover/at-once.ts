/**
 * One query for everything a program must keep: is any guarantee, precondition or throw of it
 * violated? Most programs keep all of them, and then one unsatisfiable query proves them all,
 * where asking each on its own costs a solver context, a parse and a check apiece.
 *
 * A satisfiable answer proves nothing about the queries its model breaks: those are asked on their
 * own, as before, for their counterexamples. The others are asked once more together, so a
 * program with one violated guarantee still proves the rest at once. The answers only ever save
 * queries: a query counts as proved only inside an unsatisfiable disjunction, where it is
 * unsatisfiable itself.
 */
import type { ViolationQuery } from "./encode";
import type { World } from "./facts";
import type { ProgramBudget } from "./limits";
import { and, or } from "./smt";
import { selectBranch } from "./conversions";
import { SolverError, type Z3Session } from "./z3";

/**
 * Resource units each query for several may use: a proof that needs more is asked per guarantee,
 * where each query has the whole limit. Counted in units, not time, so which queries were proved
 * together is the same on every machine. Over the corpus, 178 of the 185 combined queries that
 * were unsatisfiable within 50 000 units needed at most 20 000, and the 63 that ran out of 50 000
 * had cost 4.2 s together.
 */
export const AT_ONCE_UNITS = 20_000;

/** Queries for several asked per program: the first, and one more without those its model broke. */
const AT_ONCE_ROUNDS = 2;

/**
 * The queries proved unsatisfiable together: each round asks the disjunction of the open queries,
 * each with its own assumptions (they constrain only that query's copies of loop indices, and a
 * query over part of the runs restricts only itself), over the world's facts. The queries' own
 * declarations come from one Encoder, so their names are distinct, but the two sides of a count
 * share theirs: each is declared once. A constant shared by two disjuncts is still each one's
 * own, since an existential distributes over a disjunction. Fewer than two open queries are not
 * worth a query of their own.
 */
export async function provedAtOnce(session: Z3Session, world: World, queries: readonly ViolationQuery[], budget: ProgramBudget): Promise<ReadonlySet<ViolationQuery>> {
  let open = queries.filter((q) => q.candidates.some((c) => c.indicator !== "false"));
  for (let round = 0; round < AT_ONCE_ROUNDS && open.length >= 2; round++) {
    const broken = await brokenTogether(session, world, open, budget);
    if (broken === "none") return new Set(open);
    if (broken === "undecided" || broken.size === 0) break;
    open = open.filter((q) => !broken.has(q));
  }
  return new Set();
}

/** Whether none of the queries is satisfiable, or which ones a model satisfies, or undecided. */
async function brokenTogether(session: Z3Session, world: World, open: readonly ViolationQuery[], budget: ProgramBudget): Promise<"none" | "undecided" | ReadonlySet<ViolationQuery>> {
  const names = open.map((_, k) => `at-once!${k}`);
  const conversions = world.conversions;
  const raw = [
    [...world.declarations, ...new Set(open.flatMap((q) => q.declarations)), ...open.map((q, k) => `(define-fun ${names[k]} () Bool ${and(...q.assumptions, or(...q.candidates.map((c) => c.indicator)))})`)].join("\n"),
    ...world.assumptions.map((a) => a.term),
    ...conversions.facts,
    or(...names),
  ];
  // With conversions, their abstract terms (any text in range): an over-approximation, so
  // unsatisfiable there is unsatisfiable (counterexample.ts asks the same way first).
  const [declarations, ...assertions] = conversions.kinds.size > 0 ? selectBranch(raw, false) : raw;
  const next = budget.next();
  if (!next) return "undecided";
  try {
    // Not noted in the budget: an answer cut short here is no verdict; the separate queries decide.
    const answer = await session.query(declarations!, assertions, { ...next, rlimit: Math.min(next.rlimit, AT_ONCE_UNITS) }, async (get) => {
      const values = await get(names.map((term) => ({ term, sort: "Bool" as const })));
      return new Set(open.filter((_, k) => values[k] === "true"));
    });
    if (answer.status === "unsat") return "none";
    return answer.status === "sat" ? answer.result : "undecided";
  } catch (error) {
    // A query the solver rejects is asked again in parts, where its error is reported on what caused it.
    if (error instanceof SolverError) return "undecided";
    throw error;
  }
}
