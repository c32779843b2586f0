/**
 * The guesser (guess/search.ts, guess/evaluate.ts, z3-guess.ts): a model for a satisfiable query
 * found without a solver check, and believed only when Z3 evaluates every assertion to true in it.
 * What it must keep: the evaluator agrees with Z3 on every operator it evaluates (a disagreement
 * costs a guess, and would hide a faster answer); a guess Z3 does not confirm is never an answer;
 * an unsatisfiable query is never guessed; what it does not evaluate is left to Z3.
 */
import { QueryState } from "../../core/prover/guess/evaluate";
import { guessBudget, guessModel, type Guess } from "../../core/prover/guess/search";
import { parseCommands } from "../../core/prover/tactics";
import { numLit } from "../../core/prover/smt";
import { initZ3 } from "../../core/prover/z3-load";
import { DEEP_GUESS_BUDGET, guessedModel, literalOf } from "../../core/prover/z3-guess";
import { openScope, parseKept, type Instance } from "../../core/prover/z3-scope";
import { Z3Session } from "../../core/prover/z3";

const F64 = "(_ FloatingPoint 11 53)";
const f = numLit;

/** Ground terms of every operator the evaluator knows, at the edges where languages differ. */
const GROUND: readonly string[] = [
  // Strings: positions out of range, empty patterns, digits.
  '(str.at "abc" 3)', '(str.at "abc" (- 1))', '(str.at "abc" 1)',
  '(str.substr "abcdef" 2 10)', '(str.substr "abcdef" (- 1) 2)', '(str.substr "abcdef" 2 0)', '(str.substr "abcdef" 6 1)',
  '(str.indexof "abcabc" "c" 3)', '(str.indexof "abc" "" 2)', '(str.indexof "abc" "" 4)', '(str.indexof "abc" "d" 0)', '(str.indexof "abc" "a" (- 1))',
  '(str.replace "abab" "b" "x")', '(str.replace "abc" "" "x")', '(str.replace_all "abab" "b" "xy")', '(str.replace_all "abc" "" "x")', '(str.replace_all "aaa" "aa" "b")',
  '(str.to_int "007")', '(str.to_int "")', '(str.to_int "1a")', '(str.from_int 42)', '(str.from_int (- 3))',
  '(str.len "a\\u{e9}b")', '(str.++ "a" "" "bc")', '(str.contains "hello" "ll")', '(str.prefixof "he" "hello")', '(str.suffixof "lo" "hello")',
  '(str.< "abc" "abd")', '(str.<= "b" "ab")', '(str.is_digit "7")', '(str.is_digit "77")', '(str.to_code "A")', '(str.to_code "AB")', '(str.from_code 66)', '(str.from_code (- 1))',
  // Regular expressions: complement, intersection, loops, ranges that are not one character.
  '(str.in_re "abc" (re.* (re.range "a" "c")))', '(str.in_re "abd" (re.* (re.range "a" "c")))', '(str.in_re "" (re.+ (str.to_re "a")))',
  '(str.in_re "ab" (re.comp (str.to_re "ab")))', '(str.in_re "ba" (re.inter (re.* re.allchar) (re.++ (str.to_re "b") re.all)))',
  '(str.in_re "aaa" ((_ re.loop 2 3) (str.to_re "a")))', '(str.in_re "aaaa" ((_ re.loop 2 3) (str.to_re "a")))', '(str.in_re "a" (re.range "a" "bc"))',
  '(str.in_re "x" (re.union (str.to_re "x") re.none))', '(str.in_re "" (re.opt (str.to_re "q")))', '(str.in_re "ab" (re.diff (re.* re.allchar) (str.to_re "ab")))',
  // Integers: Euclidean division and remainder.
  "(div 7 2)", "(div (- 7) 2)", "(div 7 (- 2))", "(div (- 7) (- 2))", "(mod (- 7) 2)", "(mod 7 (- 2))", "(mod (- 7) (- 2))", "(abs (- 4))", "(- 3 5 1)", "(- 4)", "(* 3 (- 2) 2)",
  // Float64: rounding ties to even, signed zeros, NaN, conversions of large integers.
  `(fp.roundToIntegral RNE ${f(2.5)})`, `(fp.roundToIntegral RNE ${f(-2.5)})`, `(fp.roundToIntegral RNE ${f(-0.5)})`, `(fp.roundToIntegral RNE ${f(3.5)})`, `(fp.roundToIntegral RNE ${f(-3.5)})`,
  // roundToIntegral in the other modes (floor, ceiling, truncation, ties away), where a half is not exact and at zero.
  ...["RTN", "RTP", "RTZ", "RNA", "roundTowardNegative"].flatMap((m) =>
    [2.5, -2.5, 0.5, -0.5, -0.3, 0.49999999999999994, -0.49999999999999994, 4503599627370495.5, -4503599627370495.5, 1e300, -0, NaN, -Infinity].map((x) => `(fp.roundToIntegral ${m} ${f(x)})`)),
  `(fp.add RNE ${f(0.1)} ${f(0.2)})`, `(fp.sub RNE ${f(0)} ${f(0)})`, `(fp.mul RNE ${f(-1)} ${f(0)})`, `(fp.div RNE ${f(1)} ${f(0)})`, `(fp.div RNE ${f(0)} ${f(0)})`, `(fp.sqrt RNE ${f(2)})`,
  `(fp.neg ${f(0)})`, `(fp.abs ${f(-0)})`, `(fp.eq ${f(0)} ${f(-0)})`, `(= ${f(0)} ${f(-0)})`, `(= ${f(NaN)} ${f(NaN)})`, `(fp.eq ${f(NaN)} ${f(NaN)})`,
  `(fp.lt ${f(NaN)} ${f(1)})`, `(fp.leq ${f(-0)} ${f(0)})`, `(fp.geq ${f(1)} ${f(NaN)})`, `(fp.gt ${f(Infinity)} ${f(1e308)})`,
  `(fp.isNegative ${f(-0)})`, `(fp.isPositive ${f(NaN)})`, `(fp.isZero ${f(-0)})`, `(fp.isNaN ${f(NaN)})`, `(fp.isInfinite ${f(-Infinity)})`, `(fp.isNormal ${f(5e-324)})`, `(fp.isSubnormal ${f(5e-324)})`,
  "((_ to_fp 11 53) RNE (to_real 9007199254740993))", "((_ to_fp 11 53) RNE (to_real 9007199254740995))", "((_ to_fp 11 53) RNE (to_real (- 3)))",
  // Booleans and equality; implication and comparisons of more than two arguments.
  "(xor true true false)", "(=> false false)", "(=> true true false)", "(=> false true false)", "(< 1 2 0)", "(<= 1 2 2)", "(> 3 2 5)", "(>= 3 3 2)", `(fp.lt ${f(1)} ${f(2)} ${f(0)})`, `(fp.eq ${f(1)} ${f(1)} ${f(2)})`, "(distinct 1 2 1)", '(distinct "a" "b")', '(ite (= 1 1) "y" "n")',
];

