/**
 * A query's skeleton (core/prover/abstraction.ts): what it abstracts and what it refuses to, that
 * its `unsat` is always the query's (random formulas mixing strings, floating point, integers and
 * Booleans, each checked against Z3 on the original), and that the session uses it on a real
 * corpus program whose string query is hard as written and whose guarantee does not depend on the
 * strings.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { skeletonOf } from "../../core/prover/abstraction";
import { parseCommands } from "../../core/prover/tactics";
import { Z3Session } from "../../core/prover/z3";
import { strLit } from "../../core/prover/smt";
import { ensureBuilt, proveDumping } from "../cli/helpers";

const F64 = "(_ FloatingPoint 11 53)";
const DECLS = `(declare-const x String)\n(declare-const y String)\n(declare-const n Int)\n(declare-const f ${F64})\n(declare-const b Bool)\n(declare-fun g (Int) String)`;
const skeleton = (text: string): string | undefined => skeletonOf(parseCommands(text));

/** Split SMT-LIB commands into declarations and the bodies of the assertions, as `Z3Session.query` takes them. */
function split(text: string): { declarations: string; assertions: string[] } {
  const lines = text.split("\n");
  return { declarations: lines.filter((l) => !l.startsWith("(assert ")).join("\n"), assertions: lines.filter((l) => l.startsWith("(assert ")).map((l) => l.slice(8, -1)) };
}

