/**
 * The integer-lifting formulation: integers that meet floating point only through exact
 * conversions are restated as integral Float64 constants, so that a query about them can go to the
 * bit-blasting engines (attempts.ts) instead of the general solver's mixed real/float reasoning.
 *
 * An integer a tool promises (`Number.isInteger(cents) && 0 <= cents && cents <= 1e8`) is an Int
 * constant `n` with a Float64 term `((_ to_fp 11 53) RNE (to_real n))` (values.ts). When the query
 * compares it with a Float64 input (`amount <= balance`), Z3 has to reason about the conversion
 * between reals and floats, which it rarely finishes: a balance check of two payments ran for
 * minutes. With `n` replaced by a Float64 constant `f` that is integral, finite and not -0, the same
 * query is pure floating point and is decided in seconds.
 *
 * It is an equivalence, so an `unsat` of the lifted query is an `unsat` of the original. It applies
 * to a constant `n` only when
 * - `n` is a 0-ary Int constant bound by no quantifier, `let` or function parameter;
 * - every occurrence of `n` is the conversion `((_ to_fp 11 53) rm (to_real n))` or a comparison
 *   (`=`, `<=`, `<`, `>=`, `>`) of `n` with an integer numeral of magnitude at most 2^53;
 * - the query's top-level assertions bound `n` from both sides within [-2^53, 2^53].
 * Then every value of `n` is a double exactly, and `n ↦ to_fp(n)` is a bijection from the integers
 * in the bounds onto the integral, finite, non-negative-zero doubles in the same bounds, under
 * which every conversion is `f` and every comparison with a numeral keeps its truth (both sides are
 * exact). A model of the lifted query gives `n` the integer value of `f` (`valueOfLifted`), and
 * z3.ts checks the original assertions in that model before believing it.
 */
import { isDeepStrictEqual } from "node:util";
import { decodeFloat, isList, parseSExprs, printSExpr, type SExpr } from "./sexpr";
import { FLOAT64, numLit } from "./smt";

/**
 * A term the formulation lifted: an Int constant (`args` empty) or an Int function applied to
 * numerals in the original, and its Float64 stand-in.
 */
export interface Lifted {
  readonly name: string;
  readonly args: readonly bigint[];
  readonly float: string;
}

export interface IntLifting {
  readonly text: string;
  readonly lifted: readonly Lifted[];
}

const LIMIT = 2n ** 53n;
const COMPARISONS: Readonly<Record<string, string>> = { "=": "fp.eq", "<=": "fp.leq", "<": "fp.lt", ">=": "fp.geq", ">": "fp.gt" };
/** The comparison with its sides swapped: `(<= 3 n)` is `(>= n 3)`. */
const FLIPPED: Readonly<Record<string, string>> = { "=": "=", "<=": ">=", "<": ">", ">=": "<=", ">": "<" };
const TO_FP: SExpr = ["_", "to_fp", "11", "53"];
const BINDERS = new Set(["forall", "exists", "let"]);


/** An integer numeral (`7`, `(- 7)`) of magnitude at most 2^53, or undefined. */
function numeral(e: SExpr): bigint | undefined {
  const value = typeof e === "string" && /^(?:0|[1-9]\d*)$/.test(e) ? BigInt(e)
    : isList(e) && e.length === 2 && e[0] === "-" && typeof e[1] === "string" && /^(?:0|[1-9]\d*)$/.test(e[1]) ? -BigInt(e[1])
    : undefined;
  return value !== undefined && value <= LIMIT && value >= -LIMIT ? value : undefined;
}

/** A liftable term: a candidate constant, or a candidate function applied to numerals. */
interface Term {
  readonly name: string;
  readonly args: readonly bigint[];
}
const keyOf = (t: Term): string => [t.name, ...t.args].join(" ");

function term(e: SExpr, candidates: ReadonlyMap<string, number>): Term | undefined {
  if (typeof e === "string") return candidates.get(e) === 0 ? { name: e, args: [] } : undefined;
  if (!isList(e) || typeof e[0] !== "string" || candidates.get(e[0]) !== e.length - 1 || e.length < 2) return undefined;
  const args = e.slice(1).map(numeral);
  return args.every((a) => a !== undefined) ? { name: e[0], args: args as bigint[] } : undefined;
}

