/**
 * Interval reasoning over a query's assertions: when every value each assertion could take lies in
 * ranges that make one of them false, the query is unsatisfiable and no solver is asked.
 *
 * Why: a bound over floating-point arithmetic ("amount plus a 1% fee stays within 1010 for
 * amounts up to 1000", a Celsius conversion inside a comfort band) is a question the bit-blasting
 * engine answers by building multiplier circuits (0.3–1.5 s a query), while the ranges settle it
 * in microseconds. A count of calls under `slice(0, 5)` is likewise at most 5 whatever the filter
 * said.
 *
 * Exact for what it answers, because it only ever answers "unsat", and only from
 * over-approximations:
 * - A Float64 value is a closed range of doubles plus "may be NaN". Correctly rounded `+ - * /`
 *   are monotone (rounding to nearest never reverses an order), so the rounded results at a
 *   box's corners, computed by JavaScript's own IEEE arithmetic, bound the rounded results inside
 *   it. Wherever NaN could arise (∞ − ∞, 0 × ∞, ∞ / ∞, a divisor range holding 0, any operand that
 *   may be NaN) the result may be NaN, and a corner that is NaN makes the range everything.
 *   -0 and +0 compare equal in a range; the predicates that tell them apart (`fp.isNegative`,
 *   `fp.isZero`, `=`) answer only when the range decides them anyway.
 * - An Int value is a closed range of integers, widened to unbounded past 2^52 (above that a
 *   double no longer holds every integer exactly).
 * - A Boolean is true, false or unknown (Kleene logic). Inside a conjunction, its comparisons of
 *   a constant (or a function applied to constants) with a term narrow that constant's range for
 *   the other conjuncts: every assignment that satisfies the conjunction satisfies the comparison.
 *   Narrowed ranges can only refute the conjunction: under them its own comparisons are true, so
 *   "true" is concluded only from the ranges outside it (the conjunction may be negated). An
 *   `ite`'s branches are read under its condition and under its negation, narrowed the same way;
 *   `(fp.eq t (fp.roundToIntegral m t))` makes t's range whole numbers.
 * - A string is known by the range of its length and by the text literals fix (a prefix, a
 *   suffix, or all of it): interval-strings.ts.
 * - A predicate the ranges cannot read (containment, a Boolean constant, an equality of strings) is
 *   recorded by a conjunction that asserts it, true or false, for its other conjuncts: `(and p
 *   (not p))` cannot hold. The ranges are read first, so a predicate they show false still refutes.
 * - Anything else (string contents beyond that, regular expressions, reals, conversions,
 *   quantifiers, defined functions with parameters, other rounding modes) is unknown, and work
 *   beyond {@link STEP_LIMIT} steps gives up.
 * test/prover/intervals.test.ts checks each rule, and compares with Z3 on generated queries.
 */
import { isList, isStringLiteral, printSExpr, type SExpr } from "./sexpr";
import {
  absFloat, ANY_FLOAT, ANY_INT, arithmetic, classify, compareFloats, compareInts, exactInt, literalRange, meet, multiplyInts, narrowClass,
  integral, narrowFloat, narrowInt, not, OTHER, relation, roundFloat, sameFloat, sameValue, widen, type FloatRange, type IntRange, type Truth, type Value,
} from "./ranges";
import {
  Env, FLOAT_COMPARISONS, FLOAT_RESULTS, FLOATS, GiveUp, INT_COMPARISONS, INTS, NOT_ATOMS, NUMBERS, OutOfSteps, sameTerm, sortOf, STRING_RESULTS, type Kind, type Memo, type Reader, type Sort,
} from "./interval-terms";
import { END, START, Strings, type StringHost } from "./interval-strings";

/** Evaluation steps (terms visited) before the analysis gives up on a query. */
export const STEP_LIMIT = 10_000;
/**
 * The steps of a second reading, for a query that ran out of steps and that Z3 did not answer within
 * its first slice (z3.ts): an unrolled sum of eight guarded minima needs about 40 000; a few tens of
 * milliseconds against Z3's seconds.
 */
export const DEEP_STEP_LIMIT = 200_000;
/** Rounds of narrowing per conjunction: a bound reaches terms bounded by the term it bounds. */
const NARROWING_PASSES = 3;
/** Definitions expanded inside one another before the analysis gives up (a chain of them is read recursively). */
export const DEPTH_LIMIT = 200;

