/**
 * Which call a count that grows too large is blamed on when the calls' activity is a quantified
 * formula (read-counterexample.ts `groundBoundedQuantifiers`): an element of a Set's iteration (no
 * earlier element had its key), a call under `xs.some(…)`. The model leaves such quantifiers
 * unevaluated, so before session 42 nothing read as active and the count was reported on the
 * guarantee's line. IMPORTS are prepended: body line 1 is file line 3.
 */
import { groundBoundedQuantifiers, quantifierBounds } from "../../core/prover/read-counterexample";
import { proveCases, type ProveCase } from "./prove-helpers";

describe("grounding quantifiers over a bounded index", () => {
  it("replaces a forall over 0 ≤ j < N by its N instances, and an exists by a disjunction", () => {
    expect(groundBoundedQuantifiers("(forall ((j Int)) (=> (and (<= 0 j) (< j 2)) (p j)))")).toBe("(and (=> (and (<= 0 0) (< 0 2)) (p 0)) (=> (and (<= 0 1) (< 1 2)) (p 1)))");
    expect(groundBoundedQuantifiers("(exists ((k Int)) (and (and (<= 0 k) (< k n)) (q k)))", (b) => (b === "n" ? 2 : undefined))).toBe("(or (and (and (<= 0 0) (< 0 n)) (q 0)) (and (and (<= 0 1) (< 1 n)) (q 1)))");
    expect(groundBoundedQuantifiers("(forall ((j Int)) (=> (and (<= 0 j) (< j 0)) (p j)))")).toBe("true");
    expect(groundBoundedQuantifiers("(exists ((k Int)) (and (<= 0 k) (< k 0) (q k)))")).toBe("false");
  });
  it("leaves quantifiers it cannot bound as they are", () => {
    const unbounded = "(forall ((j Int)) (=> (>= j 0) (p j)))";
    expect(groundBoundedQuantifiers(unbounded)).toBe(unbounded);
    const unknown = "(exists ((k Int)) (and (<= 0 k) (< k n) (q k)))";
    expect(groundBoundedQuantifiers(unknown)).toBe(unknown);
    // An exists shaped as an implication (or a forall as a conjunction) is not the guarded form.
    const odd = "(exists ((k Int)) (=> (and (<= 0 k) (< k 2)) (q k)))";
    expect(groundBoundedQuantifiers(odd)).toBe(odd);
  });
  it("lists the bounds to read from the model", () => {
    expect(quantifierBounds("(and (p 1) (exists ((k Int)) (and (<= 0 k) (< k (len xs)) (q k))))")).toEqual(["(len xs)"]);
    expect(quantifierBounds("(forall ((j Int)) (=> (and (<= 0 j) (< j 3)) (p j)))")).toEqual([]);
  });
});

const cases: ProveCase[] = [
  { name: "a sum passed inside a loop over a tool result is blamed on the payment that passes it", verdict: "violated", line: 5, match: /reaches the call at plan\.ts:5:/, body: `export const guarantees = [m.spendAtMost(100)];
export function main(): void {
  for (const r of rows()) if (r.amount > 0 && r.amount <= 60) pay(r.to, r.amount);
}` },
  { name: "a count over a Set's elements is blamed on the call that passes the bound", verdict: "violated", line: 5, match: /reaches the call at plan\.ts:5:/, body: `export const guarantees = [m.emailsAtMost(2)];
export function main(xs: string[]): void {
  for (const c of new Set(xs)) sendEmail(c, "s");
}` },
  { name: "a count passed by a call under some(…) is blamed on that call", verdict: "violated", line: 6, match: /reaches the call at plan\.ts:6:/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(xs: string[]): void {
  sendEmail("a", "x");
  if (xs.some((x) => x === "b")) sendEmail("b", "y");
}` },
];

describe("blame of counts over quantified activity", () => proveCases(cases));
