import fc from "fast-check";
import { floorFloats, valueOfFloored } from "../../core/prover/float-floors";
import { DEFAULT_RLIMIT, type QueryLimits } from "../../core/prover/limits";
import { numLit } from "../../core/prover/smt";
import { parseCommands } from "../../core/prover/tactics";
import { analyse } from "../../core/prover/theories";
import { Z3Session, type SolverAnswer, type ValueSort } from "../../core/prover/z3";
import type { SExpr } from "../../core/prover/sexpr";

const F64 = "(_ FloatingPoint 11 53)";
const conv = (t: string): string => `((_ to_fp 11 53) RNE (to_real ${t}))`;
const floors = (text: string) => floorFloats(parseCommands(text));
const budget = (rlimit = DEFAULT_RLIMIT): QueryLimits => ({ rlimit, backstopMs: 600_000 });
const int = (k: number): string => (k < 0 ? `(- ${-k})` : String(k));

async function ask(declarations: string, assertions: string[], read: { term: string; sort: ValueSort }[] = []): Promise<SolverAnswer<SExpr[]>> {
  const session = await Z3Session.get();
  return session.query(declarations, assertions, budget(), (get) => get(read));
}

/** The oracle's questions: the original as written, never restated. */
async function askAsWritten(declarations: string, assertions: string[]): Promise<SolverAnswer<SExpr[]>> {
  Z3Session.floors = false;
  try {
    return await ask(declarations, assertions);
  } finally {
    Z3Session.floors = true;
  }
}

describe("which queries are restated over integers", () => {
  const decls = `(declare-const n Int)\n(declare-const x ${F64})\n(define-fun T () ${F64} (fp.add RNE ${conv("n")} ${numLit(1)}))`;
  it("a running total of converted integers compared with a float input: no floating point is left", () => {
    const f = floors(`${decls}\n(assert (and (<= 0 n) (<= n 100)))\n(assert (fp.leq T x))\n(assert (not (fp.leq x ${numLit(50)})))`);
    expect(f?.floored.map((p) => p.name)).toEqual(["x"]);
    expect(analyse(parseCommands(f!.text))).toMatchObject({ fp: false, fpConversion: false });
    expect(f!.text).toContain("(define-fun T () Int (+ n 1))");
  });
  it.each([
    ["an unbounded integer", `(assert (fp.leq T x))`],
    ["two floats compared", `(assert (and (<= 0 n) (<= n 100)))\n(declare-const y ${F64})\n(assert (fp.leq x y))`],
    ["a float in arithmetic", `(assert (and (<= 0 n) (<= n 100)))\n(assert (fp.leq T (fp.add RNE x ${numLit(1)})))`],
    ["a float compared with a fraction", `(assert (and (<= 0 n) (<= n 100)))\n(assert (fp.leq T x))\n(assert (fp.lt x ${numLit(0.5)}))`],
    ["a sum that may pass 2^53", `(assert (and (<= 0 n) (<= n 9007199254740992)))\n(assert (fp.leq T x))`],
    ["a float converted to text", `(assert (and (<= 0 n) (<= n 100)))\n(declare-fun s (${F64}) String)\n(assert (= (s x) "1"))`],
    ["a quantifier", `(assert (and (<= 0 n) (<= n 100)))\n(assert (forall ((i Int)) (fp.leq T x)))`],
  ])("not restated with %s", (_, body) => {
    expect(floors(`${decls}\n${body}`)).toBeUndefined();
  });
  it("the parts name every double and only doubles", () => {
    expect(valueOfFloored({ nan: false, posInf: false, negInf: false, negZero: false, floor: 3n, integral: false })).toBe(3.5);
    expect(valueOfFloored({ nan: false, posInf: false, negInf: false, negZero: true, floor: 0n, integral: true })).toBe(-0);
    expect(valueOfFloored({ nan: false, posInf: false, negInf: false, negZero: false, floor: 2n ** 53n + 1n, integral: true })).toBe(2 ** 54);
    expect(valueOfFloored({ nan: false, posInf: false, negInf: false, negZero: false, floor: 2n ** 52n, integral: false })).toBeUndefined();
  });
});