describe("the skeleton of a query", () => {
  const SORTS = ["(declare-sort skeleton!String 0)", "(declare-sort skeleton!Float64 0)"];
  const DECLARED = ["(declare-const x skeleton!String)", "(declare-const y skeleton!String)", "(declare-const n Int)", "(declare-const f skeleton!Float64)", "(declare-const b Bool)", "(declare-fun g (Int) skeleton!String)"];

  it("makes strings and doubles uninterpreted sorts and each operation a function of its arguments, the same operation by the same one", () => {
    const text = `${DECLS}\n(define-fun k () Int (+ (ite (str.contains x "a") 1 0) (str.len (g n))))\n(assert (and (fp.leq f f) (not (fp.leq f f)) (> k (str.len (g n))) b))`;
    const out = skeleton(text)!;
    expect(out).toBe(
      [
        ...SORTS,
        "(declare-const skeleton!0 skeleton!String)",
        "(declare-fun skeleton!1 (skeleton!String skeleton!String) Bool)",
        "(declare-fun skeleton!2 (skeleton!String) Int)",
        "(declare-fun skeleton!3 (skeleton!Float64 skeleton!Float64) Bool)",
        ...DECLARED,
        "(define-fun k () Int (+ (ite (skeleton!1 x skeleton!0) 1 0) (skeleton!2 (g n))))",
        "(assert (and (skeleton!3 f f) (not (skeleton!3 f f)) (> k (skeleton!2 (g n))) b))",
      ].join("\n"),
    );
    for (const word of ["FloatingPoint", "str.", "fp.", '"']) expect(out).not.toContain(word);
  });

  it("keeps congruence: the same operation of equal arguments, wherever it stands", () => {
    // "Some earlier iteration added this key" in a definition of `k` and at the loop's index `n`:
    // one function of `(g k)` and `(g n)`, so `∀i < 3. seen(i)` and `¬contains(g(n), x)` with `n < 3` contradict each other.
    expect(skeleton(`${DECLS}\n(define-fun seen ((k Int)) Bool (str.contains (g k) x))\n(assert (forall ((i Int)) (=> (< i 3) (seen i))))\n(assert (and (< n 3) (not (str.contains (g n) x))))`)).toBe(
      [
        ...SORTS,
        "(declare-fun skeleton!0 (skeleton!String skeleton!String) Bool)",
        ...DECLARED,
        "(define-fun seen ((k Int)) Bool (skeleton!0 (g k) x))",
        "(assert (forall ((i Int)) (=> (< i 3) (seen i))))",
        "(assert (and (< n 3) (not (skeleton!0 (g n) x))))",
      ].join("\n"),
    );
  });

  it("makes string literals distinct constants, by the text they stand for; the rounding mode and a regular expression of literals part of the function", () => {
    const out = skeleton(`${DECLS}\n(assert (and (= x "a") (= y "\\u{61}") (= (g 0) "b") (fp.lt (fp.add RNE f f) (fp.add RTZ f f)) (str.in_re x (re.* (str.to_re "a"))) (str.in_re x (str.to_re y))))`)!;
    expect(out).toContain("(assert (and (= x skeleton!0) (= y skeleton!0) (= (g 0) skeleton!1) (skeleton!4 (skeleton!2 f f) (skeleton!3 f f)) (skeleton!5 x) (skeleton!6 x y)))");
    expect(out).toContain("(assert (distinct skeleton!0 skeleton!1))");
    // `fp.add` in two rounding modes: two functions; `str.in_re` of a regular expression with a variable: a fresh function of what it reads.
    expect(out).toContain("(declare-fun skeleton!2 (skeleton!Float64 skeleton!Float64) skeleton!Float64)\n(declare-fun skeleton!3 (skeleton!Float64 skeleton!Float64) skeleton!Float64)");
    expect(out).toContain("(declare-fun skeleton!6 (skeleton!String skeleton!String) Bool)");
  });

  it("keeps quantifiers and definitions over strings and doubles, their variables of the uninterpreted sorts", () => {
    // One constant for `(str.contains (g i) x)` would make `∀i. p(i) ∧ ∃i. ¬p(i)` into `b ∧ ¬b`.
    expect(skeleton(`${DECLS}\n(define-fun p ((s String) (j Int)) Bool (and (> j 0) (= (str.len s) j)))\n(assert (forall ((i Int)) (exists ((s String)) (and (p s i) (str.contains (g i) s)))))`)).toBe(
      [
        ...SORTS,
        "(declare-fun skeleton!0 (skeleton!String) Int)",
        "(declare-fun skeleton!1 (skeleton!String skeleton!String) Bool)",
        ...DECLARED,
        "(define-fun p ((s skeleton!String) (j Int)) Bool (and (> j 0) (= (skeleton!0 s) j)))",
        "(assert (forall ((i Int)) (exists ((s skeleton!String)) (and (p s i) (skeleton!1 (g i) s)))))",
      ].join("\n"),
    );
  });

  it("is not made of what it cannot abstract soundly, nor of queries without theory terms", () => {
    expect(skeleton(`${DECLS}\n(assert (let ((s (str.++ x y))) (str.contains s "a")))`)).toBeUndefined();
    expect(skeleton(`${DECLS}\n(assert (bvule #b0 #b1))`)).toBeUndefined();
    // A literal whose reading by Z3 is uncertain could be two spellings of one text: never asserted distinct.
    expect(skeleton(`${DECLS}\n(assert (and (= x "\\x41") (= y "A")))`)).toBeUndefined();
    expect(skeleton(`(declare-const n Int)\n(assert (> n 1))`)).toBeUndefined();
  });

  // Atoms over the theories; the same few recur, so contradictions between them are common.
  const word = fc.constantFrom("", "a", "ab", "/");
  const str = fc.oneof(fc.constantFrom("x", "y", "(g n)", "(g 0)"), word.map(strLit), fc.constantFrom('(str.++ x "a")', "(str.++ x y)"));
  const num = fc.oneof(fc.constantFrom("n", "0", "1", "2"), str.map((s) => `(str.len ${s})`), fc.constant('(str.indexof x "a" 0)'));
  const atom = fc.oneof(
    fc.tuple(str, word).map(([s, w]) => `(str.contains ${s} ${strLit(w)})`),
    fc.tuple(word, str).map(([w, s]) => `(str.prefixof ${strLit(w)} ${s})`),
    fc.tuple(str, str).map(([s, t]) => `(= ${s} ${t})`),
    fc.tuple(fc.constantFrom("<", "<=", "="), num, num).map(([op, a, c]) => `(${op} ${a} ${c})`),
    fc.constantFrom("(fp.isNaN f)", "(fp.lt f (fp #b0 #b01111111111 #x0000000000000))", "(fp.eq f f)", "b"),
  );
  // A few atoms drawn often, so that formulas contradict each other through them.
  const recurring = fc.constantFrom('(str.contains x "a")', "(< (str.len x) n)", "(fp.isNaN f)", '(= (g n) "ab")', "(<= 2 (str.len (g n)))");
  // Quantifiers over the indices 0 and 1, and a definition whose body reads its parameter: their atoms become functions of the variables.
  const quantified = fc.constantFrom(
    '(forall ((i Int)) (=> (and (<= 0 i) (<= i 1)) (str.contains (g i) "a")))',
    '(exists ((i Int)) (and (<= 0 i) (<= i 1) (not (str.contains (g i) "a"))))',
    "(exists ((i Int)) (and (<= 0 i) (<= i 1) (< (str.len (g i)) n)))",
    "(forall ((i Int)) (=> (and (<= 0 i) (<= i 1)) (<= n (str.len (g i)))))",
    "(hasA n)", "(not (hasA 0))", "(not (hasA n))",
  );
  const DEFS = '(define-fun hasA ((k Int)) Bool (and (<= 0 k) (str.contains (g k) "a")))';
  const formula: fc.Arbitrary<string> = fc.letrec<{ f: string }>((tie) => ({
    f: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      atom,
      recurring,
      quantified,
      tie("f").map((a) => `(not ${a})`),
      fc.array(tie("f"), { minLength: 2, maxLength: 3 }).map((xs) => `(and ${xs.join(" ")})`),
      fc.array(tie("f"), { minLength: 2, maxLength: 3 }).map((xs) => `(or ${xs.join(" ")})`),
      fc.tuple(tie("f"), num, num).map(([c, a, e]) => `(> (ite ${c} ${a} ${e}) 0)`),
    ),
  })).f;

  it("is unsat only when the query is (random formulas, each checked on the original)", async () => {
    const session = await Z3Session.get();
    // A declaration no engine but the general solver takes, asserted about: the original is asked as written.
    const ORIGINAL_ONLY = "(declare-const original-only (_ BitVec 1))";
    let unsat = 0;
    let undecided = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(formula, { minLength: 1, maxLength: 4 }), fc.nat({ max: 2 }), async (drawn, close) => {
        // A third of the queries deny the others' conjunction, counted through arithmetic: unsat.
        const phis = close === 0 ? [...drawn, `(< (+ ${drawn.map((p) => `(ite ${p} 1 0)`).reverse().join(" ")}) ${drawn.length})`] : drawn;
        const text = `${DECLS}\n${DEFS}\n${phis.map((p) => `(assert ${p})`).join("\n")}`;
        const out = skeleton(text);
        expect(out, text).toBeDefined();
        const s = split(out!);
        const abstract = await session.query(s.declarations, s.assertions, { rlimit: 5_000_000, backstopMs: 600_000 }, async () => undefined);
        if (abstract.status !== "unsat") return;
        unsat++;
        const original = await session.query(`${ORIGINAL_ONLY}\n${DECLS}\n${DEFS}`, [...phis, "(= original-only original-only)"], { rlimit: 50_000_000, backstopMs: 600_000 }, async () => undefined);
        // (Quantifiers over strings may leave the general solver undecided; never satisfiable.)
        expect(original.status, text).not.toBe("sat");
        if (original.status === "unknown") undecided++;
      }),
      { numRuns: 400 },
    );
    // The property means something only if skeletons were unsat often enough, and the originals decided.
    expect(unsat).toBeGreaterThan(120);
    expect(undecided).toBeLessThan(unsat / 10);
  }, 600_000);
});

