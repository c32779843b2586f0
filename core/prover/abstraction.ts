/**
 * The skeleton of a query: strings and doubles become uninterpreted sorts, and every string and
 * floating-point operation an uninterpreted function (one per operator, its fixed arguments such
 * as a rounding mode or a regular expression of literals, and its arguments' sorts). String
 * literals become distinct constants, double literals constants. What is left is linear integer
 * arithmetic, equality over free sorts and functions, and propositional logic, which the SMT core
 * decides in milliseconds: congruence still knows that the same operation of equal arguments is
 * equal (`seen.has(sku)` at one iteration and the key added at another), not what it computes.
 *
 * The skeleton is an over-approximation: any model of the query becomes a model of the skeleton by
 * interpreting the sorts as the strings and the doubles and each function as its operation. So an
 * `unsat` of the skeleton is an `unsat` of the query; z3.ts never reads a skeleton's model.
 *
 * Why: many guarantees do not depend on the values the theories hold. "At most five tickets are
 * closed" over `pending.filter((t) => t.priority >= 4).slice(0, 5)` is a fact about the count
 * whatever the priorities are, yet as written the query bit-blasts twelve float comparisons
 * (about 60 ms); its skeleton is unsat in about 2 ms.
 *
 * What the operations cannot take apart (a quantifier over another sort, a regular expression
 * built from a variable) becomes a fresh function of the symbols of kept sorts it reads, the same
 * shape over other symbols the same function. A `let`, another sort (bit-vectors) where a kept one
 * is expected, or anything else this module does not recognise leaves the query without a skeleton.
 *
 * The invariant checks of loops that carry state (loop-invariants.ts) ask their skeleton first and
 * may read its model: the candidates that matter there (a counter equals the calls so far, a flag,
 * a Set's size) hold whatever the strings and floats of the body are, and the body's theory atoms
 * are what made those checks time out.
 */
import { isList, printSExpr, readLiteral, type SExpr } from "./sexpr";
import { parseCommands } from "./tactics";

/** Sorts the skeleton keeps: Booleans and arithmetic as they are, strings and doubles as uninterpreted sorts. */
type Sort = "Bool" | "Int" | "Real" | "Str" | "Fp" | "theory";

const CONNECTIVES = new Set(["not", "and", "or", "=>", "xor"]);
const ARITH_SAME = new Set(["+", "-", "*", "abs"]);
const ARITH_INT = new Set(["div", "mod", "to_int"]);
const ARITH_BOOL = new Set(["<", "<=", ">", ">=", "is_int"]);
/** The values of the floating-point and string operations the skeleton makes uninterpreted functions. */
const THEORY_RESULTS: Record<string, Sort> = {
  "fp.leq": "Bool", "fp.lt": "Bool", "fp.geq": "Bool", "fp.gt": "Bool", "fp.eq": "Bool",
  "fp.isNormal": "Bool", "fp.isSubnormal": "Bool", "fp.isZero": "Bool", "fp.isInfinite": "Bool", "fp.isNaN": "Bool", "fp.isNegative": "Bool", "fp.isPositive": "Bool",
  "fp.to_real": "Real",
  "fp.abs": "Fp", "fp.neg": "Fp", "fp.add": "Fp", "fp.sub": "Fp", "fp.mul": "Fp", "fp.div": "Fp", "fp.fma": "Fp", "fp.sqrt": "Fp", "fp.rem": "Fp", "fp.roundToIntegral": "Fp", "fp.min": "Fp", "fp.max": "Fp",
  "str.len": "Int", "str.to_int": "Int", "str.indexof": "Int", "str.to_code": "Int",
  "str.<": "Bool", "str.<=": "Bool", "str.prefixof": "Bool", "str.suffixof": "Bool", "str.contains": "Bool", "str.in_re": "Bool", "str.is_digit": "Bool",
  "str.++": "Str", "str.at": "Str", "str.substr": "Str", "str.replace": "Str", "str.replace_all": "Str", "str.replace_re": "Str", "str.replace_re_all": "Str", "str.from_int": "Str", "str.from_code": "Str",
};
const THEORY_PREFIXES = ["fp.", "str.", "re."];
const THEORY_CONSTANTS = new Set(["RNE", "RNA", "RTP", "RTN", "RTZ", "roundNearestTiesToEven", "roundNearestTiesToAway", "roundTowardPositive", "roundTowardNegative", "roundTowardZero", "re.none", "re.all", "re.allchar"]);
const FP_LITERALS = new Set(["+zero", "-zero", "+oo", "-oo", "NaN"]);
const INTEGER = /^(?:0|[1-9]\d*)$/;
const DECIMAL = /^(?:0|[1-9]\d*)\.\d+$/;
/** The uninterpreted sorts strings and doubles become (no query symbol has a `!` followed by these words). */
const SORT_TEXT: Record<Sort, string> = { Bool: "Bool", Int: "Int", Real: "Real", Str: "skeleton!String", Fp: "skeleton!Float64", theory: "" };

