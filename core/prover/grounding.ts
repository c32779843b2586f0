/**
 * The ground abstraction of a query with quantifiers: every closed quantified subformula
 * (`(forall ((j Int)) …)`, `(exists …)` mentioning no variable bound outside it) is replaced by a
 * fresh Boolean constant, syntactically equal ones by the same constant, and one that reads a
 * defined function's parameters by a fresh predicate applied to them (h53 i37: "some earlier
 * iteration added this key", `∃j < k. …`, inside the path condition of iteration `k`). What is left has no
 * quantifier, so it goes to the engines that decide quantifier-free queries (the bit-blasting
 * pipeline for floating point, attempts.ts), where a query with quantifiers has only the general
 * solver (h50 i14: a `Math.round` check next to a counted filter and a sort ran out of 50 million
 * units there).
 *
 * Like the skeleton (abstraction.ts) it over-approximates: a model of the query is a model of the
 * ground query once each fresh constant takes its formula's value there. So an `unsat` of the
 * ground query is an `unsat` of the query, and its models are never read (z3.ts). It helps where a
 * guarantee does not depend on what the quantifiers say (facts about a filter's count, a sort's
 * positions, a loop's iterations that the violation does not read).
 */
import { isList, printSExpr, type SExpr } from "./sexpr";

const BINDERS: ReadonlySet<string> = new Set(["forall", "exists"]);

/** The names a binder binds: `((j Int) (k Int))` of a quantifier, `((x t) …)` of a `let`. */
function boundBy(e: SExpr[]): string[] {
  const vars = e[1];
  return isList(vars) ? vars.flatMap((v) => (isList(v) && typeof v[0] === "string" ? [v[0]] : [])) : [];
}

class NotClosed extends Error {}

/** The variables bound around a term: a definition's parameters with their sorts; a `let`'s names with none (their sorts are not written). */
type Outer = ReadonlyMap<string, SExpr | undefined>;

class Grounding {
  /** Each abstracted quantifier (its text and the sorts of the outer variables it reads) → its fresh name and declaration. */
  readonly fresh = new Map<string, { name: string; declaration: string }>();
  private next = 0;

  /** `taken`: every symbol of the query (a fresh constant's name is none of them). */
  constructor(private readonly taken: ReadonlySet<string>) {}

  /**
   * `e` with its quantified subformulas replaced: a closed one by a fresh constant, one that reads
   * a definition's parameters (`∃j < k. added(j)` in a definition of `k`) by a fresh predicate
   * applied to them, so that the same formula of the same values is the same truth value.
   */
  ground(e: SExpr, outer: Outer): SExpr {
    if (!isList(e)) return e;
    const head = e[0];
    if (typeof head === "string" && BINDERS.has(head)) {
      const read = [...outer.keys()].filter((v) => mentions(e, new Set([v]))).sort();
      // A `let` variable's sort is not written where it is bound: a quantifier reading one is not abstracted.
      if (read.some((v) => outer.get(v) === undefined)) throw new NotClosed();
      const sorts = read.map((v) => printSExpr(outer.get(v)!));
      const key = `${printSExpr(e)}\u0000${sorts.join(" ")}`;
      let entry = this.fresh.get(key);
      if (entry === undefined) {
        let name: string;
        do name = `ground!${this.next++}`;
        while (this.taken.has(name));
        entry = { name, declaration: read.length === 0 ? `(declare-const ${name} Bool)` : `(declare-fun ${name} (${sorts.join(" ")}) Bool)` };
        this.fresh.set(key, entry);
      }
      return read.length === 0 ? entry.name : [entry.name, ...read];
    }
    if (head === "let") {
      const inner = new Map(outer);
      for (const v of boundBy(e)) inner.set(v, undefined);
      const bindings = isList(e[1]) ? e[1].map((b) => (isList(b) && b.length === 2 ? [b[0]!, this.ground(b[1]!, outer)] : b)) : e[1]!;
      return ["let", bindings, ...e.slice(2).map((x) => this.ground(x, inner))];
    }
    return e.map((x) => this.ground(x, outer));
  }
}

/** Whether `e` mentions one of `names` as a symbol (a variable bound outside it). */
function mentions(e: SExpr, names: ReadonlySet<string>): boolean {
  if (names.size === 0) return false;
  if (!isList(e)) return names.has(e);
  return e.some((x) => mentions(x, names));
}

/** How many instances one quantifier gets at most, and how many rounds find new terms. */
const MAX_INSTANCES = 40;
const ROUNDS = 2;

/** `e` with the symbol `v` replaced by `t` (bound names are fresh: no binder inside shadows `v`). */
function substitute(e: SExpr, v: string, t: SExpr): SExpr {
  return isList(e) ? e.map((x) => substitute(x, v, t)) : e === v ? t : e;
}

/**
 * The terms each function is applied to, by argument position, outside every binder (`f → k →
 * printed term → term`), from `e`.
 */
