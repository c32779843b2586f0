/**
 * The guesser: a model for a satisfiable query found without a solver check. Most queries the
 * prover asks about a violated program are satisfiable in the plainest way (an empty recipient, a
 * list of one element whose amount is over the cap), and a check of a string query costs Z3
 * several milliseconds of theory set-up in wasm however easy it is (docs/benchmarks.md, session
 * 27). The guesser starts from every declared constant and function at its sort's default and
 * improves the assignment by local search: it changes one cell at a time (a constant, or a
 * function at an argument it was applied to) to a value from the query's own literals and their
 * neighbours, and keeps a change that brings the assertions closer to true (guess/evaluate.ts
 * measures how far). It stops at a model, at a local minimum, or when its budget of evaluated terms
 * is spent; then Z3 solves the query as before.
 *
 * A guess is never an answer by itself: z3-guess.ts writes it into a Z3 model and believes it only when
 * Z3 evaluates every assertion of the query to true in that model. So the guesser can only ever
 * turn a satisfiable query into a satisfiable one, never decide unsat, and a wrong evaluation here
 * costs time, not soundness. It is deterministic: the same query gives the same guess.
 */
import type { SExpr } from "../sexpr";
import { blame } from "./blame";
import { QueryState } from "./evaluate";
import { keyOf, OverBudget, type Sort, type Value } from "./values";

/** A model found by the guesser: a value for each declared constant and function. */
export interface Guess {
  readonly constants: readonly { readonly name: string; readonly sort: Sort; readonly value: Value }[];
  readonly functions: readonly {
    readonly name: string;
    readonly domain: readonly Sort[];
    readonly sort: Sort;
    readonly entries: readonly { readonly args: readonly Value[]; readonly value: Value }[];
    readonly elseValue: Value;
  }[];
}

/**
 * Terms evaluated before the guesser gives up, by the length of the query's text: what the guesser
 * adds to a query it cannot answer grows with the query, as Z3's own time does (about 0.1 µs a
 * term: 0.3 ms for a query of 1 000 characters, 2 ms for one of 15 000, at most 4 ms).
 */
export const guessBudget = (textLength: number): number => Math.min(4_000 + textLength / 4, 12_000);
/** Candidate values tried per cell and sort (the pool is cut to its first ones). */
const MAX_CANDIDATES = 24;

/** Why the guesser found nothing, for the query dump. */
export type NoGuess = "unsupported" | "stuck" | "budget";

export function guessModel(commands: readonly SExpr[], budget: number): Guess | NoGuess {
  let q: QueryState;
  try {
    q = new QueryState(commands);
  } catch {
    return "unsupported";
  }
  try {
    q.limit = budget;
    return search(q, budget);
  } catch (error) {
    if (error instanceof OverBudget) return "budget";
    // An operator or sort it does not evaluate, a division by zero, a regular expression too large
    // to match; and anything else that goes wrong while guessing (a definition chain deeper than
    // the stack, a definition that reads itself): a guess is only ever a shortcut, and Z3 still
    // answers the query (an error here must not look like a failure of the solver's instance).
    return "unsupported";
  }
}

/** A cell of the assignment: a constant, a function's value at some arguments, or its value everywhere else. */
interface Cell {
  readonly sort: Sort;
  get(): Value;
  set(v: Value): void;
}

function search(q: QueryState, budget: number): Guess | NoGuess {
  let score = q.score();
  const pool = score > 0 ? pools(q) : undefined;
  while (score > 0) {
    if (q.visits > budget) return "budget";
    const cells = blamedCells(q);
    let improved = false;
    for (const cell of cells) {
      // The best value for each cell (a step of one at a time would crawl towards a bound), cell after
      // cell of those blamed (finding them again after each change would cost more than the change:
      // a list of records has one cell per field and element).
      if (score === 0) break;
      const current = cell.get();
      let best: Value | undefined;
      for (const candidate of candidates(cell.sort, current, pool!)) {
        cell.set(candidate);
        const s = q.score();
        if (s < score) {
          score = s;
          best = candidate;
          if (s === 0) break;
        }
        if (q.visits > budget) break;
      }
      cell.set(best ?? current);
      if (best !== undefined) improved = true;
      if (q.visits > budget) return "budget";
    }
    if (!improved) return "stuck";
  }
  // The distance is a heuristic; the values are what counts (and Z3 checks them again).
  if (!q.holds()) return "stuck";
  return {
    constants: q.constants.map((c) => ({ name: c.name, sort: c.sort, value: c.value })),
    functions: q.functions.map((f) => ({ name: f.name, domain: f.domain, sort: f.sort, entries: [...f.entries.values()].map((e) => ({ args: e.args, value: e.value })), elseValue: f.elseValue })),
  };
}