describe("the session uses the skeleton", () => {
  const dump = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-skeleton-"));
  beforeAll(() => ensureBuilt());
  afterAll(() => fs.rmSync(dump, { recursive: true, force: true }));

  it("emails to every customer but one address: the first attempts run out, then its disjuncts' ranges answer unsat (disjuncts.ts)", () => {
    const r = proveDumping("fixtures/programs/ops/never_email_ceo_filter_pass.ts", dump);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).programs[0].verdict).toBe("proved");
    // Its query of ten disjuncts, which the ranges leave open as one disjunction but refute one by
    // one, went to the skeleton (the next test) before the ranges read each disjunct alone.
    const byDisjuncts = r.queries.filter((t) => /; attempt: ranges refuted (\d+) of \1 disjuncts/.test(t));
    expect(byDisjuncts.length).toBeGreaterThan(0);
    const deeper = "(?:; attempt: intervals with \\d+ steps: open\\n)?";
    const order = new RegExp(`; attempt: core\\/\\w+ rlimit \\d+: unknown \\(canceled\\)[^\\n]*\\n${deeper}; attempt: general\\/\\w+ rlimit \\d+: unknown \\((canceled|max\\. resource limit exceeded)\\)[^\\n]*\\n${deeper}; attempt: ranges refuted`);
    for (const t of byDisjuncts) expect(t).toMatch(order);
  }, 600_000);
  it("the same query with the ranges off: the skeleton answers it after the first attempts ran out", async () => {
    // The query as the prover wrote it for that program (test/prover/queries/).
    const text = fs.readFileSync(path.join(__dirname, "queries/never-email-ceo-filter.smt2"), "utf8").trim();
    const [declarations, ...assertions] = text.split("\n(assert ").map((part, i) => (i === 0 ? part : part.slice(0, -1)));
    const own = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-skeleton-own-"));
    const session = await Z3Session.get();
    process.env.CLAUZ3_DUMP_SMT = own;
    Z3Session.intervals = false;
    try {
      const answer = await session.query(declarations!, assertions, { rlimit: 50_000_000, backstopMs: 600_000 }, async () => undefined);
      expect(answer.status).toBe("unsat");
      const traces = fs.readdirSync(own).filter((n) => /^q\d+-\d+\.smt2$/.test(n)).map((n) => fs.readFileSync(path.join(own, n), "utf8"));
      const bySkeleton = traces.filter((t) => /; attempt: core\/skeleton rlimit \d+: unsat/.test(t));
      expect(bySkeleton.length).toBe(1);
      // After the simple solver's first try and the general solver's first slice (z3.ts).
      expect(bySkeleton[0]).toMatch(/; attempt: core\/\w+ rlimit \d+: unknown \(canceled\)[^\n]*\n; attempt: general\/\w+ rlimit \d+: unknown \((canceled|max\. resource limit exceeded)\)[^\n]*\n; attempt: core\/skeleton/);
    } finally {
      delete process.env.CLAUZ3_DUMP_SMT;
      Z3Session.intervals = true;
      fs.rmSync(own, { recursive: true, force: true });
    }
  }, 600_000);
});