/**
 * Whether the assertions among `commands` (a query's parsed text) are unsatisfiable by interval
 * reasoning. `false` means "not shown", never "satisfiable".
 */
export function refutedByIntervals(commands: readonly SExpr[], steps = STEP_LIMIT): boolean {
  return readIntervals(commands, steps) === "refuted";
}

/** `refutedByIntervals`, telling a query that ran out of steps (a larger budget might refute it) from one that is open. */
export function readIntervals(commands: readonly SExpr[], steps = STEP_LIMIT): "refuted" | "open" | "out of steps" {
  try {
    return new Intervals(commands, steps).refuted() ? "refuted" : "open";
  } catch (error) {
    if (error instanceof OutOfSteps) return "out of steps";
    // A stack overflow (RangeError) is giving up too: this is only ever a shortcut.
    if (error instanceof GiveUp || error instanceof RangeError) return "open";
    throw error;
  }
}

/** A definition's lookups count for every definition being evaluated around it. */
function noteReads(reads: ReadonlySet<string>): void {
  const outer = Env.reading[Env.reading.length - 1];
  if (outer) for (const k of reads) outer.add(k);
}

/**
 * The commands the ranges read; any other gives up: scopes (`push`, `pop`, `reset-assertions`)
 * and new sorts change what the assertions mean, and an option may change how Z3 reads them
 * (`:encoding`). `check-sat` and `set-info` change nothing.
 */
const COMMANDS: ReadonlySet<string> = new Set(["declare-const", "declare-fun", "define-fun", "assert", "check-sat", "set-info"]);
/** Theory names without a dot (those with one, `str.len`, `fp.add`, `re.*`, are all a theory's). */
const CORE_NAMES: ReadonlySet<string> = new Set(["abs", "div", "mod", "rem", "to_real", "to_int", "is_int", "ite", "and", "or", "not", "xor", "=>", "=", "distinct", "+", "-", "*", "/", "<", "<=", ">", ">=", "true", "false", "let", "forall", "exists", "select", "store", "fp", "to_fp", "to_fp_unsigned", "RNE", "RNA", "RTP", "RTN", "RTZ", "roundNearestTiesToEven", "roundNearestTiesToAway", "roundTowardPositive", "roundTowardNegative", "roundTowardZero", "NaN", "+oo", "-oo", "+zero", "-zero", "concat", "extract", "bv2int", "int2bv"]);
function looksBuiltin(name: string): boolean {
  return name.includes(".") || CORE_NAMES.has(name);
}

class Intervals implements Reader, StringHost {
  private readonly strings = new Strings(this);
  private readonly sorts = new Map<string, Sort>();
  /** Definitions without parameters: name → body and sort. */
  private readonly definitions = new Map<string, { readonly body: SExpr; readonly sort: Sort }>();
  /** Declared functions with parameters: name → result sort. */
  private readonly functions = new Map<string, Sort>();
  private readonly assertions: SExpr[] = [];
  /** The texts of the applications narrowed, and the literals' ranges, by node (queries repeat them). */
  private readonly keys = new WeakMap<SExpr[], string>();
  private readonly literals = new WeakMap<SExpr[], FloatRange>();
  private readonly atomKeys = new WeakMap<SExpr[], string>();
  private steps = 0;
  private depth = 0;

  constructor(
    commands: readonly SExpr[],
    private readonly stepLimit: number,
  ) {
    for (const c of commands) {
      if (!isList(c)) continue;
      const [head, name] = c;
      // Only a flat list of declarations and assertions is read: scopes (`push`, `pop`,
      // `reset-assertions`) and new sorts change what the assertions mean.
      if (typeof head !== "string" || !COMMANDS.has(head)) throw new GiveUp();
      // Z3 lets a declaration overload a theory's name (`(declare-fun str.len (Int) Int)`), which the
      // evaluator would read as the theory's own; clauz3's names never look like one.
      if ((head === "declare-const" || head === "declare-fun" || head === "define-fun") && (typeof name !== "string" || looksBuiltin(name))) throw new GiveUp();
      if (head === "declare-const" && c.length === 3 && typeof name === "string") this.sorts.set(name, sortOf(c[2]));
      else if (head === "declare-fun" && c.length === 4 && typeof name === "string") {
        if (isList(c[2]) && c[2].length === 0) this.sorts.set(name, sortOf(c[3]));
        else this.functions.set(name, sortOf(c[3]));
      } else if (head === "define-fun" && c.length === 5 && typeof name === "string") {
        // A definition with parameters is not expanded: its applications are unknown.
        if (isList(c[2]) && c[2].length === 0) this.definitions.set(name, { body: c[4]!, sort: sortOf(c[3]) });
        else this.functions.set(name, "other");
      } else if (head === "assert" && c.length === 2) this.assertions.push(c[1]!);
    }
  }

