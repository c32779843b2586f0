import type { Hole } from "../core/prover/holes";
import { CONTRACTS_ISSUE_13, DEFAULT_WEIGHTS, weights, type Weights } from "./generate";

/**
 * Generator weights: `default` for the soundness runs (its seeds count toward the total), and one
 * profile per closed hole that leans toward the shape that hole needs (the same generator, other
 * weights: the statements and contracts a profile does not name drop to a tenth), for showing
 * that the tester finds each hole when it is re-opened.
 */
/**
 * Weights that draw nothing of issue 13's forms (the tools with element promises, the statements
 * made for them, their contracts): a profile older than them writes the programs it did before.
 */
function withoutIssue13(w: Weights): Weights {
  return {
    ...w,
    elementPromises: 0,
    namedArgs: 0,
    stmt: { ...w.stmt, elements: 0, pair: 0, destructure: 0 },
    contracts: { ...w.contracts, ...Object.fromEntries(CONTRACTS_ISSUE_13.map((c) => [c, 0])) },
  };
}

/** Weights that draw no array callbacks, `try` or `while`: a profile older than them writes the programs it did before. */
function withoutCallbacks(w: Weights): Weights {
  return { ...w, stmt: { ...w.stmt, callback: 0, tryThrow: 0, tryLoop: 0, whileN: 0 } };
}

/**
 * A hole's profile writes only synchronous programs, drawing nothing for async or for issue 13's
 * forms (so each finds its hole at the program it did before these were added).
 */
function sync(w: Weights): Weights {
  const old = withoutCallbacks(withoutIssue13(w));
  return { ...old, asyncPrograms: 0, asyncCalls: 0, namedArgs: 0, stmt: { ...old.stmt, float: 0, all: 0, destructure: 0 } };
}

/** The integer statements (`ints`), focused: budget loops, sums at the edge of 2^53, -0. */
const INTEGERS = weights({
  focus: true,
  stmt: { ints: 10, effect: 2, decl: 1, if: 1, forArr: 0.5 },
  effects: { sendEmail: 2, log: 2, pay: 2, measure: 2 },
  contracts: { spendAtMost: 5, measuresSumAtMost: 5, measuresBelow: 3, neverMeasure: 3, noPaymentOver: 3, measuresAtMost: 2, emailsAtMost: 3, logsAtMost: 3, payOnce: 1, distinctMeasures: 1 },
});

