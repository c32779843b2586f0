/**
 * Which solvers and formulations a query is tried with, in which order, and with what resource
 * slices (z3.ts runs them).
 */
import type { Theories } from "./theories";

/**
 * The solvers of a query, all in the query's own context:
 * - `general`: Z3's default solver: the SMT core with every theory.
 * - `fp`: bit-blasting for floating point and Booleans only — `fpa2bv` turns IEEE operations into
 *   bit-vector circuits, `bit-blast` and `aig` into a compressed propositional formula, `sat`
 *   decides it. Complete and exact for that fragment (no approximation steps), and orders of
 *   magnitude faster than the SMT core's lazy floating-point theory on sums and products.
 * - `fpMixed`: the same translation to a propositional formula for the floating-point part,
 *   followed by the SMT core for the rest, for floating point next to strings, integers or
 *   functions (not conversions between floats and other sorts).
 * - `core`: the SMT core without the default solver's preprocessing (Z3's simple solver). It
 *   solves a query's skeleton (abstraction.ts), whose model is never read: over the async corpus's
 *   450 skeletons it answered 203 unsat against 189, ran out of its slice 2 times against 38, and
 *   took two thirds of the time. It is also the short first try of string and arithmetic queries
 *   ({@link CORE_FIRST_SLICE}).
 * Every query gets a fresh context (about 0.4 ms), and its solvers are reset after each attempt: an
 * answer depends only on the query's text and its resource limit, never on the queries before it.
 * Reusing the general solver with push/pop was about 10% faster over the corpus, but Z3 keeps
 * random state and caches across pops, which made the time of one string query vary from 40 ms to
 * over 20 s with what came before it; and a shared context numbers new terms after the old ones,
 * which changed the work (3741 against 3956 resource units) and could change the model of the
 * same query asked again.
 */
export type EngineName = "general" | "fp" | "fpMixed" | "core";
export const TACTICS: Record<Exclude<EngineName, "general" | "core">, readonly string[]> = {
  fp: ["simplify", "propagate-values", "fpa2bv", "propagate-values", "simplify", "bit-blast", "aig", "sat"],
  fpMixed: ["simplify", "propagate-values", "fpa2bv", "propagate-values", "simplify", "bit-blast", "aig", "smt"],
};

/**
 * `words`: the original with literal prefixes and suffixes as substring equations; `skeleton`:
 * the query with its floating-point and string terms abstracted (abstraction.ts), an
 * over-approximation whose `unsat` only is believed.
 */
export type Formulation = "original" | "regex" | "words" | "skeleton";
export interface Attempt {
  readonly engine: EngineName;
  readonly formulation: Formulation;
  /** Runs only once every other attempt of the query has ended without running out of resources. */
  readonly fallback?: true;
  /** Runs once, first, with this many resource units, and is not tried again when they run out. */
  readonly once?: number;
}

/**
 * The first resource slice of each attempt when a query has several; each round multiplies it by
 * {@link GROWTH}. A slice is counted in Z3's resource units (`rlimit`), not in time: which attempt
 * answers, and with which model, is then the same on an idle and on a busy machine. Over the
 * corpus the hardest string queries need 5.0–5.7 million units in one attempt: the third round
 * (6.25 million) holds them (docs/determinism.md).
 */
export const FIRST_SLICE = 250_000;
export const GROWTH = 5;
/**
 * The one slice of the skeleton (abstraction.ts), tried once after the first attempt of a query
 * over floating point or strings ran out of its slice. Over the async corpus, nine in ten of the
 * skeletons that are unsat need fewer than 10 000 units, and a satisfiable one about 1 000; a
 * skeleton that keeps a loop's quantified facts over strings (h53 i67: "each order refunded once"
 * over a Set of order ids) needs several hundred thousand, about a second.
 */
export const SKELETON_SLICE = 500_000;
/**
 * The one slice of the simple solver's first try at a query over strings or arithmetic. Over the
 * corpus's 621 string queries (regular-expression formulation, one slice of 250 000 units each):
 * - the simple solver answered 616, the general solver 593; the median query took 5.2 ms against
 *   7.9 ms, and the simple solver was the faster on 553 of them;
 * - but the general solver is the better bet on the hardest ones: the simple solver spends its
 *   units more slowly (up to 1.2 s for 250 000 units, against 45 ms), so it gets a short slice
 *   that holds 609 of its 616 answers, and the general solver's turns follow as before.
 */
export const CORE_FIRST_SLICE = 30_000;
/**
 * The share of a query's resource units its ground query (grounding.ts) may use, tried once when
 * a query with quantifiers ran out of its first slice.
 */
export const GROUND_SHARE = 0.25;
/**
 * The most resource units a ground query gets (about 10 s on an idle machine): the shape it was
 * made for (h50 i14) needs far fewer, and a ground query can only answer unsat, so on a query that
 * is satisfiable (a precondition that fails, h53 i32) its whole share was time taken from the
 * search among short runs that finds the violation.
 */
export const GROUND_MAX = 4_000_000;
/** The regular-expression formulation is dropped when it is this much larger than the original. */
export const REGEX_GROWTH = 8;

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
    // The general solver decides floating point far more slowly per resource unit (30 000 units/s
    // against 180 000 on the corpus) and answered none of its 216 mixed queries first: it is the
    // fallback for what the bit-blasting engine gives up on, not a turn-taker.
    return [...formulations.map((formulation) => ({ engine: "fpMixed" as const, formulation })), { engine: "general", formulation: "original", fallback: true }];
  }
  const general = formulations.map((formulation) => ({ engine: "general" as const, formulation }));
  // Conversions between floating point and other sorts: the general solver only (the simple
  // solver's first try was measured on queries without floating point).
  if (t.fp) return general;
  return [{ engine: "core", formulation: formulations[0]!, once: CORE_FIRST_SLICE }, ...general];
}
