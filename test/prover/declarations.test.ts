/**
 * Reading a model sends Z3 only the declarations the read terms need (declarations.ts): what they
 * mention, and what those mention in turn, in order; a symbol inside a string literal is text.
 */
import { DeclarationIndex } from "../../core/prover/declarations";
import { Z3Session } from "../../core/prover/z3";

const text = [
  "(declare-const a Int)",
  "(declare-const b String)",
  "(declare-fun f (Int) Int)",
  "(define-fun twice ((x Int)) Int (+ (f x) a))",
  '(define-fun named () Bool (= b "(declare-const c Int) c"))',
  "(declare-const c Int)",
  "(define-fun uses () Bool (> (twice c) 0))",
].join("\n");

describe("the declarations a read needs", () => {
  const index = new DeclarationIndex(text);

  it("keeps what the terms mention, transitively, in the original order", () => {
    expect(index.needed(["(+ uses 1)"]).split("\n")).toEqual(["(declare-const a Int)", "(declare-fun f (Int) Int)", "(define-fun twice ((x Int)) Int (+ (f x) a))", "(declare-const c Int)", "(define-fun uses () Bool (> (twice c) 0))"]);
  });

  it("does not read symbols out of string literals", () => {
    expect(index.needed(["named"]).split("\n")).toEqual(["(declare-const b String)", '(define-fun named () Bool (= b "(declare-const c Int) c"))']);
    expect(index.needed(['(str.++ "a b c" "twice")'])).toBe("");
  });

  it("follows later declarations too", () => {
    expect(index.needed(["(define-fun later () Int (f 1))"]).split("\n")).toEqual(["(declare-fun f (Int) Int)"]);
  });

  it("reads the same values as the whole text", async () => {
    const session = await Z3Session.get();
    const answer = await session.query(text, ["uses", "(= a 3)", "(= c 2)", "(= (f 2) 5)", "named"], { rlimit: 1_000_000, backstopMs: 600_000 }, (get) => get([{ term: "(twice c)", sort: "Int" }, { term: "b", sort: "String" }]));
    expect(answer).toMatchObject({ status: "sat", result: ["8", '"(declare-const c Int) c"'] });
  });
});