  refuted(): boolean {
    if (this.assertions.length === 0) return false;
    return this.conjunction(this.assertions, new Env(undefined, new Map())) === false;
  }

  step(): void {
    if (++this.steps > this.stepLimit) throw new OutOfSteps();
  }

  // ─────────────── Booleans ───────────────

  truth(e: SExpr, env: Env): Truth {
    const t = this.evaluate(e, env);
    if (t !== undefined) return t;
    // What the ranges cannot tell, a conjunction around it may have asserted (evaluated first: an
    // asserted predicate the ranges show false refutes that conjunction).
    const key = this.atomKey(e);
    const known = key === undefined ? undefined : env.get(key);
    return known?.k === "bool" ? known.holds : undefined;
  }

  private evaluate(e: SExpr, env: Env): Truth {
    if (isList(e) && env.truths.has(e)) return env.truths.get(e);
    const t = this.evaluateOnce(e, env);
    if (isList(e)) env.truths.set(e, t);
    return t;
  }

  private evaluateOnce(e: SExpr, env: Env): Truth {
    this.step();
    if (e === "true") return true;
    if (e === "false") return false;
    if (typeof e === "string") {
      const d = this.definitions.get(e);
      if (d && d.sort === "bool") return this.memoised(e, env, () => this.truth(d.body, env)) as Truth;
      return undefined;
    }
    const [op, ...args] = e;
    switch (op) {
      case "and": return this.conjunction(args, env);
      case "or": {
        let all = true;
        for (const a of args) {
          const t = this.truth(a, env);
          if (t === true) return true;
          if (t === undefined) all = false;
        }
        return all ? false : undefined;
      }
      case "not": return args.length === 1 ? not(this.truth(args[0]!, env)) : undefined;
      case "=>": {
        if (args.length !== 2) return undefined;
        // a => b is (not a) or b; a false conclusion narrows nothing, so evaluate as written.
        const a = this.truth(args[0]!, env);
        if (a === false) return true;
        const b = this.truth(args[1]!, env);
        if (b === true) return true;
        return a === true && b === false ? false : undefined;
      }
      case "ite": {
        if (args.length !== 3) return undefined;
        const c = this.truth(args[0]!, env);
        if (c !== undefined) return this.truth(c ? args[1]! : args[2]!, env);
        const [yes, no] = this.branches(args[0]!, env);
        if (yes === "empty" || no === "empty") {
          // One branch is never taken: the other is the value (neither: nothing reaches here).
          if (yes !== "empty") return this.truth(args[1]!, yes);
          return no === "empty" ? undefined : this.truth(args[2]!, no);
        }
        const t = this.truth(args[1]!, yes);
        return t !== undefined && t === this.truth(args[2]!, no) ? t : undefined;
      }
      case "fp.lt": case "fp.leq": case "fp.gt": case "fp.geq": case "fp.eq": {
        if (args.length !== 2) return undefined;
        // `(fp.eq (fp.roundToIntegral m t) t)`, `Number.isInteger`'s test: true of a whole range with no NaN.
        const rounded = op === "fp.eq" ? args.findIndex((a) => isList(a) && a.length === 3 && a[0] === "fp.roundToIntegral") : -1;
        if (rounded >= 0 && sameTerm((args[rounded] as SExpr[])[2]!, args[1 - rounded]!)) {
          const t = this.float(args[1 - rounded]!, env);
          if (t.whole === true && !t.nan) return true;
        }
        return compareFloats(op, this.float(args[0]!, env), this.float(args[1]!, env));
      }
      case "<": case "<=": case ">": case ">=":
        return args.length === 2 ? compareInts(op, this.int(args[0]!, env), this.int(args[1]!, env)) : undefined;
      case "=": {
        if (args.length !== 2) return undefined;
        const sort = this.sortOfTerm(args[0]!);
        if (sort === "int") return compareInts("=", this.int(args[0]!, env), this.int(args[1]!, env));
        if (sort === "fp") return sameFloat(this.float(args[0]!, env), this.float(args[1]!, env));
        if (sort === "bool") {
          const a = this.truth(args[0]!, env);
          const b = this.truth(args[1]!, env);
          return a === undefined || b === undefined ? undefined : a === b;
        }
        if (sort === "string") return this.strings.equal(args[0]!, args[1]!, env);
        return undefined;
      }
      case "str.prefixof": return args.length === 2 ? this.strings.at(START, args[0]!, args[1]!, env) : undefined;
      case "str.suffixof": return args.length === 2 ? this.strings.at(END, args[0]!, args[1]!, env) : undefined;
      case "str.contains": return args.length === 2 ? this.strings.contains(args[0]!, args[1]!, env) : undefined;
      case "fp.isNaN": case "fp.isInfinite": case "fp.isZero": case "fp.isNegative": case "fp.isPositive":
        return args.length === 1 ? classify(op, this.float(args[0]!, env)) : undefined;
      default: return undefined;
    }
  }