let instance: Instance;
beforeAll(async () => {
  const { Z3 } = await initZ3({ printErr: () => undefined });
  Z3.global_param_set("encoding", "bmp");
  instance = { z3: Z3, threads: undefined as never };
});

/** Z3's value of a ground term (evaluated in an empty model), printed as the guesser prints its own. */
function z3Value(term: string): string {
  const { z3 } = instance;
  const scope = openScope(instance);
  try {
    const [eq] = parseKept(scope, `(declare-const probe Bool)(assert (= probe (= ${term} ${term})))`, 1);
    const t = z3.get_app_arg(scope.ctx, z3.to_app(scope.ctx, z3.get_app_arg(scope.ctx, eq as never, 1)), 0);
    const model = z3.mk_model(scope.ctx);
    z3.model_inc_ref(scope.ctx, model);
    const value = z3.model_eval(scope.ctx, model, t, true)!;
    const text = z3.ast_to_string(scope.ctx, value);
    z3.model_dec_ref(scope.ctx, model);
    return text;
  } finally {
    scope.z3.del_context(scope.ctx);
  }
}

/** The guesser's value of a ground term, printed as an SMT-LIB literal, then normalised by Z3 (so both print alike). */
function guessedValue(term: string): string {
  const q = new QueryState(parseCommands(`(assert (= ${term} ${term}))`));
  const [assertion] = q.assertions;
  return z3Value(literalOf(q.value((assertion as unknown[])[1] as never)));
}

describe("the guesser's evaluator", () => {
  it.each(GROUND)("agrees with Z3 on %s", (term) => {
    expect(guessedValue(term)).toBe(z3Value(term));
  });

  it("leaves to Z3 what it does not evaluate", () => {
    for (const query of [
      "(declare-fun f (Int) Int)(assert (forall ((x Int)) (> (f x) 0)))",
      `(declare-const x ${F64})(assert (fp.lt (fp.add RTZ x x) x))`,
      "(declare-const x Int)(assert (> (div x 0) 1))",
      "(define-fun g ((y Int)) Int (+ y 1))(assert (> (g 2) 1))",
      '(declare-const s String)(assert (= s "\\u{10000}"))',
      "(declare-const r Real)(assert (> r 0.5))",
    ]) {
      expect(guessModel(parseCommands(query), 10_000), query).toBe("unsupported");
    }
  });
});

