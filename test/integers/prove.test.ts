import { describe, expect, it } from "vitest";
import { prove } from "../prover/prove-helpers";

/**
 * Integers as Int terms (core/prover/exec/integers.ts, ranges.ts): tool results an `ensures`
 * declares integral and bounded, lengths and literals are added, compared and summed in integer
 * arithmetic while their bounds stay within 2^53; beyond it, and for the sign of zero, the exact
 * Float64 semantics decide. Line numbers count the two prepended import lines.
 */
const INTS = `import { trusted, ensures } from "clauz3";

export interface Invoice { readonly payee: string; readonly amount: number }

/** At most 12 invoices, each amount an integer in (0, 1000]. */
export const openInvoices = trusted(
  ensures((r: Invoice[]) => r.length <= 12, "at most 12 invoices"),
  ensures((r: Invoice[]) => r.every((inv) => Number.isInteger(inv.amount) && inv.amount > 0 && inv.amount <= 1000), "integral amounts in (0, 1000]"),
  function openInvoices(): Invoice[] { return []; },
);
/** An integer from 0 to 3. */
export const small = trusted(ensures((n: number) => Number.isInteger(n) && n >= 0 && n <= 3), function small(): number { return 0; });
/** A safe integer, nothing more (too wide a range for Int terms: Float64). */
export const big = trusted(ensures((n: number) => Number.isSafeInteger(n)), function big(): number { return 0; });
/** Zero, of either sign: Number.isInteger(-0) holds. */
export const zero = trusted(ensures((n: number) => Number.isInteger(n) && n >= 0 && n <= 0), function zero(): number { return 0; });
/** An integer above 2.5 and below 4.5: 3 or 4. */
export const threeOrFour = trusted(ensures((n: number) => Number.isInteger(n) && n > 2.5 && 4.5 > n), function threeOrFour(): number { return 3; });
/** Either an integer or positive: no integer range can be read from a disjunction. */
export const either = trusted(ensures((n: number) => Number.isInteger(n) || n > 0), function either(): number { return 1; });
/** A bounded number that may be fractional. */
export const fraction = trusted(ensures((n: number) => n >= 0 && n <= 10), function fraction(): number { return 0.5; });
`;
const EXTRA = { "tools/ints/trusted/layer.ts": INTS };
const IMPORT = `import { openInvoices, small, big, zero, threeOrFour, either, fraction } from "./tools/ints/trusted/layer";\n`;

const run = (body: string) => prove(IMPORT + body, EXTRA);

