import fc from "fast-check";
import type { IntsStmt } from "./ir";
import type { BoolExpr, ClauseEnd, ContractArg, Effect, Expr, GuaranteeIR, Helper, HelperArgs, NumExpr, NumsExpr, OStrExpr, ProgramIR, RowExpr, Scalar, Stmt, StrExpr, StrsExpr } from "./ir";
import { ALLMAP_READS, ARRAYS_OPS, COUNTED_OPS, COUNTED_VIA, LOCALS_OPS, LOOPSTATE_OPS } from "./ir";
import { PATTERNS, REPLACEMENTS, RESULT_TEXTS, STRINGS_OPS } from "./strings";
import { COLLECTIONS_OPS } from "./collections";
import { IDIOMS_OPS } from "./idioms";
import { printProgram } from "./print";

/**
 * The generator of agent programs: fast-check arbitraries over the program tree of ir.ts (so
 * every part shrinks), drawing from the whole modelled subset and weighted toward the shapes the
 * soundness review found: switch clauses (ending in blocks that fall through), increments (also on
 * strings), `string | undefined` tool results, repeated call sites (helpers called twice, calls in
 * unrolled loops), literals that look like the prover's generated names, and the corner cases of
 * floats and UTF-16.
 */

/** Relative weights of the generator's choices (0 turns a choice off). */
export interface Weights {
  readonly stmt: Readonly<Record<Stmt["k"], number>>;
  readonly clauseEnd: Readonly<Record<ClauseEnd, number>>;
  /** `++`/`--` on a string variable (TypeScript rejects it; JavaScript converts with ToNumeric). */
  readonly stringIncrements: number;
  /** The effect tools, by weight. */
  readonly effects: Readonly<Record<Effect["tool"], number>>;
  /** Uses of `string | undefined` tool results as values (`??`, comparisons, templates). */
  readonly optional: number;
  /** Uses of `string | undefined` tool results as conditions (`if (r)`, `!!r`). */
  readonly optionalConditions: number;
  /** Among those, a `string | null` result (`maybeNull`), which the prover does not model (`T | undefined` it models exactly). */
  readonly nullResults: number;
  /** Calls of local helpers in expressions. */
  readonly helperCalls: number;
  /** String literals that look like the prover's generated names (`i!3`, `j!0`, `pc!2`). */
  readonly smtNames: number;
  readonly contracts: Readonly<Record<string, number>>;
  readonly maxHelpers: number;
  /** Parameters of `main`, at most. */
  readonly maxParams: number;
  /** Statements in a nested block: at least `minBlock`, at most `blockLength`. */
  readonly minBlock: number;
  readonly blockLength: number;
  readonly stmtDepth: number;
  readonly exprDepth: number;
  /** Async programs (`async function main`, async helpers), and in them awaited async tools. */
  readonly asyncPrograms: number;
  /** In an async program, an effect or value tool is the awaited async one (against 1 for the sync one). */
  readonly asyncCalls: number;
  /** Mail and payments through the tools of one object of named arguments (against 1 for the positional tools). */
  readonly namedArgs: number;
  /** The forms of the `ints` statement, by weight. */
  readonly intOps: Readonly<Record<IntsStmt["op"], number>>;
  /** The tools with element promises (`prefixed`, `positives`, `credits`) among array expressions and loop sources (0: none drawn, as before they existed). */
  readonly elementPromises: number;
  /** `main` inputs of records (`Row`, `Row[]`) among its parameters and loop sources (0: none drawn, as before they existed). */
  readonly recordInputs: number;
}

/** The contracts of the fuzz layer and the kinds of their arguments. */
export const CONTRACTS: Readonly<Record<string, readonly ContractArg["k"][]>> = {
  neverEmail: ["str"],
  emailsAtMost: ["count"],
  emailsAtLeast: ["count"],
  emailsExactly: ["count"],
  emailsBetween: ["count", "count"],
  nobodyTwice: [],
  oneRecipient: [],
  onlyTo: ["strs"],
  subjectsNonEmpty: [],
  internalAtMost: ["count"],
  safeMail: ["str", "count"],
  spendAtMost: ["num"],
  noPaymentOver: ["num"],
  noPayTo: ["str"],
  neverLog: ["str"],
  neverLogPrefix: ["str"],
  neverLogContaining: ["str"],
  shortLogs: ["count"],
  logsAtMost: ["count"],
  logsAtLeast: ["count"],
  distinctLogs: [],
  measuresBelow: ["num"],
  neverMeasure: ["num"],
  measuresSumAtMost: ["num"],
  measuresAtMost: ["count"],
  distinctMeasures: [],
  oneMeasure: [],
  payOnce: [],
  nothing: [],
  // Issue 13's forms: an `all` that element promises prove, and joins (`sharesValueWith`).
  logsStartWith: ["str"],
  measuresPositive: [],
  alsoSentTo: ["str", "str"],
  paidAsTo: ["str", "str"],
  measuredOtherThan: ["num"],
  someEmail: [],
  // Fluents (issue 13 part 3): final state of the doors `lock`/`unlock` write and the levels `setLevel` writes.
  lockedAtEnd: ["str"],
  unlockedAtEnd: ["str"],
  everyLocked: [],
  levelIs: ["str", "num"],
  levelsAtMost: ["num"],
};

