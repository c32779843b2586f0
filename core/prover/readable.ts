/**
 * Readable counterexamples (docs/determinism.md): which values a counterexample shows, the
 * constraints that ask for them as small whole numbers, printable strings and short arrays, the
 * model's own numbers pinned to whole ones, and the resource units such a query may use. The
 * queries themselves are asked by `runViolation` (counterexample.ts).
 */
import type { Counterexample, ShownValue } from "./api";
import type { World } from "./facts";
import type { ModelReader } from "./model-reader";
import { and, numLit } from "./smt";
import type { Sym } from "./values";

/** A counterexample with a longer array is asked for again with every array at most this long. */
export const SHORT_ARRAY = 3;
/**
 * The readability queries (shorter arrays, plain numbers, printable strings) are cheap or not run
 * at all: each gets READABLE_FACTOR times the resource units the violation itself took to find,
 * at least READABLE_FLOOR, at most READABLE_MAX and at most 1/READABLE_SHARE of a query's. With a
 * tenth of the query's units alone, a violation found in 50 000 units was followed by two
 * readability queries of 5 000 000 units that gave up after 6 s apiece (web/download_budget_fail);
 * with this bound, 3 of the corpus's 291 readable counterexamples lost it (docs/determinism.md).
 */
const READABLE_SHARE = 10;
const READABLE_FACTOR = 2;
const READABLE_FLOOR = 250_000;
const READABLE_MAX = 1_000_000;

/**
 * The resource units of each readability query after a violation found with `used` units under a
 * query limit of `rlimit`: bounded by what finding the violation cost, because an unreadable
 * counterexample is still right and a string query can eat the whole budget. Units, not time, so
 * the counterexample stays deterministic.
 */
export function readableUnits(used: number, rlimit: number): number {
  return Math.max(1, Math.min(Math.floor(rlimit / READABLE_SHARE), READABLE_MAX, Math.max(READABLE_FLOOR, READABLE_FACTOR * used)));
}

/** Whether every number and string a counterexample shows (inputs, tool results, deep) passes `ok`. */
function everyShown(cex: Counterexample, ok: (v: string | number) => boolean): boolean {
  const each = (v: ShownValue): boolean =>
    typeof v === "string" || typeof v === "number" ? ok(v)
    : Array.isArray(v) ? v.every(each)
    : typeof v === "object" && v !== null ? Object.values(v).every(each)
    : true;
  return [...Object.values(cex.inputs), ...Object.values(cex.toolResults)].every(each);
}

/** Whether every number a counterexample shows is already an integer of at most `magnitude` (other than -0). */
export function shownPlainly(cex: Counterexample, magnitude: number): boolean {
  return everyShown(cex, (v) => (typeof v === "number" ? Number.isInteger(v) && Math.abs(v) <= magnitude && !Object.is(v, -0) : !["NaN", "-0", "Infinity", "-Infinity"].includes(v)));
}

/** Whether every string a counterexample shows is printable ASCII. */
export function shownPrintably(cex: Counterexample): boolean {
  return everyShown(cex, (v) => typeof v !== "string" || PRINTABLE.test(v));
}

const PRINTABLE = /^[\x20-\x7e]*$/;

/**
 * Every scalar a counterexample shows (inputs, results of calls outside loops, with their fields
 * and first SHORT_ARRAY elements), with the condition under which it is there.
 */
function shownScalars(world: World): { readonly v: Sym; readonly guard: string }[] {
  const out: { v: Sym; guard: string }[] = [];
  const visit = (v: Sym, guard: string): void => {
    if (v.k === "rec") for (const f of v.fields.values()) visit(f, guard);
    else if (v.k === "arr") v.items.forEach((x) => visit(x, guard));
    else if (v.k === "maybe") visit(v.v, guard === "true" ? v.def : and(guard, v.def));
    else if (v.k === "sarr") for (let i = 0; i < SHORT_ARRAY; i++) visit(v.at(String(i)), and(guard, `(< ${i} ${v.len})`));
    else out.push({ v, guard });
  };
  for (const input of world.inputs) visit(input.sym, "true");
  for (const r of world.toolResults) if (r.loops.length === 0) visit(r.sym, "true");
  return out;
}

