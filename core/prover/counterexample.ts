/**
 * Violation queries: is one of a query's violations satisfiable, and then the counterexample, asked
 * again for short arrays, plain numbers and printable strings where the violation allows them
 * (read-counterexample.ts reads each model).
 */
import type { Counterexample } from "./api";
import type { ViolationQuery } from "./encode";
import type { Fact, World } from "./facts";
import type { ProgramBudget } from "./limits";
import { applicationsIn, disagreements, EXACT, literalFacts, selectBranch, type ConversionKind } from "./conversions";
import { PLAIN_MAGNITUDE, pinnedNumbers, plainNumbers, printableStrings, readableUnits, SHORT_ARRAY, shownPlainly, shownPrintably } from "./readable";
import { arrayLengths, readCounterexample, type FoundCounterexample, type Reading } from "./read-counterexample";
import { SolverError, type Z3Session } from "./z3";

export type Outcome =
  | { readonly status: "unsat" }
  | { readonly status: "unknown"; readonly reason: string }
  | { readonly status: "sat"; readonly index: number; readonly cex: Counterexample; readonly activeSites: readonly Fact[] };

/**
 * Is one of the query's violations satisfiable? Then read a counterexample from the model (or take
 * `first`, read from a model of the program's query for everything at once). A counterexample
 * whose arrays are long is asked for once more with every top-level array at most SHORT_ARRAY
 * long, and the shorter one is kept when it exists (same violation, easier to read and to replay).
 */
export async function runViolation(
  session: Z3Session,
  world: World,
  q: ViolationQuery,
  budget: ProgramBudget,
  reading: Reading,
  /** A counterexample of `q` already read out of a model of a larger query (at-once.ts): the first answer. */
  first?: Found,
): Promise<Outcome> {
  const ask = (query: ViolationQuery, extra: readonly string[] = [], cap?: number) => attempt(session, world, query, budget, reading, extra, cap);
  let found: Asked = first ?? (await ask(q));
  // The model may not say which violation it satisfies: evaluating a quantified indicator (a guard
  // with `includes` over an array of unknown length) need not give `true`. Then ask for each one
  // alone, in order, so the counterexample is about the violation it names (the fuzzer found a
  // precondition blamed on a call that cannot fail it).
  if (found.status === "sat" && !found.named) {
    for (const [i, c] of q.candidates.entries()) {
      if (c.indicator === "false") continue;
      const one = await ask(only(q, i));
      if (one.status === "sat") {
        found = one;
        break;
      }
    }
  }
  if (found.status !== "sat") return strip(found);
  // Each readability step is bounded by what finding the violation cost. A step that gives up
  // within that bound (`unknown`) says the violation is hard to ask about: the pins after a pin
  // that gave up, and the printable strings after a search for whole numbers that gave up, are
  // not asked (ops/pay_overdue_budget_bypass asked seven that each gave up after a million units).
  // A search for larger whole numbers still follows one for small ones that gave up: over doubles
  // the small ones can be the harder question (test/prover/counterexample.test.ts).
  const readable = readableUnits(found.used, budget.rlimit);
  let gaveUp = false;
  const polish = async (index: number, extra: readonly string[]): Promise<Found | undefined> => {
    const answer = await ask(only(q, index), extra, readable);
    gaveUp = answer.status === "unknown";
    return answer.status === "sat" ? answer : undefined;
  };
  let best = found;
  const atMost = (n: number): string[] => arrayLengths(world).map((len) => `(<= ${len} ${n})`);
  // The steps below never lengthen an array: asked for printable strings, a solver kept the one
  // unprintable string a throw needed by moving it to element 30 614 (fuzz seed 2300289).
  let kept: readonly string[] = atMost(Math.max(SHORT_ARRAY, found.longest));
  if (found.longest > SHORT_ARRAY) {
    const bounds = atMost(SHORT_ARRAY);
    const shorter = await polish(found.index, bounds);
    if (shorter) {
      best = shorter;
      kept = bounds;
    }
  }
  // Readable numbers where the violation allows them: the same violation asked once more with
  // every number the counterexample shows a small integer (not 5e-324, -0 or 0.30000000000000004).
  // Only constraints are added, so the answer is a counterexample of the same violation.
  // When the violation needs larger numbers (two payments that together pass 100000000), whole
  // numbers of any size are still easier to read than 66944959.92156981. For each, the model's own
  // numbers pinned to whole ones first (cheap), then any whole numbers (a search).
  if (plainNumbers(world, PLAIN_MAGNITUDE).length > 0) {
    numbers: for (const magnitude of [PLAIN_MAGNITUDE, 2 ** 53]) {
      if (shownPlainly(best.cex, magnitude)) break;
      const search = plainNumbers(world, magnitude);
      let pinsGaveUp = false;
      for (const numbers of [...pinnedNumbers(best.numbers, magnitude), search]) {
        if (pinsGaveUp && numbers !== search) continue;
        const nicer = await polish(best.index, [...kept, ...numbers]);
        pinsGaveUp = gaveUp;
        // Pins hold only the numbers the model gave values to: the answer must show plainly too.
        if (nicer && (numbers === search || shownPlainly(nicer.cex, magnitude))) {
          best = nicer;
          kept = [...kept, ...numbers];
          break numbers;
        }
      }
    }
  }
  // Printable strings likewise (not "\u0000" or a lone surrogate where any text would do), asked
  // separately: a violation that needs an unprintable string keeps its readable numbers.
  const printable = printableStrings(world);
  if (printable.length > 0 && !shownPrintably(best.cex) && !gaveUp) {
    const nicer = await polish(best.index, [...kept, ...printable]);
    if (nicer) best = nicer;
  }
  return strip(best);
}