/** The fluent contracts (final state): drawn only by the `fluents` profile, so no other profile's programs change. */
export const CONTRACTS_FLUENTS: readonly string[] = ["lockedAtEnd", "unlockedAtEnd", "everyLocked", "levelIs", "levelsAtMost"];

/** The contracts added with issue 13's forms (hole profiles draw none of them, so they write the programs they did before). */
export const CONTRACTS_ISSUE_13: readonly string[] = ["logsStartWith", "measuresPositive", "alsoSentTo", "paidAsTo", "measuredOtherThan", "someEmail"];

export const DEFAULT_WEIGHTS: Weights = {
  stmt: {
    decl: 6, assign: 3, incr: 2, effect: 8, console: 1.5, if: 5, switch: 4, forLit: 2, forN: 2, forArr: 3, call: 3,
    short: 1, ternStmt: 1, throwIf: 1, return: 1, jump: 2, tdz: 0.2, repeat: 0.5, filter: 1, float: 0.1, all: 0.3,
    elements: 0.6, pair: 0.4, callback: 1, tryThrow: 0.6, tryLoop: 0.4, whileN: 0.6, destructure: 1,
    // Drawn by profile `arrays` only, so every other profile writes the programs it did before.
    arrays: 0,
    // Drawn by profile `integers` (and its hole's) only, for the same reason.
    ints: 0,
    // Drawn by profile `strings` only, for the same reason.
    strings: 0,
    // Drawn by profile `locals` only, for the same reason.
    locals: 0,
    // Drawn by profile `collections` only, for the same reason.
    collections: 0,
    // Drawn by profile `loopstate` only, for the same reason.
    loopstate: 0,
    // Drawn by profile `counts` only, for the same reason.
    counted: 0,
    // Drawn by profile `idioms` only, for the same reason.
    idioms: 0,
    // Drawn by profile `callbacks` only, for the same reason.
    allMap: 0,
  },
  clauseEnd: { break: 4, fall: 2, block: 3, blockBreak: 2, return: 1, continue: 1, throw: 1 },
  stringIncrements: 0.05,
  intOps: { budget: 1, edge: 1, signed: 1, scaled: 1, mixed: 0, remainder: 1, rounded: 1 },
  effects: { sendEmail: 2, pay: 1, log: 2, measure: 1, lock: 0, unlock: 0, setLevel: 0 },
  optional: 0.3,
  optionalConditions: 0.3,
  nullResults: 0,
  helperCalls: 2,
  smtNames: 1,
  contracts: Object.fromEntries(Object.keys(CONTRACTS).map((c) => [c, c === "nothing" ? 0.2 : CONTRACTS_FLUENTS.includes(c) ? 0 : 1])),
  maxHelpers: 2,
  maxParams: 3,
  minBlock: 0,
  blockLength: 3,
  stmtDepth: 2,
  exprDepth: 2,
  asyncPrograms: 0.3,
  asyncCalls: 2,
  elementPromises: 0.5,
  // Drawn by profile `records` only, so every other profile writes the programs it did before.
  recordInputs: 0,
  namedArgs: 1,
};

/**
 * Weights with some entries replaced (`stmt`, `clauseEnd`, `effects` and `contracts` merge entry by
 * entry). With `focus`, the statements and contracts not named drop to a tenth of their weight.
 */
export function weights(
  over: Partial<Omit<Weights, "stmt" | "clauseEnd" | "contracts" | "effects">> & {
    stmt?: Partial<Weights["stmt"]>;
    clauseEnd?: Partial<Weights["clauseEnd"]>;
    effects?: Partial<Weights["effects"]>;
    contracts?: Readonly<Record<string, number>>;
    focus?: boolean;
  } = {},
): Weights {
  const { focus, ...rest } = over;
  const scale = <K extends string>(base: Readonly<Record<K, number>>): Record<K, number> => Object.fromEntries(Object.entries<number>(base).map(([k, v]) => [k, focus ? v / 10 : v])) as Record<K, number>;
  return {
    ...DEFAULT_WEIGHTS,
    ...rest,
    stmt: { ...scale(DEFAULT_WEIGHTS.stmt), ...over.stmt },
    clauseEnd: { ...DEFAULT_WEIGHTS.clauseEnd, ...over.clauseEnd },
    effects: { ...DEFAULT_WEIGHTS.effects, ...over.effects },
    contracts: { ...scale(DEFAULT_WEIGHTS.contracts), ...over.contracts },
  };
}

const PLAIN_STRINGS = ["", "a", "b", "ab", "x", "x@corp", "ceo@corp", "/secrets", "/secrets/a", "5", "6", "0", "-0", "NaN", "undefined", "true", "😀", "\ud83d", "\ude00", "a\ud800b", " ", "A"];
/**
 * Names of the form the prover's fresh names take (`<prefix>!<n>`; loop indices are `i!<n>`, their
 * copies `i!<n>.<k>`). In small programs the first loop index is `i!3` (to `i!6`), hence their weight.
 */