class NoSkeleton extends Error {}

function sortNamed(s: SExpr): Sort {
  if (s === "Bool" || s === "Int" || s === "Real") return s;
  if (s === "String") return "Str";
  if (isList(s) && s.length === 4 && s[0] === "_" && s[1] === "FloatingPoint" && s[2] === "11" && s[3] === "53") return "Fp";
  if (s === "Float64") return "Fp";
  return "theory";
}

const kept = (s: Sort): boolean => s !== "theory";

/**
 * The skeleton of a query given as its parsed commands, as SMT-LIB text; undefined when the query
 * has no floating-point or string term to abstract, or a construct this module does not handle.
 */
export function skeletonOf(commands: readonly SExpr[]): string | undefined {
  const parts = skeletonParts(commands);
  return parts && [...parts.declarations, ...parts.assertions.map((a) => `(assert ${a})`)].join("\n");
}

/** The skeleton of a query given as `Z3Session.query` takes one (declarations, assertion bodies), in the same form. */
export function skeletonQuery(declarations: string, assertions: readonly string[]): { declarations: string; assertions: string[] } | undefined {
  const parts = skeletonParts(parseCommands(`${declarations}\n${assertions.map((a) => `(assert ${a})`).join("\n")}`));
  return parts && { declarations: parts.declarations.join("\n"), assertions: parts.assertions };
}

function skeletonParts(commands: readonly SExpr[]): { declarations: string[]; assertions: string[] } | undefined {
  try {
    return new Skeleton().of(commands);
  } catch (error) {
    if (error instanceof NoSkeleton) return undefined;
    throw error;
  }
}

const BINDERS = new Set(["forall", "exists"]);

interface Variable {
  readonly name: string;
  readonly sort: Sort;
}

class Skeleton {
  /** Sorts of the constants and zero-ary definitions in scope. */
  private readonly constants = new Map<string, Sort>();
  /** The variables bound around the term being abstracted (quantifiers', parameters'), innermost last. */
  private bound: Variable[] = [];
  /** Declared functions: their argument and result sorts. */
  private readonly functions = new Map<string, { args: Sort[]; result: Sort }>();
  /** Each fresh symbol's key (an operator with its sorts, a literal, a term's shape) → its name. */
  private readonly fresh = new Map<string, string>();
  private readonly freshDeclarations: string[] = [];
  /** The constants standing for string literals: distinct, as the literals are. */
  private readonly texts: string[] = [];
  private readonly sorts = new Set<Sort>();