describe("the guesser on what it cannot afford (an outside review's cases)", () => {
  const chain = (n: number, first: string, step: (previous: string) => string, sort: string): string =>
    [`(declare-const x ${sort})`, `(define-fun d0 () ${sort} ${first})`, ...Array.from({ length: n }, (_, i) => `(define-fun d${i + 1} () ${sort} ${step(`d${i}`)})`)].join("");

  it("gives up on texts and integers that outgrow it, without running long or failing", () => {
    // Each definition doubles the text: 2^40 characters aborted the process inside String.split.
    const doubling = `${chain(40, '(str.++ x "ab")', (d) => `(str.replace_all ${d} "a" "aa")`, "String")}(assert (= (str.len d40) 0))`;
    expect(guessModel(parseCommands(doubling), 12_000)).toBe("unsupported");
    // Each definition squares: BigInts past 2^256 are not computed (40 levels took 13 s, then threw).
    const squaring = `${chain(40, "(+ x 2)", (d) => `(* ${d} ${d})`, "Int")}(assert (< d40 0))`;
    expect(guessModel(parseCommands(squaring), 12_000)).toBe("unsupported");
    // Regular-expression work counts: three nested loops took 548 ms on a budget of 4 000 terms.
    const loops = '(declare-const s String)(assert (and (> (str.len s) 30) (str.in_re s ((_ re.loop 0 64) ((_ re.loop 0 64) ((_ re.loop 0 64) (str.to_re "ab")))))))';
    expect(["budget", "unsupported", "stuck"]).toContain(guessModel(parseCommands(loops), 4_000));
  });

  it("answers no guess, never an exception, on malformed or circular input", () => {
    for (const query of ["(assert (=> true))", "(assert (not))", "(assert ())", "(declare-const x (_ FloatingPoint 11 53))(assert (fp.eq x (fp #b0 #b1)))", "(define-fun d () Int (+ d 1))(assert (> d 0))", "(define-fun a () Int b)(define-fun b () Int a)(assert (> a 0))"]) {
      expect(guessModel(parseCommands(query), 12_000), query).toBe("unsupported");
    }
  });

  it("leaves a long chain of definitions to Z3 rather than failing the query", async () => {
    // 800 definitions deep: the guesser's recursion ran out of stack, and the error retired a healthy Z3.
    const session = await Z3Session.get();
    const defs = ["(define-fun d0 () Int x)", ...Array.from({ length: 800 }, (_, i) => `(define-fun d${i + 1} () Int (+ d${i} 1))`)].join("\n");
    const before = session.instances;
    const answer = await session.query(`(declare-const x Int)\n${defs}`, ["(> d800 805)"], { rlimit: 10_000_000, backstopMs: 600_000 }, async () => undefined);
    expect(answer.status).toBe("sat");
    expect(session.instances).toBe(before);
  });
});