/** `(op t k)` with `t` a liftable term and `k` a numeral, as `{ t, op, k }` with `t` on the left. */
function comparison(e: SExpr[], candidates: ReadonlyMap<string, number>): { t: Term; op: string; k: bigint } | undefined {
  if (e.length !== 3 || typeof e[0] !== "string" || !Object.hasOwn(COMPARISONS, e[0])) return undefined;
  const [op, a, b] = e as [string, SExpr, SExpr];
  const left = term(a, candidates);
  const right = term(b, candidates);
  if (left && !right) {
    const k = numeral(b);
    return k === undefined ? undefined : { t: left, op, k };
  }
  if (right && !left) {
    const k = numeral(a);
    return k === undefined ? undefined : { t: right, op: FLIPPED[op]!, k };
  }
  return undefined;
}

/** `((_ to_fp 11 53) rm (to_real t))` with `t` a liftable term: the term. */
function conversion(e: SExpr[], candidates: ReadonlyMap<string, number>): Term | undefined {
  if (e.length !== 3 || !isDeepStrictEqual(e[0], TO_FP) || typeof e[1] !== "string") return undefined;
  const arg = e[2];
  return isList(arg) && arg.length === 2 && arg[0] === "to_real" ? term(arg[1]!, candidates) : undefined;
}

/** The names a command binds (function parameters, quantified and `let` variables). */
function boundNames(e: SExpr, out: Set<string>): void {
  if (!isList(e)) return;
  if (typeof e[0] === "string" && BINDERS.has(e[0]) && isList(e[1])) for (const b of e[1]) if (isList(b) && typeof b[0] === "string") out.add(b[0]);
  for (const x of e) boundNames(x, out);
}

/** The integer-lifting formulation of a query, or undefined when no term can be lifted. */
export function liftIntegers(commands: readonly SExpr[]): IntLifting | undefined {
  // Candidates: Int constants and Int functions of Int arguments, by name, with their arity.
  const candidates = new Map<string, number>();
  const taken = new Set<string>();
  for (const c of commands) {
    if (!isList(c) || typeof c[1] !== "string") continue;
    taken.add(c[1]);
    if (c[0] === "declare-const" && c.length === 3 && c[2] === "Int") candidates.set(c[1], 0);
    else if (c[0] === "declare-fun" && c.length === 4 && isList(c[2]) && c[2].every((d) => d === "Int") && c[3] === "Int") candidates.set(c[1], c[2].length);
  }
  if (candidates.size === 0) return undefined;
  const bound = new Set<string>();
  for (const c of commands) {
    boundNames(c, bound);
    if (isList(c) && c[0] === "define-fun" && isList(c[2])) for (const p of c[2]) if (isList(p) && typeof p[0] === "string") bound.add(p[0]);
  }
  for (const name of bound) candidates.delete(name);

  // Every occurrence must be a conversion or a comparison with a numeral of a liftable term.
  const terms = new Map<string, Term>();
  const converted = new Set<string>();
  const visit = (e: SExpr): void => {
    if (!isList(e)) {
      candidates.delete(e);
      return;
    }
    const c = conversion(e, candidates);
    if (c) converted.add(c.name);
    const t = c ?? comparison(e, candidates)?.t;
    if (t) return void terms.set(keyOf(t), t);
    for (const x of e) visit(x);
  };
  const isDeclaration = (c: SExpr): boolean => isList(c) && (c[0] === "declare-const" || c[0] === "declare-fun") && typeof c[1] === "string" && candidates.has(c[1]);
  for (const c of commands) if (!isDeclaration(c)) visit(c);

  // Every term bounded from both sides in the top-level assertions, or its symbol is not lifted.
  const lo = new Map<string, bigint>();
  const hi = new Map<string, bigint>();
  const tighten = (e: SExpr): void => {
    if (!isList(e)) return;
    if (e[0] === "and") return void e.slice(1).forEach(tighten);
    const c = comparison(e, candidates);
    if (!c) return;
    const { op, k } = c;
    const key = keyOf(c.t);
    const lower = op === ">=" || op === "=" ? k : op === ">" ? k + 1n : undefined;
    const upper = op === "<=" || op === "=" ? k : op === "<" ? k - 1n : undefined;
    if (lower !== undefined && (lo.get(key) === undefined || lower > lo.get(key)!)) lo.set(key, lower);
    if (upper !== undefined && (hi.get(key) === undefined || upper < hi.get(key)!)) hi.set(key, upper);
  };
  for (const c of commands) if (isList(c) && c[0] === "assert" && c.length === 2) tighten(c[1]!);
  for (const [key, t] of terms) if (lo.get(key) === undefined || hi.get(key) === undefined) candidates.delete(t.name);
  // Only symbols that meet floating point: lifting one that is merely compared gains nothing.
  for (const name of [...candidates.keys()]) if (!converted.has(name)) candidates.delete(name);
  const liftedTerms = [...terms.values()].filter((t) => candidates.has(t.name));
  if (liftedTerms.length === 0) return undefined;

  const floats = new Map<string, string>();
  for (const t of liftedTerms) {
    let float = [t.name, "fp", ...t.args.map((a) => (a < 0n ? `m${-a}` : String(a)))].join("!");
    for (let i = 0; taken.has(float); i++) float = `${float}${i}`;
    taken.add(float);
    floats.set(keyOf(t), float);
  }
  const rewrite = (e: SExpr): SExpr => {
    if (!isList(e)) return e;
    const converted = conversion(e, candidates);
    if (converted) return floats.get(keyOf(converted))!;
    const c = comparison(e, candidates);
    if (c) return [COMPARISONS[c.op]!, floats.get(keyOf(c.t))!, numLit(Number(c.k))];
    return e.map(rewrite);
  };
  const out: string[] = [];
  for (const float of floats.values()) {
    out.push(`(declare-const ${float} ${FLOAT64})`);
    // Integral, finite and not -0: the image of the integers under an exact conversion.
    out.push(`(assert (and (not (fp.isNaN ${float})) (not (fp.isInfinite ${float})) (not (and (fp.isZero ${float}) (fp.isNegative ${float}))) (fp.eq (fp.roundToIntegral RNE ${float}) ${float})))`);
  }
  for (const c of commands) if (!isDeclaration(c)) out.push(printSExpr(rewrite(c)));
  return { text: out.join("\n"), lifted: liftedTerms.map((t) => ({ name: t.name, args: t.args, float: floats.get(keyOf(t))! })) };
}

