/**
 * Propositional simplification of a query's parsed commands, for the attempts that read the query
 * themselves (the ranges and the guesser). Every rewrite is an equivalence of Boolean logic, so a
 * refutation or a model of the simplified query is one of the query as written.
 *
 * Why: the executor joins paths by disjunction and splits them by conjunction, and an unrolled
 * loop with a `continue` leaves each iteration's condition as `(or (and X c) (and (and X ¬c) ¬c)
 * …)`, which is `X`. Over eight iterations such terms nested into queries whose checks were all
 * constant (`(and (and L P) (not P))`), but whose text the ranges could not read within their step
 * budget: Z3 spent 20–60 ms on each (ops/remind_overdue_guarded_pass).
 *
 * The rules, applied bottom up over a shared (hash-consed) form of the terms:
 * - `not`, `and`, `or`, `=>` and `ite` with constant arguments fold; `(not (not x))` is `x`;
 * - `and`/`or` flatten nested ones of their kind, drop repeats and their unit, and are their zero
 *   when they hold a term beside its negation;
 * - among an `or`'s disjuncts (an `and`'s conjuncts, dually), one whose parts include another's is
 *   absorbed (`A ∨ (A ∧ B)` is `A`), and two whose parts differ by one negated part resolve
 *   (`(A ∧ c) ∨ (A ∧ ¬c ∧ R)` is `A ∧ (c ∨ R)`, and `A` without R);
 * - a definition without parameters whose body became a constant is replaced by it where it is read.
 * Terms under a binder (`forall`, `exists`, `let`) are left as written.
 */
import { isList, type SExpr } from "./sexpr";

/** Disjuncts (or conjuncts) compared pairwise for absorption and resolution; past it they are only flattened. */
const PAIRWISE_LIMIT = 48;

const BINDERS: ReadonlySet<string> = new Set(["forall", "exists", "let", "!"]);
/** Equal to no term. */
const NOTHING: SExpr[] = [];

/**
 * The commands with their assertions' and definitions' terms simplified, declarations as they were;
 * undefined when no rule applied.
 */
export function simplifyCommands(commands: readonly SExpr[]): SExpr[] | undefined {
  const s = new Simplifier();
  const out = commands.map((c) => {
    if (!isList(c)) return c;
    if (c[0] === "assert" && c.length === 2) return ["assert", s.term(c[1]!)];
    if (c[0] === "define-fun" && c.length === 5 && typeof c[1] === "string" && isList(c[2])) {
      const params = c[2];
      // Parameters shadow definitions of the same name inside the body.
      const body = params.length === 0 ? s.term(c[4]!) : s.shadowed(params.map((p) => (isList(p) ? String(p[0]) : String(p))), () => s.term(c[4]!));
      if (params.length === 0 && (body === "true" || body === "false")) s.constants.set(c[1], body);
      return ["define-fun", c[1], params, c[3]!, body];
    }
    return c;
  });
  return s.changed ? out : undefined;
}

class Simplifier {
  /** Definitions without parameters whose body is a constant. */
  readonly constants = new Map<string, "true" | "false">();
  /** Whether any rule applied. */
  changed = false;
  private readonly shadow = new Set<string>();
  /** Identity of each canonical node; atoms by their text. */
  private readonly ids = new Map<SExpr[], number>();
  private readonly atomIds = new Map<string, number>();
  private nextId = 1;
  /** Canonical nodes by the hash of their head and arguments' identities. */
  private readonly canon = new Map<number, SExpr[][]>();
  /** Input node → its simplified canonical form. */
  private readonly done = new WeakMap<SExpr[], SExpr>();

  shadowed<T>(names: readonly string[], inside: () => T): T {
    const added = names.filter((n) => !this.shadow.has(n));
    for (const n of added) this.shadow.add(n);
    try {
      return inside();
    } finally {
      for (const n of added) this.shadow.delete(n);
    }
  }