  of(commands: readonly SExpr[]): { declarations: string[]; assertions: string[] } | undefined {
    const out: string[] = [];
    const assertions: string[] = [];
    for (const c of commands) {
      if (!isList(c) || typeof c[0] !== "string") throw new NoSkeleton();
      const [cmd, name, ...rest] = c;
      if (cmd === "set-option" || cmd === "set-info" || cmd === "check-sat") continue;
      if (cmd === "declare-const" && typeof name === "string" && rest.length === 1) {
        const sort = sortNamed(rest[0]!);
        this.constants.set(name, sort);
        if (kept(sort)) out.push(`(declare-const ${name} ${this.text(sort)})`);
      } else if (cmd === "declare-fun" && typeof name === "string" && rest.length === 2 && isList(rest[0]!)) {
        const args = rest[0].map(sortNamed);
        const result = sortNamed(rest[1]!);
        if (args.length === 0) this.constants.set(name, result);
        else this.functions.set(name, { args, result });
        if (kept(result) && args.every(kept)) out.push(`(declare-fun ${name} (${args.map((a) => this.text(a)).join(" ")}) ${this.text(result)})`);
      } else if (cmd === "define-fun" && typeof name === "string" && rest.length === 3 && isList(rest[0]!)) {
        const sort = sortNamed(rest[1]!);
        const params = this.binding(rest[0]);
        if (params.length === 0) this.constants.set(name, sort);
        else this.functions.set(name, { args: params.map((p) => p.sort), result: sort });
        // Applications of a definition with a parameter or value of another sort are abstracted whole.
        if (kept(sort) && params.every((p) => kept(p.sort))) {
          const body = this.within(params, () => this.abstract(rest[2]!));
          out.push(printSExpr(["define-fun", name, params.map((p) => [p.name, this.text(p.sort)]), this.text(sort), body]));
        }
      } else if (cmd === "assert" && c.length === 2) {
        if (this.sortOf(name!) !== "Bool") throw new NoSkeleton();
        assertions.push(printSExpr(this.abstract(name!)));
      } else throw new NoSkeleton();
    }
    if (!this.sorts.has("Str") && !this.sorts.has("Fp") && this.fresh.size === 0) return undefined;
    if (this.texts.length > 1) assertions.push(printSExpr(["distinct", ...this.texts]));
    const sortDeclarations = (["Str", "Fp"] as const).filter((s) => this.sorts.has(s)).map((s) => `(declare-sort ${SORT_TEXT[s]} 0)`);
    return { declarations: [...sortDeclarations, ...this.freshDeclarations, ...out], assertions };
  }

  /** A kept sort as the skeleton writes it (and noted, for its declaration). */
  private text(sort: Sort): string {
    if (!kept(sort)) throw new NoSkeleton();
    this.sorts.add(sort);
    return SORT_TEXT[sort];
  }

  /** The term with its theory operators replaced; `e` has a kept sort. */
  private abstract(e: SExpr): SExpr {
    if (!isList(e)) {
      const sort = this.sortOf(e);
      if (!kept(sort)) throw new NoSkeleton();
      if (e.startsWith('"')) return this.literal(e, "Str");
      return e; // a variable or constant of a kept sort, a numeral, true or false
    }
    const [head, ...args] = e;
    if (isList(head)) {
      // `((_ to_fp 11 53) RNE x)`: an operator like the others, its indices part of its name.
      if (head[0] === "_" && this.sortOf(e) === "Fp") return this.operator(e);
      return this.freshFor(e);
    }
    if (head === "fp" || head === "_") {
      if (this.sortOf(e) !== "Fp") throw new NoSkeleton();
      return this.literal(printSExpr(e), "Fp");
    }
    if (typeof head === "string") {
      if (BINDERS.has(head) && args.length === 2 && isList(args[0]!)) {
        const vars = this.binding(args[0]);
        // A quantifier over another sort is a Boolean of what it reads: abstracted whole.
        if (!vars.every((v) => kept(v.sort))) return this.freshFor(e);
        return [head, vars.map((v) => [v.name, this.text(v.sort)]), this.within(vars, () => this.abstract(args[1]!))];
      }
      if (CONNECTIVES.has(head) || ARITH_SAME.has(head) || ARITH_INT.has(head) || ARITH_BOOL.has(head) || head === "/" || head === "to_real") return [head, ...args.map((a) => this.abstract(a))];
      if (head === "ite" && args.length === 3) return ["ite", ...args.map((a) => this.abstract(a))];
      if ((head === "=" || head === "distinct") && args.length >= 2) return kept(this.sortOf(args[0]!)) ? [head, ...args.map((a) => this.abstract(a))] : this.freshFor(e);
      const f = this.functions.get(head);
      if (f) return f.args.every(kept) && kept(f.result) ? [head, ...args.map((a) => this.abstract(a))] : this.freshFor(e);
      if (Object.hasOwn(THEORY_RESULTS, head)) return this.operator(e);
    }
    return this.freshFor(e);
  }