describe("the guesser's search", () => {
  const guess = (query: string): Guess | string => guessModel(parseCommands(query), 10_000);

  it("finds the plain model of a violation: an empty text, a list of one element over the cap", () => {
    const plain = guess('(declare-const c String)(define-fun to () String (ite (str.prefixof "#" c) c (str.++ "#" c)))(assert (not (= to "#deploys")))');
    expect(plain).toMatchObject({ constants: [{ name: "c", value: "" }] });
    const list = guess(`(declare-const n Int)(declare-fun amount (Int) ${F64})(declare-const i Int)(assert (>= n 0))(assert (and (<= 0 i) (< i n) (fp.gt (amount i) ${f(100)})))`);
    expect(typeof list).toBe("object");
    const { constants, functions } = list as Guess;
    const n = constants.find((c) => c.name === "n")!.value as bigint;
    const i = constants.find((c) => c.name === "i")!.value as bigint;
    expect(0n <= i && i < n).toBe(true);
    const at = functions[0]!.entries.find((e) => e.args[0] === i)?.value ?? functions[0]!.elseValue;
    expect(at as number).toBeGreaterThan(100);
  });

  it("builds a text from the query's literals: what a prefix adds to a known start", () => {
    const g = guess('(declare-fun name (Int) String)(declare-const n Int)(assert (and (< 0 n) (str.suffixof ".tmp" (name 0)) (not (str.suffixof ".keep.tmp" (name 0))) (str.prefixof "tmp/keep" (str.++ "tmp/" (name 0)))))');
    expect(typeof g).toBe("object");
    const name = (g as Guess).functions[0]!.entries.find((e) => e.args[0] === 0n)!.value as string;
    expect(name.endsWith(".tmp") && !name.endsWith(".keep.tmp") && name.startsWith("keep")).toBe(true);
  });

  it("looks past a check the encoder found constant to the one the cells can make hold", () => {
    // `(and true (not true))` is as near as a Boolean atom that fails, and no cell changes it.
    const g = guess('(declare-const s String)(define-fun never () Bool (and true (not true)))(assert (or never (str.prefixof "ab" s)))');
    expect(g).toMatchObject({ constants: [{ name: "s" }] });
    expect(((g as Guess).constants[0]!.value as string).startsWith("ab")).toBe(true);
  });

  it("fixes every element of a list of records in one sweep, within the budget of the query's length", () => {
    // A record list's amounts bounded at every index the encoder unrolled: one cell each, and a
    // change to one is read by that element's terms alone (ops/report_webhook_token_fail).
    const bounds = Array.from({ length: 8 }, (_, i) => `(assert (and (<= 1 (amount ${i})) (<= (amount ${i}) 500000)))(assert (=> (< ${i} n) (and (>= (amount ${i}) 1) (<= (amount ${i}) 500000))))`).join("");
    const query = `(declare-const n Int)(declare-const token String)(declare-fun amount (Int) Int)(declare-const status Int)${bounds}(assert (and (<= 100 status) (<= status 599)))(assert (str.contains (str.++ "count=" (str.from_int n) "&token=" token) "token="))`;
    const g = guessModel(parseCommands(query), guessBudget(query.length));
    expect(typeof g).toBe("object");
    const amounts = (g as Guess).functions[0]!;
    for (let i = 0n; i < 8n; i++) expect((amounts.entries.find((e) => e.args[0] === i)?.value ?? amounts.elseValue) as bigint).toBeGreaterThanOrEqual(1n);
  });

  it("finds, given the deeper budget, the one element of a dozen that breaks a rounded precondition", () => {
    // h53 i58: a refund of `Math.min(5000, Math.round(total / 10))` for each order paid more than 10
    // days ago must be at least one cent; an order of 4 cents breaks it. Each of the twelve unrolled
    // elements reads its own cells, so one sweep costs more than the first guess's budget.
    const el = (i: number): string => {
      const total = `((_ to_fp 11 53) RNE (to_real (total ${i})))`;
      const q = `(fp.div RNE ${total} ${f(10)})`;
      const rounded = `(ite (fp.geq (fp.sub RNE ${q} (fp.roundToIntegral RTN ${q})) ${f(0.5)}) (fp.add RNE (fp.roundToIntegral RTN ${q}) ${f(1)}) (fp.roundToIntegral RTN ${q}))`;
      return `(define-fun r${i} () ${F64} (ite (fp.lt ${f(5000)} ${rounded}) ${f(5000)} ${rounded}))` +
        `(assert (and (<= 0 (total ${i})) (<= (total ${i}) 500000)))(assert (and (<= 1 (quantity ${i})) (<= (quantity ${i}) 20)))(assert (=> (< ${i} n) (fp.geq (days ${i}) ${f(0)})))`;
    };
    const n = 12;
    // `paid.findIndex((p) => p.id === o.id) === i`: the first of the twelve with this element's id.
    const first = (i: number): string => Array.from({ length: n }, (_, j) => j).reduceRight((rest, j) => `(ite (and (< ${j} n) (= (id ${j}) (id ${i}))) ${j} ${rest})`, "(- 1)");
    const broken = (i: number): string => `(and (< ${i} n) (fp.gt (days ${i}) ${f(10)}) (= ${first(i)} ${i}) (not (fp.geq r${i} ${f(1)})))`;
    const query = `(declare-const n Int)(declare-fun total (Int) Int)(declare-fun days (Int) ${F64})(declare-fun id (Int) String)(declare-fun quantity (Int) Int)` +
      Array.from({ length: n }, (_, i) => el(i)).join("") + `(assert (>= n 0))(assert (<= n ${n}))(assert (or ${Array.from({ length: n }, (_, i) => broken(i)).join(" ")}))`;
    const g = guessModel(parseCommands(query), DEEP_GUESS_BUDGET);
    expect(typeof g).toBe("object");
    const values = g as Guess;
    expect(values.constants.find((c) => c.name === "n")!.value as bigint).toBeGreaterThan(0n);
    // Z3 evaluates every assertion to true in the guessed model.
    const scope = openScope(instance);
    try {
      const model = guessedModel(scope, values, parseKept(scope, query, 3 * n + 3));
      expect(model).toBeDefined();
      instance.z3.model_dec_ref(scope.ctx, model as never);
    } finally {
      instance.z3.del_context(scope.ctx);
    }
    // The first guess's budget for a query of this length is not enough: the deeper one is what finds it.
    expect(guessModel(parseCommands(query), guessBudget(query.length))).toBe("budget");
  });

  it("never guesses an unsatisfiable query, and stops within its budget", () => {
    for (const query of [
      "(declare-const x Int)(assert (> x 3))(assert (< x 2))",
      '(declare-const s String)(assert (str.prefixof "/secret" s))(assert (not (str.contains s "secret")))',
      `(declare-fun a (Int) ${F64})(declare-const n Int)(assert (and (< 0 n) (fp.gt (a 0) ${f(5)}) (fp.lt (a 0) ${f(5)})))`,
    ]) {
      expect(["stuck", "budget"], query).toContain(guess(query));
    }
    const q = "(declare-const x Int)(declare-const y Int)(assert (= (* x x) (+ (* y y) 1000003)))";
    expect(guessModel(parseCommands(q), 500)).toBe("budget");
  });
});

