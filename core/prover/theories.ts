/**
 * Which theories a query uses, read off its SMT-LIB text (`analyse`): `attemptsFor` (attempts.ts)
 * picks the solvers from them. Anything the analysis does not recognise makes the query "other",
 * which only the general solver sees.
 */
import { isList, isStringLiteral, type SExpr } from "./sexpr";

/** The theories one query uses. */
export interface Theories {
  /** Floating point: sorts, literals, `fp.*` operations, rounding modes. */
  readonly fp: boolean;
  /** Conversions between floating point and other sorts (`to_fp`, `fp.to_real`, `fp.to_sbv`, …). */
  readonly fpConversion: boolean;
  /** Strings and regular expressions. */
  readonly strings: boolean;
  /** Integer or real arithmetic (numerals, `+`, `<=`, `Int`, …). */
  readonly arithmetic: boolean;
  readonly quantifiers: boolean;
  /** Functions with arguments (`declare-fun f (Int) String`). */
  readonly functions: boolean;
  /** Something this analysis does not recognise (only the general solver is used then). */
  readonly other: boolean;
}

/** The core theory's symbols: Booleans, equality, `ite`. */
export const CORE: ReadonlySet<string> = new Set(["true", "false", "not", "and", "or", "=>", "xor", "ite", "=", "distinct", "Bool"]);
export const ARITH: ReadonlySet<string> = new Set(["Int", "Real", "+", "-", "*", "/", "div", "mod", "abs", "<=", "<", ">=", ">", "to_real", "to_int", "is_int"]);
const FP_OPS = new Set([
  "fp", "fp.abs", "fp.neg", "fp.add", "fp.sub", "fp.mul", "fp.div", "fp.fma", "fp.sqrt", "fp.rem", "fp.roundToIntegral", "fp.min", "fp.max",
  "fp.leq", "fp.lt", "fp.geq", "fp.gt", "fp.eq", "fp.isNormal", "fp.isSubnormal", "fp.isZero", "fp.isInfinite", "fp.isNaN", "fp.isNegative", "fp.isPositive",
  "RNE", "RNA", "RTP", "RTN", "RTZ", "roundNearestTiesToEven", "roundNearestTiesToAway", "roundTowardPositive", "roundTowardNegative", "roundTowardZero",
  "RoundingMode", "Float16", "Float32", "Float64", "Float128",
]);
const FP_CONVERSIONS = new Set(["fp.to_real", "fp.to_ubv", "fp.to_sbv", "fp.to_ieee_bv"]);
const FP_INDEXED = new Set(["FloatingPoint", "+zero", "-zero", "+oo", "-oo", "NaN"]);
export const STRING_OPS: ReadonlySet<string> = new Set([
  "String", "RegLan", "str.++", "str.len", "str.<", "str.<=", "str.at", "str.substr", "str.prefixof", "str.suffixof", "str.contains", "str.indexof",
  "str.replace", "str.replace_all", "str.replace_re", "str.replace_re_all", "str.is_digit", "str.to_code", "str.from_code", "str.to_int", "str.from_int",
  "str.in_re", "str.to_re", "re.none", "re.all", "re.allchar", "re.++", "re.union", "re.inter", "re.*", "re.+", "re.opt", "re.range", "re.comp", "re.diff",
]);
const STRING_INDEXED = new Set(["re.loop", "re.^", "char"]);

