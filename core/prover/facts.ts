import type * as TS from "typescript";
import type { EventClassModel, FluentModel, ToolModel, ValueType } from "../model";
import { Conversions } from "./conversions";
import type { NamedTerm } from "./smt";
import type { Sym } from "./values";

/**
 * An event (or, for `effect(tool)` relations, a tool call) performed under `guard`; or a fluent
 * write (`update`: fields `key` and `value`, folded in `order` by the encoder).
 */
export interface Fact {
  readonly kind: "event" | "call" | "update";
  readonly event: EventClassModel | undefined;
  readonly fluent?: FluentModel;
  readonly tool: ToolModel;
  readonly fields: ReadonlyMap<string, Sym>;
  /** Bool term: the path condition under which the call happens (preconditions held). */
  readonly guard: string;
  readonly site: TS.CallExpression;
  /** Index constants of the quantified loops around the call, outermost first. */
  readonly loops: readonly string[];
  readonly order: number;
  /**
   * Made in a callback of `Promise.all(xs.map(async (x) => { await a(x); await b(x); }))` (any that
   * does more than make one call): after the first await the callbacks' calls interleave as they settle, so `order` is one order
   * among those a run may have (exec/all-map.ts `awaitAllMap`).
   */
  readonly unordered?: true;
}

/** A `requires` precondition to prove at a call site. */
export interface Obligation {
  readonly tool: ToolModel;
  readonly message: string;
  readonly holds: string;
  readonly guard: string;
  readonly site: TS.CallExpression;
  readonly args: ReadonlyMap<string, Sym>;
  readonly loops: readonly string[];
  /** Where the call stands in program order (tool results of later calls are not shown with its counterexample). */
  readonly order: number;
  /** Made inside a `try` block: a failure may be caught, and the run then goes on (encode.ts `completes`). */
  readonly inTry?: true;
}

/** A `throw` statement reached under `guard`. */
export interface ThrowFact {
  /** Why the run stops there, when it is not a `throw` statement (e.g. a value that may be undefined). */
  readonly message?: string;
  readonly guard: string;
  readonly site: TS.Node;
  readonly loops: readonly string[];
  readonly order: number;
  /** What a `catch` reads of the value a `throw` statement throws (`new Error(msg)`, a caught Error rethrown). */
  readonly thrown?: CaughtTexts;
  /**
   * Thrown inside this many `Promise.all` callbacks whose calls interleave (exec/all-map.ts): which
   * rejection settles first is then up to the run, so a `catch` outside them reads any text.
   */
  readonly unordered?: number;
}

/** The texts of a caught Error (exec/caught.ts): `String(err)`, `err.message`; `inexact` where they are any text only because the prover does not write them out. */
export interface CaughtTexts {
  readonly text: Sym;
  readonly message: Sym;
  readonly inexact?: true;
  /**
   * Where `inexact`: the condition that the `catch` was entered from a point whose texts are not
   * written out (closed over the loops begun in its `try`). Runs in the search among short arrays
   * are assumed not to meet it, so their texts are exact; absent where no such condition was made.
   */
  readonly unless?: string;
}

/**
 * State a quantified loop carries from one iteration to the next (exec/loopstate.ts): each variable
 * is a function of the iteration index k (its value when iteration k starts), `next(k)` the value
 * after iteration k. Proved about every length by an inductive invariant (loop-invariants.ts).
 */
export interface LoopState {
  readonly node: TS.Node;
  /** The loop's index constant and the length of the array it ranges over. */
  readonly q: string;
  readonly len: string;
  readonly vars: readonly LoopVar[];
  /** The facts recorded in the body (each happens in iteration q under its guard). */
  readonly facts: readonly Fact[];
  /** Invariant conjuncts established (terms over q), filled in by loop-invariants.ts. */
  invariant?: readonly string[];
  /** Per fact of the body: its count and, by field, its sum so far, as functions of k. */
  ghosts?: ReadonlyMap<Fact, { readonly count: string; readonly sums: ReadonlyMap<string, string> }>;
  /** Ghosts the invariant keeps between 0 and a literal, with that literal. */
  ghostBounds?: ReadonlyMap<string, number>;
}

export interface LoopVar {
  /** The variable's name in the program ("" for the loop's own "not broken yet" flag). */
  readonly name: string;
  /** The declared function symbol (one Int argument): the value when iteration k starts. */
  readonly fn: string;
  readonly sort: "Int" | "Bool";
  /** Its value before the loop (a literal). */
  readonly init: string;
  /** Its value after iteration q, a term over q. */
  readonly next: string;
  /** Int variables: |S(k)| ≤ base + k·step must be established for the Int model to be exact. */
  readonly base?: number;
  readonly step?: number;
  /** A variable that holds the loop's element at index S(k) (-1: none yet): what holds of that index at every k, by construction. */
  readonly index?: (k: string) => string;
  /** Where the program assigns it (refusals point there). */
  readonly at: TS.Node;
}