  term(e: SExpr): SExpr {
    if (!isList(e)) {
      const constant = this.shadow.has(e) ? undefined : this.constants.get(e);
      if (constant === undefined) return e;
      this.changed = true;
      return constant;
    }
    const known = this.done.get(e);
    if (known !== undefined && this.shadow.size === 0) return known;
    const out = this.rewrite(e);
    if (this.shadow.size === 0) this.done.set(e, out);
    return out;
  }

  private rewrite(e: SExpr[]): SExpr {
    const head = e[0];
    if ((typeof head === "string" && BINDERS.has(head)) || e.length === 0) return e;
    if (head === "_") return this.intern(e);
    const args = e.slice(1).map((a) => this.term(a));
    switch (head) {
      case "not": return args.length === 1 ? this.not(args[0]!) : this.make(head, args);
      case "and": return this.junction("and", args);
      case "or": return this.junction("or", args);
      case "=>": {
        if (args.length !== 2) return this.make(head, args);
        const [a, b] = args as [SExpr, SExpr];
        if (a === "false" || b === "true") return this.fired("true");
        if (a === "true") return this.fired(b);
        if (b === "false") return this.fired(this.not(a));
        return this.make(head, args);
      }
      case "ite": {
        if (args.length !== 3) return this.make(head, args);
        const [c, a, b] = args as [SExpr, SExpr, SExpr];
        if (c === "true" || a === b) return this.fired(a);
        if (c === "false") return this.fired(b);
        if (a === "true" && b === "false") return this.fired(c);
        if (a === "false" && b === "true") return this.fired(this.not(c));
        return this.make(head, args);
      }
      default: return this.make(head!, args);
    }
  }

  private not(x: SExpr): SExpr {
    if (x === "true") return this.fired("false");
    if (x === "false") return this.fired("true");
    if (isList(x) && x[0] === "not" && x.length === 2) return this.fired(x[1]!);
    return this.make("not", [x]);
  }

  /**
   * The canonical negation of a term when it has been built (or is a constant or a negation);
   * a fresh object otherwise, equal to nothing here.
   */
  private negationOf(x: SExpr): SExpr {
    if (x === "true") return "false";
    if (x === "false") return "true";
    if (isList(x) && x[0] === "not" && x.length === 2) return x[1]!;
    return this.lookup(["not", x]) ?? NOTHING;
  }

  /** A rule's result, noting that one applied. */
  private fired<T>(result: T): T {
    this.changed = true;
    return result;
  }

  /**
   * `(and …)` or `(or …)` of simplified arguments. `unit` is dropped, `zero` absorbs; the parts of
   * each argument (its own arguments when it is the dual junction, itself otherwise) drive
   * absorption and resolution.
   */
  private junction(op: "and" | "or", args: readonly SExpr[]): SExpr {
    const dual = op === "and" ? "or" : "and";
    const unit = op === "and" ? "true" : "false";
    const zero = op === "and" ? "false" : "true";
    const items: SExpr[] = [];
    const seen = new Set<SExpr>();
    const push = (x: SExpr): boolean => {
      if (x === unit) return this.fired(true);
      if (x === zero) return this.fired(false);
      if (isList(x) && x[0] === op) {
        this.changed = true;
        for (const y of x.slice(1)) if (!push(y)) return false;
        return true;
      }
      if (seen.has(x)) return this.fired(true);
      seen.add(x);
      items.push(x);
      return true;
    };
    for (const a of args) if (!push(a)) return zero;
    // The negation is looked up, not built: building `(not x)` for every item would intern terms no query holds.
    for (const x of items) if (seen.has(this.negationOf(x))) return this.fired(zero);
    if (items.length >= 2 && items.length <= PAIRWISE_LIMIT) {
      const reduced = this.absorbAndResolve(op, dual, items);
      if (reduced === null) return this.fired(zero); // two items resolved to the dual's unit, which is this junction's zero
      // A resolvent may flatten, repeat or negate another item: the junction is simplified again.
      if (reduced !== items) return this.fired(this.junction(op, reduced));
    }
    if (items.length === 0) return this.fired(unit);
    if (items.length === 1) return this.fired(items[0]!);
    return this.make(op, items);
  }