describe("a budget loop over integral amounts", () => {
  it("stays within the budget: proved in integer arithmetic", async () => {
    const v = await run(`export const guarantees = [m.spendAtMost(2000)];
export function main(): void {
  let total = 0;
  for (const inv of openInvoices()) {
    if (total + inv.amount <= 2000) {
      pay(inv.payee, inv.amount);
      total += inv.amount;
    }
  }
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("proved");
  }, 600_000);

  it("a check against the wrong limit is violated, with integral amounts in the counterexample", async () => {
    const v = await run(`export const guarantees = [m.spendAtMost(2000)];
export function main(): void {
  let total = 0;
  for (const inv of openInvoices()) {
    if (total + inv.amount <= 2500) {
      pay(inv.payee, inv.amount);
      total += inv.amount;
    }
  }
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("violated");
    const amounts = [...v.results[0]!.message.matchAll(/amount: (-?[\d.e+]+)/g)].map((m) => Number(m[1]));
    expect(amounts.length).toBeGreaterThan(0);
    for (const a of amounts) expect(Number.isInteger(a) && a > 0 && a <= 1000, v.results[0]!.message).toBe(true);
  }, 600_000);
});

describe("where integers stop being exact", () => {
  it("a + 2 === a + 1 happens at 2^53 − 1 (Float64 rounding): violated", async () => {
    const v = await run(`export const guarantees = [m.noRefunds()];
export function main(): void {
  const a = big();
  if (a + 2 === a + 1) refund("x", 1);
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("violated");
  }, 600_000);

  it("a + (2^53 − 2) for a in 0…3: at 3 the sum rounds to 2^53 (violated; the bound 2^53 + 1 is past exact)", async () => {
    // 2^53 − 2 + 3 = 2^53 + 1 in doubles is 2^53: the magnitude bound must be added exactly.
    const v = await run(`export const guarantees = [m.noRefunds()];
export function main(): void {
  const a = small();
  if (a === 3 && a + 9007199254740990 === 9007199254740992) refund("x", 1);
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("violated");
    const within = await run(`export const guarantees = [m.noRefunds()];
export function main(): void {
  const a = small();
  if (a + 9007199254740989 > 9007199254740992) refund("x", 1);
}`);
    expect(within.verdict, JSON.stringify(within.results, null, 1)).toBe("proved");
  }, 600_000);

  it("a + 1 > a for every safe integer: proved", async () => {
    const v = await run(`export const guarantees = [m.noRefunds()];
export function main(): void {
  const a = big();
  if (!(a + 1 > a)) refund("x", 1);
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("proved");
  }, 600_000);

  it("an integral result may be -0: 1 / x < 0 can happen (violated)", async () => {
    const v = await run(`export const guarantees = [m.noRefunds()];
export function main(): void {
  const x = zero();
  if (1 / x < 0) refund("x", 1);
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("violated");
  }, 600_000);

  it("but -0 is 0 for comparisons and ===: proved", async () => {
    const v = await run(`export const guarantees = [m.noRefunds()];
export function main(): void {
  const x = zero();
  if (x !== 0 || x < 0 || \`\${x}\` !== "0") refund("x", 1);
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("proved");
  }, 600_000);
});

describe("ranges read from ensures", () => {
  it("x > 2.5 and x < 4.5 for an integer: 3 or 4 (both reachable, nothing else)", async () => {
    const proved = await run(`export const guarantees = [m.noRefunds()];
export function main(): void {
  const n = threeOrFour();
  if (n !== 3 && n !== 4) refund("x", 1);
}`);
    expect(proved.verdict, JSON.stringify(proved.results, null, 1)).toBe("proved");
    const four = await run(`export const guarantees = [m.noRefunds()];
export function main(): void {
  if (threeOrFour() === 4) refund("x", 1);
}`);
    expect(four.verdict, JSON.stringify(four.results, null, 1)).toBe("violated");
  }, 600_000);

  it("a disjunction gives no range: an `either` result may be 0.5", async () => {
    const v = await run(`export const guarantees = [m.noRefunds()];
export function main(): void {
  const n = either();
  if (!Number.isInteger(n)) refund("x", 1);
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("violated");
  }, 600_000);

  it("a bounded result without Number.isInteger may be fractional: violated, and its digits are JavaScript's (core/prover/conversions.ts)", async () => {
    const v = await run(`export const guarantees = [m.noRefunds()];
export function main(): void {
  if (fraction() + fraction() === 0.75) refund("x", 1);
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("violated");
    const r = await run(`export const guarantees = [m.noRefunds()];
export function main(): void {
  if (\`\${fraction()}\` === "2.5") refund("x", 1);
}`);
    expect(r.verdict, JSON.stringify(r.results, null, 1)).toBe("violated");
    expect(JSON.stringify(r.results)).toContain("2.5");
    const never = await run(`export const guarantees = [m.noRefunds()];
export function main(): void {
  if (\`\${fraction()}\` === "12.5") refund("x", 1);
}`);
    expect(never.verdict, JSON.stringify(never.results, null, 1)).toBe("proved");
  }, 600_000);
});

describe("the Number predicates", () => {
  it("Number.isInteger of an input is decided in Float64 (0.5 is not an integer)", async () => {
    const v = await run(`export const guarantees = [m.noRefunds()];
export function main(n: number): void {
  if (!Number.isInteger(n) && n > 0 && n < 1) refund("x", n);
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("violated");
  }, 600_000);

  it("Number.isFinite, Number.isNaN and Number.isSafeInteger agree with JavaScript on inputs", async () => {
    const v = await run(`export const guarantees = [m.noRefunds()];
export function main(n: number): void {
  if (Number.isNaN(n) && Number.isFinite(n)) refund("x", 1);
  if (Number.isSafeInteger(n) && !Number.isInteger(n)) refund("x", 2);
  if (Number.isInteger(n) && !Number.isFinite(n)) refund("x", 3);
  if (Number.isInteger("5")) refund("x", 4);
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("proved");
  }, 600_000);

  it("Number.parseInt with a radix the prover does not know is refused on the call", async () => {
    const v = await run(`export const guarantees = [m.noRefunds()];
export function main(s: string, r: number): void {
  if (Number.parseInt(s, r) > 3) refund("x", 1);
}`);
    expect(v.verdict).toBe("refused");
    expect(JSON.stringify(v.results)).toMatch(/radix of `parseInt` is modelled as a literal/);
  }, 600_000);
});