const LOOP_INDEX_NAMES = [...Array.from({ length: 16 }, (_, n) => `i!${n}`), ...["i!3", "i!3", "i!3", "i!3", "i!4", "i!4", "i!5", "i!6"].flatMap((n) => [n, n])];
const OTHER_SMT_NAMES = [...Array.from({ length: 8 }, (_, n) => `j!${n}`), "k!0", "k!2", "x!1", "pc!0", "pc!2", "v!1", "v!3", "n!0", "i!1.0", "violation!0"];
const NUMBERS = [0, -0, 1, 2, 3, 5, -1, 0.1, 0.2, 0.3, 0.5, 1.5, 10, 100, 1e16, 2 ** 53, NaN, Infinity, -Infinity, 5e-324, 0.1 + 0.2];

/** Pick among weighted arbitraries (weights in tenths), leaving out those of weight 0. */
function weighted<T>(options: readonly (readonly [number, fc.Arbitrary<T>])[], constraints?: fc.OneOfConstraints): fc.Arbitrary<T> {
  const live = options.filter(([w]) => Math.round(w * 10) > 0).map(([weight, arbitrary]) => ({ weight: Math.round(weight * 10), arbitrary }));
  return constraints ? fc.oneof(constraints, ...live) : fc.oneof(...live);
}