  /**
   * A theory operator applied to terms of kept sorts, as an uninterpreted function of them: one
   * function per operator, its fixed arguments (a rounding mode, a regular expression without
   * variables) and its arguments' sorts, so the same operator of equal arguments is equal
   * (congruence), whatever the theory says. Other arguments make the term a fresh one (`freshFor`).
   */
  private operator(e: SExpr[]): SExpr {
    const result = this.sortOf(e);
    if (!kept(result)) throw new NoSkeleton();
    const fixed: string[] = [];
    const dynamic: SExpr[] = [];
    const sorts: Sort[] = [];
    for (const a of e.slice(1)) {
      const sort = this.sortOf(a);
      if (kept(sort)) {
        dynamic.push(this.abstract(a));
        sorts.push(sort);
      } else if (this.closed(a)) fixed.push(printSExpr(a));
      else return this.freshFor(e);
    }
    const key = `op\u0000${printSExpr(e[0]!)}\u0000${fixed.join(" ")}\u0000${sorts.join(" ")}`;
    const name = this.freshName(key, () => (sorts.length === 0 ? `(declare-const # ${this.text(result)})` : `(declare-fun # (${sorts.map((s) => this.text(s)).join(" ")}) ${this.text(result)})`));
    return dynamic.length === 0 ? name : [name, ...dynamic];
  }

  /**
   * A string or double literal as a constant of its sort. String literals are keyed by the text
   * they stand for (`"a"` and `"\\u{61}"` are one constant) and asserted distinct; one whose reading
   * is uncertain (sexpr.ts `readLiteral`) leaves the query without a skeleton.
   */
  private literal(text: string, sort: "Str" | "Fp"): string {
    let value = text;
    if (sort === "Str") {
      const read = readLiteral(text);
      if (read === undefined) throw new NoSkeleton();
      value = read;
    }
    const key = `literal\u0000${sort}\u0000${value}`;
    const known = this.fresh.get(key);
    if (known) return known;
    const name = this.freshName(key, () => `(declare-const # ${this.text(sort)})`);
    if (sort === "Str") this.texts.push(name);
    return name;
  }

  private freshName(key: string, declaration: () => string): string {
    let name = this.fresh.get(key);
    if (name === undefined) {
      name = `skeleton!${this.fresh.size}`;
      this.fresh.set(key, name);
      this.freshDeclarations.push(declaration().replace("#", name));
    }
    return name;
  }

  /** Whether a term reads no variable and no declared symbol (a rounding mode, a regular expression of literals). */
  private closed(e: SExpr): boolean {
    if (isList(e)) return e.every((x) => this.closed(x));
    return !this.bound.some((v) => v.name === e) && !this.constants.has(e) && !this.functions.has(e);
  }

  /**
   * A term the operators cannot take apart (a quantifier over another sort, a regular expression
   * built from a variable, a conversion to bit-vectors), as a fresh function of the symbols of kept
   * sorts it reads (bound variables and constants), in the order they first occur, renamed `#0`,
   * `#1`…: the same shape over other symbols is the same function, applied to them.
   */
  private freshFor(e: SExpr): SExpr {
    const sort = this.sortOf(e);
    if (!kept(sort)) throw new NoSkeleton();
    const args: Variable[] = [];
    const position = new Map<string, number>();
    const rename = (x: SExpr): SExpr => {
      if (isList(x)) return x.map(rename);
      const at = position.get(x);
      if (at !== undefined) return `#${at}`;
      const read = this.keptSymbol(x);
      if (read === undefined) return x;
      position.set(x, args.length);
      args.push(read);
      return `#${args.length - 1}`;
    };
    const key = `term\u0000${printSExpr(rename(e))}\u0000${args.map((v) => v.sort).join(" ")}`;
    const name = this.freshName(key, () => (args.length === 0 ? `(declare-const # ${this.text(sort)})` : `(declare-fun # (${args.map((v) => this.text(v.sort)).join(" ")}) ${this.text(sort)})`));
    return args.length === 0 ? name : [name, ...args.map((v) => v.name)];
  }

