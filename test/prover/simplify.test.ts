/**
 * The propositional simplifier (core/prover/simplify.ts): each rule on the shapes the executor
 * leaves, and generated formulas checked equivalent to their simplification by Z3 itself (asked
 * with simplification off).
 */
import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { simplifyCommands } from "../../core/prover/simplify";
import { parseCommands, printSExpr } from "../../core/prover/tactics";
import { Z3Session } from "../../core/prover/z3";

const DECLS = ["(declare-const a Bool)", "(declare-const b Bool)", "(declare-const c Bool)", "(declare-const n Int)", "(declare-fun e (Int) String)"].join("\n");

/** The simplified text of `(assert term)` after the declarations and definitions given. */
function simplified(term: string, definitions: readonly string[] = []): string {
  const commands = parseCommands(`${DECLS}\n${definitions.join("\n")}\n(assert ${term})`);
  const out = simplifyCommands(commands) ?? commands;
  const last = out[out.length - 1]!;
  return printSExpr((last as string[])[1]!);
}

describe("the simplifier", () => {
  it("undoes the split of a path that meets itself again, through a `continue` (ops/remind_overdue_guarded_pass)", () => {
    const x = "(< 0 n)";
    const p = '(str.contains (e 0) "@")';
    // Iteration 0's end: reached by `continue` where p fails, by falling through where it holds (twice said), or not entered.
    expect(simplified(`(or (or (and ${x} (not ${p})) (and (and ${x} ${p}) ${p})) (not ${x}))`)).toBe("true");
    // The check inside it, on a send reached only where p holds, of `not p`.
    expect(simplified(`(and (and (< 0 n) ${p}) (not ${p}))`)).toBe("false");
    expect(simplified("(and true (not true))")).toBe("false");
  });

  it("flattens, drops repeats and units, and folds constants", () => {
    expect(simplified("(and a (and b a) true)")).toBe("(and a b)");
    expect(simplified("(or a (or false b) a)")).toBe("(or a b)");
    expect(simplified("(not (not a))")).toBe("a");
    expect(simplified("(=> false a)")).toBe("true");
    expect(simplified("(=> a false)")).toBe("(not a)");
    expect(simplified("(ite true a b)")).toBe("a");
    expect(simplified("(ite a b b)")).toBe("b");
    expect(simplified("(ite a true false)")).toBe("a");
    expect(simplified("(ite a false true)")).toBe("(not a)");
    expect(simplified("(or a (not a))")).toBe("true");
  });

  it("absorbs and resolves, in both junctions", () => {
    expect(simplified("(or a (and a b))")).toBe("a");
    expect(simplified("(and a (or a b))")).toBe("a");
    expect(simplified("(or (and a b) (and a (not b)))")).toBe("a");
    expect(simplified("(and (or a b) (or a (not b)))")).toBe("a");
    expect(simplified("(or (and a b c) (and a b (not c)) (and a (not b)))")).toBe("a");
    // (A ∧ x) ∨ (A ∧ ¬x ∧ R) is A ∧ (x ∨ R): the paths of `if (t === "" || !t.includes("@")) continue;` met again.
    expect(simplified("(or (and a (or b (not c))) (and a (not (or b (not c))) c))")).toBe("a");
    expect(simplified("(or c (and (not c) b))")).toBe("(or c b)");
    expect(simplified("(and (or a c) (or a (not c) b))")).toBe("(or a (and c b))");
  });

  it("replaces a definition whose body became constant where it is read, but not inside a function that shadows its name", () => {
    expect(simplified("(and pc!1 a)", ["(define-fun pc!1 () Bool (or b (not b)))"])).toBe("a");
    expect(simplified("(and (f a) a)", ["(define-fun pc!1 () Bool (and b (not b)))", "(define-fun f ((pc!1 Bool)) Bool (and pc!1 c))"])).toBe("(and (f a) a)");
    const commands = simplifyCommands(parseCommands(`${DECLS}\n(define-fun pc!1 () Bool (and b (not b)))\n(define-fun f ((pc!1 Bool)) Bool (and pc!1 c))\n(assert (f a))`))!;
    expect(printSExpr(commands.find((c) => Array.isArray(c) && c[1] === "f")!)).toBe("(define-fun f ((pc!1 Bool)) Bool (and pc!1 c))");
  });

  it("leaves a quantifier's body as written, and says when nothing applied", () => {
    expect(simplified("(forall ((i Int)) (and (< i n) (< i n)))")).toBe("(forall ((i Int)) (and (< i n) (< i n)))");
    expect(simplifyCommands(parseCommands(`${DECLS}\n(assert (and a (or b c)))`))).toBeUndefined();
  });
});

describe("the simplifier keeps a formula's meaning", () => {
  afterEach(() => {
    Z3Session.simplifies = true;
    Z3Session.intervals = true;
    Z3Session.guesses = true;
  });

  // A few atoms, repeated and negated often, so that every rule meets its shape.
  const atom = fc.constantFrom("a", "b", "c", "(< 0 n)", "(< 1 n)", '(str.contains (e 0) "@")', "true", "false");
  const formula: fc.Arbitrary<string> = fc.letrec<{ p: string }>((tie) => ({
    p: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      atom,
      tie("p").map((p) => `(not ${p})`),
      fc.array(tie("p"), { minLength: 1, maxLength: 4 }).map((ps) => `(and ${ps.join(" ")})`),
      fc.array(tie("p"), { minLength: 1, maxLength: 4 }).map((ps) => `(or ${ps.join(" ")})`),
      fc.tuple(tie("p"), tie("p")).map(([p, q]) => `(=> ${p} ${q})`),
      fc.tuple(tie("p"), tie("p"), tie("p")).map(([p, q, r]) => `(ite ${p} ${q} ${r})`),
      // A path that splits and meets again: the shape the rules are for.
      fc.tuple(tie("p"), atom).map(([x, k]) => `(or (and ${x} ${k}) (and (and ${x} (not ${k})) (not ${k})))`),
      // The same with more on one side: (A ∧ x) ∨ (A ∧ ¬x ∧ R).
      fc.tuple(tie("p"), tie("p"), tie("p")).map(([x, k, r]) => `(or (and ${x} ${k}) (and ${x} (not ${k}) ${r}))`),
    ),
  })).p;

  it("on generated formulas: Z3, asked the text as written, finds no assignment where the two differ", async () => {
    const session = await Z3Session.get();
    Z3Session.simplifies = false;
    Z3Session.intervals = false;
    Z3Session.guesses = false;
    let changed = 0;
    await fc.assert(
      fc.asyncProperty(formula, async (p) => {
        const s = simplified(p);
        if (s === p) return;
        changed++;
        const answer = await session.query(DECLS, [`(not (= ${p} ${s}))`], { rlimit: 5_000_000, backstopMs: 600_000 }, async () => undefined);
        expect(answer.status, `${p}\n  simplified to ${s}`).toBe("unsat");
      }),
      { numRuns: 300 },
    );
    // The generator reaches the rules: most formulas change.
    expect(changed).toBeGreaterThan(150);
  });
});
