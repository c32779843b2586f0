import fc from "fast-check";
import { decodeFloat, decodeString, parseSExprs, type SExpr } from "../../core/prover/sexpr";
import { numLit, strLit } from "../../core/prover/smt";
import { parseCommands, printSExpr, regexFormulation, wordFormulation } from "../../core/prover/tactics";
import { analyse, unreachedDeclarations } from "../../core/prover/theories";
import { DEFAULT_RLIMIT, type QueryLimits } from "../../core/prover/limits";
import { attemptsFor, CORE_FIRST_SLICE } from "../../core/prover/attempts";
import { SolverError, Z3Session, type SolverAnswer, type ValueSort } from "../../core/prover/z3";
import { GLUE_REWRITES, glueRewrites, rewriteGlue } from "../../core/prover/z3-load";
import { internFloats } from "../../core/prover/z3-scope";
import * as fs from "node:fs";

const F64 = "(_ FloatingPoint 11 53)";

/** A query's resource limit, with a wall-clock backstop no test reaches (verdicts, not speed, are under test). */
const budget = (rlimit = DEFAULT_RLIMIT): QueryLimits => ({ rlimit, backstopMs: 600_000 });

/** Run a query and read the values of `read` from the model when it is satisfiable. */
async function ask(declarations: string, assertions: string[], read: { term: string; sort: ValueSort }[] = [], rlimit = DEFAULT_RLIMIT): Promise<SolverAnswer<SExpr[]>> {
  const session = await Z3Session.get();
  return session.query(declarations, assertions, budget(rlimit), (get) => get(read));
}

async function values(declarations: string, assertions: string[], read: { term: string; sort: ValueSort }[]): Promise<SExpr[]> {
  const answer = await ask(declarations, assertions, read);
  if (answer.status !== "sat") throw new Error(`expected sat, got ${JSON.stringify(answer)}`);
  return answer.result;
}

describe("answers", () => {
  it("sat, with model values", async () => {
    const [x] = await values("(declare-const x Int)", ["(> x 3)", "(< x 5)"], [{ term: "x", sort: "Int" }]);
    expect(x).toBe("4");
  });

  it("unsat", async () => {
    expect((await ask("(declare-const x Int)", ["(> x 3)", "(< x 2)"])).status).toBe("unsat");
  });

  it("unknown when Z3 gives up (transcendental exponent)", async () => {
    const answer = await ask("(declare-const x Real)", ["(= (^ 2.0 x) 3.0)"]);
    expect(answer.status).toBe("unknown");
  });

  it("unknown when Z3 cannot settle a quantified query within its resource limit (a strictly decreasing function into positives)", async () => {
    const answer = await ask("(declare-fun f (Int) Int)", ["(forall ((x Int)) (> (f x) (f (+ x 1))))", "(> (f 0) 0)"], [], 2_000_000);
    expect(answer.status).toBe("unknown");
  });

  it("a malformed query is a SolverError", async () => {
    const session = await Z3Session.get();
    await expect(session.query("(declare-const x Int)", ["(> x"], budget(), async () => undefined)).rejects.toBeInstanceOf(SolverError);
    await expect(session.query("(declare-const x Int)", ["(+ x 1)"], budget(), async () => undefined)).rejects.toBeInstanceOf(SolverError);
    await expect(session.query("(declare-const x Int)", ["(> y 1)"], budget(), async () => undefined)).rejects.toBeInstanceOf(SolverError);
    // The session is usable afterwards.
    expect((await ask("(declare-const x Int)", ["(> x 3)", "(< x 2)"])).status).toBe("unsat");
  });

  it("an error thrown while reading the model reaches the caller and leaves the session usable", async () => {
    const session = await Z3Session.get();
    await expect(session.query("(declare-const x Int)", ["(> x 3)"], budget(), async () => { throw new Error("reader failed"); })).rejects.toThrow("reader failed");
    expect((await ask("(declare-const x Int)", ["(= x 7)"], [{ term: "x", sort: "Int" }])).status).toBe("sat");
  });
});