  /** A symbol that is a variable bound around the term (innermost binding) or a constant of a kept sort, or undefined. */
  private keptSymbol(x: string): Variable | undefined {
    for (let i = this.bound.length - 1; i >= 0; i--) {
      const v = this.bound[i]!;
      if (v.name !== x) continue;
      // A variable of another sort cannot be an argument of a skeleton function.
      if (!kept(v.sort)) throw new NoSkeleton();
      return v;
    }
    const sort = this.constants.get(x);
    return sort !== undefined && kept(sort) ? { name: x, sort } : undefined;
  }

  /** The variables of a binder list `((j Int) (s String))`. */
  private binding(list: readonly SExpr[]): Variable[] {
    return list.map((b) => {
      if (!isList(b) || b.length !== 2 || typeof b[0] !== "string") throw new NoSkeleton();
      return { name: b[0], sort: sortNamed(b[1]!) };
    });
  }

  private within<T>(vars: readonly Variable[], work: () => T): T {
    const saved = this.bound;
    this.bound = [...saved, ...vars];
    try {
      return work();
    } finally {
      this.bound = saved;
    }
  }

  /** The sort of a term; throws NoSkeleton for what this module does not know. */
  private sortOf(e: SExpr): Sort {
    if (!isList(e)) {
      if (e === "true" || e === "false") return "Bool";
      for (let i = this.bound.length - 1; i >= 0; i--) if (this.bound[i]!.name === e) return this.bound[i]!.sort;
      if (INTEGER.test(e)) return "Int";
      if (DECIMAL.test(e)) return "Real";
      if (e.startsWith('"')) return "Str";
      if (THEORY_CONSTANTS.has(e)) return "theory";
      const known = this.constants.get(e);
      if (known) return known;
      throw new NoSkeleton();
    }
    const [head, ...args] = e;
    if (head === undefined) throw new NoSkeleton();
    if (isList(head)) {
      // Indexed operators: `(_ to_fp 11 53)` gives a double; `(_ fp.to_sbv 64)`, `(_ re.loop 1 3)` other sorts.
      if (head[0] === "_") return head[1] === "to_fp" && head[2] === "11" && head[3] === "53" ? "Fp" : "theory";
      throw new NoSkeleton();
    }
    if (head === "fp") return args.length === 3 && args[1]!.length === 13 ? "Fp" : "theory";
    if (head === "_") return FP_LITERALS.has(String(args[0])) && args[1] === "11" && args[2] === "53" ? "Fp" : "theory";
    if (CONNECTIVES.has(head) || ARITH_BOOL.has(head) || head === "=" || head === "distinct" || BINDERS.has(head)) return "Bool";
    if (head === "ite" && args.length === 3) return this.sortOf(args[1]!);
    if (ARITH_SAME.has(head) && args.length > 0) return this.sortOf(args[0]!);
    if (ARITH_INT.has(head)) return "Int";
    if (head === "/" || head === "to_real") return "Real";
    if (Object.hasOwn(THEORY_RESULTS, head)) return THEORY_RESULTS[head]!;
    if (THEORY_PREFIXES.some((p) => head.startsWith(p))) return "theory";
    const f = this.functions.get(head);
    if (f && f.args.length === args.length) return f.result;
    // let, as, annotations, unknown operators.
    throw new NoSkeleton();
  }
}
