/** What the solver session (z3.ts) answers, and how one of its attempts ends. */

/** The solver's answer to one query. */
export type SolverAnswer<T> = (
  | { readonly status: "sat"; readonly result: T }
  | { readonly status: "unsat" }
  | {
      readonly status: "unknown";
      readonly reason: string;
      /** Set when the wall clock (the backstop or the program's budget) ended the query, not Z3's resource limit: not final. */
      readonly wallClock?: boolean;
    }
) & {
  /** Z3 resource units the query used over all its attempts (deterministic, unlike its time). */
  readonly used?: number;
};

/** The reason an attempt gives when its resource slice ran out (a larger one may answer). */
export const SLICE_OVER = "resource slice spent";
/** The start of the reason when Z3 reached its memory cap (the instance is then replaced). */
export const MEMORY_CAP = "the solver reached its memory cap";

/** How one attempt ended: an answer, a reason it gave none, or the wall clock. */
export type AttemptEnd<T> =
  | { readonly kind: "answer"; readonly answer: SolverAnswer<T>; readonly used: number }
  | { readonly kind: "none"; readonly reason: string; readonly used: number }
  | { readonly kind: "wallClock"; readonly used: number };