describe("values no assertion reaches", () => {
  it("a Float64 constant or function no assertion reaches reads as 0 (Z3 completes it with NaN); reached ones read the model", async () => {
    const decls = `(declare-const x ${F64})\n(declare-const free ${F64})\n(declare-fun late (Int) ${F64})\n(declare-fun amount (Int) ${F64})\n(declare-const n Int)`;
    const got = await values(decls, [`(fp.isNaN x)`, `(fp.gt (amount 2) ${numLit(7)})`, "(> n 4)"], [
      { term: "x", sort: "Float64" },
      { term: "free", sort: "Float64" },
      { term: "(late 2)", sort: "Float64" },
      { term: "(late n)", sort: "Float64" },
      { term: "(amount 2)", sort: "Float64" },
    ]);
    const [x, free, late2, lateN, amount2] = got.map((v) => decodeFloat(v));
    expect(x).toBeNaN(); // reached: the model's NaN, which the assertion needs
    expect([free, late2, lateN]).toEqual([0, 0, 0]);
    expect(amount2).toBeGreaterThan(7);
  });
});

describe("loading z3-solver", () => {
  const text = fs.readFileSync(require.resolve("z3-solver/build/z3-built.js"), "utf8");
  const ALL = GLUE_REWRITES.map((r) => r.name);

  it("the pinned z3-solver's glue gets every rewrite, in this thread and its solver threads, and the session answers with it", async () => {
    const { text: rewritten, applied } = rewriteGlue(text);
    expect(applied).toEqual(["deferral", "table-mirror-assertion", "export-wrapper-assertions", "pthread-glue"]);
    expect(rewritten).not.toMatch(/setTimeout\(\(\) => \{\s*cap\.(resolve|reject)/);
    expect(rewritten.match(/setImmediate\(\(\) => \{\s*cap\.(resolve|reject)\(val\);\s*\}\);/g)).toHaveLength(2);
    expect(rewritten).not.toContain("wasmTable.get(funcPtr) == func");
    expect(rewritten).not.toContain("called before runtime initialization");
    expect(rewritten).toContain("{ eval: true }");
    // Every check runs on a solver thread: with `pthread-glue` made, those threads started from the rewritten code.
    expect((await ask("(declare-const x Int)", ["(> x 3)", "(< x 2)"])).status).toBe("unsat");
    expect((await ask("(declare-const x Int)", ["(> x 3)"], [{ term: "x", sort: "Int" }])).status).toBe("sat");
    expect(glueRewrites()).toEqual(ALL);
  });

  it("each rewrite is made only where its text is exactly as known (missing or repeated), independently of the others", () => {
    const without = (name: string): readonly string[] => ALL.filter((n) => n !== name);
    // A statement of the deferral changed: that rewrite alone is left out.
    expect(rewriteGlue(text.replace("cap.resolve(val);", "cap.resolve(val) ;")).applied).toEqual(without("deferral"));
    const at = text.indexOf("function reject_async");
    expect(rewriteGlue(text.slice(0, at) + text.slice(at).replace("cap.reject(val);\n  }, 0);", "cap.resolve(val);\n  }, 0);")).applied).not.toContain("deferral");
    // The assertion written twice: not removed.
    const assertion = "      assert(wasmTable.get(funcPtr) == func, 'JavaScript-side Wasm function table mirror is out of date!');\n";
    expect(rewriteGlue(text.replace(assertion, assertion + assertion)).applied).toEqual(without("table-mirror-assertion"));
    expect(rewriteGlue(text.replace("new Worker(pthreadMainJs, workerOptions)", "new Worker(pthreadMainJs, options)")).applied).toEqual(without("pthread-glue"));
    expect(rewriteGlue("module.exports = () => 1;")).toEqual({ text: "module.exports = () => 1;", applied: [] });
  });
});

describe("model values", () => {
  it("strings with surrogates, paired and lone", async () => {
    const want = ["\u{1F600}x", "\ud800", "a\udc00b", "\u0000\u007f\"\\"];
    const decls = want.map((_, i) => `(declare-const s${i} String)`).join("\n");
    const got = await values(decls, want.map((w, i) => `(= s${i} ${strLit(w)})`), want.map((_, i) => ({ term: `s${i}`, sort: "String" as const })));
    expect(got.map((v) => decodeString(String(v)))).toEqual(want);
  });

  it("a surrogate the solver chooses", async () => {
    const [s] = await values("(declare-const s String)", ["(= (str.len s) 1)", "(= (str.to_code s) 55357)"], [{ term: "s", sort: "String" }]);
    expect(decodeString(String(s))).toBe("\ud83d");
  });

  it("floats: NaN, -0, the smallest subnormal (floating point only: the bit-blasting engine)", async () => {
    const decls = `(declare-const a ${F64})\n(declare-const b ${F64})\n(declare-const c ${F64})`;
    const got = await values(decls, ["(fp.isNaN a)", "(and (fp.isZero b) (fp.isNegative b))", `(and (fp.isSubnormal c) (fp.isPositive c) (fp.lt c ${numLit(1e-323)}))`], [
      { term: "a", sort: "Float64" },
      { term: "b", sort: "Float64" },
      { term: "c", sort: "Float64" },
    ]);
    const [a, b, c] = got.map(decodeFloat);
    expect(a).toBeNaN();
    expect(Object.is(b, -0)).toBe(true);
    expect(c).toBe(5e-324);
  });

  it("floats next to strings and integers (the mixed engine)", async () => {
    const decls = `(declare-const s String)\n(declare-const x ${F64})`;
    const got = await values(decls, ["(= (str.len s) 2)", "(fp.isSubnormal x)", "(fp.isNegative x)", `(fp.gt x ${numLit(-1e-323)})`], [
      { term: "x", sort: "Float64" },
      { term: "(str.len s)", sort: "Int" },
    ]);
    expect(decodeFloat(got[0]!)).toBe(-5e-324);
    expect(got[1]).toBe("2");
  });

  it("JavaScript's rounding: 0.1 + 0.2 is not 0.3, and 1000 + 1000 * 0.01 is at most 1010", async () => {
    expect((await ask(`(declare-const x ${F64})`, [`(= x (fp.add RNE ${numLit(0.1)} ${numLit(0.2)}))`, `(fp.eq x ${numLit(0.3)})`])).status).toBe("unsat");
    const amount = `(declare-const amount ${F64})`;
    const fee = `(fp.add RNE amount (fp.mul RNE amount ${numLit(0.01)}))`;
    expect((await ask(amount, [`(fp.gt amount ${numLit(0)})`, `(fp.leq amount ${numLit(1000)})`, `(fp.gt ${fee} ${numLit(1010)})`])).status).toBe("unsat");
    const [x] = await values(amount, [`(fp.gt amount ${numLit(0)})`, `(fp.leq amount ${numLit(1001)})`, `(fp.gt ${fee} ${numLit(1010)})`], [{ term: "amount", sort: "Float64" }]);
    const v = decodeFloat(x!);
    expect(v + v * 0.01).toBeGreaterThan(1010);
  });

  it("Float64 literals are read once each, as defined constants; the same text inside a string stays text", async () => {
    const two = numLit(2);
    const text = `(assert (fp.leq x ${two}))\n(assert (fp.leq y ${two}))\n(assert (= s "${two}"))\n(assert (= t |${two}|))`;
    const interned = internFloats(text);
    expect(interned.split(two).length - 1).toBe(3); // the definition, the string and the quoted symbol
    expect(interned.split("\n").length).toBe(text.split("\n").length); // lines keep their numbers (error messages quote them)
    expect(internFloats("(assert (= s \"a\"\"b\"))")).toBe("(assert (= s \"a\"\"b\"))");
    // The string holds the literal's text, so the query over it is sat exactly as written.
    const [s] = await values(`(declare-const x ${F64})\n(declare-const y ${F64})\n(declare-const s String)`, [`(fp.leq x ${two})`, `(fp.gt y ${two})`, `(= s "${two}")`, `(= (str.len s) ${two.length})`], [{ term: "s", sort: "String" }]);
    expect(decodeString(s as string)).toBe(two);
  });
});

describe("resource limits", () => {
  it("a hard query ends as unknown, and the session answers the next queries", async () => {
    // x³ + y³ + z³ = 33 over the integers (solutions exist but are 16 digits long).
    const hard = await ask("(declare-const x Int)\n(declare-const y Int)\n(declare-const z Int)", ["(= (+ (* x x x) (* y y y) (* z z z)) 33)"], [], 300_000);
    expect(hard.status).toBe("unknown");
    expect((await ask("(declare-const x Int)", ["(> x 3)", "(< x 2)"])).status).toBe("unsat");
    const [x] = await values("(declare-const x Int)", ["(= (* x x) 49)", "(> x 0)"], [{ term: "x", sort: "Int" }]);
    expect(x).toBe("7");
  });

  it("a hard floating-point query ends as unknown, and the bit-blasting engine answers the next ones", async () => {
    // No double squares to exactly 2, but a SAT solver must exhaust a 53-bit multiplier to see it.
    const decls = `(declare-const x ${F64})\n(declare-const y ${F64})`;
    const hard = await ask(decls, [`(fp.eq (fp.mul RNE x x) ${numLit(2)})`], [], 200_000);
    expect(hard.status).toBe("unknown");
    expect((await ask(`(declare-const x ${F64})`, [`(fp.lt x ${numLit(1)})`, `(fp.gt x ${numLit(2)})`])).status).toBe("unsat");
    const [x] = await values(`(declare-const x ${F64})`, [`(fp.eq x ${numLit(2.5)})`], [{ term: "x", sort: "Float64" }]);
    expect(decodeFloat(x!)).toBe(2.5);
  });

  it("a hard string query ends as unknown, and the session answers the next ones", async () => {
    const hard = await ask("(declare-const s String)\n(declare-const t String)", ["(= (str.++ s \"ab\" t) (str.++ t \"ba\" s))", "(> (str.len s) 40)", "(not (= s t))", "(= (str.to_int s) (* 7 (str.to_int t)))"], [], 200_000);
    expect(hard.status).not.toBe("unsat");
    const [s] = await values("(declare-const s String)", ['(str.prefixof "ab" s)', "(= (str.len s) 3)", '(str.suffixof "c" s)'], [{ term: "s", sort: "String" }]);
    expect(decodeString(String(s))).toBe("abc");
  });
});

describe("reading query text", () => {
  it("keeps string literals, quoted symbols and Unicode whitespace as JavaScript's \\s has it", () => {
    expect(parseSExprs('(assert (= |a b| "x "" (y)"))\u00a0(c\u2028d)')).toEqual([["assert", ["=", "|a b|", '"x "" (y)"']], ["c", "d"]]);
  });

  it("ends at a quoted symbol left open instead of reading the text again", () => {
    expect(parseSExprs("(a |b c")).toEqual([["a", "|b c"]]);
  });
});

describe("engines", () => {
  const theories = (text: string) => analyse(parseCommands(text));

  it("classifies the theories of a query", () => {
    expect(theories(`(declare-const x ${F64})\n(assert (fp.lt x ${numLit(1.5)}))`)).toMatchObject({ fp: true, strings: false, arithmetic: false, other: false });
    expect(theories('(declare-const s String)\n(assert (str.contains s "a"))')).toMatchObject({ fp: false, strings: true, arithmetic: false, other: false });
    expect(theories("(declare-const s String)\n(assert (> (str.len s) 3))")).toMatchObject({ strings: true, arithmetic: true });
    expect(theories("(declare-const n Int)\n(declare-fun a (Int) String)\n(assert (= (a n) \"\"))")).toMatchObject({ functions: true, strings: true });
    expect(theories("(declare-const n Int)\n(assert (forall ((i Int)) (> i n)))")).toMatchObject({ quantifiers: true });
    expect(theories(`(declare-const n Int)\n(assert (fp.lt ((_ to_fp 11 53) RNE (to_real n)) ${numLit(2)}))`)).toMatchObject({ fp: true, fpConversion: true });
    expect(theories("(declare-const v (_ BitVec 8))\n(assert (= v #x00))")).toMatchObject({ other: true });
    expect(theories("(declare-const x Int)\n(assert (= (frobnicate x) 1))")).toMatchObject({ other: true });
    // Bound names are not unknown symbols; `(fp #b.. #b.. #b..)` literals are floating point, not bit-vectors.
    expect(theories(`(declare-const x ${F64})\n(define-fun f ((y ${F64})) Bool (let ((z (fp.neg y))) (fp.lt z ${numLit(-0)})))\n(assert (f x))`)).toMatchObject({ fp: true, other: false, arithmetic: false });
    // Only what the assertions reach counts: a parameter a guarantee never reads, a definition
    // nothing uses. A name used before its declaration is unknown there.
    expect(theories(`(declare-const account String)\n(declare-const n Int)\n(declare-const x ${F64})\n(define-fun unused () Bool (= account "a"))\n(assert (fp.isNaN x))`)).toEqual({ fp: true, fpConversion: false, strings: false, arithmetic: false, quantifiers: false, functions: false, other: false });
    // Floating point anywhere still counts (its engines' preprocessing suits what is reached).
    expect(theories(`(declare-const s String)\n(declare-const x ${F64})\n(assert (str.contains s "a"))`)).toMatchObject({ fp: true, strings: true, fpConversion: false });
    expect(theories(`(declare-const n Int)\n(define-fun x () ${F64} ((_ to_fp 11 53) RNE (to_real n)))\n(assert (> n 1))`)).toMatchObject({ fp: true, fpConversion: false, arithmetic: true });
    expect(theories(`(declare-const x ${F64})\n(define-fun used () Bool (= account "a"))\n(declare-const account String)\n(assert (and used (fp.isNaN x)))`)).toMatchObject({ fp: true, strings: true, other: true });
    expect(theories(`(declare-fun f (Int) String)\n(declare-const x ${F64})\n(define-fun g () Bool (= (f 1) ""))\n(assert (or g (fp.isNaN x)))`)).toMatchObject({ fp: true, strings: true, functions: true, arithmetic: true, other: false });
  });

  it("names the declarations no assertion reaches, through definitions or otherwise", () => {
    const unreached = (text: string) => [...unreachedDeclarations(parseCommands(text))].sort();
    expect(unreached(`(declare-const n Int)\n(declare-fun late (Int) ${F64})\n(declare-const s String)\n(define-fun big () Bool (> n 3))\n(define-fun named () Bool (= s "a"))\n(assert big)`)).toEqual(["late", "s"]);
    expect(unreached(`(declare-fun late (Int) ${F64})\n(define-fun d () Bool (fp.isNaN (late 0)))\n(assert (not d))`)).toEqual([]);
    // A bound name is not the declared one it shadows.
    expect(unreached("(declare-const n Int)\n(declare-const late Int)\n(assert (forall ((late Int)) (> late n)))")).toEqual(["late"]);
  });

  it("follows a chain of twenty thousand definitions without running out of stack", () => {
    const chain = Array.from({ length: 20_000 }, (_, i) => `(define-fun d${i + 1} () Bool (and d${i} (= s "a")))`).join("\n");
    expect(theories(`(declare-const s String)\n(define-fun d0 () Bool true)\n${chain}\n(assert d20000)`)).toMatchObject({ strings: true, other: false });
  });

  it("chooses engines by theory", () => {
    expect(attemptsFor(theories(`(declare-const x ${F64})\n(assert (fp.isNaN x))`))).toEqual([{ engine: "fp", formulation: "original" }]);
    expect(attemptsFor(theories(`(declare-const x ${F64})\n(declare-const n Int)\n(assert (and (> n 1) (fp.isNaN x)))`)).map((a) => a.engine)).toEqual(["fpMixed", "general"]);
    expect(attemptsFor(theories(`(declare-const n Int)\n(assert (fp.isNaN ((_ to_fp 11 53) RNE (to_real n))))`))).toEqual([{ engine: "general", formulation: "original" }]);
    expect(attemptsFor(theories('(declare-const s String)\n(assert (str.contains s "a"))'))).toEqual([
      { engine: "core", formulation: "regex", once: CORE_FIRST_SLICE },
      { engine: "general", formulation: "regex" },
      { engine: "general", formulation: "words" },
      { engine: "general", formulation: "original" },
    ]);
    expect(attemptsFor(theories("(declare-const n Int)\n(assert (forall ((i Int)) (> i n)))"))).toEqual([{ engine: "general", formulation: "original" }]);
    expect(attemptsFor(theories("(declare-const n Int)\n(assert (> (* n n) 2))"))).toEqual([
      { engine: "core", formulation: "original", once: CORE_FIRST_SLICE },
      { engine: "general", formulation: "original" },
    ]);
  });

  it("decides path checks that the word-equation reasoning alone does not (a plain name under a directory)", async () => {
    const name = "(declare-const name String)";
    const plain = ["(> (str.len name) 0)", '(not (str.contains name "/"))', '(not (str.contains name "\\u{5c}"))', '(not (= name "."))', '(not (= name ".."))'];
    const inside = (p: string) => `(and (str.prefixof "backup/" ${p}) (not (str.contains ${p} "/../")) (not (str.suffixof "/.." ${p})) (not (str.suffixof "/." ${p})) (not (str.suffixof "/" ${p})))`;
    expect((await ask(name, [...plain, `(not ${inside('(str.++ "backup/" name)')})`])).status).toBe("unsat");
    const [v] = await values(name, ["(> (str.len name) 0)", `(not ${inside('(str.++ "backup/" name)')})`], [{ term: "name", sort: "String" }]);
    const path = `backup/${decodeString(String(v))}`;
    expect(path.includes("/../") || path.endsWith("/..") || path.endsWith("/.") || path.endsWith("/")).toBe(true);
  });

  it("a long literal prefix that the input must not have", async () => {
    const decls = "(declare-const n Int)\n(declare-fun link (Int) String)";
    const [v] = await values(decls, ["(> n 0)", '(not (str.prefixof "https://api.example.com/" (link 0)))'], [{ term: "(link 0)", sort: "String" }]);
    expect(decodeString(String(v)).startsWith("https://api.example.com/")).toBe(false);
  });
});

describe("the reformulations are equivalences", () => {
  /** Rewrite the Boolean term `phi` over x, y (String) and b (Bool); undefined when nothing changes. */
  function rewrite(phi: string): string | undefined {
    const text = `(declare-const x String)\n(declare-const y String)\n(declare-const b Bool)\n(define-fun phi () Bool ${phi})`;
    const out = regexFormulation(parseCommands(text), 1_000_000);
    if (out === undefined) return undefined;
    const def = parseCommands(out).find((c) => Array.isArray(c) && c[0] === "define-fun" && c[1] === "phi") as SExpr[];
    return printSExpr(def[4]!);
  }

  const letters = fc.constantFrom("a", "b", "/", ".", "\ud83d");
  const word = fc.array(letters, { maxLength: 4 }).map((cs) => cs.join(""));
  const str = (depth: number): fc.Arbitrary<string> =>
    depth <= 0
      ? fc.oneof(fc.constantFrom("x", "y"), word.map(strLit))
      : fc.oneof(
          { weight: 3, arbitrary: str(0) },
          { weight: 2, arbitrary: fc.array(str(depth - 1), { minLength: 2, maxLength: 3 }).map((ps) => `(str.++ ${ps.join(" ")})`) },
          { weight: 1, arbitrary: fc.tuple(str(depth - 1), str(depth - 1)).map(([a, c]) => `(ite b ${a} ${c})`) },
        );
  const atom = fc.oneof(
    fc.tuple(str(2), word).map(([t, p]) => `(str.contains ${t} ${strLit(p)})`),
    fc.tuple(word, str(2)).map(([p, t]) => `(str.prefixof ${strLit(p)} ${t})`),
    fc.tuple(word, str(2)).map(([p, t]) => `(str.suffixof ${strLit(p)} ${t})`),
    fc.tuple(fc.constantFrom("<", "<=", ">", ">=", "="), fc.constantFrom("x", "y"), fc.nat({ max: 4 }), fc.boolean()).map(([op, v, k, flip]) => (flip ? `(${op} ${k} (str.len ${v}))` : `(${op} (str.len ${v}) ${k})`)),
    fc.tuple(fc.constantFrom("x", "y"), word).map(([v, w]) => `(= ${v} ${strLit(w)})`),
    fc.constant("b"),
  );
  const formula: fc.Arbitrary<string> = fc.letrec<{ f: string }>((tie) => ({
    f: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      atom,
      tie("f").map((a) => `(not ${a})`),
      fc.array(tie("f"), { minLength: 2, maxLength: 3 }).map((xs) => `(and ${xs.join(" ")})`),
      fc.array(tie("f"), { minLength: 2, maxLength: 3 }).map((xs) => `(or ${xs.join(" ")})`),
      fc.tuple(tie("f"), tie("f"), tie("f")).map(([c, a, e]) => `(ite ${c} ${a} ${e})`),
      fc.tuple(tie("f"), tie("f")).map(([a, c]) => `(=> ${a} ${c})`),
    ),
  })).f;

  /**
   * A declaration the theory analysis does not know (a bit-vector), asserted about, keeps the
   * session from reformulating the check itself: only the original text reaches Z3, so the
   * rewrite is checked against Z3's own semantics of the original predicates. (A declaration no
   * assertion reaches does not count.)
   */
  const ORIGINAL_ONLY = "(declare-const original-only (_ BitVec 1))";
  const REACH_ORIGINAL_ONLY = "(= original-only original-only)";
  it("checks run on the original formulation only", () => {
    expect(attemptsFor(analyse(parseCommands(`${ORIGINAL_ONLY}\n(declare-const x String)\n(assert (str.contains x "a"))\n(assert ${REACH_ORIGINAL_ONLY})`)))).toEqual([{ engine: "general", formulation: "original" }]);
    // Declared only, it changes nothing.
    expect(attemptsFor(analyse(parseCommands(`${ORIGINAL_ONLY}\n(declare-const x String)\n(assert (str.contains x "a"))`)))[0]).toEqual({ engine: "core", formulation: "regex", once: CORE_FIRST_SLICE });
  });

  it("agrees with the original on random formulas and values", async () => {
    const session = await Z3Session.get();
    await fc.assert(
      fc.asyncProperty(formula, word, word, fc.boolean(), async (phi, x, y, b) => {
        const rw = rewrite(phi);
        if (rw === undefined) return;
        // Both under the same concrete values: Z3 evaluates them (ground terms), they must agree.
        const decls = `${ORIGINAL_ONLY}\n(define-fun x () String ${strLit(x)})\n(define-fun y () String ${strLit(y)})\n(define-fun b () Bool ${b})`;
        const answer = await session.query(decls, [`(not (= ${phi} ${rw}))`, REACH_ORIGINAL_ONLY], budget(), async () => undefined);
        expect(answer.status, `${phi}\n  ≠ ${rw}\n  at x=${JSON.stringify(x)} y=${JSON.stringify(y)} b=${b}`).toBe("unsat");
      }),
      { numRuns: 300 },
    );
  });

  it("the word equations agree with the original on random formulas and values", async () => {
    const session = await Z3Session.get();
    let rewritten = 0;
    await fc.assert(
      fc.asyncProperty(formula, word, word, fc.boolean(), async (phi, x, y, b) => {
        const out = wordFormulation(parseCommands(`(define-fun phi () Bool ${phi})`));
        if (out === undefined) return;
        rewritten++;
        const rw = printSExpr((parseCommands(out)[0] as SExpr[])[4]!);
        const decls = `${ORIGINAL_ONLY}\n(define-fun x () String ${strLit(x)})\n(define-fun y () String ${strLit(y)})\n(define-fun b () Bool ${b})`;
        const answer = await session.query(decls, [`(not (= ${phi} ${rw}))`, REACH_ORIGINAL_ONLY], budget(), async () => undefined);
        expect(answer.status, `${phi}\n  ≠ ${rw}\n  at x=${JSON.stringify(x)} y=${JSON.stringify(y)} b=${b}`).toBe("unsat");
      }),
      { numRuns: 300 },
    );
    expect(rewritten).toBeGreaterThan(50);
  });

  it("the word equations are equivalent over all strings", async () => {
    const session = await Z3Session.get();
    for (const phi of ['(str.prefixof "ab" x)', '(str.suffixof "ab" x)', '(str.prefixof "" x)', '(str.suffixof "/.." x)', '(str.prefixof "\\u{d83d}a" x)']) {
      const out = wordFormulation(parseCommands(`(define-fun phi () Bool ${phi})`))!;
      const rw = printSExpr((parseCommands(out)[0] as SExpr[])[4]!);
      expect(rw, phi).not.toContain("fixof");
      const answer = await session.query(`${ORIGINAL_ONLY}\n(declare-const x String)\n(declare-const y String)`, [`(not (= ${phi} ${rw}))`, REACH_ORIGINAL_ONLY], budget(), async () => undefined);
      expect(answer.status, `${phi} vs ${rw}`).toBe("unsat");
    }
  });

  it("has no counterexample the solver can find on the distributions over concatenations", async () => {
    const session = await Z3Session.get();
    const cases = [
      '(str.contains (str.++ "data/" x "/x") "/../")',
      '(str.contains (str.++ x "ab") "b/")',
      '(str.prefixof "https://api.example.com/" (str.++ "https://" x "/"))',
      '(str.suffixof "/.." (str.++ "backup/" x))',
      '(str.suffixof "@corp.com" (ite b x "alice@corp.com"))',
      '(and (> (str.len x) 2) (not (str.contains x "a")) (or (= x "bb") (str.prefixof "b" x)))',
    ];
    // Across two unknown parts the predicate is kept as it is (see `predicates`).
    expect(rewrite('(str.contains (str.++ x y) "secret")')).toBeUndefined();
    for (const phi of cases) {
      const rw = rewrite(phi);
      expect(rw, phi).toBeDefined();
      // Equivalence over all strings is itself hard for Z3 (on some of these it works for minutes
      // without counting much): what matters is that it finds no counterexample, so any answer but
      // `sat` passes, and the wall clock may end the search.
      const answer = await session.query(`${ORIGINAL_ONLY}\n(declare-const x String)\n(declare-const y String)\n(declare-const b Bool)`, [`(not (= ${phi} ${rw}))`, REACH_ORIGINAL_ONLY], { rlimit: 2_000_000, backstopMs: 1000 }, async () => undefined);
      expect(answer.status, `${phi} vs ${rw}`).not.toBe("sat");
    }
  });
});