  /**
   * Absorption and one resolution step among the items of a junction, each read as the dual
   * junction of its parts: the items unchanged (the same array) when neither applies, null when a
   * resolvent has no parts left.
   */
  private absorbAndResolve(op: "and" | "or", dual: "and" | "or", items: readonly SExpr[]): SExpr[] | null {
    const parts = items.map((x) => new Set(isList(x) && x[0] === dual ? x.slice(1) : [x]));
    const dropped = new Set<number>();
    for (let i = 0; i < items.length; i++) {
      if (dropped.has(i)) continue;
      for (let j = 0; j < items.length; j++) {
        if (i === j || dropped.has(j)) continue;
        // Item i's parts within item j's: j is absorbed (A ∨ (A ∧ B) is A; dually for ∧).
        if (parts[i]!.size <= parts[j]!.size && subset(parts[i]!, parts[j]!)) dropped.add(j);
      }
    }
    for (let i = 0; i < items.length; i++) {
      if (dropped.has(i)) continue;
      for (let j = 0; j < items.length; j++) {
        if (i === j || dropped.has(j)) continue;
        for (const x of parts[i]!) {
          // Item i is A ∧ x and item j is A ∧ ¬x ∧ R: together A ∧ (x ∨ R), and A when R is empty.
          const nx = this.negationOf(x);
          if (!parts[j]!.has(nx) || ![...parts[i]!].every((p) => p === x || parts[j]!.has(p))) continue;
          const rest = [...parts[i]!].filter((p) => p !== x);
          const remainder = [...parts[j]!].filter((p) => p !== nx && !parts[i]!.has(p));
          const joined = remainder.length === 0 ? undefined : this.junction(op, [x, this.junction(dual, remainder)]);
          const resolvent = joined === undefined ? (rest.length === 0 ? undefined : this.junction(dual, rest)) : this.junction(dual, [...rest, joined]);
          if (resolvent === undefined) return null;
          return [...items.filter((_, k) => k !== i && k !== j && !dropped.has(k)), resolvent];
        }
      }
    }
    return dropped.size === 0 ? (items as SExpr[]) : items.filter((_, k) => !dropped.has(k));
  }

  /** The canonical node `(head …args)` of canonical arguments. */
  private make(head: SExpr, args: readonly SExpr[]): SExpr[] {
    return this.intern([head, ...args]);
  }

  /**
   * One node per head and arguments (atoms by text, lists by identity): equal terms built here are
   * the same object. A list not built here (a binder's insides) is only ever equal to itself.
   */
  private intern(e: SExpr[]): SExpr[] {
    const h = this.hash(e);
    const found = this.lookup(e, h);
    if (found) return found;
    const bucket = this.canon.get(h);
    if (bucket) bucket.push(e);
    else this.canon.set(h, [e]);
    this.ids.set(e, this.nextId++);
    return e;
  }

  /** The canonical node equal to `e`, if any. */
  private lookup(e: SExpr[], h = this.hash(e)): SExpr[] | undefined {
    return this.canon.get(h)?.find((other) => other.length === e.length && other.every((x, i) => x === e[i]));
  }

  private hash(e: SExpr[]): number {
    let h = e.length;
    for (const x of e) h = Math.imul(h ^ this.id(x), 0x9e3779b1) >>> 0;
    return h;
  }

  private id(x: SExpr): number {
    if (typeof x === "string") {
      let n = this.atomIds.get(x);
      if (n === undefined) this.atomIds.set(x, (n = this.nextId++));
      return n;
    }
    let n = this.ids.get(x);
    if (n === undefined) this.ids.set(x, (n = this.nextId++));
    return n;
  }
}

function subset<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  for (const x of a) if (!b.has(x)) return false;
  return true;
}