/** Everything symbolic execution of one program produced. */
export class World {
  readonly declarations: string[] = [];
  /**
   * The terms `nameTerm` named (exec/state.ts), by name: their parameters (loop indices) and body,
   * for the executor's syntactic reads of a path condition (smt.ts `hasConjunct`, `excludesZero`).
   */
  readonly named = new Map<string, NamedTerm>();
  /** Facts about the world that hold in every query (string ranges, lengths ≥ 0, ensures of pure values). */
  readonly assumptions: { readonly term: string; readonly loops: readonly string[] }[] = [];
  readonly inputs: { readonly name: string; readonly sym: Sym; readonly type: ValueType }[] = [];
  /** Each execution of a tool call, with the path condition under which it happens (one call site may execute several times). */
  readonly toolResults: { readonly label: string; readonly sym: Sym; readonly loops: readonly string[]; readonly order: number; readonly guard: string }[] = [];
  /**
   * Each execution of a tool call inside a `try`, whose implementation may throw after its events:
   * `failed` holds in the runs where it does (try.ts). Counterexamples name the calls that failed.
   */
  readonly failures: { readonly label: string; readonly failed: string; readonly loops: readonly string[]; readonly order: number; readonly guard: string }[] = [];
  readonly facts: Fact[] = [];
  readonly obligations: Obligation[] = [];
  readonly throws: ThrowFact[] = [];
  /** Every quantified loop index constant, with the length of the array it ranges over. */
  readonly loopRanges = new Map<string, { readonly len: string }>();
  /** Quantified loops that carry state across iterations. */
  readonly loopStates: LoopState[] = [];
  /**
   * Filters over arrays of unknown length read as arrays (exec/counted.ts): their counts are
   * bounded, not defined, so a model of this world is a counterexample only once a run with short
   * arrays shows it again, as over a loop's invariant.
   */
  countedFilters = 0;
  /**
   * `join`s of arrays of unknown length (exec/folds.ts `callJoin`): any text, so a model of
   * this world is a counterexample only once a run with short arrays (joined exactly) shows it again.
   */
  unknownJoins = 0;
  /**
   * Sorts whose comparator is inconsistent on some keys (exec/inplace.ts `anyPermutation`): numeric
   * keys that may be NaN, equal keys under a comparator that never returns 0 (`a < b ? -1 : 1`).
   * Some permutation there, so a model is a counterexample only once a run with short arrays and no
   * such keys shows it again.
   */
  nanSorts = 0;
  /**
   * Sorted copies of arrays of unknown length (exec/inplace.ts `anyOrder`): some permutation of the
   * elements, their order not stated, so a model is a counterexample only once a run with short
   * arrays (sorted exactly) shows it again.
   */
  unknownSorts = 0;
  /**
   * Splits of unknown strings (exec/split.ts): the parts past the first few are stated, not
   * defined, so a model of this world is a counterexample only once a run with short arrays
   * shows it again.
   */
  unknownSplits = 0;
  /**
   * Reads of the text of an error the engine or the runtime throws (a value that may be undefined,
   * a failing `requires`, exec/caught.ts): any text, so a model is a counterexample only once a
   * run with short arrays shows it again (where such a read is refused: never).
   */
  inexactCaught = 0;
  /**
   * `replace`/`replaceAll` with a replacement the prover does not know (exec/strings.ts): any text
   * where it holds a `$` JavaScript expands, so a model is a counterexample only once a run with
   * short arrays (assuming no such `$`) shows it again.
   */
  dollarReplacements = 0;
  /**
   * Values read from a Map a loop over an array of unknown length built (exec/collected-maps.ts):
   * any value of the Map's value type, so a model is a counterexample only once a run with short
   * arrays (Maps exact there) shows it again.
   */
  forgottenMapValues = 0;
  /**
   * Callback indices over filtered arrays of unknown length (exec/callbacks.ts `quantified`): an
   * element's position among the kept elements is stated (0 to its base index), not defined, so a
   * model is a counterexample only once a run with short arrays (positions exact) shows it again.
   */
  keptIndices = 0;
  /** Conversions modelled as functions of their input, and what models taught about them (conversions.ts). */
  readonly conversions = new Conversions();
  private counter = 0;
  fresh(prefix: string): string {
    return `${prefix.replace(/[^\w]/g, "_")}!${this.counter++}`;
  }
  nextOrder(): number {
    return this.counter++;
  }
}
