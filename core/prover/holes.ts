/**
 * Soundness holes that were found and closed, each with an id. The differential tester re-opens
 * one at a time (`reopenHole`) to show that it would have found it; nothing else may set them.
 * The package's public entry points never export this module.
 */
export const HOLES = {
  /** A `switch` clause ending in a block `{ … }` was treated as ending the clause (JavaScript falls through). */
  "switch-fallthrough": "a switch clause that ends in a block is taken to end the clause",
  /** `x++`, `x--` and compound assignment on strings were modelled as concatenation (JavaScript converts with ToNumeric). */
  "increment-non-number": "++/-- on a string is modelled as concatenation",
  /** Values of unmodelled types (`string | undefined`, objects) were truthy, defined and non-nullish. */
  "opaque-truthy": "a value of an unmodelled type is assumed truthy and defined",
  /** Every execution of one call site shared the elements of the array it returned. */
  "shared-call-results": "two executions of one call site share their array elements",
  /** Loop-index renaming rewrote text inside string literals. */
  "rename-in-literals": "renaming rewrites inside string literals",
  /** A `let`/`const` read before its declaration ran (in a later loop iteration) saw the earlier iteration's value. */
  "tdz": "a variable read before its declaration sees a stale value",
  /** The bound of an integer sum was added in doubles (2^53 − 2 + 3 rounds to 2^53 and passed for exact); found while writing the integer encoding. */
  "integer-bound-in-doubles": "the magnitude bound of an integer sum is added in doubles",
  /** Candidate invariants of a loop's carried state checked at k = 0 only, never inductively (written to show the tester finds it). */
  "loop-invariant-base-only": "a loop's invariant candidates are checked at the first iteration only",
} as const;

export type Hole = keyof typeof HOLES;

const open = new Set<Hole>();

/** Test-only: re-open a closed hole until the returned function is called. */
export function reopenHole(hole: Hole): () => void {
  open.add(hole);
  return () => open.delete(hole);
}

/** Whether a hole is re-opened (tests only; always false in a real run). */
export function holeOpen(hole: Hole): boolean {
  return open.size > 0 && open.has(hole);
}
