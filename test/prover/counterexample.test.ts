/**
 * What a counterexample shows: the tool results the run saw before it broke (outside loops over
 * arrays), short arrays, the violation it satisfies, and for a failing precondition the arguments
 * of the call.
 */
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { pinnedNumbers, readableUnits } from "../../core/prover/readable";
import { proveProgram } from "../../core/prover/prove";
import { numLit } from "../../core/prover/smt";
import { Z3Session } from "../../core/prover/z3";
import { createProgram, PROJECT, stdlibFiles } from "../helpers/program";
import { TEST_LAYER } from "./layer";
import { IMPORTS, prove } from "./prove-helpers";

describe("counterexamples", () => {
  it("leave out results of calls inside a loop over an array, and keep arrays short", async () => {
    // The model satisfies a result's per-iteration facts only at the iteration it names: read at
    // another iteration, a result may break its own `ensures` (fuzz seed 131270). Left out, the
    // replay draws them.
    const v = await prove(`export const guarantees = [m.noPaymentOver(100)];
export function main(accounts: string[]): void {
  for (const a of accounts) {
    const b = balance(a);
    if (b > 5) pay(a, b);
  }
}
`);
    expect(v.verdict).toBe("violated");
    const cex = v.results.find((r) => r.verdict === "violated")!.counterexample!;
    const accounts = cex.inputs.accounts as unknown[];
    expect(accounts.length).toBeGreaterThan(0);
    expect(accounts.length).toBeLessThanOrEqual(3);
    expect(cex.toolResults).toEqual({});
    expect(cex.event!.name).toBe("Pay");
    expect(cex.event!.fields.amount as number).toBeGreaterThan(100);
  });

  it("show whole numbers where the violation needs numbers past the small ones", async () => {
    const v = await prove(`export const guarantees = [m.noPaymentOver(2500000)];
export function main(a: number, b: number): void {
  if (a > 0.5 && b > 0.5 && a < 2000000 && b < 2000000) pay("x", a + b);
}
`);
    const cex = v.results.find((r) => r.verdict === "violated")!.counterexample!;
    const { a, b } = cex.inputs as { a: number; b: number };
    expect(a + b).toBeGreaterThan(2500000);
    expect(Number.isInteger(a) && Number.isInteger(b)).toBe(true);
  });

  it("of a failing precondition show the call's arguments and only what happened before the call", async () => {
    const v = await prove(`export const guarantees = [m.nothing()];
export function main(account: string): void {
  const b = balance(account);
  pay(account, b);
  const c = balance("x");
  if (c > 1) log("big");
}
`);
    const r = v.results.find((x) => x.kind === "precondition" && x.verdict === "violated")!;
    expect(r.location.line).toBe(6);
    const cex = r.counterexample!;
    expect(cex.arguments).toEqual({ account: cex.inputs.account, amount: 0 });
    expect(cex.toolResults).toEqual({ "balance@5:13": 0 });
    expect(r.message).toContain(`precondition "amount must be positive"`);
    expect(r.message).toContain(`calls pay(account=${JSON.stringify(cex.inputs.account)}, amount=0) at plan.ts:6:3`);
  });

  it("of a precondition inside a loop show the arguments of the failing iteration", async () => {
    const v = await prove(`export const guarantees = [m.nothing()];
export function main(accounts: string[]): void {
  for (const a of accounts) pay(a, balance(a));
}
`);
    const r = v.results.find((x) => x.kind === "precondition" && x.verdict === "violated")!;
    const cex = r.counterexample!;
    const accounts = cex.inputs.accounts as string[];
    expect(cex.arguments!.amount).toBe(0);
    expect(accounts).toContain(cex.arguments!.account);
  });

  it("blame the call that fails even when the model cannot evaluate which violation it satisfies (fuzz seed 107199)", async () => {
    // The failing call's guard quantifies over the array (`includes`): evaluating it in the model
    // need not give true, and the first call (which cannot fail) used to be blamed.
    const v = await prove(`export const guarantees = [m.nothing()];
export function main(p0: number): void {
  pay("", 1);
  if (contacts().includes("h")) pay("", p0);
}
`);
    const pre = v.results.filter((r) => r.kind === "precondition").map((r) => [r.verdict, r.location.line, r.counterexample?.arguments]);
    expect(pre).toContainEqual(["proved", 5, undefined]);
    expect(pre).toContainEqual(["violated", 6, { account: "", amount: 0 }]);
    expect(pre).toHaveLength(2);
  });

  it("leave no precondition unreported when the solver cannot decide them together", async () => {
    const program = createProgram({ ...stdlibFiles(), "tools/mail/trusted/layer.ts": TEST_LAYER, "plan.ts": `${IMPORTS}export const guarantees = [m.nothing()];
export function main(a: number, b: number): void {
  pay("x", a * a + 1);
  pay("y", b * b + 2);
}
` });
    const file = program.getSourceFile(`${PROJECT}/plan.ts`)!;
    // A resource limit too small for any query: every call site still gets its own verdict. (A
    // guessed model needs no resources: the guesser would find both violations.)
    Z3Session.guesses = false;
    let v;
    try {
      v = await proveProgram({ ts, program, file, options: { rlimit: 1 } });
    } finally {
      Z3Session.guesses = true;
    }
    const preconditions = v.results.filter((r) => r.kind === "precondition");
    expect(preconditions.map((r) => [r.verdict, r.location.line])).toEqual([["refused", 5], ["refused", 6]]);
    expect(v.verdict).toBe("refused");
  });

  it("show small integers where the violation allows them, and other numbers where it needs them", async () => {
    const v = await prove(`export const guarantees = [m.noPaymentOver(100)];
export function main(amount: number): void {
  if (amount > 100) pay("a", amount);
}`);
    expect(v.verdict).toBe("violated");
    const amount = v.results[0]!.counterexample!.inputs.amount;
    expect(Number.isInteger(amount) && (amount as number) > 100 && (amount as number) <= 1_000_000, String(amount)).toBe(true);
    // Only a number strictly between 100 and 101 breaks this one: it is shown as it is.
    const w = await prove(`export const guarantees = [m.noPaymentOver(100)];
export function main(amount: number): void {
  if (amount > 100 && amount < 101) pay("a", amount);
}`);
    expect(w.verdict).toBe("violated");
    const between = w.results[0]!.counterexample!.inputs.amount as number;
    expect(between > 100 && between < 101, String(between)).toBe(true);
  });

  it("show printable strings where the violation allows them, and others where it needs them", async () => {
    const printable = /^[\x20-\x7e]*$/;
    const v = await prove(`export const guarantees = [m.emailsAtMost(0)];
export function main(to: string, subject: string): void {
  if (to.length === 3 && !to.startsWith("a")) sendEmail(to, subject);
}`);
    // Without the extra query the solver shows to = "\\u0000\\u0000\\u0000".
    expect(v.verdict).toBe("violated");
    const cex = v.results[0]!.counterexample!;
    const strings = Object.values(cex.inputs).filter((x) => typeof x === "string") as string[];
    expect(strings.length, v.results[0]!.message).toBe(2);
    expect(strings[0]!.length).toBe(3);
    for (const x of strings) expect(printable.test(x), JSON.stringify(x)).toBe(true);
    // Only an unprintable address breaks this one: it is shown as it is.
    const w = await prove(`export const guarantees = [m.emailsAtMost(0)];
export function main(to: string): void {
  if (to === "\\u0001") sendEmail(to, "x");
}`);
    expect(w.verdict).toBe("violated");
    expect(w.results[0]!.counterexample!.inputs.to).toBe("\u0001");
  });

  it("keep arrays as short while asking for printable strings (fuzz seed 2300289)", async () => {
    // Asked for printable elements, a solver kept the one unprintable string the throw needs by
    // putting it at element 30 614: a true counterexample nobody can read or replay.
    const v = await prove(`export const guarantees = [m.nothing()];
export function main(): void {
  for (const y of contacts().map((x) => { if (x === "a\\ud800b") throw new Error("callback"); return x; })) log(y);
}`);
    const thrown = v.results.find((r) => r.kind === "throw" && r.verdict === "violated");
    expect(thrown, JSON.stringify(v.results)).toBeDefined();
    const shown = Object.values(thrown!.counterexample!.toolResults).flat() as string[];
    expect(shown.length, thrown!.message).toBeGreaterThan(0);
    expect(shown.length, thrown!.message).toBeLessThanOrEqual(3);
    expect(shown, thrown!.message).toContain("a\ud800b");
  });

  it("show the elements of a result array with small integer amounts", async () => {
    const v = await prove(`export const guarantees = [m.spendAtMost(100)];
export function main(): void {
  const xs = rows();
  if (xs.length === 2) pay("b", 200);
}`);
    expect(v.verdict).toBe("violated");
    const shown = Object.values(v.results[0]!.counterexample!.toolResults).flat() as { amount: number }[];
    expect(shown.length, v.results[0]!.message).toBeGreaterThan(0);
    for (const r of shown) expect(Number.isInteger(r.amount), v.results[0]!.message).toBe(true);
  });
});

