/**
 * The Boolean and arithmetic skeleton of a query: every term over floating point or strings that
 * stands where a Boolean, an integer or a real is expected is replaced by a fresh constant of
 * that sort (syntactically equal terms by the same one), and the declarations of floating-point
 * and string symbols are dropped. What is left is linear integer arithmetic and propositional
 * logic, which the SMT core decides in a millisecond or two.
 *
 * The skeleton is an over-approximation: any model of the query becomes a model of the skeleton
 * by giving each fresh constant the value its term has there. So an `unsat` of the skeleton is an
 * `unsat` of the query, and a `sat` says nothing (z3.ts never reads its model).
 *
 * Why: many guarantees do not depend on the values the theories hold. "At most five tickets are
 * closed" over `pending.filter((t) => t.priority >= 4).slice(0, 5)` is a fact about the count
 * whatever the priorities are, yet as written the query bit-blasts twelve float comparisons
 * (about 60 ms); its skeleton is unsat in about 2 ms.
 *
 * Only quantifier-free queries without `let` or defined functions with parameters are abstracted:
 * a term with a bound variable cannot be replaced by one constant (`∃x. p(x) ∧ ∃y. ¬p(y)` would
 * become `b ∧ ¬b`). Anything this module does not recognise leaves the query without a skeleton.
 */
import { isList, printSExpr, type SExpr } from "./sexpr";

type Sort = "Bool" | "Int" | "Real" | "theory";

const CONNECTIVES = new Set(["not", "and", "or", "=>", "xor"]);
const ARITH_SAME = new Set(["+", "-", "*", "abs"]);
const ARITH_INT = new Set(["div", "mod", "to_int"]);
const ARITH_BOOL = new Set(["<", "<=", ">", ">=", "is_int"]);
/** Floating-point and string operations whose value is a Boolean, an integer or a real. */
const THEORY_RESULTS: Record<string, Sort> = {
  "fp.leq": "Bool", "fp.lt": "Bool", "fp.geq": "Bool", "fp.gt": "Bool", "fp.eq": "Bool",
  "fp.isNormal": "Bool", "fp.isSubnormal": "Bool", "fp.isZero": "Bool", "fp.isInfinite": "Bool", "fp.isNaN": "Bool", "fp.isNegative": "Bool", "fp.isPositive": "Bool",
  "fp.to_real": "Real",
  "str.len": "Int", "str.to_int": "Int", "str.indexof": "Int", "str.to_code": "Int",
  "str.<": "Bool", "str.<=": "Bool", "str.prefixof": "Bool", "str.suffixof": "Bool", "str.contains": "Bool", "str.in_re": "Bool", "str.is_digit": "Bool",
};
const THEORY_PREFIXES = ["fp.", "str.", "re."];
const THEORY_CONSTANTS = new Set(["RNE", "RNA", "RTP", "RTN", "RTZ", "roundNearestTiesToEven", "roundNearestTiesToAway", "roundTowardPositive", "roundTowardNegative", "roundTowardZero", "re.none", "re.all", "re.allchar"]);
const INTEGER = /^(?:0|[1-9]\d*)$/;
const DECIMAL = /^(?:0|[1-9]\d*)\.\d+$/;

class NoSkeleton extends Error {}


function sortNamed(s: SExpr): Sort {
  return s === "Bool" || s === "Int" || s === "Real" ? s : "theory";
}

const light = (s: Sort): boolean => s !== "theory";

/**
 * The skeleton of a query given as its parsed commands, as SMT-LIB text; undefined when the query
 * has no floating-point or string term to abstract, or a construct this module does not handle.
 */
export function skeletonOf(commands: readonly SExpr[]): string | undefined {
  try {
    return new Skeleton().of(commands);
  } catch (error) {
    if (error instanceof NoSkeleton) return undefined;
    throw error;
  }
}

class Skeleton {
  /** Sorts of the constants and zero-ary definitions in scope. */
  private readonly constants = new Map<string, Sort>();
  /** Declared functions: their argument and result sorts. */
  private readonly functions = new Map<string, { args: Sort[]; result: Sort }>();
  /** Each abstracted term's text → its fresh constant. */
  private readonly fresh = new Map<string, string>();
  private readonly freshDeclarations: string[] = [];

