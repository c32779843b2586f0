/**
 * One query for everything a program must keep: is any guarantee, precondition or throw of it
 * violated? Most programs keep all of them, and then one unsatisfiable query proves them all,
 * where asking each on its own costs a solver context, a parse and a check apiece.
 *
 * A satisfiable answer proves nothing about the queries its model breaks: those are asked on their
 * own, as before. But the model is a counterexample of each of them (it satisfies that query's
 * assumptions and one of its violations), so it is read for them before the solver moves on, and
 * that first answer saves each of them its first query (readability steps still follow). The others
 * are asked once more together, so a program with one violated guarantee still proves the rest at
 * once. The answers only ever save queries: a query counts as proved only inside an unsatisfiable
 * disjunction, where it is unsatisfiable itself.
 */
import type { ViolationQuery } from "./encode";
import type { World } from "./facts";
import type { ProgramBudget } from "./limits";
import { and, or } from "./smt";
import { selectBranch } from "./conversions";
import type { Found } from "./counterexample";
import { readCounterexample, type Reading } from "./read-counterexample";
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

/** A query asked together with the others, and how a counterexample of it is read. */
export interface Together {
  readonly query: ViolationQuery;
  readonly reading: Reading;
}

/** What asking together settled: the queries proved, and counterexamples of those a model broke. */
export interface AtOnce {
  readonly proved: ReadonlySet<ViolationQuery>;
  readonly found: ReadonlyMap<ViolationQuery, Found>;
}

/**
 * The queries proved unsatisfiable together: each round asks the disjunction of the open queries,
 * each with its own assumptions (they constrain only that query's copies of loop indices, and a
 * query over part of the runs restricts only itself), over the world's facts. The queries' own
 * declarations come from one Encoder, so their names are distinct, but the two sides of a count
 * share theirs: each is declared once. A constant shared by two disjuncts is still each one's
 * own, since an existential distributes over a disjunction. Fewer than two open queries are not
 * worth a query of their own.
 */
export async function askAtOnce(session: Z3Session, world: World, queries: readonly Together[], budget: ProgramBudget): Promise<AtOnce> {
  const found = new Map<ViolationQuery, Found>();
  let open = queries.filter((q) => q.query.candidates.some((c) => c.indicator !== "false"));
  for (let round = 0; round < AT_ONCE_ROUNDS && open.length >= 2; round++) {
    const broken = await brokenTogether(session, world, open, budget);
    if (broken === "none") return { proved: new Set(open.map((q) => q.query)), found };
    if (broken === "undecided" || broken.size === 0) break;
    for (const [query, cex] of broken) if (cex) found.set(query, cex);
    open = open.filter((q) => !broken.has(q.query));
  }
  return { proved: new Set(), found };
}

/**
 * Whether none of the queries is satisfiable, or which ones a model satisfies (each with its
 * counterexample where it could be read), or undecided.
 */
async function brokenTogether(session: Z3Session, world: World, open: readonly Together[], budget: ProgramBudget): Promise<"none" | "undecided" | ReadonlyMap<ViolationQuery, Found | undefined>> {
  const names = open.map((_, k) => `at-once!${k}`);
  // Each live candidate is named on its own, so a model says which violation of a query it satisfies.
  const live = open.map(({ query }) => query.candidates.map((c, i) => ({ c, i })).filter(({ c }) => c.indicator !== "false"));
  const candidateNames = live.map((cs, k) => cs.map(({ i }) => `at-once!${k}!${i}`));
  const conversions = world.conversions;
  const declared = world.declarations.length;
  const raw = [
    [
      ...world.declarations,
      ...new Set(open.flatMap((q) => q.query.declarations)),
      ...live.flatMap((cs, k) => cs.map(({ c }, j) => `(define-fun ${candidateNames[k]![j]} () Bool ${c.indicator})`)),
      ...open.map((q, k) => `(define-fun ${names[k]} () Bool ${and(...q.query.assumptions, or(...candidateNames[k]!))})`),
    ].join("\n"),
    ...world.assumptions.map((a) => a.term),
    ...conversions.facts,
    or(...names),
  ];
  // With conversions, their abstract terms (any text in range): an over-approximation, so
  // unsatisfiable there is unsatisfiable (counterexample.ts asks the same way first). Its models
  // are no counterexamples: none is read.
  const exact = conversions.kinds.size === 0;
  const [declarations, ...assertions] = exact ? raw : selectBranch(raw, false);
  const next = budget.next();
  if (!next) return "undecided";
  try {
    // Not noted in the budget: an answer cut short here is no verdict; the separate queries decide.
    const answer = await session.query(declarations!, assertions, { ...next, rlimit: Math.min(next.rlimit, AT_ONCE_UNITS) }, async (get) => {
      const values = await get(names.map((term) => ({ term, sort: "Bool" as const })));
      const broken = new Map<ViolationQuery, Omit<Found, "status" | "used"> | undefined>();
      for (const [k, { query, reading }] of open.entries()) {
        if (values[k] !== "true") continue;
        broken.set(query, exact ? await readOrSkip(() => readCounterexample(get, world, query, { names: candidateNames[k]!, indices: live[k]!.map(({ i }) => i), declared }, reading)) : undefined);
      }
      return broken;
    });
    if (answer.status === "unsat") return "none";
    if (answer.status !== "sat") return "undecided";
    const used = answer.used ?? 0;
    return new Map([...answer.result].map(([query, cex]) => [query, cex && { status: "sat" as const, used, ...cex }]));
  } catch (error) {
    // A query the solver rejects is asked again in parts, where its error is reported on what caused it.
    if (error instanceof SolverError) return "undecided";
    throw error;
  }
}

/** A counterexample the model cannot show (the solver rejects a read) is left to the query's own ask. */
async function readOrSkip<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof SolverError) return undefined;
    throw error;
  }
}