export function programArb(w: Weights = DEFAULT_WEIGHTS): fc.Arbitrary<ProgramIR> {
  // Whether a call is of the async tool (printed awaited, and only where the program awaits). With
  // no async programs nothing is drawn for it, so a sync profile generates what it did before.
  const asyncCall = w.asyncPrograms > 0 ? weighted([[w.asyncCalls, fc.constant(true)], [1, fc.constant(false)]]) : fc.constant(false);
  const strLit = weighted<string>([
    [6, fc.constantFrom(...PLAIN_STRINGS)],
    [w.smtNames * 2, fc.constantFrom(...LOOP_INDEX_NAMES)],
    [w.smtNames, fc.constantFrom(...OTHER_SMT_NAMES)],
    [1, fc.string({ unit: fc.constantFrom("a", "b", "/", "@", "!", "i", "1", ".", "\ud83d", "\ude00"), maxLength: 3 })],
  ]);
  const numLit = weighted<number>([
    [4, fc.constantFrom(...NUMBERS)],
    [3, fc.integer({ min: -2, max: 6 })],
  ]);
  const d = (id: string): fc.OneOfConstraints => ({ depthIdentifier: id, maxDepth: w.exprDepth, withCrossShrink: true });

  const expr = fc.letrec<{ str: StrExpr; num: NumExpr; bool: BoolExpr; ostr: OStrExpr; strs: StrsExpr; nums: NumsExpr; row: RowExpr; args: HelperArgs }>((tie) => {
    const str = tie("str") as fc.Arbitrary<StrExpr>;
    const num = tie("num") as fc.Arbitrary<NumExpr>;
    const bool = tie("bool") as fc.Arbitrary<BoolExpr>;
    const ostr = tie("ostr") as fc.Arbitrary<OStrExpr>;
    const strs = tie("strs") as fc.Arbitrary<StrsExpr>;
    const nums = tie("nums") as fc.Arbitrary<NumsExpr>;
    const row = tie("row") as fc.Arbitrary<RowExpr>;
    const args = tie("args") as fc.Arbitrary<HelperArgs>;
    const scalar = fc.oneof(str, num, bool);
    return {
      str: weighted<StrExpr>([
        [5, strLit.map((v) => ({ t: "str", k: "lit", v }))],
        [6, fc.nat(7).map((i) => ({ t: "str", k: "var", i }))],
        [2, fc.record({ a: str, b: scalar }).map(({ a, b }) => ({ t: "str", k: "concat", a, b }))],
        [2, fc.record({ head: strLit, parts: fc.array(fc.tuple(weighted<StrExpr | NumExpr | BoolExpr | OStrExpr>([[4, str], [2, num], [1, bool], [w.optional / 2, ostr]]), strLit), { minLength: 1, maxLength: 2 }) }).map(({ head, parts }) => ({ t: "str", k: "tmpl", head, parts }))],
        [1, fc.record({ c: bool, a: str, b: str }).map(({ c, a, b }) => ({ t: "str", k: "tern", c, a, b }))],
        [1, fc.record({ op: fc.constantFrom("||" as const, "&&" as const), a: str, b: str }).map(({ op, a, b }) => ({ t: "str", k: "logic", op, a, b }))],
        [w.optional, fc.record({ a: ostr, b: str }).map(({ a, b }) => ({ t: "str", k: "nullish", a, b }))],
        [2, fc.record({ arg: str, async: asyncCall }).map(({ arg, async }) => ({ t: "str", k: "lookup", arg, async }))],
        [1, row.map((r) => ({ t: "str", k: "field", row: r }))],
        [w.helperCalls, fc.record({ i: fc.nat(3), args: fc.array(args, { maxLength: 2 }) }).map(({ i, args: as }) => ({ t: "str", k: "call", i, args: as }))],
        [0.5, fc.record({ items: fc.array(strLit, { maxLength: 2 }), at: fc.nat(2) }).map(({ items, at }) => ({ t: "str", k: "index", items, at }))],
      ], d("expr")),
      num: weighted<NumExpr>([
        [5, numLit.map((v) => ({ t: "num", k: "lit", v }))],
        [6, fc.nat(7).map((i) => ({ t: "num", k: "var", i }))],
        [3, fc.record({ op: weighted<"+" | "-" | "*" | "/" | "%" | "**">([[4, fc.constantFrom("+" as const, "-" as const)], [3, fc.constantFrom("*" as const, "/" as const)], [0.3, fc.constantFrom("%" as const, "**" as const)]]), a: num, b: num }).map(({ op, a, b }) => ({ t: "num", k: "arith", op, a, b }))],
        [1, num.map((a) => ({ t: "num", k: "neg", a }))],
        [2, str.map((s) => ({ t: "num", k: "len", s }))],
        [1, fc.oneof(strs, nums).map((arr) => ({ t: "num", k: "alen", arr }))],
        [1, fc.record({ op: fc.constantFrom("min" as const, "max" as const), a: num, b: num }).map(({ op, a, b }) => ({ t: "num", k: "minmax", op, a, b }))],
        [1, fc.record({ c: bool, a: num, b: num }).map(({ c, a, b }) => ({ t: "num", k: "tern", c, a, b }))],
        [2, str.map((arg) => ({ t: "num", k: "score", arg }))],
        [1, fc.constant({ t: "num", k: "ratio" })],
        [1, row.map((r) => ({ t: "num", k: "field", row: r }))],
        [w.optional / 2, num.map((b) => ({ t: "num", k: "maybeCount", b }))],
        [w.helperCalls, fc.record({ i: fc.nat(3), args: fc.array(args, { maxLength: 2 }) }).map(({ i, args: as }) => ({ t: "num", k: "call", i, args: as }))],
      ], d("expr")),
      bool: weighted<BoolExpr>([
        [2, fc.boolean().map((v) => ({ t: "bool", k: "lit", v }))],
        [2, fc.nat(7).map((i) => ({ t: "bool", k: "var", i }))],
        [6, fc.record({ op: fc.constantFrom("===" as const, "!==" as const, "<" as const, "<=" as const, ">" as const, ">=" as const, "===" as const, "==" as const, "!=" as const), a: fc.oneof(str, num), b: fc.oneof(str, num) }).map(({ op, a, b }) => ({ t: "bool", k: "cmp", op, a, b }))],
        [1, fc.record({ op: fc.constantFrom("===" as const, "!==" as const), a: bool, b: bool }).map(({ op, a, b }) => ({ t: "bool", k: "eqBool", op, a, b }))],
        [w.optional, fc.record({ op: fc.constantFrom("===" as const, "!==" as const), a: ostr, b: fc.option(strLit.map((v): StrExpr => ({ t: "str", k: "lit", v })), { nil: null }) }).map(({ op, a, b }) => ({ t: "bool", k: "eqOpt", op, a, b }))],
        [3, fc.record({ m: fc.constantFrom("startsWith" as const, "endsWith" as const, "includes" as const), s: str, x: str }).map(({ m, s, x }) => ({ t: "bool", k: "method", m, s, x }))],
        [1, fc.record({ arr: strs, x: str }).map(({ arr, x }) => ({ t: "bool", k: "has", arr, x }))],
        [1, bool.map((a) => ({ t: "bool", k: "not", a }))],
        [2, fc.record({ op: fc.constantFrom("&&" as const, "||" as const), a: bool, b: bool }).map(({ op, a, b }) => ({ t: "bool", k: "logic", op, a, b }))],
        [1 + w.optionalConditions, weighted<StrExpr | NumExpr | OStrExpr>([[1, str], [1, num], [w.optionalConditions, ostr]]).map((a) => ({ t: "bool", k: "truthy", a }))],
        [1, str.map((arg) => ({ t: "bool", k: "isOpen", arg }))],
        [w.helperCalls, fc.record({ i: fc.nat(3), args: fc.array(args, { maxLength: 2 }) }).map(({ i, args: as }) => ({ t: "bool", k: "call", i, args: as }))],
      ], d("expr")),
      ostr: weighted<OStrExpr>([
        [2, fc.nat(3).map((i) => ({ t: "ostr", k: "var", i }))],
        [3, str.map((arg) => ({ t: "ostr", k: "maybeName", arg }))],
        [w.nullResults, str.map((arg) => ({ t: "ostr", k: "maybeNull", arg }))],
        [1, fc.record({ c: bool, a: str }).map(({ c, a }) => ({ t: "ostr", k: "tern", c, a }))],
      ], d("expr")),
      strs: weighted<StrsExpr>([
        [2, asyncCall.map((async) => ({ t: "strs", k: "names", async }))],
        [3, fc.nat(3).map((i) => ({ t: "strs", k: "var", i }))],
        [2, fc.constant({ t: "strs", k: "few" })],
        [1, fc.array(strLit, { maxLength: 3 }).map((items) => ({ t: "strs", k: "lit", items }))],
        [w.elementPromises, str.map((arg) => ({ t: "strs", k: "prefixed", arg }))],
      ], d("expr")),
      nums: weighted<NumsExpr>([
        [2, fc.constant({ t: "nums", k: "amounts" })],
        [3, fc.nat(3).map((i) => ({ t: "nums", k: "var", i }))],
        [1, fc.array(numLit, { maxLength: 3 }).map((items) => ({ t: "nums", k: "lit", items }))],
        [w.elementPromises, fc.constant({ t: "nums", k: "positives" })],
      ], d("expr")),
      row: weighted<RowExpr>([
        [2, fc.nat(3).map((i) => ({ t: "row", k: "var", i }))],
        [1, str.map((arg) => ({ t: "row", k: "entry", arg }))],
      ], d("expr")),
      args: fc.record({ str, num, bool, pass: weighted<"value" | "undefined" | "optional">([[8, fc.constant("value" as const)], [1, fc.constant("undefined" as const)], [w.optional + 0.5, fc.constant("optional" as const)]]) }),
    };
  });

  const positional = fc.record({
    tool: weighted(Object.entries(w.effects).map(([tool, weight]) => [weight, fc.constant(tool as Effect["tool"])] as const)),
    s: expr.str,
    s2: expr.str,
    n: expr.num,
    async: asyncCall,
  });
  // Without named arguments nothing more is drawn (a profile without them writes the programs it did).
  const effect: fc.Arbitrary<Effect> = w.namedArgs > 0
    ? fc.tuple(positional, weighted<Effect["named"]>([[1, fc.constant(undefined)], [w.namedArgs, fc.constantFrom("literal" as const, "literal" as const, "reordered" as const, "spread" as const)]]))
      .map(([e, named]) => (named ? { ...e, named } : e))
    : positional;
  const clauseEnd = weighted<ClauseEnd>(Object.entries(w.clauseEnd).map(([e, weight]) => [weight, fc.constant(e as ClauseEnd)] as const));
  const anyExpr = weighted<Expr>([[3, expr.str], [3, expr.num], [2, expr.bool], [w.optional, expr.ostr], [1, expr.strs], [1, expr.nums], [0.5, expr.row]]);

  // Without element-promise tools, exactly the choice of before (so the profiles that draw none write the programs they did).
  type ArrSrc = StrsExpr | NumsExpr | { t: "rows"; tool?: "credits" | "input" };
  const oldSrc: fc.Arbitrary<ArrSrc> = w.elementPromises > 0
    ? weighted<ArrSrc>([[2, expr.strs], [1, expr.nums], [1, fc.constant({ t: "rows" as const })], [w.elementPromises, fc.constant({ t: "rows" as const, tool: "credits" as const })]])
    : fc.oneof(expr.strs, expr.strs, expr.nums, fc.constant({ t: "rows" as const }));
  // A loop over `main`'s `Row[]` input (the printer falls back to `rows()` without one).
  const forArrSrc: fc.Arbitrary<ArrSrc> = w.recordInputs > 0 ? weighted<ArrSrc>([[4, oldSrc], [w.recordInputs, fc.constant({ t: "rows" as const, tool: "input" as const })]]) : oldSrc;
  const stmts = fc.letrec<{ stmt: Stmt; block: Stmt[] }>((tie) => {
    const block = tie("block") as fc.Arbitrary<Stmt[]>;
    const s = w.stmt;
    return {
      block: fc.array(tie("stmt") as fc.Arbitrary<Stmt>, { minLength: w.minBlock, maxLength: w.blockLength }),
      stmt: weighted<Stmt>([
        [s.effect, effect.map((e) => ({ k: "effect", e }))],
        [s.console, fc.record({
          method: fc.constantFrom("log" as const, "log" as const, "info" as const, "warn" as const, "error" as const, "debug" as const),
          args: fc.array(weighted<{ k: "expr"; e: Expr } | { k: "effect"; e: Effect }>([[4, anyExpr.map((e) => ({ k: "expr" as const, e }))], [1, effect.map((e) => ({ k: "effect" as const, e }))]]), { maxLength: 3 }),
        }).map(({ method, args }) => ({ k: "console", method, args }))],
        [s.decl, fc.record({ kind: fc.constantFrom("const" as const, "let" as const, "let" as const), init: anyExpr }).map(({ kind, init }) => ({ k: "decl", kind, init }))],
        [s.assign, fc.record({ i: fc.nat(3), v: anyExpr, op: fc.constantFrom("=" as const, "+=" as const, "-=" as const, "*=" as const, "/=" as const) }).map(({ i, v, op }) => ({ k: "assign", i, v, op }))],
        [s.incr, fc.record({ i: fc.nat(3), op: fc.constantFrom("++" as const, "--" as const), prefix: fc.boolean(), onString: fc.constant(false) }).map((x) => ({ k: "incr", ...x }))],
        [s.if, fc.record({ c: weighted<BoolExpr | StrExpr | NumExpr | OStrExpr>([[6, expr.bool], [1, expr.str], [1, expr.num], [w.optionalConditions, expr.ostr]]), then: block, else: fc.option(block, { nil: null }) }).map(({ c, then, else: e }) => ({ k: "if", c, then, else: e }))],
        [s.switch, fc.record({
          // Mostly a variable (an input when there is one): a switch on a constant has one live clause.
          d: weighted<StrExpr | NumExpr>([[4, fc.nat(7).map((i): StrExpr => ({ t: "str", k: "var", i }))], [2, expr.str], [1, fc.nat(7).map((i): NumExpr => ({ t: "num", k: "var", i }))], [1, expr.num]]),
          cases: fc.array(fc.record({ v: fc.oneof(strLit, numLit), body: block, end: clauseEnd }), { minLength: 1, maxLength: 3 }),
          dflt: fc.option(fc.record({ body: block, end: clauseEnd }), { nil: null }),
        }).map(({ d: disc, cases, dflt }) => ({ k: "switch", d: disc, cases, dflt }))],
        [s.forLit, fc.record({ items: fc.oneof(fc.array(strLit, { minLength: 1, maxLength: 3 }), fc.array(numLit, { minLength: 1, maxLength: 3 })), body: block }).map(({ items, body }) => ({ k: "forLit", items, body }))],
        [s.forN, fc.record({ n: fc.integer({ min: 0, max: 3 }), body: block }).map(({ n, body }) => ({ k: "forN", n, body }))],
        [s.whileN, fc.record({ n: fc.integer({ min: 0, max: 3 }), isDo: fc.boolean(), body: block }).map(({ n, isDo, body }) => ({ k: "whileN", n, isDo, body }))],
        [s.forArr, fc.record({ src: forArrSrc, body: block }).map(({ src, body }) => ({ k: "forArr", src, body }))],
        [s.call, fc.record({ i: fc.nat(3), args: fc.array(expr.args, { maxLength: 2 }) }).map(({ i, args }) => ({ k: "call", i, args }))],
        [s.short, fc.record({ c: expr.bool, op: fc.constantFrom("&&" as const, "||" as const), e: effect }).map(({ c, op, e }) => ({ k: "short", c, op, e }))],
        [s.ternStmt, fc.record({ c: expr.bool, a: effect, b: effect }).map(({ c, a, b }) => ({ k: "ternStmt", c, a, b }))],
        [s.throwIf, fc.record({ c: expr.bool, msg: strLit }).map(({ c, msg }) => ({ k: "throwIf", c, msg }))],
        [s.return, fc.constant({ k: "return" })],
        [s.jump, fc.record({ kind: fc.constantFrom("break" as const, "continue" as const), outer: fc.boolean() }).map((x) => ({ k: "jump", ...x }))],
        [s.filter, fc.record({ src: expr.strs, op: fc.constantFrom("===" as const, "===" as const, "!==" as const, "startsWith" as const, "endsWith" as const, "includes" as const), lit: strLit, e: effect, useElement: fc.boolean() }).map((x) => ({ k: "filter", ...x }))],
        [s.repeat, fc.record({ how: fc.constantFrom("helper" as const, "loop" as const), src: fc.constantFrom("few" as const, "few" as const, "amounts" as const), e: effect }).map((x) => ({ k: "repeat", ...x }))],
        [s.all, fc.array(effect, { minLength: 1, maxLength: 3 }).map((es) => ({ k: "all", es }))],
        [s.float, fc.record({ e: effect, how: fc.constantFrom("drop" as const, "stored" as const) }).map(({ e, how }) => ({ k: "float", e, how }))],
        [s.tdz, fc.record({ items: fc.array(strLit, { minLength: 2, maxLength: 3 }), pick: fc.nat(2), init: expr.str, e: fc.constantFrom("log" as const, "sendEmail" as const) }).map((x) => ({ k: "tdz", ...x }))],
        [s.elements, fc.record({ src: fc.constantFrom("prefixed" as const, "prefixed" as const, "positives" as const, "credits" as const), prefix: expr.str, guard: fc.constantFrom("none" as const, "if" as const, "unless" as const, "throw" as const), e: effect }).map((x) => ({ k: "elements", ...x }))],
        [s.pair, fc.record({ e: effect, other: expr.str }).map((x) => ({ k: "pair", ...x }))],
        [s.callback, fc.record({
          method: fc.constantFrom("forEach" as const, "map" as const, "filter" as const, "some" as const, "every" as const, "find" as const, "findIndex" as const),
          src: expr.strs,
          op: fc.constantFrom("===" as const, "!==" as const, "startsWith" as const, "endsWith" as const, "includes" as const),
          lit: strLit,
          e: effect,
          inner: fc.boolean(),
          useElement: fc.boolean(),
          useIndex: weighted([[1, fc.constant(true)], [3, fc.constant(false)]]),
          throwAt: fc.option(strLit, { nil: null, freq: 4 }),
        }).map((x) => ({ k: "callback", ...x }))],
        [s.allMap, fc.record({
          read: fc.constantFrom(...ALLMAP_READS),
          src: expr.strs,
          nums: expr.nums,
          filtered: weighted([[1, fc.constant(true)], [3, fc.constant(false)]]),
          useIndex: weighted([[1, fc.constant(true)], [3, fc.constant(false)]]),
          lit: strLit,
          cmp: fc.integer({ min: 0, max: 3 }),
          pick: fc.nat(3),
          e: effect,
        }).map((x) => ({ k: "allMap", ...x }))],
        [s.tryThrow, fc.record({
          i: fc.nat(7),
          op: fc.constantFrom("===" as const, "!==" as const, "startsWith" as const),
          lit: strLit,
          caught: fc.option(effect, { nil: null, freq: 4 }),
          fin: fc.option(effect, { nil: null, freq: 2 }),
          read: fc.constantFrom("none" as const, "none" as const, "text" as const, "message" as const, "instanceof" as const),
        }).map((x) => ({ k: "tryThrow", ...x }))],
        [s.tryLoop, fc.record({
          how: fc.constantFrom("for" as const, "forEach" as const),
          src: expr.strs,
          op: fc.constantFrom("===" as const, "!==" as const, "startsWith" as const),
          lit: strLit,
          caught: fc.option(effect, { nil: null, freq: 4 }),
          fin: fc.option(effect, { nil: null, freq: 2 }),
        }).map((x) => ({ k: "tryLoop", ...x }))],
        [s.arrays, fc.record({
          op: fc.constantFrom(...ARRAYS_OPS),
          strs: expr.strs,
          nums: expr.nums,
          useNums: weighted([[1, fc.constant(true)], [2, fc.constant(false)]]),
          a: weighted<NumExpr>([[3, numLit.map((v): NumExpr => ({ t: "num", k: "lit", v }))], [1, expr.num]]),
          b: fc.option(weighted<NumExpr>([[3, numLit.map((v): NumExpr => ({ t: "num", k: "lit", v }))], [1, expr.num]]), { nil: null }),
          x: expr.str,
          xn: expr.num,
          lits: fc.array(strLit, { maxLength: 3 }),
          cmp: fc.integer({ min: -1, max: 3 }),
          e: effect,
        }).map((x) => ({ k: "arrays", ...x }))],
        [s.locals, fc.record({
          op: fc.constantFrom(...LOCALS_OPS),
          lits: fc.array(strLit, { minLength: 1, maxLength: 4 }),
          nums: fc.array(numLit, { minLength: 1, maxLength: 4 }),
          cond: fc.constantFrom("===" as const, "!==" as const, "startsWith" as const, "<" as const),
          x: expr.str,
          xn: expr.num,
          src: expr.strs,
          cmp: fc.integer({ min: -1, max: 4 }),
          e: effect,
        }).map((x) => ({ k: "locals", ...x }))],
        [s.collections, fc.record({
          op: fc.constantFrom(...COLLECTIONS_OPS),
          lits: fc.array(strLit, { minLength: 1, maxLength: 4 }),
          nums: fc.array(numLit, { minLength: 1, maxLength: 4 }),
          x: expr.str,
          xn: expr.num,
          src: expr.strs,
          cmp: fc.integer({ min: -1, max: 5 }),
          pick: fc.nat(40),
          e: effect,
        }).map((x) => ({ k: "collections" as const, ...x }))],
        [s.ints, fc.record({
          op: weighted(Object.entries(w.intOps).map(([op, weight]) => [weight, fc.constant(op as IntsStmt["op"])] as const)),
          limit: fc.constantFrom(0, 1, 500, 999, 1000, 1001, 2000),
          // (k, lit, sum): `t === k && t + lit === sum`; the first is true in JavaScript (2^53 + 1
          // rounds to 2^53), the others are exact at the edge of 2^53.
          edge: fc.constantFrom<readonly [number, number, number]>([3, 2 ** 53 - 2, 2 ** 53], [2, 2 ** 53 - 2, 2 ** 53], [1, 2 ** 53 - 1, 2 ** 53], [3, 2 ** 53 - 1, 2 ** 53 + 2], [-2, 2 ** 53 + 2, 2 ** 53]),
          scale: fc.constantFrom(-1, 2, 1000),
          sink: fc.constantFrom("pay" as const, "measure" as const),
          e: effect,
        }).map((x) => ({ k: "ints", ...x }))],
        [s.loopstate, fc.record({
          op: fc.constantFrom(...LOOPSTATE_OPS),
          limit: fc.constantFrom(0, 1, 2, 3, 5, 10, 100),
          slack: fc.constantFrom(-1, 0, 0, 0, 1),
          strict: fc.boolean(),
          update: fc.constantFrom("ok" as const, "ok" as const, "ok" as const, "missing" as const, "before" as const, "wrong" as const),
          sink: fc.constantFrom("pay" as const, "measure" as const),
          lit: strLit,
          e: effect,
        }).map((x) => ({ k: "loopstate", ...x }))],
        [s.counted, fc.record({
          op: fc.constantFrom(...COUNTED_OPS),
          pred: fc.constantFrom("startsWith" as const, "endsWith" as const, "===" as const, "!==" as const),
          lit: strLit,
          lit2: strLit,
          limit: fc.constantFrom(0, 1, 2, 3),
          slack: fc.constantFrom(-1, 0, 0, 1),
          via: fc.constantFrom(...COUNTED_VIA),
          outer: fc.boolean(),
          e: effect,
        }).map((x) => ({ k: "counted", ...x }))],
        [s.idioms, fc.record({
          op: fc.constantFrom(...IDIOMS_OPS),
          lits: fc.array(strLit, { maxLength: 3 }),
          x: expr.str,
          src: expr.strs,
          cmp: fc.integer({ min: -1, max: 4 }),
          pick: fc.nat(59),
          e: effect,
        }).map((x) => ({ k: "idioms" as const, ...x }))],
        [s.strings, fc.record({
          op: fc.constantFrom(...STRINGS_OPS),
          literal: fc.boolean(),
          pick: fc.nat(30),
          x: expr.str,
          n: expr.num,
          b: expr.bool,
          off: fc.integer({ min: -1, max: 3 }),
          digits: fc.constantFrom(0, 0, 1, 2, 20),
          pattern: fc.constantFrom(...PATTERNS),
          replacement: fc.constantFrom(...REPLACEMENTS),
          lit: fc.constantFrom(...RESULT_TEXTS),
          e: effect,
        }).map((x) => ({ k: "strings" as const, ...x }))],
        [s.destructure, fc.record({ src: expr.str, how: fc.constantFrom("pattern" as const, "optional" as const, "method" as const, "defaults" as const), fallback: expr.str, n: expr.num, srcs: expr.strs }).map((x) => ({ k: "destructure", ...x }))],
        [w.stringIncrements, fc.record({ i: fc.nat(3), op: fc.constantFrom("++" as const, "--" as const), prefix: fc.boolean() }).map((x) => ({ k: "incr", ...x, onString: true }))],
      ], { depthIdentifier: "stmt", maxDepth: w.stmtDepth, withCrossShrink: true }),
    };
  });
  const body = fc.array(stmts.stmt, { minLength: 1, maxLength: w.blockLength + 1 });

  const helper: fc.Arbitrary<Helper> = fc.record({
    params: fc.array(fc.constantFrom<Scalar>("str", "num", "bool"), { maxLength: 2 }),
    defaults: fc.array(fc.option(expr.args, { nil: null, freq: 2 }), { maxLength: 2 }),
    ret: fc.constantFrom<Scalar | "void">("void", "void", "str", "num", "bool"),
    body: stmts.block,
    result: expr.args,
    where: fc.constantFrom("module" as const, "main" as const),
  });
  const contractNames = Object.keys(CONTRACTS);
  const argOf = (k: ContractArg["k"]): fc.Arbitrary<ContractArg> =>
    k === "str" ? fc.nat(40).map((i) => ({ k, i })) : k === "num" ? fc.nat(40).map((i) => ({ k, i })) : k === "count" ? fc.nat(4).map((v) => ({ k, v })) : fc.array(fc.nat(40), { maxLength: 3 }).map((is) => ({ k: "strs", is }));
  const guarantee: fc.Arbitrary<GuaranteeIR> = weighted(contractNames.map((c) => [w.contracts[c] ?? 0, fc.tuple(...CONTRACTS[c]!.map(argOf)).map((args) => ({ contract: c, args }))] as const));

  return fc.record({
    async: w.asyncPrograms > 0 ? weighted([[w.asyncPrograms, fc.constant(true)], [1 - w.asyncPrograms, fc.constant(false)]]) : fc.constant(false),
    params: fc.array(
      w.recordInputs > 0
        ? weighted<ProgramIR["params"][number]>([[6, fc.constantFrom("str" as const, "str" as const, "num" as const, "bool" as const, "strs" as const, "nums" as const)], [w.recordInputs, fc.constantFrom("row" as const, "rows" as const)]])
        : fc.constantFrom("str" as const, "str" as const, "num" as const, "bool" as const, "strs" as const, "nums" as const),
      { maxLength: w.maxParams },
    ),
    helpers: fc.array(helper, { maxLength: w.maxHelpers }),
    body,
    guarantees: fc.array(guarantee, { minLength: 1, maxLength: 3 }),
  });
}

/** A generated program: the tree and its text. */
export interface Generated {
  readonly ir: ProgramIR;
  readonly text: string;
}

export function generatedArb(w: Weights = DEFAULT_WEIGHTS): fc.Arbitrary<Generated> {
  return programArb(w).map((ir) => ({ ir, text: printProgram(ir) }));
}