  /**
   * A conjunction: its comparisons narrow the ranges of the terms they bound (in rounds, so a bound
   * on one term reaches a term bounded by it), then every conjunct is evaluated under them.
   */
  private conjunction(conjuncts: readonly SExpr[], outer: Env): Truth {
    const flat: SExpr[] = [];
    this.flatten(conjuncts, flat, new Set());
    const env = this.narrowAll(flat, outer);
    if (env === "empty") return false;
    let all = true;
    for (const c of flat) {
      const t = this.truth(c, env);
      if (t === false) return false;
      if (t === undefined) all = false;
    }
    // The narrowed ranges hold only where the conjunction does, so they can refute it but not
    // confirm it (its own comparisons are true under them): true only without them.
    if (!all || env === outer) return all ? true : undefined;
    for (const c of flat) if (this.truth(c, outer) !== true) return undefined;
    return true;
  }

  /** The ranges under which the conjuncts `flat` all hold, narrowed from `outer`'s; "empty" when they cannot. */
  private narrowAll(flat: readonly SExpr[], outer: Env): Env | "empty" {
    let env = outer;
    const own = new Map<string, Value>();
    for (let pass = 0; pass < NARROWING_PASSES; pass++) {
      let changed = false;
      for (const c of flat) {
        const narrowed = this.narrow(c, env, own);
        if (narrowed === "empty") return "empty";
        changed ||= narrowed;
      }
      if (!changed) break;
      env = new Env(outer, own);
    }
    return env;
  }

  /**
   * The ranges of an `ite`'s branches: the then-branch's under its condition, the else-branch's
   * under its negation, each narrowed as a conjunction would be ("empty": that branch is never taken).
   */
  branches(condition: SExpr, env: Env): readonly [Env | "empty", Env | "empty"] {
    const under = (c: SExpr): Env | "empty" => {
      const flat: SExpr[] = [];
      this.flatten([c], flat, new Set());
      return this.narrowAll(flat, env);
    };
    return [under(condition), under(["not", condition])];
  }

  /** Conjuncts of nested `and`s, of Boolean definitions that are conjunctions, and of negated disjunctions. */
  private flatten(conjuncts: readonly SExpr[], out: SExpr[], seen: Set<string>): void {
    for (const c of conjuncts) {
      this.step();
      if (isList(c) && c[0] === "and") this.flatten(c.slice(1), out, seen);
      else if (isList(c) && c[0] === "not" && c.length === 2 && isList(c[1]) && c[1][0] === "or") {
        this.flatten(c[1].slice(1).map((d) => ["not", d]), out, seen);
      } else if (typeof c === "string" && this.definitions.get(c)?.sort === "bool" && !seen.has(c)) {
        seen.add(c);
        this.nested(() => this.flatten([this.definitions.get(c)!.body], out, seen));
      } else out.push(c);
    }
  }

