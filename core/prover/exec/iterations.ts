/**
 * Which iterations of a quantified loop (a `for…of` or a callback over an array of unknown length)
 * start. A throw in one iteration (the program's own `throw`, a value that may be undefined, a
 * failing `requires`, or a failing call inside a `try`) ends the loop there, so the later
 * iterations and their calls never happen: a `try` around the loop that catches it must not count
 * them towards a lower bound (`count().atLeast(n)`), nor let them form a pair.
 *
 * The loop gets a fresh "first stop" index: the first iteration that runs and ends abruptly, or
 * at least the length when none does. Iteration k starts iff k ≤ that index, which keeps the
 * "starts" test free of quantifiers; the index itself is pinned by one universal (no iteration
 * before it ends abruptly) and one ground fact (it is the length, or an iteration that does); when
 * no iteration can end abruptly, it is defined as the length.
 *
 * Only inside a `try`: elsewhere an abrupt end ends the whole run, is itself reported (a reachable
 * throw, a precondition that may fail), and leaves the run incomplete, so letting the later
 * iterations run is conservative for every guarantee, and the universal (over strings, for a
 * `requires` on a string) made proofs of ordinary loops time out.
 */
import { and, implies, not, or, renameSymbols } from "../smt";
import type { Exec } from "./context";
import { declare } from "./fresh";
import { insideTry } from "./try";

export interface Started {
  /** Bool term: the iteration at the loop's index constant starts. */
  readonly term: string;
  /**
   * Pins the first stop once the body has run: `entered` is the path condition on which the
   * iteration at q runs (it includes `term` and q's range), `ended` the one on which it ends
   * normally (or by `continue`).
   */
  close(entered: string, ended: string): void;
}

/** The "iteration starts" test of a quantified loop at index q over an array of length `len`; create it before the body runs. */
export function startedFlag(ex: Exec, q: string, len: string): Started {
  const name = ex.world.fresh("firstStop");
  const outer = [...ex.loops];
  const slot = ex.world.declarations.length;
  declare(ex, name, "Int", outer.length);
  const stop = outer.length === 0 ? name : `(${name} ${outer.join(" ")})`;
  const caught = insideTry(ex);
  return {
    term: `(<= ${q} ${stop})`,
    close(entered, ended) {
      if (ended === entered || !caught) {
        // No iteration can end abruptly, or none is caught: every iteration starts. A definition rather than an
        // assumption: the short-circuiting callbacks move the assumptions made while their body
        // ran into their quantifier (callbacks.ts), where this one would no longer bind the index.
        const params = outer.map((o, i) => [o, `${name}.${i}`] as const);
        ex.world.declarations[slot] = `(define-fun ${name} (${params.map(([, p]) => `(${p} Int)`).join(" ")}) Int ${renameSymbols(len, new Map(params))})`;
        return;
      }
      const j = ex.world.fresh("j");
      const at = (x: string, t: string) => renameSymbols(t, new Map([[q, x]]));
      const facts = [
        `(forall ((${j} Int)) ${implies(and(`(< ${j} ${stop})`, at(j, entered)), at(j, ended))})`,
        or(`(>= ${stop} ${len})`, and(`(<= 0 ${stop})`, `(< ${stop} ${len})`, at(stop, entered), not(at(stop, ended)))),
      ];
      for (const term of facts) ex.world.assumptions.push({ term, loops: outer });
    },
  };
}
