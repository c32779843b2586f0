/**
 * Which cells to change (guess/search.ts): the constants and functions read by the atoms that keep
 * the query's assertions from holding, found by following the connectives down the cheapest way
 * to make each assertion true, as guess/evaluate.ts measures distances.
 */
import type { SExpr } from "../sexpr";
import type { QueryState, Reads } from "./evaluate";

/** The cells the failing atoms read, constants and functions by index. */
export function blame(q: QueryState): Reads {
  const into: Reads = { constants: new Set(), functions: new Set() };
  for (const a of q.assertions) blameInto(q, a, true, into);
  return into;
}

function blameInto(q: QueryState, e: SExpr, want: boolean, into: Reads): void {
  if (q.dist(e, want) === 0) return;
  if (typeof e === "string") {
    const body = q.definitionBody(e);
    if (body !== undefined) return blameInto(q, body, want, into);
    return q.readsInto(e, into);
  }
  switch (e[0]) {
    case "not": return blameInto(q, e[1]!, !want, into);
    case "and": case "or": {
      if (want === (e[0] === "and")) { for (let i = 1; i < e.length; i++) blameInto(q, e[i]!, want, into); return; }
      // The nearest child that the cells can change (a check the encoder found constant, `(and
      // true (not true))`, is near too, but no cell makes it hold).
      let best = 0;
      for (let i = 1; i < e.length; i++) if (!q.fixed(e[i]!) && (best === 0 || q.dist(e[i]!, want) < q.dist(e[best]!, want))) best = i;
      if (best > 0) blameInto(q, e[best]!, want, into);
      return;
    }
    case "=>":
      if (!want) { blameInto(q, e[1]!, true, into); blameInto(q, e[2]!, false, into); return; }
      return q.dist(e[1]!, false) <= q.dist(e[2]!, true) ? blameInto(q, e[1]!, false, into) : blameInto(q, e[2]!, true, into);
    case "ite":
      if (typeof q.value(e[2]!) !== "boolean") break;
      if (q.dist(e[1]!, true) + q.dist(e[2]!, want) <= q.dist(e[1]!, false) + q.dist(e[3]!, want)) { blameInto(q, e[1]!, true, into); blameInto(q, e[2]!, want, into); } else { blameInto(q, e[1]!, false, into); blameInto(q, e[3]!, want, into); }
      return;
  }
  q.readsInto(e, into);
}
