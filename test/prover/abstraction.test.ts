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
  it("replaces theory atoms and theory-valued integers by fresh constants, the same term by the same one", () => {
    const text = `${DECLS}\n(define-fun k () Int (+ (ite (str.contains x "a") 1 0) (str.len (g n))))\n(assert (and (fp.leq f f) (not (fp.leq f f)) (> k (str.len (g n))) b))`;
    const out = skeleton(text)!;
    expect(out).toBe(
      [
        "(declare-const skeleton!0 Bool)",
        "(declare-const skeleton!1 Int)",
        "(declare-const skeleton!2 Bool)",
        "(declare-const n Int)",
        "(declare-const b Bool)",
        "(define-fun k () Int (+ (ite skeleton!0 1 0) skeleton!1))",
        "(assert (and skeleton!2 (not skeleton!2) (> k skeleton!1) b))",
      ].join("\n"),
    );
    for (const word of ["String", "FloatingPoint", "str.", "fp."]) expect(out).not.toContain(word);
  });

  it("keeps equalities of light sorts, abstracts those of theory sorts", () => {
    expect(skeleton(`${DECLS}\n(assert (= n (str.len x)))\n(assert (= x y))`)).toBe(
      ["(declare-const skeleton!0 Int)", "(declare-const skeleton!1 Bool)", "(declare-const n Int)", "(declare-const b Bool)", "(assert (= n skeleton!0))", "(assert skeleton!1)"].join("\n"),
    );
  });

  it("is not made of what it cannot abstract soundly, nor of queries without theory terms", () => {
    // A bound variable inside an abstracted term would make one constant stand for many values.
    expect(skeleton(`${DECLS}\n(assert (exists ((s String)) (str.contains s x)))`)).toBeUndefined();
    expect(skeleton(`${DECLS}\n(assert (forall ((i Int)) (str.contains (g i) x)))`)).toBeUndefined();
    expect(skeleton(`${DECLS}\n(assert (let ((s (str.++ x y))) (str.contains s "a")))`)).toBeUndefined();
    expect(skeleton(`${DECLS}\n(define-fun p ((s String)) Bool (str.contains s "a"))\n(assert (p x))`)).toBeUndefined();
    expect(skeleton(`${DECLS}\n(assert (bvule #b0 #b1))`)).toBeUndefined();
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
  const formula: fc.Arbitrary<string> = fc.letrec<{ f: string }>((tie) => ({
    f: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      atom,
      recurring,
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
    await fc.assert(
      fc.asyncProperty(fc.array(formula, { minLength: 1, maxLength: 4 }), fc.nat({ max: 2 }), async (drawn, close) => {
        // A third of the queries deny the others' conjunction, counted through arithmetic: unsat.
        const phis = close === 0 ? [...drawn, `(< (+ ${drawn.map((p) => `(ite ${p} 1 0)`).reverse().join(" ")}) ${drawn.length})`] : drawn;
        const text = `${DECLS}\n${phis.map((p) => `(assert ${p})`).join("\n")}`;
        const out = skeleton(text);
        expect(out, text).toBeDefined();
        const s = split(out!);
        const abstract = await session.query(s.declarations, s.assertions, { rlimit: 5_000_000, backstopMs: 600_000 }, async () => undefined);
        if (abstract.status !== "unsat") return;
        unsat++;
        const original = await session.query(`${ORIGINAL_ONLY}\n${DECLS}`, [...phis, "(= original-only original-only)"], { rlimit: 50_000_000, backstopMs: 600_000 }, async () => undefined);
        expect(original.status, text).toBe("unsat");
      }),
      { numRuns: 400 },
    );
    // The property means something only if skeletons were unsat often enough.
    expect(unsat).toBeGreaterThan(120);
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