/** A constraint for every value a counterexample shows that `leaf` constrains, under the condition that the value is there. */
function shownConstraints(world: World, leaf: (v: Sym) => string | undefined): string[] {
  return shownScalars(world).flatMap(({ v, guard }) => {
    const c = leaf(v);
    return c === undefined ? [] : [guard === "true" ? c : `(=> ${guard} ${c})`];
  });
}

/** A Float64 number a counterexample shows, with the model's value for it. */
export interface ShownNumber {
  readonly t: string;
  readonly guard: string;
  readonly value: number;
}

/** The Float64 numbers a counterexample shows whose values the model gave. */
export function shownNumbers(world: World, reader: ModelReader): ShownNumber[] {
  return shownScalars(world).flatMap(({ v, guard }) => {
    if (v.k !== "num" || v.c !== undefined || v.int !== undefined) return [];
    const value = reader.float(v.t);
    return value === undefined ? [] : [{ t: v.t, guard, value }];
  });
}

/**
 * The model's own numbers made whole numbers of at most `magnitude`, two ways: each number that is
 * not one already is pinned to the nearest one (0 for NaN, infinities and larger numbers), or else
 * to the next one away from zero (1 for those). A way that changes no number, or repeats the one
 * before, is left out. Asking the violation again under such pins costs about what checking a
 * model does, where "some whole number" (plainNumbers) makes the solver build a rounding circuit
 * per number.
 */
export function pinnedNumbers(numbers: readonly ShownNumber[], magnitude: number): string[][] {
  const ways = [
    (x: number) => (Number.isFinite(x) && Math.abs(x) <= magnitude ? Math.round(x) || 0 : 0),
    (x: number) => (Number.isFinite(x) && Math.abs(x) < magnitude ? Math.sign(x) * Math.ceil(Math.abs(x)) || 1 : 1),
  ];
  const out: string[][] = [];
  let before: readonly number[] | undefined;
  for (const way of ways) {
    const plain = numbers.map(({ value }) => (Number.isInteger(value) && Math.abs(value) <= magnitude && !Object.is(value, -0) ? value : way(value)));
    const same = (other: readonly number[]) => plain.every((x, i) => Object.is(x, other[i]));
    if (same(numbers.map((n) => n.value)) || (before && same(before))) continue;
    before = plain;
    out.push(numbers.map(({ t, guard }, i) => {
      const pin = `(= ${t} ${numLit(plain[i]!)})`;
      return guard === "true" ? pin : `(=> ${guard} ${pin})`;
    }));
  }
  return out;
}

/** "This string is printable ASCII" for every unknown string a counterexample shows. */
export function printableStrings(world: World): string[] {
  return shownConstraints(world, (v) => (v.k === "str" && v.c === undefined ? `(str.in_re ${v.t} (re.* (re.range " " "~")))` : undefined));
}

/** The largest magnitude a readable counterexample number may have. */
export const PLAIN_MAGNITUDE = 1_000_000;

/** "This number is an integer of at most `magnitude` (and not -0)" for every Float64 number a counterexample shows. */
export function plainNumbers(world: World, magnitude: number): string[] {
  const limit = numLit(magnitude);
  return shownConstraints(world, (v) =>
    v.k === "num" && v.c === undefined && v.int === undefined
      ? `(and (fp.eq ${v.t} (fp.roundToIntegral RNE ${v.t})) (fp.leq (fp.abs ${v.t}) ${limit}) (not (and (fp.isZero ${v.t}) (fp.isNegative ${v.t}))))`
      : undefined,
  );
}