/** The query with every violation but one left out (indices stay the same). */
function only(q: ViolationQuery, index: number): ViolationQuery {
  return { ...q, candidates: q.candidates.map((c, i) => (i === index ? c : { ...c, indicator: "false" })) };
}

/** A satisfiable answer with its counterexample, and the resource units finding it cost. */
export type Found = { readonly status: "sat"; readonly used: number } & FoundCounterexample;

/** An answer with the resource units it cost. */
type Asked = Found | (Exclude<Outcome, { status: "sat" }> & { readonly used: number });

function strip(o: Asked | Exclude<Outcome, { status: "sat" }>): Outcome {
  if (o.status !== "sat") {
    const { used: _used, ...rest } = o as Asked & { status: "unsat" | "unknown" };
    return rest;
  }
  const { longest: _longest, named: _named, used: _used, numbers: _numbers, ...rest } = o;
  return rest;
}

async function attempt(
  session: Z3Session,
  world: World,
  q: ViolationQuery,
  budget: ProgramBudget,
  reading: Reading,
  extra: readonly string[],
  cap?: number,
): Promise<Asked> {
  const live = q.candidates.map((c, i) => ({ c, i })).filter(({ c }) => c.indicator !== "false");
  if (live.length === 0) return { status: "unsat", used: 0 };
  const names = live.map(({ i }) => `violation!${i}`);
  const conversions = world.conversions;
  // After a model whose conversions disagree with JavaScript, the next queries first ask for one
  // where each of them keeps the model's input (its true result now learned), then for one where
  // each gets the input whose text the model wanted, or else takes its exact branch
  // (conversions.ts `disagreements`): "steered" queries. Their answer is a counterexample when sat;
  // when unsat it proves nothing (they only looked at some runs), and the query is asked again
  // without them.
  let steers: string[] = [];
  // With conversions, the query is first asked with their abstract terms (any text in range): unsat
  // there is unsat (an over-approximation); sat there proves nothing and the exact query follows.
  let abstract = conversions.kinds.size > 0;
  // Resource units over every round: what finding this answer cost.
  let used = 0;
  let refinements = 0;
  for (;;) {
    const raw = [
      [...world.declarations, ...q.declarations, ...live.map(({ c }, k) => `(define-fun ${names[k]} () Bool ${c.indicator})`)].join("\n"),
      ...world.assumptions.map((a) => a.term), ...q.assumptions, ...extra, ...conversions.facts, ...steers.slice(0, 1), names.length === 1 ? names[0]! : `(or ${names.join(" ")})`,
    ];
    const [decls, ...assertions] = conversions.kinds.size > 0 ? [...selectBranch(raw, !abstract), ...(abstract ? [] : [EXACT])] : raw;
    const applications = conversions.kinds.size > 0 && !abstract ? applicationsIn(conversions, [decls!, ...assertions]) : undefined;
    if (applications) assertions.push(...literalFacts(conversions, applications));
    const next = budget.next();
    if (!next) return { status: "unknown", reason: budget.programReason, used };
    const limits = cap === undefined ? next : { ...next, rlimit: Math.min(next.rlimit, cap) };
    const declared = world.declarations.length;
    if (abstract) {
      abstract = false;
      const answer = await session.query(decls!, assertions, limits, async () => undefined);
      budget.note(answer);
      used += answer.used ?? 0;
      if (answer.status === "unsat") return { status: "unsat", used };
      continue;
    }
    type Checked = { readonly found: Awaited<ReturnType<typeof readCounterexample>> } | { readonly refine: readonly string[]; readonly steers: readonly string[] } | { readonly unchecked: ConversionKind };
    const answer = await session.query(decls!, assertions, limits, async (get): Promise<Checked> => {
      // A model is a counterexample only where its conversions agree with JavaScript (conversions.ts).
      if (applications?.quantified) return { unchecked: applications.quantified };
      const found = applications ? await disagreements(get, world.declarations.slice(declared), applications.ground) : undefined;
      if (found && found.facts.length > 0) return { refine: found.facts, steers: [found.pins, found.hints].filter((h) => h.length > 0).map((h) => (h.length === 1 ? h[0]! : `(and ${h.join(" ")})`)) };
      return { found: await readCounterexample(get, world, q, { names, indices: live.map(({ i }) => i), declared }, reading) };
    });
    budget.note(answer);
    used += answer.used ?? 0;
    const steered = steers.length > 0;
    steers = steers.slice(1);
    if (answer.status !== "sat") {
      if (steered) continue;
      const { used: _used, ...settled } = answer;
      return { ...settled, used };
    }
    const r = answer.result;
    if ("found" in r) return { status: "sat", ...r.found, used };
    if ("unchecked" in r) return { status: "unknown", used, reason: `a model depends on ${r.unchecked.what} inside a loop over an array of unknown length (first at ${lineOf(conversions, r.unchecked)}), which is not modelled exactly there` };
    r.refine.forEach((f) => conversions.learn(f));
    if (++refinements >= MAX_REFINEMENTS) {
      const kind = conversions.kinds.values().next().value!;
      return { status: "unknown", used, reason: `models kept depending on ${kind.kind.what} (first at ${lineOf(conversions, kind.kind)}) after ${MAX_REFINEMENTS} corrections by JavaScript's own result` };
    }
    if (!steered) steers = [...r.steers];
  }
}

/** How many times a query is asked again with facts that correct a model's conversions. */
const MAX_REFINEMENTS = 12;

function lineOf(conversions: World["conversions"], kind: ConversionKind): string {
  const at = conversions.kinds.get(kind.fn)?.at;
  if (!at) return "?";
  const sf = at.getSourceFile();
  const { line, character } = sf.getLineAndCharacterOfPosition(at.getStart());
  return `line ${line + 1}, column ${character + 1}`;
}

/** A solver failure (a rejected query, a lost session) leaves a precondition or throw undecided: refused. */
export async function undecidedOnSolverError(outcome: Promise<Outcome>): Promise<Outcome> {
  try {
    return await outcome;
  } catch (error) {
    if (error instanceof SolverError) return { status: "unknown", reason: `the solver failed: ${error.message}` };
    throw error;
  }
}
