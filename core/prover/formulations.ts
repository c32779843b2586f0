/**
 * The texts a query is tried as (z3.ts solves them): the query as written, with integers lifted to
 * floats where that is exact (int-floats.ts), its theories and attempts (attempts.ts), and the
 * reformulations of its string predicates (tactics.ts). Pure: no solver is involved.
 */
import type { SExpr } from "./sexpr";
import type { Trace } from "./query-dump";
import { liftIntegers, restoreLifted } from "./int-floats";
import { floorFloats, restoreFloors } from "./float-floors";
import { attemptsFor, REGEX_GROWTH, type Attempt } from "./attempts";
import { parseCommands, printSExpr, regexFormulation, UncertainLiteral, wordFormulation } from "./tactics";
import { analyse, type Theories } from "./theories";
import { simplifyCommands } from "./simplify";

/** A query that is not well-formed SMT-LIB. */
export class MalformedQuery extends Error {}

export interface Formulations {
  /**
   * The query every attempt reads: the text as written with its Boolean structure simplified
   * (simplify.ts), an equivalent query with the same declarations, definitions and assertions.
   */
  readonly text: string;
  /** The commands of `text`. */
  readonly asWritten: readonly SExpr[];
  /** How many assertions the text holds (Z3's parser must read them all). */
  readonly asserted: number;
  /** The restated text every attempt solves instead, when integers were lifted or floats floored. */
  readonly lifting: Reformulation | undefined;
  readonly theories: Theories;
  readonly attempts: readonly Attempt[];
  /** The reformulations' texts, computed on first use (a query answered before its attempts run never needs them). */
  readonly regexText: () => string | undefined;
  readonly wordsText: () => string | undefined;
}

type LowLevel = Awaited<ReturnType<typeof import("z3-solver").init>>["Z3"];

/** An equivalent text of the query and how a model of it becomes one of the original (z3.ts checks the original in it). */
export interface Reformulation {
  readonly text: string;
  /** Puts the original's constants into a model of `text`; false when the model names no values for them. */
  readonly restore: (z3: LowLevel, ctx: never, model: unknown) => boolean;
}

/**
 * `abstract`: the query is an over-approximation whose models are never read (the ground query,
 * grounding.ts): its integers are lifted also where they are applied to arguments that are not numerals.
 */
export function formulate(written: string, trace: Trace | undefined, simplify = true, floor = true, abstract = false): Formulations {
  let commands: SExpr[];
  try {
    commands = parseCommands(written);
  } catch (error) {
    throw new MalformedQuery(`the query is malformed: ${(error as Error).message}`);
  }
  const simplified = simplify ? simplifyCommands(commands) : undefined;
  if (simplified) commands = simplified;
  const text = simplified ? simplified.map(printSExpr).join("\n") : written;
  if (simplified && trace) trace.simplified = text;
  const asserted = commands.filter((c) => Array.isArray(c) && c[0] === "assert").length;
  // Integers that meet floating point only through exact conversions become integral floats
  // (int-floats.ts): the lifted text is what every attempt solves, an equivalence; each model
  // gets the integers' values back and is checked against the original assertions.
  // Only a lifting that leaves no conversion is used: one that leaves some still goes to the
  // general solver, where the original is as good.
  const asWritten = commands;
  // Floating point that is only whole numbers, and floats compared with them, is restated over
  // integers first (float-floors.ts): a budget loop's sums become linear integer arithmetic.
  let lifting: Reformulation | undefined;
  // Only where a float is compared with sums of whole numbers (a budget input against a running
  // total): elsewhere the bit-blasting pipeline's preprocessing settles the query as written
  // (grep/searches_counter_pass: 0.2 s as written, 1 s restated; ops/escalate_urgent_count_fail,
  // a float compared with 1 and no sum: 0.17 s against 0.46 s).
  const restated = floor && (text.includes("fp.add") || text.includes("fp.sub")) ? floorFloats(commands) : undefined;
  const floors = restated && restated.floored.length > 0 && restated.sums > 0 ? restated : undefined;
  if (floors) {
    trace?.lines.push(`floats restated over integers${floors.floored.length > 0 ? `; floored: ${floors.floored.map((f) => [f.name, ...f.args].join(" ")).join(", ")}` : ""}`);
    if (trace) trace.lifted = floors.text;
    lifting = { text: floors.text, restore: (z3, ctx, model) => restoreFloors(z3, ctx, model, floors.floored) };
    commands = parseCommands(floors.text);
  } else {
    const lifted = liftIntegers(commands, abstract);
    const liftedCommands = lifted ? parseCommands(lifted.text) : undefined;
    if (lifted && liftedCommands && !analyse(liftedCommands).fpConversion) {
      trace?.lines.push(`integers lifted to Float64: ${lifted.lifted.map((l) => l.float).join(", ")}`);
      if (trace) trace.lifted = lifted.text;
      lifting = { text: lifted.text, restore: (z3, ctx, model) => restoreLifted(z3, ctx, model, lifted.lifted) };
      commands = liftedCommands;
    }
  }
  const theories = analyse(commands);
  const attempts = attemptsFor(theories);
  // The reformulated texts are computed when the attempts first need them, and Z3 parses each only
  // when its turn comes: a query the ranges or a guess answer never needs them (a regular-expression
  // formulation of an `ops` query took about 0.4 ms).
  const regexText = once((): string | undefined => {
    if (!attempts.some((a) => a.formulation === "regex")) return undefined;
    let regex: string | undefined;
    try {
      regex = regexFormulation(commands, REGEX_GROWTH * text.length + 10_000);
    } catch (error) {
      trace?.lines.push(`regex formulation failed: ${String(error).slice(0, 200)}`);
    }
    if (trace && regex !== undefined) trace.regex = regex;
    return regex;
  });
  const wordsText = once((): string | undefined => {
    if (!attempts.some((a) => a.formulation === "words")) return undefined;
    try {
      const words = wordFormulation(commands);
      if (trace && words !== undefined) trace.words = words;
      return words;
    } catch (error) {
      // A literal it could not restate exactly (tactics.ts `UncertainLiteral`): the other formulations remain.
      if (!(error instanceof UncertainLiteral)) throw error;
      trace?.lines.push(`words formulation failed: ${error.message}`);
      return undefined;
    }
  });
  return { text, asWritten, asserted, lifting, theories, attempts, regexText, wordsText };
}

/** `compute` run on the first call that returns; its result (undefined included) kept for the later calls. */
function once<T>(compute: () => T): () => T {
  let done: { value: T } | undefined;
  return () => (done ??= { value: compute() }).value;
}
