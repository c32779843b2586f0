/**
 * The ground abstraction of a query with quantifiers: every closed quantified subformula
 * (`(forall ((j Int)) …)`, `(exists …)` mentioning no variable bound outside it) is replaced by a
 * fresh Boolean constant, syntactically equal ones by the same constant. What is left has no
 * quantifier, so it goes to the engines that decide quantifier-free queries (the bit-blasting
 * pipeline for floating point, attempts.ts), where a query with quantifiers has only the general
 * solver (h50 i14: a `Math.round` check next to a counted filter and a sort ran out of 50 million
 * units there).
 *
 * Like the skeleton (abstraction.ts) it over-approximates: a model of the query is a model of the
 * ground query once each fresh constant takes its formula's value there. So an `unsat` of the
 * ground query is an `unsat` of the query, and its models are never read (z3.ts). It helps where a
 * guarantee does not depend on what the quantifiers say (a facts about a filter's count, a sort's
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

class Grounding {
  readonly fresh = new Map<string, string>();

  /** `e` with its closed quantified subformulas replaced; `outer`: the variables bound around it. */
  ground(e: SExpr, outer: ReadonlySet<string>): SExpr {
    if (!isList(e)) return e;
    const head = e[0];
    if (typeof head === "string" && BINDERS.has(head)) {
      // A quantifier under another binder that reads its variables cannot be one constant.
      if (mentions(e, outer)) throw new NotClosed();
      const key = printSExpr(e);
      let name = this.fresh.get(key);
      if (name === undefined) {
        name = `ground!${this.fresh.size}`;
        this.fresh.set(key, name);
      }
      return name;
    }
    if (head === "let") {
      const inner = new Set([...outer, ...boundBy(e)]);
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

/**
 * The ground query of parsed commands as SMT-LIB text, or undefined when there is no quantifier
 * to abstract or one is not closed (it reads a function parameter or an outer bound variable).
 */
export function groundOf(commands: readonly SExpr[]): string | undefined {
  const g = new Grounding();
  const out: string[] = [];
  try {
    for (const c of commands) {
      if (isList(c) && c[0] === "define-fun" && isList(c[2])) {
        const params = new Set(boundBy(["", c[2]]));
        out.push(printSExpr([...c.slice(0, 4), g.ground(c[4]!, params)]));
      } else out.push(printSExpr(isList(c) && c[0] === "assert" ? ["assert", g.ground(c[1]!, new Set())] : c));
    }
  } catch (error) {
    if (error instanceof NotClosed) return undefined;
    throw error;
  }
  if (g.fresh.size === 0) return undefined;
  const declarations = [...g.fresh.values()].map((name) => `(declare-const ${name} Bool)`);
  // The constants first: a definition may read one.
  const options = out.filter((l) => l.startsWith("(set-option"));
  return [...options, ...declarations, ...out.filter((l) => !l.startsWith("(set-option"))].join("\n");
}