const NUMERAL = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * The theories of a query given as the parsed commands of its text: those of its assertions and of
 * the definitions and declarations they reach. A declaration no assertion reaches does not count:
 * a parameter a guarantee never reads (an account's name beside an amount) would otherwise send a
 * floating-point query to the mixed engine and its string formulations. Solvers see only the
 * assertions, and a declared constant no assertion mentions gets its sort's default in a model.
 *
 * One exception: floating point anywhere in the text (a float counter beside the integer one the
 * assertions read) still selects the bit-blasting engines' pipeline for what is reached. Its
 * preprocessing (simplification, value propagation) settled string and integer queries that the
 * general solver needed millions of units for (grep/searches_counter_pass: one query in 80 000
 * units against 5.1 million).
 */
export function analyse(commands: readonly SExpr[]): Theories {
  const reached = theoriesOf(commands, false).theories;
  return reached.fp ? reached : { ...reached, fp: theoriesOf(commands, true).theories.fp };
}

/**
 * The declared constants and functions no assertion reaches (through definitions or otherwise).
 * Nothing the solver decides depends on them: any value of theirs extends a model of the query.
 */
export function unreachedDeclarations(commands: readonly SExpr[]): ReadonlySet<string> {
  return theoriesOf(commands, false).unreached;
}

/** The theories of what the assertions reach, or (`everything`) of every command; and the declarations not reached. */
function theoriesOf(commands: readonly SExpr[], everything: boolean): { readonly theories: Theories; readonly unreached: ReadonlySet<string> } {
  const t = { fp: false, fpConversion: false, strings: false, arithmetic: false, quantifiers: false, functions: false, other: false };
  /** Declared constants and functions not yet reached, with their sorts. */
  const declarations = new Map<string, { readonly sorts: readonly SExpr[]; readonly function: boolean }>();
  /** Defined functions not yet reached. */
  const definitions = new Map<string, { readonly params: readonly SExpr[]; readonly result: SExpr; readonly body: SExpr; readonly at: number }>();
  /** Each declared or defined name, with the index of its command: a term may name only those before it. */
  const known = new Map<string, number>();
  /** Definitions reached whose bodies are still to be read (a worklist: chains of definitions are long). */
  const pending: { readonly body: SExpr; readonly params: ReadonlySet<string>; readonly at: number }[] = [];
  const indexed = (e: SExpr[]): void => {
    const name = e[1];
    if (typeof name !== "string") return void (t.other = true);
    if (FP_INDEXED.has(name)) t.fp = true;
    else if (name === "to_fp" || name === "to_fp_unsigned") t.fp = t.fpConversion = true;
    else if (STRING_INDEXED.has(name)) t.strings = true;
    else t.other = true;
    for (const i of e.slice(2)) if (typeof i !== "string" || !NUMERAL.test(i)) t.other = true;
  };
  const sort = (s: SExpr): void => {
    if (isList(s)) {
      if (s[0] === "_") indexed(s);
      else t.other = true; // parametric sorts (Array, Seq, …)
    } else if (s === "Bool") return;
    else if (s === "Int" || s === "Real") t.arithmetic = true;
    else if (s === "String" || s === "RegLan") t.strings = true;
    else if (FP_OPS.has(s)) t.fp = true;
    else t.other = true;
  };
  /** A declared or defined name is reached: its sorts (and a definition's body) count from now on. */
  const reach = (name: string): void => {
    const declaration = declarations.get(name);
    if (declaration) {
      declarations.delete(name);
      if (declaration.function) t.functions = true;
      for (const s of declaration.sorts) sort(s);
      return;
    }
    const definition = definitions.get(name);
    if (!definition) return;
    definitions.delete(name);
    const params = new Set<string>();
    for (const p of definition.params) {
      if (!isList(p) || p.length !== 2 || typeof p[0] !== "string") t.other = true;
      else {
        params.add(p[0]);
        sort(p[1]!);
      }
    }
    sort(definition.result);
    pending.push({ body: definition.body, params, at: definition.at });
  };
  const term = (e: SExpr, bound: ReadonlySet<string>, at: number): void => {
    if (!isList(e)) {
      if (isStringLiteral(e)) t.strings = true;
      else if (NUMERAL.test(e)) t.arithmetic = true;
      else if (bound.has(e) || CORE.has(e)) return;
      else if ((known.get(e) ?? Infinity) < at) reach(e);
      else if (ARITH.has(e)) t.arithmetic = true;
      else if (FP_OPS.has(e)) t.fp = true;
      else if (FP_CONVERSIONS.has(e)) t.fp = t.fpConversion = true;
      else if (STRING_OPS.has(e)) t.strings = true;
      else t.other = true; // bit-vector literals outside `fp`, unknown operators, annotations, …
      return;
    }
    const [head, ...args] = e;
    if (head === undefined) return void (t.other = true);
    if (head === "_") return indexed(e);
    if (head === "fp" && args.length === 3 && args.every((a) => typeof a === "string" && a.startsWith("#b"))) return void (t.fp = true);
    if (head === "let" && isList(args[0]) && args.length === 2) {
      const inner = new Set(bound);
      for (const b of args[0]) {
        if (!isList(b) || b.length !== 2 || typeof b[0] !== "string") return void (t.other = true);
        term(b[1]!, bound, at);
        inner.add(b[0]);
      }
      return term(args[1]!, inner, at);
    }
    if ((head === "forall" || head === "exists") && isList(args[0]) && args.length === 2) {
      t.quantifiers = true;
      const inner = new Set(bound);
      for (const b of args[0]) {
        if (!isList(b) || b.length !== 2 || typeof b[0] !== "string") return void (t.other = true);
        sort(b[1]!);
        inner.add(b[0]);
      }
      return term(args[1]!, inner, at);
    }
    if (isList(head)) {
      if (head[0] === "_") indexed(head);
      else t.other = true;
    } else term(head, bound, at);
    for (const a of args) term(a, bound, at);
  };
  const assertions: { readonly formula: SExpr; readonly at: number }[] = [];
  for (const [at, c] of commands.entries()) {
    if (!isList(c) || typeof c[0] !== "string") {
      t.other = true;
      continue;
    }
    const [cmd, name, ...rest] = c;
    if (cmd === "declare-const" && typeof name === "string" && rest.length === 1) {
      known.set(name, at);
      declarations.set(name, { sorts: [rest[0]!], function: false });
    } else if (cmd === "declare-fun" && typeof name === "string" && rest.length === 2 && isList(rest[0])) {
      known.set(name, at);
      declarations.set(name, { sorts: [...rest[0], rest[1]!], function: rest[0].length > 0 });
    } else if (cmd === "define-fun" && typeof name === "string" && rest.length === 3 && isList(rest[0])) {
      known.set(name, at);
      definitions.set(name, { params: rest[0], result: rest[1]!, body: rest[2]!, at });
    } else if (cmd === "assert" && c.length === 2) assertions.push({ formula: name!, at });
    else t.other = true;
  }
  if (everything) for (const name of known.keys()) reach(name);
  for (const a of assertions) term(a.formula, new Set(), a.at);
  for (let next = pending.pop(); next; next = pending.pop()) term(next.body, next.params, next.at);
  return { theories: t, unreached: new Set(declarations.keys()) };
}