function applications(e: SExpr, functions: ReadonlySet<string>, into: Map<string, Map<number, Map<string, SExpr>>>): void {
  if (!isList(e)) return;
  const head = e[0];
  if (typeof head === "string" && (BINDERS.has(head) || head === "let")) return;
  if (typeof head === "string" && functions.has(head)) {
    let byPos = into.get(head);
    if (!byPos) into.set(head, (byPos = new Map()));
    for (let k = 1; k < e.length; k++) {
      let terms = byPos.get(k);
      if (!terms) byPos.set(k, (terms = new Map()));
      terms.set(printSExpr(e[k]!), e[k]!);
    }
  }
  for (const x of e) applications(x, functions, into);
}

/** The (function, position) pairs where `v` stands alone as an argument in `body`: its triggers. */
function triggers(body: SExpr, v: string, functions: ReadonlySet<string>, into: Set<string>): void {
  if (!isList(body)) return;
  if (typeof body[0] === "string" && functions.has(body[0])) for (let k = 1; k < body.length; k++) if (body[k] === v) into.add(`${body[0]} ${k}`);
  for (const x of body) triggers(x, v, functions, into);
}

/**
 * Top-level `(assert (forall ((v Int)) body))` instantiated at the terms the query applies the
 * same functions to, in the positions where `v` stands (`(sortedFrom 0)` gives `v := 0`): each
 * instance holds wherever the quantifier does, so the instances are weaker than it, and the
 * query with them an over-approximation still. Returns the instances as assertions.
 */
function instantiate(commands: readonly SExpr[]): SExpr[] {
  const functions = new Set<string>();
  for (const c of commands) if (isList(c) && c[0] === "declare-fun" && typeof c[1] === "string" && isList(c[2]) && c[2].length > 0) functions.add(c[1]);
  const quantified: { v: string; body: SExpr; triggers: Set<string>; done: Set<string> }[] = [];
  const ground: SExpr[] = [];
  for (const c of commands) {
    const q = isList(c) && c[0] === "assert" ? c[1] : undefined;
    const vars = isList(q) && q[0] === "forall" && isList(q[1]) ? q[1] : undefined;
    if (vars && vars.length === 1 && isList(vars[0]) && vars[0][1] === "Int" && typeof vars[0][0] === "string") {
      const t = new Set<string>();
      triggers(q![2]!, vars[0][0], functions, t);
      if (t.size > 0) quantified.push({ v: vars[0][0], body: q![2]!, triggers: t, done: new Set() });
    } else if (!(isList(c) && c[0] === "define-fun" && isList(c[2]) && c[2].length > 0)) ground.push(c);
  }
  const instances: SExpr[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const seen = new Map<string, Map<number, Map<string, SExpr>>>();
    for (const c of [...ground, ...instances]) applications(c, functions, seen);
    let added = false;
    for (const q of quantified) {
      for (const trig of q.triggers) {
        const [f, k] = trig.split(" ") as [string, string];
        for (const [key, t] of seen.get(f)?.get(Number(k)) ?? []) {
          if (q.done.has(key) || q.done.size >= MAX_INSTANCES) continue;
          q.done.add(key);
          instances.push(["assert", substitute(q.body, q.v, t)]);
          added = true;
        }
      }
    }
    if (!added) break;
  }
  return instances;
}

/**
 * The ground query of parsed commands as SMT-LIB text, or undefined when there is no quantifier
 * to abstract or one reads a `let` variable.
 * Top-level universal assertions are first instantiated (`instantiate`), then abstracted.
 */
export function groundOf(commands: readonly SExpr[]): string | undefined {
  const taken = new Set<string>();
  const atoms = (e: SExpr): void => void (isList(e) ? e.forEach(atoms) : taken.add(e));
  commands.forEach(atoms);
  const g = new Grounding(taken);
  const out: string[] = [];
  try {
    for (const c of [...commands, ...instantiate(commands)]) {
      if (isList(c) && c[0] === "define-fun" && isList(c[2])) {
        const params = new Map<string, SExpr | undefined>();
        for (const p of c[2]) if (isList(p) && p.length === 2 && typeof p[0] === "string") params.set(p[0], p[1]!);
        out.push(printSExpr([...c.slice(0, 4), g.ground(c[4]!, params)]));
      } else out.push(printSExpr(isList(c) && c[0] === "assert" ? ["assert", g.ground(c[1]!, new Map())] : c));
    }
  } catch (error) {
    if (error instanceof NotClosed) return undefined;
    throw error;
  }
  if (g.fresh.size === 0) return undefined;
  const declarations = [...g.fresh.values()].map((f) => f.declaration);
  // The constants first: a definition may read one.
  const options = out.filter((l) => l.startsWith("(set-option"));
  return [...options, ...declarations, ...out.filter((l) => !l.startsWith("(set-option"))].join("\n");
}