/** The cells read by the atoms that keep the query from holding, constants first. */
function blamedCells(q: QueryState): Cell[] {
  const { constants, functions } = blame(q);
  const cells: Cell[] = [];
  for (const i of [...constants].sort((a, b) => a - b)) {
    const c = q.constants[i]!;
    cells.push({ sort: c.sort, get: () => c.value, set: (v) => { c.value = v; q.changed(c); } });
  }
  for (const i of [...functions].sort((a, b) => a - b)) {
    const f = q.functions[i]!;
    for (const [key, args] of [...f.applied].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      cells.push({
        sort: f.sort,
        get: () => f.entries.get(key)?.value ?? f.elseValue,
        set: (v) => {
          const entry = f.entries.get(key);
          if (entry) entry.value = v;
          else f.entries.set(key, { args, value: v });
          q.changedAt(f, key);
        },
      });
    }
    cells.push({ sort: f.sort, get: () => f.elseValue, set: (v) => { f.elseValue = v; q.changedAt(f, undefined); } });
  }
  return cells;
}

interface Pools {
  readonly strings: readonly string[];
  readonly ints: readonly bigint[];
  readonly floats: readonly number[];
}

/** The values worth trying, from the query's literals: plain values first, then the literals and their neighbours. */
function pools(q: QueryState): Pools {
  const literals = q.literals();
  const ints = new Set<bigint>([0n, 1n, 2n, 3n, -1n]);
  for (const i of literals.ints) for (const d of [0n, 1n, -1n]) ints.add(i + d);
  const floats = new Set<number>([0, 1, -1, 2, 0.5]);
  for (const f of literals.floats) for (const g of [f, f + 1, f - 1, f * 2, f / 2]) floats.add(g);
  for (const i of literals.ints) floats.add(Number(i) + 1);
  floats.add(NaN);
  floats.add(Infinity);
  const strings = new Set<string>(["", "a"]);
  for (const s of literals.strings) strings.add(s);
  // What one literal adds to another (`"tmp/keep"` after `"tmp/"` is `"keep"`): the value an
  // operand needs when a literal is prefixed or appended to it and the result compared with another.
  const texts = [...literals.strings].filter((t) => t !== "").slice(0, MAX_CANDIDATES);
  for (const a of texts) {
    for (const b of texts) {
      if (b.length > a.length && b.startsWith(a)) strings.add(b.slice(a.length));
      if (b.length > a.length && b.endsWith(a)) strings.add(b.slice(0, b.length - a.length));
    }
  }
  // A literal twice (what is still there after one occurrence is replaced), and its first character
  // and all but its last (a text that is a proper prefix of it).
  for (const a of texts) {
    strings.add(a + a);
    strings.add(a[0]!);
    if (a.length > 1) strings.add(a.slice(0, -1));
  }
  return { strings: [...strings], ints: [...ints], floats: [...floats] };
}

function candidates(sort: Sort, current: Value, pool: Pools): Value[] {
  const out: Value[] = [];
  const seen = new Set([keyOf([current])]);
  const add = (v: Value): void => {
    const key = keyOf([v]);
    if (out.length < MAX_CANDIDATES * 2 && !seen.has(key)) {
      seen.add(key);
      out.push(v);
    }
  };
  switch (sort) {
    case "Bool": add(!current); break;
    case "Int": {
      const c = current as bigint;
      for (const v of [c + 1n, c - 1n, ...pool.ints.slice(0, MAX_CANDIDATES)]) add(v);
      break;
    }
    case "Float64": {
      const c = current as number;
      for (const v of [c + 1, c - 1, ...pool.floats.slice(0, MAX_CANDIDATES)]) add(v);
      break;
    }
    case "String": {
      const c = current as string;
      for (const v of pool.strings.slice(0, MAX_CANDIDATES)) add(v);
      // Built up around what is there: a literal before or after it (contains, prefix, suffix).
      for (const lit of pool.strings.slice(0, MAX_CANDIDATES * 2 / 3)) {
        if (lit !== "" && c !== "") { add(c + lit); add(lit + c); }
      }
      break;
    }
  }
  return out;
}