describe("a guessed model in Z3", () => {
  const query = '(declare-const s String)(declare-const n Int)(declare-fun f (Int) Int)(assert (and (> (str.len s) 0) (< n (f 2))))';

  function confirm(guess: Guess): boolean {
    const scope = openScope(instance);
    try {
      const formulas = parseKept(scope, query, 1);
      const model = guessedModel(scope, guess, formulas);
      if (model !== undefined) instance.z3.model_dec_ref(scope.ctx, model as never);
      return model !== undefined;
    } finally {
      instance.z3.del_context(scope.ctx);
    }
  }

  it("is believed when Z3 evaluates every assertion to true in it", () => {
    const good: Guess = {
      constants: [{ name: "s", sort: "String", value: "a" }, { name: "n", sort: "Int", value: -4n }],
      functions: [{ name: "f", domain: ["Int"], sort: "Int", entries: [{ args: [2n], value: 0n }], elseValue: -9n }],
    };
    expect(confirm(good)).toBe(true);
  });

  it("is not believed when an assertion is false in it, whatever the guesser thought", () => {
    // The function's value at 2 makes `n < f(2)` false; so does an empty text for the length.
    expect(confirm({ constants: [{ name: "s", sort: "String", value: "a" }, { name: "n", sort: "Int", value: 0n }], functions: [{ name: "f", domain: ["Int"], sort: "Int", entries: [{ args: [2n], value: 0n }], elseValue: 7n }] })).toBe(false);
    expect(confirm({ constants: [{ name: "s", sort: "String", value: "" }, { name: "n", sort: "Int", value: 0n }], functions: [{ name: "f", domain: ["Int"], sort: "Int", entries: [], elseValue: 7n }] })).toBe(false);
  });

  it("answers a satisfiable query with no check, and the values read are the model's", async () => {
    const session = await Z3Session.get();
    let checks = 0;
    Z3Session.beforeCheck = () => void checks++;
    try {
      const answer = await session.query("(declare-const to String)(declare-const amount Int)", ['(not (str.suffixof "@corp.com" to))', "(> amount 100)"], { rlimit: 1_000_000, backstopMs: 600_000 }, (get) => get([{ term: "to", sort: "String" }, { term: "amount", sort: "Int" }]));
      expect(answer.status).toBe("sat");
      expect(checks).toBe(0);
      const [to, amount] = (answer as { result: string[] }).result;
      expect(String(to).endsWith('@corp.com"')).toBe(false);
      expect(Number(amount)).toBeGreaterThan(100);
      // An unsatisfiable one still goes to Z3.
      const unsat = await session.query("(declare-const x Int)", ["(= (* x x) 2)"], { rlimit: 1_000_000, backstopMs: 600_000 }, async () => undefined);
      expect(unsat.status).toBe("unsat");
      expect(checks).toBeGreaterThan(0);
    } finally {
      Z3Session.beforeCheck = undefined;
    }
  });
});