describe("the restated query is equivalent to the original (differential)", () => {
  // The oracle: the original query with the integers fixed to each value of their small ranges and
  // the float input fixed to each double of a set that holds one of every kind a comparison with
  // those integers can tell apart (NaN, ±∞, ±0, each integer near them and each half between,
  // doubles beyond 2^53): no floating point is left unknown for Z3.
  const LIMIT = 2 ** 53;
  const XS = [NaN, Infinity, -Infinity, 0, -0, ...Array.from({ length: 25 }, (_, i) => i - 12).flatMap((k) => [k, k + 0.5]), LIMIT, LIMIT + 2, 2 ** 54, -(2 ** 54), 1e300, -1e300, 2 ** 52 - 0.5, 5e-324];
  const bounds = fc.oneof(
    { weight: 5, arbitrary: fc.tuple(fc.integer({ min: -5, max: 5 }), fc.integer({ min: 0, max: 3 })).map(([lo, w]) => [lo, lo + w] as const) },
    { weight: 1, arbitrary: fc.constantFrom([LIMIT - 3, LIMIT - 1] as const, [-LIMIT + 1, -LIMIT + 2] as const) },
  );
  // Integral terms: N (converted n), M (converted (a 0)), T (a running total), C (a cap: Math.min(x, 3) as the encoder writes it).
  const intTerm = fc.constantFrom("N", "M", "T", numLit(2), numLit(-1), numLit(0));
  const floatTerm = fc.constantFrom("x", "C");
  const atom = fc.oneof(
    fc.tuple(fc.constantFrom("fp.leq", "fp.lt", "fp.geq", "fp.gt", "fp.eq", "="), intTerm, floatTerm).map(([op, a, b]) => `(${op} ${a} ${b})`),
    fc.tuple(fc.constantFrom("fp.leq", "fp.lt", "fp.eq", "="), floatTerm, intTerm).map(([op, a, b]) => `(${op} ${a} ${b})`),
    fc.tuple(fc.constantFrom("fp.leq", "fp.lt", "fp.eq", "="), intTerm, intTerm).map(([op, a, b]) => `(${op} ${a} ${b})`),
    fc.tuple(fc.constantFrom("fp.isNaN", "fp.isInfinite", "fp.isZero", "fp.isNegative", "fp.isPositive"), fc.constantFrom("x", "C", "T")).map(([op, a]) => `(${op} ${a})`),
    fc.constantFrom("(fp.eq (fp.roundToIntegral RNE x) x)", "(fp.eq x (fp.roundToIntegral RTZ x))", "(fp.leq x x)", "(= x x)", "(fp.lt x x)"),
    fc.tuple(fc.constantFrom("<=", "<", "="), fc.constantFrom("n", "(a 0)", "(+ n (a 0))"), fc.integer({ min: -6, max: 6 })).map(([op, t, k]) => `(${op} ${t} ${int(k)})`),
  );
  const literal = fc.tuple(fc.boolean(), atom).map(([neg, a]) => (neg ? `(not ${a})` : a));
  const query = fc.record({ n: bounds, a: bounds, body: fc.array(fc.array(literal, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 }) });
  const range = ([lo, hi]: readonly [number, number]): number[] => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  const cap = (x: string): string =>
    `(ite (or (fp.isNaN ${x}) (fp.isNaN ${numLit(3)})) (_ NaN 11 53) (ite (fp.lt ${x} ${numLit(3)}) ${x} (ite (and (fp.isZero ${x}) (fp.isZero ${numLit(3)}) (fp.isNegative ${x})) ${x} ${numLit(3)})))`;

  it("same satisfiability as the original at every value of its integers and its float, and models give a double", async () => {
    let restatedRuns = 0;
    const decls = `(declare-const n Int)\n(declare-fun a (Int) Int)\n(declare-const x ${F64})\n` +
      `(define-fun N () ${F64} ${conv("n")})\n(define-fun M () ${F64} ${conv("(a 0)")})\n` +
      `(define-fun T () ${F64} (fp.add RNE (fp.add RNE ${numLit(0)} N) (fp.sub RNE M ${numLit(1)})))\n(define-fun C () ${F64} ${cap("x")})`;
    await fc.assert(
      fc.asyncProperty(query, async ({ n, a, body }) => {
        const clauses = body.map((clause) => `(or ${clause.join(" ")})`);
        const assertions = [`(and (<= ${int(n[0])} n) (<= n ${int(n[1])}))`, `(and (<= ${int(a[0])} (a 0)) (<= (a 0) ${int(a[1])}))`, ...clauses];
        const isRestated = floors(`${decls}\n${assertions.map((x) => `(assert ${x})`).join("\n")}`) !== undefined;
        if (!isRestated) return;
        restatedRuns++;
        const answer = await ask(decls, assertions, [{ term: "n", sort: "Int" }, { term: "(a 0)", sort: "Int" }, { term: "x", sort: "Float64" }]);
        let oracle: "sat" | "unsat" = "unsat";
        for (const v of range(n)) {
          for (const w of range(a)) {
            for (const xv of XS) {
              const fixed = `(define-fun n () Int ${int(v)})\n(define-fun a ((i Int)) Int ${int(w)})\n(define-fun x () ${F64} ${numLit(xv)})\n` +
                `(define-fun N () ${F64} ${numLit(v)})\n(define-fun M () ${F64} ${numLit(w)})\n(define-fun T () ${F64} ${numLit(0 + v + (w - 1))})\n(define-fun C () ${F64} ${numLit(Number.isNaN(xv) ? NaN : Math.min(xv, 3))})`;
              const fixedAnswer = await askAsWritten(fixed, clauses);
              expect(fixedAnswer.status).not.toBe("unknown");
              if (fixedAnswer.status === "sat") oracle = "sat";
              if (oracle === "sat") break;
            }
            if (oracle === "sat") break;
          }
          if (oracle === "sat") break;
        }
        expect(answer.status).toBe(oracle);
      }),
      { numRuns: 60, seed: 34 },
    );
    expect(restatedRuns).toBeGreaterThan(30);
  }, 1_800_000);

  it("at every point, the restated query holds exactly where the original does (the parts fixed to the double's)", async () => {
    let points = 0;
    const decls = `(declare-const n Int)\n(declare-fun a (Int) Int)\n(declare-const x ${F64})\n` +
      `(define-fun N () ${F64} ${conv("n")})\n(define-fun M () ${F64} ${conv("(a 0)")})\n` +
      `(define-fun T () ${F64} (fp.add RNE (fp.add RNE ${numLit(0)} N) (fp.sub RNE M ${numLit(1)})))\n(define-fun C () ${F64} ${cap("x")})`;
    const POINTS = [NaN, Infinity, -Infinity, 0, -0, ...Array.from({ length: 15 }, (_, i) => i - 7).flatMap((k) => [k, k + 0.5]), LIMIT + 2, -(2 ** 54)];
    await fc.assert(
      fc.asyncProperty(query, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 2 }), async ({ n, a, body }, picks) => {
        const clauses = body.map((clause) => `(or ${clause.join(" ")})`);
        const restated = floors(`${decls}\n${clauses.map((x) => `(assert ${x})`).join("\n")}`);
        if (!restated) return;
        const [f] = restated.floored;
        for (const [i, j] of picks) {
          const v = range(n)[i % range(n).length]!;
          const w = range(a)[j % range(a).length]!;
          for (const xv of POINTS) {
            const original = `(define-fun n () Int ${int(v)})\n(define-fun a ((i Int)) Int ${int(w)})\n(define-fun x () ${F64} ${numLit(xv)})\n` +
              `(define-fun N () ${F64} ${numLit(v)})\n(define-fun M () ${F64} ${numLit(w)})\n(define-fun T () ${F64} ${numLit(0 + v + (w - 1))})\n(define-fun C () ${F64} ${numLit(Number.isNaN(xv) ? NaN : Math.min(xv, 3))})`;
            // The parts of xv, as the module comment defines them (clamped beyond ±(2^53 + 1)).
            const finite = Number.isFinite(xv);
            const floor = !finite ? 0 : xv > LIMIT ? LIMIT + 1 : xv < -LIMIT ? -LIMIT - 1 : Math.floor(xv);
            const parts: Record<string, string> = f
              ? { [f.nan]: String(Number.isNaN(xv)), [f.posInf]: String(xv === Infinity), [f.negInf]: String(xv === -Infinity), [f.negZero]: String(Object.is(xv, -0)), [f.integral]: String(!finite || Math.abs(xv) > LIMIT || Number.isInteger(xv)), [f.floor]: int(floor) }
              : {};
            const fixedText = restated.text
              .replace("(declare-const n Int)", `(define-fun n () Int ${int(v)})`)
              .replace("(declare-fun a (Int) Int)", `(define-fun a ((i Int)) Int ${int(w)})`)
              .replace(/\(declare-const (\S+) (Bool|Int)\)/g, (m, name: string, sort: string) => (name in parts ? `(define-fun ${name} () ${sort} ${parts[name]})` : m))
              .split("\n");
            const [o, r] = [await askAsWritten(original, clauses), await ask(fixedText.filter((c) => !c.startsWith("(assert")).join("\n"), fixedText.filter((c) => c.startsWith("(assert")).map((c) => c.slice("(assert ".length, -1)))];
            expect([xv, v, w, r.status]).toEqual([xv, v, w, o.status]);
            points++;
          }
        }
      }),
      { numRuns: 200, seed: 35 },
    );
    expect(points).toBeGreaterThan(3000);
  }, 1_800_000);
});