  /**
   * Narrow `ranges` with one conjunct, a comparison of a narrowable term with another term (either
   * side), possibly negated; "empty" when the conjunct cannot hold with the ranges known.
   */
  private narrow(c: SExpr, env: Env, ranges: Map<string, Value>): boolean | "empty" {
    let negated = false;
    let atom = c;
    if (isList(atom) && atom[0] === "not" && atom.length === 2) {
      negated = true;
      atom = atom[1]!;
    }
    // A predicate the ranges do not read (containment, a Boolean constant) is known to the other
    // conjuncts as true, or false when negated: `(and p (not p))` cannot hold.
    const known = this.atomKey(atom);
    let changed = false;
    if (known !== undefined) {
      const already = ranges.get(known) ?? env.get(known);
      if (already?.k === "bool" && already.holds === negated) return "empty";
      if (already?.k !== "bool") {
        ranges.set(known, { k: "bool", holds: !negated });
        changed = true;
      }
    }
    // `(fp.isNaN t)`, `(not (fp.isInfinite t))`, …: the classes a range holds.
    if (isList(atom) && atom.length === 2 && typeof atom[0] === "string" && atom[0].startsWith("fp.is")) {
      const key = this.narrowable(atom[1]!);
      if (key === undefined) return changed;
      const own = ranges.get(key);
      const computed = this.value(atom[1]!, env);
      const current = own === undefined ? computed : meet(own, computed);
      if (current.k !== "fp") return changed;
      const next = narrowClass(atom[0], current, negated);
      if (next === "empty") return "empty";
      if (next === undefined || sameValue(next, current)) return changed;
      ranges.set(key, next);
      return true;
    }
    if (!isList(atom) || atom.length !== 3 || typeof atom[0] !== "string") return changed;
    const op = atom[0];
    const [a, b] = [atom[1]!, atom[2]!];
    if ((op === "=" && this.sortOfTerm(a) === "string") || op === "str.prefixof" || op === "str.suffixof") {
      const strings = this.strings.narrow(op, a, b, negated, env, ranges);
      return strings === "empty" ? "empty" : strings || changed;
    }
    for (const [term, other, flipped] of [[a, b, false], [b, a, true]] as const) {
      const key = this.narrowable(term);
      if (key === undefined) continue;
      // What this conjunction has narrowed so far, met with what the term is known to be.
      const own = ranges.get(key);
      const computed = this.value(term, env);
      const current = own === undefined ? computed : meet(own, computed);
      let next: Value | "empty" | undefined;
      // `(fp.eq t (fp.roundToIntegral m t))`: t is a whole number (the readability steps ask this).
      const whole = !negated && op === "fp.eq" && isList(other) && other.length === 3 && other[0] === "fp.roundToIntegral" && sameTerm(other[2]!, term);
      if (whole && current.k === "fp") next = integral(current);
      else if (FLOAT_COMPARISONS.has(op) && current.k === "fp") {
        const bound = this.float(other, env);
        next = narrowFloat(current, relation(op, flipped, negated), bound, negated);
      } else if (INT_COMPARISONS.has(op) && current.k === "int" && !(negated && op === "=")) {
        next = narrowInt(current, relation(op, flipped, negated), this.int(other, env));
      }
      if (next === "empty") return "empty";
      if (next !== undefined && !sameValue(next, current)) {
        ranges.set(key, next);
        changed = true;
      }
    }
    return changed;
  }

  /**
   * The key under which a conjunction records a predicate's truth: a Boolean constant, or an
   * application of anything but a connective or a comparison of numbers (ranges read those).
   */
  private atomKey(e: SExpr): string | undefined {
    if (typeof e === "string") return this.sorts.get(e) === "bool" ? `?${e}` : undefined;
    const op = e[0];
    if (typeof op !== "string" || NOT_ATOMS.has(op)) return undefined;
    if (op === "=" && e.length === 3 && NUMBERS.has(this.sortOfTerm(e[1]!))) return undefined;
    let key = this.atomKeys.get(e);
    if (key === undefined) this.atomKeys.set(e, (key = `?${printSExpr(e)}`));
    return key;
  }

  /**
   * The key of a term whose range may be narrowed: a constant, a declared function applied to
   * atoms, or the length of either when it is a string.
   */
  narrowable(e: SExpr): string | undefined {
    if (typeof e === "string") return this.sorts.has(e) || this.definitions.has(e) ? e : undefined;
    let key = this.keys.get(e);
    if (key !== undefined) return key;
    if (typeof e[0] === "string" && this.functions.has(e[0]) && this.functions.get(e[0]) !== "other" && e.slice(1).every((x) => typeof x === "string")) key = printSExpr(e);
    else if (e[0] === "str.len" && e.length === 2 && this.sortOfTerm(e[1]!) === "string") {
      const inner = this.narrowable(e[1]!);
      if (inner !== undefined) key = `(str.len ${inner})`;
    }
    if (key !== undefined) this.keys.set(e, key);
    return key;
  }

