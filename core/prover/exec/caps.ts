/** The executor's documented caps: how far it unrolls, how much work one program may cost. */

/** Path conditions longer than this are named before they split (see `compactPc`). */
export const PC_NAME_AT = 400;
/** Documented unrolling cap for literal arrays and literal-bound `for` loops. */
export const UNROLL_CAP = 1000;
/** Tool-result arrays whose `ensures` bounds the length by at most this many are unrolled exactly. */
export const BOUNDED_UNROLL_CAP = 16;
/** A loop bound that is an integer whose magnitude is known to be at most this many (loops.ts `integerBound`) is unrolled that far, each iteration guarded. */
export const SYMBOLIC_BOUND_CAP = 32;
/**
 * Statements and expressions executed for one program (unrolled loops count every iteration): a
 * deterministic bound on the executor's work (two nested 1000-iteration loops took 27 s), far
 * above the corpus's largest program.
 */
export const EXEC_STEP_LIMIT = 400_000;
/** Characters of one value's term: `s = s + s` in a loop doubles it each time. */
export const TERM_CHAR_LIMIT = 1_000_000;
