/**
 * Reading values out of a model (z3.ts `GetValues`): the query as written is parsed once into a
 * parser context kept in its scope (z3-scope.ts `parseKept`), and each read parses only its probes
 * there (`parseRead`). What the reads must keep: the model's own symbols, declarations made later
 * sent once however often they are read, Float64 literals in several reads, and a read that fails
 * failing every read after it in that scope (Z3 keeps a failed parse's assertions), never a
 * misaligned value.
 */
import { numLit } from "../../core/prover/smt";
import { decodeFloat } from "../../core/prover/sexpr";
import { SolverError, Z3Session, type GetValues } from "../../core/prover/z3";

const text = [
  "(declare-const a Int)",
  "(declare-const b String)",
  "(declare-fun f (Int) Int)",
  "(define-fun twice ((x Int)) Int (+ (f x) a))",
  '(define-fun named () Bool (= b "(declare-const c Int) c"))',
  "(declare-const c Int)",
  "(define-fun uses () Bool (> (twice c) 0))",
].join("\n");
const limits = { rlimit: 1_000_000, backstopMs: 600_000 };
const F64 = "(_ FloatingPoint 11 53)";

async function withModel<T>(declarations: string, assertions: readonly string[], read: (get: GetValues) => Promise<T>): Promise<T> {
  const session = await Z3Session.get();
  const answer = await session.query(declarations, assertions, limits, read);
  if (answer.status !== "sat") throw new Error(`expected sat, got ${answer.status}`);
  return answer.result;
}

describe("reading a model", () => {
  it("reads the model's values of terms over the query's declarations, defined functions included", async () => {
    const got = await withModel(text, ["uses", "(= a 3)", "(= c 2)", "(= (f 2) 5)", "named"], (get) => get([{ term: "(twice c)", sort: "Int" }, { term: "b", sort: "String" }]));
    expect(got).toEqual(["8", '"(declare-const c Int) c"']);
  });

  it("reads several times from one model, each read with its own probes", async () => {
    const got = await withModel(text, ["(= a 3)", "(= c 2)", "(= (f 2) 5)"], async (get) => [...(await get([{ term: "a", sort: "Int" }])), ...(await get([{ term: "(f c)", sort: "Int" }, { term: "c", sort: "Int" }])), ...(await get([{ term: "(+ a c)", sort: "Int" }]))]);
    expect(got).toEqual(["3", "5", "2", "5"]);
  });

  it("sends a later declaration once, however many reads name it, and adds the ones that come after", async () => {
    const got = await withModel(text, ["(= a 4)"], async (get) => {
      const first = await get([{ term: "(g 1)", sort: "Int" }], ["(declare-fun g (Int) Int)"]);
      const again = await get([{ term: "(+ a (g 1))", sort: "Int" }], ["(declare-fun g (Int) Int)"]);
      const more = await get([{ term: "(h (g 1))", sort: "Int" }], ["(declare-fun g (Int) Int)", "(declare-fun h (Int) Int)"]);
      return [first, again, more].flat();
    });
    // Unconstrained, the model completes them: g is read the same in every read.
    expect(got).toHaveLength(3);
    expect(Number(got[1])).toBe(4 + Number(got[0]));
  });

  it("reads terms with Float64 literals in several reads of one model", async () => {
    const decls = `(declare-const x ${F64})`;
    const got = await withModel(decls, [`(fp.eq x ${numLit(2.5)})`], async (get) => [
      ...(await get([{ term: `(fp.add RNE x ${numLit(1)})`, sort: "Float64" }])),
      ...(await get([{ term: `(fp.mul RNE x ${numLit(2)})`, sort: "Float64" }, { term: `(fp.add RNE x ${numLit(1)})`, sort: "Float64" }])),
    ]);
    expect(got.map((v) => decodeFloat(v))).toEqual([3.5, 5, 3.5]);
  });

  it("a read that names an undeclared symbol is a SolverError, and so is every read after it on that model; the session stays usable", async () => {
    const session = await Z3Session.get();
    const outcomes: string[] = [];
    await session.query(text, ["(= a 3)"], limits, async (get) => {
      for (const term of ["(+ a nope)", "a"]) {
        try {
          await get([{ term, sort: "Int" }]);
          outcomes.push("read");
        } catch (error) {
          outcomes.push(error instanceof SolverError ? "SolverError" : String(error));
        }
      }
    });
    expect(outcomes).toEqual(["SolverError", "SolverError"]);
    const again = await withModel(text, ["(= a 3)"], (get) => get([{ term: "a", sort: "Int" }]));
    expect(again).toEqual(["3"]);
  });
});