  memoised(key: string, env: Env, compute: () => Value | Truth): Value | Truth {
    const hit = this.memoFor(key, env);
    if (hit) {
      noteReads(hit.reads);
      return hit.value;
    }
    const reads = new Set<string>();
    Env.reading.push(reads);
    let value: Value | Truth;
    try {
      value = this.nested(compute);
    } finally {
      Env.reading.pop();
    }
    noteReads(reads);
    env.memo.set(key, { value, reads });
    return value;
  }

  /**
   * The value of a definition already read under this environment, or under an outer one where no
   * environment in between narrowed a key it looked up (a sum's every guarded term reads the same
   * amounts under a condition that narrows only its own): the same lookups, the same value.
   */
  private memoFor(key: string, env: Env): Memo | undefined {
    const between: Env[] = [];
    for (let e: Env | undefined = env; e; e = e.parent) {
      const m = e.memo.get(key);
      if (m) {
        if (between.some((b) => [...b.own.keys()].some((k) => m.reads.has(k)))) return undefined;
        if (e !== env) env.memo.set(key, m);
        return m;
      }
      between.push(e);
    }
    return undefined;
  }

  /** A definition without parameters, by name. */
  definition(name: string): { readonly body: SExpr; readonly sort: Sort } | undefined {
    return this.definitions.get(name);
  }

  /** `inside()` one definition deeper. */
  private nested<T>(inside: () => T): T {
    if (++this.depth > DEPTH_LIMIT) throw new GiveUp();
    try {
      return inside();
    } finally {
      this.depth--;
    }
  }

  // ─────────────── numbers ───────────────

  private sortOfTerm(e: SExpr): Sort {
    if (typeof e === "string") {
      if (/^\d+$/.test(e)) return "int";
      if (isStringLiteral(e)) return "string";
      return this.sorts.get(e) ?? this.definitions.get(e)?.sort ?? "other";
    }
    const op = e[0];
    if (typeof op === "string" && this.functions.has(op)) return this.functions.get(op)!;
    if (op === "fp" || (isList(op) && op[0] === "_" && op[1] === "to_fp" && op[2] === "11" && op[3] === "53")) return "fp";
    if (op === "_" && (e[1] === "+zero" || e[1] === "-zero" || e[1] === "+oo" || e[1] === "-oo" || e[1] === "NaN")) return e[2] === "11" && e[3] === "53" ? "fp" : "other";
    if (typeof op === "string" && FLOAT_RESULTS.has(op)) return "fp";
    if (typeof op === "string" && STRING_RESULTS.has(op)) return "string";
    if (op === "str.len" || op === "str.indexof" || op === "str.to_int" || op === "str.to.int") return "int";
    if (typeof op === "string" && ["+", "-", "*", "abs"].includes(op)) return e.length > 1 ? this.sortOfTerm(e[1]!) : "other";
    if (op === "ite" && e.length === 4) return this.sortOfTerm(e[2]!);
    return "other";
  }

  /**
   * What is known of a term before reading its operator: its narrowed range, and for a definition
   * its body's range too (each an over-approximation, so they are met); undefined when neither.
   */
  private known<R extends FloatRange | IntRange>(e: SExpr, env: Env, kind: Kind<R>): R | undefined {
    const key = this.narrowable(e);
    const r = key === undefined ? undefined : env.get(key);
    const narrowed = r?.k === kind.k ? (r as R) : undefined;
    const d = typeof e === "string" ? this.definitions.get(e) : undefined;
    if (!d || d.sort !== kind.sort) return narrowed;
    const computed = this.memoised(e as string, env, () => kind.of(this, d.body, env)) as R;
    return narrowed ? kind.meet(narrowed, computed) : computed;
  }

  /** An `ite`'s value: the branch its condition decides, or both branches (each under its own ranges) joined. */
  either<R extends FloatRange | IntRange>([condition, then, otherwise]: readonly SExpr[], env: Env, kind: Kind<R>): R {
    const c = this.truth(condition!, env);
    if (c !== undefined) return kind.of(this, c ? then! : otherwise!, env);
    const [yes, no] = this.branches(condition!, env);
    const a = yes === "empty" ? undefined : kind.of(this, then!, yes);
    const b = no === "empty" ? undefined : kind.of(this, otherwise!, no);
    return a && b ? kind.join(a, b) : (a ?? b ?? kind.any);
  }