describe("readability queries", () => {
  it("pin the model's own numbers to whole ones: nearest first, then away from zero", () => {
    const numbers = [
      { t: "a", guard: "true", value: 1999716.28 },
      { t: "b", guard: "(< 0 len)", value: Number.NaN },
      { t: "c", guard: "true", value: 7 },
      { t: "d", guard: "true", value: -0.25 },
    ];
    const pin = (t: string, n: number) => `(= ${t} ${numLit(n)})`;
    expect(pinnedNumbers(numbers, 1_000_000)).toEqual([
      [pin("a", 0), `(=> (< 0 len) ${pin("b", 0)})`, pin("c", 7), pin("d", 0)],
      [pin("a", 1), `(=> (< 0 len) ${pin("b", 1)})`, pin("c", 7), pin("d", -1)],
    ]);
    expect(pinnedNumbers(numbers, 2 ** 53)[0]![0]).toBe(pin("a", 1999716));
    // Nothing to make plain, or a second way that repeats the first: no query.
    expect(pinnedNumbers([{ t: "c", guard: "true", value: 7 }], 1_000_000)).toEqual([]);
    expect(pinnedNumbers([{ t: "x", guard: "true", value: 5e-324 }], 1_000_000)).toEqual([[pin("x", 0)], [pin("x", 1)]]);
    expect(pinnedNumbers([{ t: "x", guard: "true", value: 2.5e6 }], 1_000_000)).toEqual([[pin("x", 0)], [pin("x", 1)]]);
  });

  it("get resource units in proportion to what finding the violation cost, within a floor and a ceiling", () => {
    expect(readableUnits(10_000, 50_000_000)).toBe(250_000);
    expect(readableUnits(300_000, 50_000_000)).toBe(600_000);
    expect(readableUnits(8_000_000, 50_000_000)).toBe(1_000_000);
    // A small --rlimit keeps its tenth.
    expect(readableUnits(8_000_000, 1_000_000)).toBe(100_000);
    expect(readableUnits(0, 5)).toBe(1);
  });
});