/** The Int value of a lifted constant given its Float64 model value, or undefined when it is not an integer within 2^53. */
export function valueOfLifted(float: number): bigint | undefined {
  return Number.isInteger(float) && Math.abs(float) <= 2 ** 53 ? BigInt(float) : undefined;
}

type LowLevel = Awaited<ReturnType<typeof import("z3-solver").init>>["Z3"];

/**
 * Put the integer values of lifted terms into a model of the lifted query (in context `ctx`), so
 * that the original assertions and the counterexample read them; false when one has no integer
 * value.
 */
export function restoreLifted(z3: LowLevel, ctx: never, model: unknown, lifted: readonly Lifted[]): boolean {
  // In a reference-counted context a new term lives only until the next API call unless it is
  // referenced: every term made here is held until the model has taken its own references. (An
  // unheld declaration was freed under the model when nothing else named it, and Z3 later looped
  // forever deleting the model.)
  const held: unknown[] = [];
  const hold = <A>(a: A): A => {
    z3.inc_ref(ctx, a as never);
    held.push(a);
    return a;
  };
  const intSort = hold(z3.mk_int_sort(ctx));
  const int = (n: bigint) => hold(z3.mk_numeral(ctx, n.toString(), intSort));
  const functions = new Map<string, ReturnType<LowLevel["add_func_interp"]>>();
  try {
    for (const { name, args, float } of lifted) {
      const constant = hold(z3.mk_const(ctx, z3.mk_string_symbol(ctx, float), z3.mk_fpa_sort_64(ctx)));
      const value = z3.model_eval(ctx, model as never, constant, true);
      if (value === null) return false;
      const [parsed] = parseSExprs(z3.ast_to_string(ctx, value));
      const n = valueOfLifted(decodeFloat(parsed!));
      if (n === undefined) return false;
      const decl = hold(z3.mk_func_decl(ctx, z3.mk_string_symbol(ctx, name), args.map(() => intSort), intSort));
      if (args.length === 0) {
        z3.add_const_interp(ctx, model as never, decl, int(n));
        continue;
      }
      // A function's other arguments are read nowhere in the original: any default will do.
      let interp = functions.get(name);
      if (!interp) {
        interp = z3.add_func_interp(ctx, model as never, decl, int(0n));
        z3.func_interp_inc_ref(ctx, interp);
        functions.set(name, interp);
      }
      const vector = z3.mk_ast_vector(ctx);
      z3.ast_vector_inc_ref(ctx, vector);
      for (const a of args) z3.ast_vector_push(ctx, vector, int(a));
      z3.func_interp_add_entry(ctx, interp, vector, int(n));
      z3.ast_vector_dec_ref(ctx, vector);
    }
    return true;
  } finally {
    for (const interp of functions.values()) z3.func_interp_dec_ref(ctx, interp);
    for (const a of held) z3.dec_ref(ctx, a as never);
  }
}