  of(commands: readonly SExpr[]): string | undefined {
    const out: string[] = [];
    let theory = false;
    for (const c of commands) {
      if (!isList(c) || typeof c[0] !== "string") throw new NoSkeleton();
      const [cmd, name, ...rest] = c;
      if (cmd === "set-option" || cmd === "set-info" || cmd === "check-sat") continue;
      if (cmd === "declare-const" && typeof name === "string" && rest.length === 1) {
        const sort = sortNamed(rest[0]!);
        this.constants.set(name, sort);
        if (light(sort)) out.push(printSExpr(c));
        else theory = true;
      } else if (cmd === "declare-fun" && typeof name === "string" && rest.length === 2 && isList(rest[0]!)) {
        const args = rest[0].map(sortNamed);
        const result = sortNamed(rest[1]!);
        if (args.length === 0) this.constants.set(name, result);
        else this.functions.set(name, { args, result });
        if (light(result) && args.every(light)) out.push(printSExpr(c));
        else theory = true;
      } else if (cmd === "define-fun" && typeof name === "string" && rest.length === 3 && isList(rest[0]!)) {
        if (rest[0].length > 0) throw new NoSkeleton();
        const sort = sortNamed(rest[1]!);
        if (light(sort)) out.push(printSExpr(["define-fun", name, [], rest[1]!, this.abstract(rest[2]!)]));
        else theory = true;
        this.constants.set(name, sort);
      } else if (cmd === "assert" && c.length === 2) {
        if (this.sortOf(name!) !== "Bool") throw new NoSkeleton();
        out.push(printSExpr(["assert", this.abstract(name!)]));
      } else throw new NoSkeleton();
    }
    if (!theory && this.fresh.size === 0) return undefined;
    return [...this.freshDeclarations, ...out].join("\n");
  }

  /** The term with its theory parts replaced; `e` has a Boolean, integer or real sort. */
  private abstract(e: SExpr): SExpr {
    if (!isList(e)) {
      if (!light(this.sortOf(e))) throw new NoSkeleton();
      return e; // a constant of a light sort, a numeral, true or false
    }
    const [head, ...args] = e;
    if (typeof head === "string") {
      if (CONNECTIVES.has(head) || ARITH_SAME.has(head) || ARITH_INT.has(head) || ARITH_BOOL.has(head) || head === "/" || head === "to_real") return [head, ...args.map((a) => this.abstract(a))];
      if (head === "ite" && args.length === 3) return ["ite", ...args.map((a) => this.abstract(a))];
      if ((head === "=" || head === "distinct") && args.length >= 2) return light(this.sortOf(args[0]!)) ? [head, ...args.map((a) => this.abstract(a))] : this.freshFor(e);
      const f = this.functions.get(head);
      if (f) return f.args.every(light) ? [head, ...args.map((a) => this.abstract(a))] : this.freshFor(e);
    }
    return this.freshFor(e);
  }

  private freshFor(e: SExpr): string {
    const sort = this.sortOf(e);
    if (!light(sort)) throw new NoSkeleton();
    const text = printSExpr(e);
    let name = this.fresh.get(text);
    if (name === undefined) {
      name = `skeleton!${this.fresh.size}`;
      this.fresh.set(text, name);
      this.freshDeclarations.push(`(declare-const ${name} ${sort})`);
    }
    return name;
  }

  /** The sort of a term; throws NoSkeleton for what this module does not know. */
  private sortOf(e: SExpr): Sort {
    if (!isList(e)) {
      if (e === "true" || e === "false") return "Bool";
      if (INTEGER.test(e)) return "Int";
      if (DECIMAL.test(e)) return "Real";
      if (e.startsWith('"') || THEORY_CONSTANTS.has(e)) return "theory";
      const known = this.constants.get(e);
      if (known) return known;
      throw new NoSkeleton();
    }
    const [head, ...args] = e;
    if (head === undefined) throw new NoSkeleton();
    if (isList(head)) {
      // Indexed operators: `(_ to_fp 11 53)`, `(_ fp.to_sbv 64)`, `(_ re.loop 1 3)`: theory values.
      if (head[0] === "_") return "theory";
      throw new NoSkeleton();
    }
    if (head === "_" || head === "fp") return "theory";
    if (CONNECTIVES.has(head) || ARITH_BOOL.has(head) || head === "=" || head === "distinct") return "Bool";
    if (head === "ite" && args.length === 3) return this.sortOf(args[1]!);
    if (ARITH_SAME.has(head) && args.length > 0) return this.sortOf(args[0]!);
    if (ARITH_INT.has(head)) return "Int";
    if (head === "/" || head === "to_real") return "Real";
    if (Object.hasOwn(THEORY_RESULTS, head)) return THEORY_RESULTS[head]!;
    if (THEORY_PREFIXES.some((p) => head.startsWith(p))) return "theory";
    const f = this.functions.get(head);
    if (f && f.args.length === args.length) return f.result;
    // let, forall, exists, as, annotations, unknown operators.
    throw new NoSkeleton();
  }
}
