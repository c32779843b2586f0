/**
 * The ground query of a query with quantifiers (core/prover/grounding.ts): top-level universals
 * instantiated at the terms the query applies their functions to, every closed quantified formula
 * then a fresh Boolean, integers lifted also where a function is applied to a term that is not a
 * numeral (int-floats.ts, `anyArgs`). It over-approximates: its `unsat` is believed, its models
 * never. Checked here: what it writes, that it is never unsat where the query is sat (random
 * queries against Z3 on the original), and a program that only it decides.
 */
import fc from "fast-check";
import { groundOf } from "../../core/prover/grounding";
import { liftIntegers } from "../../core/prover/int-floats";
import { parseCommands } from "../../core/prover/tactics";
import { analyse } from "../../core/prover/theories";
import { Z3Session } from "../../core/prover/z3";
import { prove, problems } from "./prove-helpers";

const F64 = "(_ FloatingPoint 11 53)";
const conv = (t: string): string => `((_ to_fp 11 53) RNE (to_real ${t}))`;
const LIMIT = 2_000_000;

describe("the ground query", () => {
  it("instantiates a top-level universal at the terms its functions are applied to, and abstracts the rest", () => {
    const text = `(declare-fun from (Int) Int)\n(declare-const n Int)\n(declare-const b Bool)
(assert (forall ((i Int)) (=> (and (<= 0 i) (< i n)) (and (<= 0 (from i)) (< (from i) n)))))
(assert (=> b (exists ((j Int)) (= (from j) 7))))
(assert (< 0 n))
(assert (not (< (from 0) n)))`;
    const ground = groundOf(parseCommands(text))!;
    expect(ground).not.toMatch(/forall|exists/);
    // The instance at 0, the term `(from 0)` names.
    expect(ground).toContain("(=> (and (<= 0 0) (< 0 n)) (and (<= 0 (from 0)) (< (from 0) n)))");
    expect(ground).toMatch(/\(declare-const ground!\d Bool\)/);
  });

  it("abstracts a quantifier that reads a definition's parameters by a predicate of them, the same formula by the same one", () => {
    const ground = groundOf(parseCommands("(declare-fun f (Int) Int)\n(define-fun p ((k Int) (b Bool)) Bool (and b (exists ((j Int)) (= (f j) k))))\n(define-fun q ((k Int)) Bool (not (exists ((j Int)) (= (f j) k))))\n(assert (and (p 1 true) (q 1)))"))!;
    expect(ground).not.toMatch(/forall|exists/);
    expect(ground).toContain("(declare-fun ground!0 (Int) Bool)");
    expect(ground).toContain("(define-fun p ((k Int) (b Bool)) Bool (and b (ground!0 k)))");
    // `q`'s formula is the same text of the same sort of `k`: `(p 1 true) ∧ (q 1)` stays contradictory.
    expect(ground).toContain("(define-fun q ((k Int)) Bool (not (ground!0 k)))");
  });

  it("is undefined without a quantifier, and where one reads a `let` variable (whose sort is not written)", () => {
    expect(groundOf(parseCommands("(declare-const n Int)\n(assert (< 0 n))"))).toBeUndefined();
    expect(groundOf(parseCommands("(declare-fun f (Int) Int)\n(assert (let ((k (f 0))) (exists ((j Int)) (= (f j) k))))"))).toBeUndefined();
  });

  it("lifts applications to terms that are not numerals, equal where their arguments are", () => {
    const text = `(declare-fun price (Int) Int)\n(declare-fun at (Int) Int)\n(declare-const x ${F64})
(assert (and (<= 1 (price (at 0))) (<= (price (at 0)) 9)))\n(assert (and (<= 1 (price 2)) (<= (price 2) 9)))
(assert (fp.lt x ${conv("(price (at 0))")}))\n(assert (fp.gt x ${conv("(price 2)")}))\n(assert (< (at 0) 5))`;
    const commands = parseCommands(text);
    expect(liftIntegers(commands)).toBeUndefined();
    const lifted = liftIntegers(commands, true)!;
    expect(analyse(parseCommands(lifted.text))).toMatchObject({ fpConversion: false });
    // `at` indexes: it stays an integer function.
    expect(lifted.text).toContain("(declare-fun at (Int) Int)");
    expect(lifted.text).toMatch(/\(assert \(=> \(and \(= \(at 0\) 2\)\) \(= price!fp!t\d price!fp!2\)\)\)/);
  });

  it("is never unsat where the query is sat (random queries, each checked on the original)", async () => {
    const session = await Z3Session.get();
    const atom = fc.oneof(
      fc.constantFrom("(< (f i) 3)", "(= (f 0) (f 1))", "(< (g (f 0)) 2)", "(fp.lt x (fp #b0 #b10000000000 #b0000000000000000000000000000000000000000000000000000))"),
      fc.constantFrom(`(fp.leq x ${conv("(g (f 0))")})`, `(fp.gt x ${conv("(g 1)")})`, "(= (f i) (g i))", "(< i 2)"),
    );
    const formula = fc.array(fc.tuple(fc.boolean(), atom), { minLength: 1, maxLength: 4 }).map((xs) => `(or ${xs.map(([pos, a]) => (pos ? a : `(not ${a})`)).join(" ")})`);
    const quantified = fc.constantFrom(
      "(forall ((k Int)) (=> (and (<= 0 k) (< k 3)) (and (<= 0 (f k)) (< (f k) 4))))",
      "(forall ((k Int)) (=> (<= 0 k) (and (<= 1 (g k)) (<= (g k) 5))))",
      "(exists ((k Int)) (and (< 0 k) (= (f k) 2)))",
      // A definition whose quantifier reads its parameter ("some earlier element has this value").
      "(seen i)", "(not (seen 1))", "(seen (f 0))",
    );
    let checked = 0;
    const declarations = `(declare-fun f (Int) Int)\n(declare-fun g (Int) Int)\n(declare-const i Int)\n(declare-const x ${F64})\n(define-fun seen ((k Int)) Bool (exists ((j Int)) (and (<= 0 j) (< j k) (= (f j) (f k)))))`;
    await fc.assert(
      fc.asyncProperty(fc.array(formula, { minLength: 1, maxLength: 3 }), fc.array(quantified, { minLength: 1, maxLength: 2 }), async (fs, qs) => {
        const bounds = ["(and (<= 0 (f 0)) (<= (f 0) 3))", "(and (<= 1 (g 1)) (<= (g 1) 5))", "(and (<= 1 (g (f 0))) (<= (g (f 0)) 5))", "(and (<= 0 i) (< i 3))"];
        const assertions = [...bounds, ...fs, ...qs];
        // (A generous limit for these small queries; one the original cannot settle is skipped.)
        const original = await session.query(declarations, assertions, { rlimit: LIMIT, backstopMs: 600_000 }, async () => "model");
        if (original.status !== "sat") return;
        checked++;
        const ground = groundOf(parseCommands(`${declarations}\n${assertions.map((a) => `(assert ${a})`).join("\n")}`))!;
        const lifted = liftIntegers(parseCommands(ground), true);
        const text = lifted?.text ?? ground;
        const split = text.split("\n");
        const answer = await session.query(split.filter((l) => !l.startsWith("(assert")).join("\n"), split.filter((l) => l.startsWith("(assert")).map((l) => l.slice("(assert ".length, -1)), { rlimit: LIMIT, backstopMs: 600_000 }, async () => "model");
        expect(answer.status).not.toBe("unsat");
      }),
      { numRuns: 50, seed: 37 },
    );
    // Most draws are satisfiable: the property is checked, not skipped.
    expect(checked).toBeGreaterThanOrEqual(15);
  }, 600_000);

  it("proves a precondition next to a filter's count and a sort of unknown length (the shape of h50 i14, whose query the general solver left undecided)", async () => {
    const v = await prove(`import { searchOffers, book } from "./tools/offers/trusted/layer";
export const guarantees = [m.emailsAtMost(1)];
export function main(requested: number): void {
  if (Number.isNaN(requested)) return;
  const nights = Math.min(Math.max(Math.round(requested), 1), 14);
  const best = searchOffers(nights).filter((o) => o.rating >= 4).sort((a, b) => a.price - b.price)[0];
  if (best === undefined) return;
  book(best.id, "booked", nights, best.price * nights);
}`, {
      "tools/offers/trusted/layer.ts": `import { trusted, ensures, requires } from "clauz3";
import { performs } from "clauz3/events";
import { SendEmail } from "../../mail/trusted/layer";
export interface Offer { readonly id: string; readonly price: number; readonly rating: number }
export const searchOffers = trusted(
  requires((nights: number) => Number.isInteger(nights) && nights >= 1, "nights is a whole number, at least 1"),
  ensures((r: Offer[]) => r.every((o) => Number.isInteger(o.price) && o.price >= 40 && o.price <= 800)),
  function searchOffers(nights: number): Offer[] { return []; },
);
export const book = trusted(performs((id: string, note: string) => new SendEmail(id, note)), requires((id: string, note: string, nights: number) => Number.isInteger(nights) && nights >= 1 && nights <= 30, "a stay is 1 to 30 whole nights"), function book(id: string, note: string, nights: number, total: number): void {});
`,
    });
    expect(v.verdict, JSON.stringify(problems(v))).toBe("proved");
  }, 600_000);
});