  private value(e: SExpr, env: Env): Value {
    const sort = this.sortOfTerm(e);
    return sort === "fp" ? this.float(e, env) : sort === "int" ? this.int(e, env) : OTHER;
  }

  /** `float`, for the kinds' tables. */
  floatOf(e: SExpr, env: Env): FloatRange {
    return this.float(e, env);
  }

  /** `int`, for the kinds' tables. */
  intOf(e: SExpr, env: Env): IntRange {
    return this.int(e, env);
  }

  /** `length`, for the kinds' tables. */
  lengthOf(e: SExpr, env: Env): IntRange {
    return this.strings.length(e, env);
  }

  private float(e: SExpr, env: Env): FloatRange {
    this.step();
    const known = this.known(e, env, FLOATS);
    if (known !== undefined || typeof e === "string") return known ?? ANY_FLOAT;
    const [op, ...args] = e;
    if (op === "_" || op === "fp") {
      let r = this.literals.get(e);
      if (r === undefined) this.literals.set(e, (r = literalRange(e)));
      return r;
    }
    if (op === "ite" && args.length === 3) return this.either(args, env, FLOATS);
    if (op === "fp.neg" && args.length === 1) {
      const a = this.float(args[0]!, env);
      return { k: "fp", lo: -a.hi, hi: -a.lo, nan: a.nan, whole: a.whole };
    }
    if (op === "fp.abs" && args.length === 1) return absFloat(this.float(args[0]!, env));
    if (op === "fp.roundToIntegral" && args.length === 2 && typeof args[0] === "string") return roundFloat(args[0], this.float(args[1]!, env));
    // An integer as a double (values.ts `intToFp`): an Int range is exact within 2^52 and unbounded
    // past it, so its ends are the doubles' ends in every rounding mode; never NaN.
    if (isList(op) && op.length === 4 && op[0] === "_" && op[1] === "to_fp" && op[2] === "11" && op[3] === "53" && args.length === 2 && isList(args[1]) && args[1][0] === "to_real" && args[1].length === 2) {
      const i = this.int(args[1][1]!, env);
      return { k: "fp", lo: i.lo, hi: i.hi, nan: false, whole: true };
    }
    // Only round-to-nearest-even: JavaScript's arithmetic is that rounding, so its corners are exact.
    if ((op === "fp.add" || op === "fp.sub" || op === "fp.mul" || op === "fp.div") && args.length === 3 && (args[0] === "RNE" || args[0] === "roundNearestTiesToEven")) {
      return arithmetic(op, this.float(args[1]!, env), this.float(args[2]!, env));
    }
    return ANY_FLOAT;
  }

  private int(e: SExpr, env: Env): IntRange {
    this.step();
    if (typeof e === "string" && /^\d+$/.test(e)) return exactInt(Number(e));
    const known = this.known(e, env, INTS);
    if (isList(e) && e[0] === "str.len" && e.length === 2) {
      const length = this.strings.length(e[1]!, env);
      return known ? INTS.meet(known, length) : length;
    }
    if (known !== undefined || typeof e === "string") return known ?? ANY_INT;
    const [op, ...args] = e;
    if (args.length === 0) return ANY_INT;
    switch (op) {
      case "ite": return args.length === 3 ? this.either(args, env, INTS) : ANY_INT;
      case "+": return args.map((a) => this.int(a, env)).reduce((x, y) => widen(x.lo + y.lo, x.hi + y.hi));
      case "-": {
        const vs = args.map((a) => this.int(a, env));
        if (vs.length === 1) return widen(-vs[0]!.hi, -vs[0]!.lo);
        return vs.reduce((x, y) => widen(x.lo - y.hi, x.hi - y.lo));
      }
      case "*": return args.map((a) => this.int(a, env)).reduce(multiplyInts);
      case "abs": {
        if (args.length !== 1) return ANY_INT;
        const a = this.int(args[0]!, env);
        return a.lo >= 0 ? a : a.hi <= 0 ? widen(-a.hi, -a.lo) : widen(0, Math.max(-a.lo, a.hi));
      }
      // Where one string is found in another (-1: nowhere), and a string's number (-1: not digits).
      case "str.indexof": return args.length === 3 ? widen(-1, this.strings.length(args[0]!, env).hi) : ANY_INT;
      case "str.to_int": case "str.to.int": return widen(-1, Infinity);
      default: return ANY_INT;
    }
  }
}