export const PROFILES: Readonly<Record<"default" | "async" | "contracts" | "callbacks" | "arrays" | "objects" | "records" | "fluents" | "integers" | "int-floats" | "strings" | "locals" | "collections" | "loopstate" | "counts" | "idioms" | "labels" | Hole, Weights>> = {
  default: DEFAULT_WEIGHTS,
  // Async programs only: awaited async tools and helpers, and now and then a promise that is not awaited (refused).
  // (Without issue 13's forms, which the default and contracts profiles draw: the programs of before.)
  async: withoutCallbacks(withoutIssue13(weights({ asyncPrograms: 1, asyncCalls: 3, stmt: { float: 0.5, all: 2, call: 4, effect: 10 } }))),
  // Issue 13's forms: loops over tools with element promises (guards the promise decides, elements
  // passed to effects) under the guarantees those promises prove, and joins (`sharesValueWith`)
  // over pairs of calls that share a key.
  contracts: withoutCallbacks(weights({
    focus: true,
    elementPromises: 4,
    stmt: { elements: 8, pair: 5, effect: 5, forArr: 3, if: 3, decl: 2, throwIf: 0.5 },
    effects: { sendEmail: 4, pay: 2, log: 2, measure: 2 },
    stringIncrements: 0.01,
    contracts: { alsoSentTo: 8, paidAsTo: 5, measuredOtherThan: 5, someEmail: 4, logsStartWith: 5, measuresPositive: 4, neverEmail: 1, noPaymentOver: 1, emailsAtLeast: 1 },
  })),
  // Array callbacks (`forEach`, `map`, `filter`, `some`, `every`, `find`, `findIndex`) with calls
  // inside and after them, throws and short-circuits, and `try`/`catch`/`finally` around throws,
  // in sync and async programs; `await Promise.all(xs.map(async (x) => …))` and reads of its results.
  callbacks: weights({
    focus: true,
    stmt: { callback: 10, tryThrow: 4, tryLoop: 3, whileN: 3, effect: 3, decl: 2, if: 2, forArr: 1, throwIf: 0.5, allMap: 5 },
    effects: { sendEmail: 4, log: 3, pay: 1, measure: 1 },
    contracts: { neverEmail: 4, emailsAtMost: 4, emailsAtLeast: 3, emailsExactly: 2, neverLog: 3, logsAtMost: 3, logsAtLeast: 2, nobodyTwice: 2, distinctLogs: 2, neverLogPrefix: 2, subjectsNonEmpty: 1 },
  }),
  // Issue 10's array methods and builders (`at`, `indexOf`, `lastIndexOf`, `includes`, `slice`,
  // `flatMap`, `Object.keys/values/entries`, `Array.from`, patterns in `for…of` heads), with
  // numbers that probe their corners (NaN, ±Infinity, -0, fractions), under guarantees over the
  // values they reach. The only profile that draws them.
  arrays: weights({
    focus: true,
    stmt: { arrays: 10, effect: 2, decl: 2, if: 2, forArr: 1, callback: 1 },
    effects: { sendEmail: 4, log: 3, pay: 1, measure: 1 },
    contracts: { neverEmail: 4, emailsAtMost: 3, emailsAtLeast: 3, emailsExactly: 2, neverLog: 3, logsAtMost: 2, logsAtLeast: 2, nobodyTwice: 2, distinctLogs: 2, neverLogPrefix: 2, noPaymentOver: 2, spendAtMost: 1 },
  }),
  // Issue 10's objects: mail and payments through tools of one object of named arguments (literals,
  // reordered keys, spreads), record results destructured or read through `?.` and `??` when they
  // may be undefined, and the `string | undefined` results, under guarantees over those events.
  // `main` inputs of records (`Row`, `Row[]`): their fields in conditions and effects, loops over the array input.
  records: weights({
    focus: true,
    recordInputs: 4,
    maxParams: 3,
    stmt: { forArr: 5, effect: 8, if: 4, decl: 3, assign: 1, filter: 1, callback: 1, destructure: 1 },
    effects: { sendEmail: 4, pay: 3, log: 1, measure: 1 },
    contracts: { neverEmail: 4, noPaymentOver: 4, spendAtMost: 3, emailsAtLeast: 2, emailsAtMost: 2, nobodyTwice: 2, payOnce: 1, noPayTo: 2 },
  }),
  objects: weights({
    focus: true,
    namedArgs: 6,
    optional: 2,
    optionalConditions: 1,
    stmt: { destructure: 6, effect: 10, if: 3, decl: 3, forArr: 1, call: 1, short: 1 },
    effects: { sendEmail: 4, pay: 3, log: 1, measure: 0.5 },
    contracts: { neverEmail: 4, noPaymentOver: 4, noPayTo: 3, spendAtMost: 2, emailsAtLeast: 2, emailsAtMost: 2, nobodyTwice: 2, oneRecipient: 1, subjectsNonEmpty: 2, payOnce: 1 },
  }),
  // Fluents (issue 13 part 3): doors locked and unlocked and levels set, in branches, loops over
  // arrays of unknown length, callbacks, `try`, early returns, under final-state guarantees
  // (`final.at(k).equals(v)`, `final.all(p)`). The only profile that draws them.
  fluents: weights({
    focus: true,
    stmt: { effect: 10, if: 4, decl: 2, forArr: 2, forLit: 1, callback: 2, tryThrow: 1, return: 1, throwIf: 0.3, ternStmt: 1, short: 1, call: 1 },
    effects: { sendEmail: 0.3, pay: 0, log: 0.5, measure: 0, lock: 5, unlock: 3, setLevel: 3 },
    contracts: { lockedAtEnd: 6, unlockedAtEnd: 3, everyLocked: 4, levelIs: 3, levelsAtMost: 4, neverLog: 0.3 },
  }),
  // Arrays the program builds (issue 10): pushes under conditions in loops over literal arrays,
  // then joins, loops, counts, pop/shift/unshift, spreads and sums over them, and the shapes
  // refused (aliases, pushes in loops over arrays of unknown length). The only profile that draws them.
  locals: weights({
    focus: true,
    stmt: { locals: 10, effect: 2, decl: 2, if: 2, forArr: 0.5 },
    effects: { sendEmail: 4, log: 3, pay: 1, measure: 1 },
    contracts: { neverEmail: 4, emailsAtMost: 3, emailsAtLeast: 3, emailsExactly: 2, neverLog: 3, logsAtMost: 2, logsAtLeast: 2, nobodyTwice: 2, distinctLogs: 2, neverLogPrefix: 2, noPaymentOver: 2, spendAtMost: 1 },
  }),
  // Sets, Maps, `JSON.stringify` and in-place array changes (issue 10): de-duplication, sizes,
  // SameValueZero corners, counting Maps, JSON escapes and number corners, sorts with modelled
  // and refused comparators, splice, reverse, index writes. The only profile that draws them.
  collections: weights({
    focus: true,
    stmt: { collections: 10, effect: 2, decl: 2, if: 2, forArr: 0.5 },
    effects: { sendEmail: 4, log: 3, pay: 1, measure: 1 },
    contracts: { neverEmail: 4, emailsAtMost: 3, emailsAtLeast: 3, emailsExactly: 2, neverLog: 3, logsAtMost: 2, logsAtLeast: 2, nobodyTwice: 3, distinctLogs: 2, neverLogPrefix: 2, noPaymentOver: 2, spendAtMost: 1, measuresAtMost: 1 },
  }),
  // State carried across iterations of loops over arrays of unknown length (issue 10): budgets,
  // counters, found flags and `break`, with off-by-one and missing-update twins, under the
  // guarantees they keep or break. The only profile that draws them.
  loopstate: weights({
    focus: true,
    stmt: { loopstate: 10, effect: 1, decl: 1, if: 1 },
    effects: { sendEmail: 4, log: 3, pay: 1, measure: 1 },
    contracts: { emailsAtMost: 6, internalAtMost: 3, spendAtMost: 4, measuresSumAtMost: 3, measuresAtMost: 2, neverEmail: 3, emailsAtLeast: 1, logsAtMost: 2, neverLog: 1, noPaymentOver: 2, measuresBelow: 2 },
  }),
  // Reads of a `filter` over an array of unknown length as an array (issue 10, exec/counted.ts):
  // its length, slices, elements by index, the count as a bound. The only profile that draws them.
  counts: weights({
    focus: true,
    stmt: { counted: 10, effect: 1, decl: 1, if: 1 },
    effects: { sendEmail: 4, log: 3, pay: 1, measure: 1 },
    contracts: { emailsAtMost: 5, neverEmail: 5, emailsAtLeast: 2, emailsExactly: 1, logsAtMost: 2, neverLog: 1, nobodyTwice: 1 },
  }),
  // Idiomatic TypeScript (issue 10, fuzz/idioms.ts): `xs.entries()` in `for…of`. The only profile that draws them.
  idioms: weights({
    focus: true,
    stmt: { idioms: 10, effect: 2, decl: 2, if: 2, forArr: 0.5 },
    effects: { sendEmail: 4, log: 3, pay: 1, measure: 1 },
    contracts: { neverEmail: 4, emailsAtMost: 3, emailsAtLeast: 3, emailsExactly: 2, neverLog: 3, logsAtMost: 2, logsAtLeast: 2, nobodyTwice: 2, distinctLogs: 2, neverLogPrefix: 2, noPaymentOver: 2, spendAtMost: 1 },
  }),
  // Labeled jumps (`break L`, `continue L`): nested unrolled loops, switches and jumps, nested
  // deep enough for a jump to name a loop outside the innermost one.
  labels: weights({
    focus: true,
    stmt: { forLit: 4, forN: 4, whileN: 2, forArr: 1, jump: 6, switch: 2, if: 3, effect: 6, decl: 1, incr: 1 },
    effects: { sendEmail: 3, log: 3, pay: 1, measure: 1 },
    contracts: { emailsAtMost: 4, logsAtMost: 4, neverEmail: 3, neverLog: 3, emailsAtLeast: 2, logsAtLeast: 2, nobodyTwice: 1 },
    stmtDepth: 3,
  }),
  // Integers as Int terms (issue 14): the only profile that draws `ints` (with the hole's below).
  integers: INTEGERS,
  // Integral tool results meeting plain numbers (`w.amount * 0.5 <= 500`): the queries the
  // integer lifting of core/prover/int-floats.ts decides. The only profile that draws `mixed`.
  "int-floats": weights({
    focus: true,
    stmt: { ints: 10, effect: 2, decl: 1, if: 1 },
    intOps: { budget: 0, edge: 0, signed: 0, scaled: 1, mixed: 4, remainder: 0, rounded: 0 },
    effects: { sendEmail: 2, log: 2, pay: 2, measure: 2 },
    contracts: { spendAtMost: 5, measuresSumAtMost: 4, measuresBelow: 4, neverMeasure: 2, noPaymentOver: 4, measuresAtMost: 2, emailsAtMost: 2, logsAtMost: 2 },
  }),
  // Issue 10's strings and conversions (`String`, `Number`, `toFixed`, case mapping, `trim`,
  // `split`, `replace`/`replaceAll`) over corner texts (number grammar, Unicode case, whitespace,
  // `$` patterns), under guarantees over the texts they reach. The only profile that draws them.
  strings: weights({
    focus: true,
    stmt: { strings: 10, effect: 2, decl: 2, if: 2, forArr: 1 },
    effects: { sendEmail: 4, log: 4, pay: 1, measure: 2 },
    contracts: { neverEmail: 4, neverLog: 4, neverLogPrefix: 2, neverLogContaining: 2, shortLogs: 2, emailsAtMost: 2, emailsAtLeast: 2, logsAtMost: 2, logsAtLeast: 2, distinctLogs: 2, measuresBelow: 2, neverMeasure: 2, measuresAtMost: 1 },
  }),
  // Sums at the edge of 2^53 under a count of the logs they guard: `t === 3 && t + (2^53 − 2) === 2^53`
  // holds in JavaScript (2^53 + 1 rounds to 2^53), and is unreachable when the bound passes for exact.
  "integer-bound-in-doubles": sync(weights({
    focus: true,
    intOps: { budget: 0, edge: 1, signed: 0, scaled: 0, mixed: 0, remainder: 0, rounded: 0 },
    stmt: { ints: 10 },
    effects: { log: 1, sendEmail: 0, pay: 0, measure: 0 },
    contracts: { logsAtMost: 5, neverLog: 1 },
    maxHelpers: 0,
    minBlock: 1,
    blockLength: 1,
  })),
  // Counters and budgets whose bound only the step case of the invariant rules out (`sent <= 2`
  // against at most two emails): the base case alone lets a bound through that a longer run passes.
  "loop-invariant-base-only": sync(weights({
    focus: true,
    stmt: { loopstate: 10 },
    effects: { sendEmail: 1, log: 1, pay: 0, measure: 0 },
    contracts: { emailsAtMost: 5, spendAtMost: 3, measuresSumAtMost: 2 },
    maxHelpers: 0,
    minBlock: 1,
    blockLength: 1,
  })),
  // Clauses ending in a block that falls into the next clause, full of the effects the guarantees count.
  "switch-fallthrough": sync(weights({
    focus: true,
    stmt: { switch: 6, effect: 10, decl: 1 },
    clauseEnd: { block: 8, fall: 1, blockBreak: 1, break: 2, return: 0.5, continue: 0.5, throw: 0.5 },
    effects: { sendEmail: 4, log: 4, pay: 0.3, measure: 0.3 },
    contracts: { emailsAtMost: 5, logsAtMost: 5, emailsExactly: 2, logsAtLeast: 1, emailsAtLeast: 1, nobodyTwice: 1, distinctLogs: 1 },
    minBlock: 1,
    blockLength: 2,
    stmtDepth: 1,
  })),
  // `++`/`--` on strings, whose values reach the logs.
  "increment-non-number": sync(weights({
    focus: true,
    stringIncrements: 6,
    stmt: { incr: 2, effect: 6, decl: 3, assign: 2 },
    effects: { log: 4, sendEmail: 1, pay: 0.5, measure: 0.5 },
    contracts: { neverLog: 6, neverLogContaining: 4, neverLogPrefix: 4, shortLogs: 3, distinctLogs: 3 },
  })),
  // Conditions on `string | undefined` tool results.
  "opaque-truthy": sync(weights({
    focus: true,
    optionalConditions: 8,
    // `T | undefined` is modelled exactly (issue 10): the unmodelled union is `string | null`.
    nullResults: 6,
    stmt: { if: 10, effect: 6, decl: 2, short: 2, ternStmt: 2 },
    contracts: { emailsAtLeast: 4, emailsAtMost: 4, logsAtMost: 4, logsAtLeast: 4, neverEmail: 3, neverLog: 3 },
  })),
  // One call site executed twice (a helper called twice, a loop around the call) whose arrays must differ.
  "shared-call-results": sync(weights({
    focus: true,
    stmt: { repeat: 10, call: 2, forN: 1, effect: 1, decl: 1 },
    effects: { sendEmail: 6, log: 2, pay: 0.5, measure: 1 },
    contracts: { oneRecipient: 10, nobodyTwice: 2, distinctLogs: 2, neverLog: 1 },
  })),
  // Loops that compare each element with a literal spelled like a loop index (`i!3`), under guarantees that pair iterations.
  "rename-in-literals": sync(weights({
    focus: true,
    smtNames: 20,
    stmt: { filter: 10, forArr: 2, effect: 1, decl: 1 },
    effects: { sendEmail: 4, log: 4, pay: 0.5, measure: 0.5 },
    contracts: { nobodyTwice: 5, distinctLogs: 5, oneRecipient: 4, emailsAtMost: 3, logsAtMost: 3 },
    // Few names are made before the first loop, so its index is one of the literals' (`i!3` to `i!6`).
    maxParams: 0,
    maxHelpers: 0,
    blockLength: 2,
  })),
  // A closure reading a `const` declared after it, called in a later iteration.
  tdz: sync(weights({
    stmt: { tdz: 10 },
    contracts: { logsAtLeast: 4, emailsAtLeast: 4 },
  })),
};

export type ProfileName = keyof typeof PROFILES;

export function isProfile(name: string): name is ProfileName {
  return Object.hasOwn(PROFILES, name);
}
