/**
 * The generated programs, before printing: a small typed tree. Variables and helpers are referred
 * to by number and resolved when the tree is printed (the n-th variable of the wanted type in
 * scope, a literal when there is none), so that every tree prints a well-typed program and
 * fast-check can shrink any part of it on its own.
 */

/** Types of generated values. `ostr` is `string | undefined` (a tool result the prover does not model). */
export type Ty = "str" | "num" | "bool" | "ostr" | "strs" | "nums" | "row";
/** Types a helper may take or return. */
export type Scalar = "str" | "num" | "bool";

export type Expr = StrExpr | NumExpr | BoolExpr | OStrExpr | StrsExpr | NumsExpr | RowExpr;

export type StrExpr = { readonly t: "str" } & (
  | { readonly k: "lit"; readonly v: string }
  | { readonly k: "var"; readonly i: number }
  | { readonly k: "concat"; readonly a: StrExpr; readonly b: StrExpr | NumExpr | BoolExpr }
  | { readonly k: "tmpl"; readonly head: string; readonly parts: readonly (readonly [StrExpr | NumExpr | BoolExpr | OStrExpr, string])[] }
  | { readonly k: "tern"; readonly c: BoolExpr; readonly a: StrExpr; readonly b: StrExpr }
  | { readonly k: "logic"; readonly op: "||" | "&&"; readonly a: StrExpr; readonly b: StrExpr }
  | { readonly k: "nullish"; readonly a: OStrExpr; readonly b: StrExpr }
  /** `async`: `await lookupAsync(…)` where the program awaits (an async function), `lookup(…)` elsewhere. */
  | { readonly k: "lookup"; readonly arg: StrExpr; readonly async?: boolean }
  | { readonly k: "field"; readonly row: RowExpr }
  | { readonly k: "call"; readonly i: number; readonly args: readonly HelperArgs[] }
  | { readonly k: "index"; readonly items: readonly string[]; readonly at: number }
);

export type NumExpr = { readonly t: "num" } & (
  | { readonly k: "lit"; readonly v: number }
  | { readonly k: "var"; readonly i: number }
  | { readonly k: "arith"; readonly op: "+" | "-" | "*" | "/" | "%" | "**"; readonly a: NumExpr; readonly b: NumExpr }
  | { readonly k: "neg"; readonly a: NumExpr }
  | { readonly k: "len"; readonly s: StrExpr }
  | { readonly k: "alen"; readonly arr: StrsExpr | NumsExpr }
  | { readonly k: "minmax"; readonly op: "min" | "max"; readonly a: NumExpr; readonly b: NumExpr }
  | { readonly k: "tern"; readonly c: BoolExpr; readonly a: NumExpr; readonly b: NumExpr }
  | { readonly k: "score"; readonly arg: StrExpr }
  | { readonly k: "ratio" }
  | { readonly k: "field"; readonly row: RowExpr }
  | { readonly k: "maybeCount"; readonly b: NumExpr }
  | { readonly k: "call"; readonly i: number; readonly args: readonly HelperArgs[] }
);

export type BoolExpr = { readonly t: "bool" } & (
  | { readonly k: "lit"; readonly v: boolean }
  | { readonly k: "var"; readonly i: number }
  | { readonly k: "cmp"; readonly op: "===" | "!==" | "==" | "!=" | "<" | "<=" | ">" | ">="; readonly a: StrExpr | NumExpr; readonly b: StrExpr | NumExpr }
  | { readonly k: "eqBool"; readonly op: "===" | "!=="; readonly a: BoolExpr; readonly b: BoolExpr }
  | { readonly k: "eqOpt"; readonly op: "===" | "!=="; readonly a: OStrExpr; readonly b: StrExpr | null }
  | { readonly k: "method"; readonly m: "startsWith" | "endsWith" | "includes"; readonly s: StrExpr; readonly x: StrExpr }
  | { readonly k: "has"; readonly arr: StrsExpr; readonly x: StrExpr }
  | { readonly k: "not"; readonly a: BoolExpr }
  | { readonly k: "logic"; readonly op: "&&" | "||"; readonly a: BoolExpr; readonly b: BoolExpr }
  | { readonly k: "truthy"; readonly a: StrExpr | NumExpr | OStrExpr }
  | { readonly k: "isOpen"; readonly arg: StrExpr }
  | { readonly k: "call"; readonly i: number; readonly args: readonly HelperArgs[] }
);

export type OStrExpr = { readonly t: "ostr" } & (
  | { readonly k: "var"; readonly i: number }
  | { readonly k: "maybeName"; readonly arg: StrExpr }
  /** `(maybeNull(arg) ?? undefined)`: a `string | null` result, a union the prover does not model (refused where it branches). */
  | { readonly k: "maybeNull"; readonly arg: StrExpr }
  | { readonly k: "tern"; readonly c: BoolExpr; readonly a: StrExpr }
);

export type StrsExpr = { readonly t: "strs" } & (
  | { readonly k: "var"; readonly i: number }
  | { readonly k: "names"; readonly async?: boolean }
  | { readonly k: "few" }
  | { readonly k: "lit"; readonly items: readonly string[] }
  /** `prefixed(arg)`: a tool whose element promise says every name starts with `arg`. */
  | { readonly k: "prefixed"; readonly arg: StrExpr }
);

export type NumsExpr = { readonly t: "nums" } & (
  | { readonly k: "var"; readonly i: number }
  | { readonly k: "amounts" }
  | { readonly k: "lit"; readonly items: readonly number[] }
  /** `positives()`: a tool whose element promise says every number is above 0. */
  | { readonly k: "positives" }
);

export type RowExpr = { readonly t: "row" } & (
  | { readonly k: "var"; readonly i: number }
  | { readonly k: "entry"; readonly arg: StrExpr }
);

/**
 * An argument for each type a helper parameter may have; the printer passes the one that fits. To a
 * parameter with a default, `pass` may instead give `undefined` (trailing ones are left out) or a
 * value that may be undefined (`maybeName(…)`, `maybeCount()`): the default applies then.
 */
export interface HelperArgs {
  readonly str: StrExpr;
  readonly num: NumExpr;
  readonly bool: BoolExpr;
  readonly pass?: "value" | "undefined" | "optional";
}

/** How a `switch` clause ends: a jump, nothing (falls through), or a block `{ … }` (falls through unless it jumps inside). */
export type ClauseEnd = "break" | "fall" | "block" | "blockBreak" | "return" | "continue" | "throw";

export interface Effect {
  /** `lock`, `unlock` and `setLevel` write fluents (profile `fluents`; called as `m.lock(…)`). */
  readonly tool: "sendEmail" | "pay" | "log" | "measure" | "lock" | "unlock" | "setLevel";
  /** `await sendEmailAsync(…)` / `await payAsync(…)` where the program awaits (an async function); the sync tool elsewhere. */
  readonly async?: boolean;
  /**
   * Mail and payments through the tools of one object of named arguments (`notify`, `charge`):
   * an object literal, its keys in another order, or a spread literal whose key is overridden.
   */
  readonly named?: "literal" | "reordered" | "spread";
  readonly s: StrExpr;
  readonly s2: StrExpr;
  readonly n: NumExpr;
}

export type Stmt =
  | { readonly k: "decl"; readonly kind: "const" | "let"; readonly init: Expr }
  | { readonly k: "assign"; readonly i: number; readonly v: Expr; readonly op: "=" | "+=" | "-=" | "*=" | "/=" }
  /** `x++` and friends; `onString` targets a string (a conversion TypeScript rejects, and the prover must not model as concatenation). */
  | { readonly k: "incr"; readonly i: number; readonly op: "++" | "--"; readonly prefix: boolean; readonly onString: boolean }
  | { readonly k: "effect"; readonly e: Effect }
  /** `console.log(…)` and its kin: no event, but its arguments (tool calls among them) are evaluated. */
  | { readonly k: "console"; readonly method: "log" | "info" | "warn" | "error" | "debug"; readonly args: readonly ({ readonly k: "expr"; readonly e: Expr } | { readonly k: "effect"; readonly e: Effect })[] }
  | { readonly k: "if"; readonly c: BoolExpr | StrExpr | NumExpr | OStrExpr; readonly then: readonly Stmt[]; readonly else: readonly Stmt[] | null }
  | { readonly k: "switch"; readonly d: StrExpr | NumExpr; readonly cases: readonly { readonly v: string | number; readonly body: readonly Stmt[]; readonly end: ClauseEnd }[]; readonly dflt: { readonly body: readonly Stmt[]; readonly end: ClauseEnd } | null }
  | { readonly k: "forLit"; readonly items: readonly string[] | readonly number[]; readonly body: readonly Stmt[] }
  | { readonly k: "forN"; readonly n: number; readonly body: readonly Stmt[] }
  /** `while (i < n) { i++; … }` or `do { i++; … } while (i < n)`: a counter against a literal, incremented first (so `continue` cannot skip it). */
  | { readonly k: "whileN"; readonly n: number; readonly isDo: boolean; readonly body: readonly Stmt[] }
  | { readonly k: "forArr"; readonly src: StrsExpr | NumsExpr | { readonly t: "rows"; readonly tool?: "credits" | "input" }; readonly body: readonly Stmt[] }
  | { readonly k: "call"; readonly i: number; readonly args: readonly HelperArgs[] }
  | { readonly k: "short"; readonly c: BoolExpr; readonly op: "&&" | "||"; readonly e: Effect }
  | { readonly k: "ternStmt"; readonly c: BoolExpr; readonly a: Effect; readonly b: Effect }
  | { readonly k: "throwIf"; readonly c: BoolExpr; readonly msg: string }
  | { readonly k: "return" }
  /** `break`/`continue`; with `outer`, naming the outermost enclosing unrolled loop's label (`continue L3`), where there is one. */
  | { readonly k: "jump"; readonly kind: "break" | "continue"; readonly outer: boolean }
  /** A loop that filters an array by comparing each element with a literal: `for (const x of xs) if (x === "a") effect`. */
  | { readonly k: "filter"; readonly src: StrsExpr; readonly op: "===" | "!==" | "startsWith" | "endsWith" | "includes"; readonly lit: string; readonly e: Effect; readonly useElement: boolean }
  /**
   * One call site executed twice: a helper returning the first element of a tool's array, called
   * twice in one condition (`how: "helper"`), or a loop of two iterations around a loop over a
   * tool's array that uses its first element (`how: "loop"`). Each execution returns its own array.
   */
  | { readonly k: "repeat"; readonly how: "helper" | "loop"; readonly src: "few" | "amounts"; readonly e: Effect }
  /** A closure that reads a `const` declared after it, called in a later iteration of a literal loop (the temporal dead zone). */
  /**
   * A call of an async tool whose promise is not awaited where it is made (refused by the prover):
   * dropped (`sendEmailAsync(…);`, fire-and-forget) or stored and awaited after the next
   * statement's calls (`const p = sendEmailAsync(…); …; await p;`, in an async function only).
   */
  | { readonly k: "float"; readonly e: Effect; readonly how: "drop" | "stored" }
  /** `await Promise.all([sendEmailAsync(a, b), payAsync(c, n), …])` with arguments bound to `const`s first (in a sync program: the effects in turn). */
  | { readonly k: "all"; readonly es: readonly Effect[] }
  /**
   * A loop over the result of a tool with an element promise, whose element reaches an effect,
   * behind a guard the promise decides (`if (x.startsWith(q))`, `if (!(x > 0)) throw …`) or none.
   */
  | { readonly k: "elements"; readonly src: "prefixed" | "positives" | "credits"; readonly prefix: StrExpr; readonly guard: "none" | "if" | "unless" | "throw"; readonly e: Effect }
  /** Two calls of one effect tool with the same value in the key argument (`sendEmail(a, q); sendEmail(b, q)`): material for joins. */
  | { readonly k: "pair"; readonly e: Effect; readonly other: StrExpr }
  /**
   * An array callback over a string array (`forEach`, `map`, `filter`, `some`, `every`, `find`,
   * `findIndex`) whose callback compares the element with a literal, may call the effect itself
   * (`inner`, with the element when `useElement`), may throw at one literal, and may read its index;
   * the result (when there is one) guards or feeds the effect after it.
   */
  /**
   * `const rs = await Promise.all(src.map(async (x, i) => lookupAsync(x)))` (in a sync program
   * `src.map((x, i) => lookup(x))`; with pick 3 and no index, the arrow `(x) => lookupAsync(x)`,
   * not `async`), `src` filtered first or not, the key `x`, `x.slice(1)`, or
   * with the index (`useIndex`) `${x}${i}` or a mapped twin read at it (`ks[i] ?? lit`), then its
   * results read (`read`):
   * their length (in a condition and a template), one by literal index, `for…of`, `filter`, `map`,
   * `join`, `includes`, `some`, `every`; or (`pay`) `try { await Promise.all(nums.map(async (n) =>
   * payAsync(s, n))); } catch {}`, where a rejected payment does not stop the others. Each read
   * guards or feeds `e`.
   */
  | { readonly k: "allMap"; readonly read: AllMapRead; readonly src: StrsExpr; readonly nums: NumsExpr; readonly filtered: boolean; readonly useIndex: boolean; readonly lit: string; readonly cmp: number; readonly pick: number; readonly e: Effect }
  | { readonly k: "callback"; readonly method: "forEach" | "map" | "filter" | "some" | "every" | "find" | "findIndex"; readonly src: StrsExpr; readonly op: "===" | "!==" | "startsWith" | "endsWith" | "includes"; readonly lit: string; readonly e: Effect; readonly inner: boolean; readonly useElement: boolean; readonly useIndex: boolean; readonly throwAt: string | null }
  /**
   * `try { if (v OP lit) throw …; } catch { effect } finally { effect }`: the try block calls no tool
   * (the oracle's runs cannot make a tool's implementation fail, which the prover assumes any may).
   * With `read`, the catch binds the error and logs its text first: `String(e)`, `e.message`, or
   * `e instanceof Error ? e.message : "?"` (exec/caught.ts).
   */
  | { readonly k: "tryThrow"; readonly i: number; readonly op: "===" | "!==" | "startsWith"; readonly lit: string; readonly caught: Effect | null; readonly fin: Effect | null; readonly read: "none" | "text" | "message" | "instanceof" }
  /**
   * A throwing loop inside a `try`: `try { for (const x of src) if (x OP lit) throw …; } catch
   * { effect } finally { effect }` (or the loop as `src.forEach(…)`); over an array of unknown
   * length the throw happens at some iteration or none. The array is read before the `try`, so the
   * try block calls no tool (see above).
   */
  | { readonly k: "tryLoop"; readonly how: "for" | "forEach"; readonly src: StrsExpr; readonly op: "===" | "!==" | "startsWith"; readonly lit: string; readonly caught: Effect | null; readonly fin: Effect | null }
  /**
   * A record result taken apart: `const { to: a, amount: b } = entry(src)` (`pattern`), or through
   * optional chaining and `??` on a result that may be undefined (`optional`: `findRow({ key: src })`),
   * or an array pattern with defaults over `srcs` (`defaults`: `const [a = fallback, b = fallback] =
   * srcs`, each default running where the element is missing).
   */
  | { readonly k: "destructure"; readonly src: StrExpr; readonly how: "pattern" | "optional" | "method" | "defaults"; readonly fallback: StrExpr; readonly n: NumExpr; readonly srcs: StrsExpr }
  | { readonly k: "tdz"; readonly items: readonly string[]; readonly pick: number; readonly init: StrExpr; readonly e: "log" | "sendEmail" }
  /**
   * Issue 10's array methods and builders (profile `arrays`): `at`, `indexOf`/`lastIndexOf`/
   * `includes`, `slice` (of a string or number array, at indices `a`, `b`), `flatMap` over the
   * literal `lits`, `flat` and `concat` of `strs`/`nums`, a value and a literal array, `Object.keys/values/entries` of an object literal with integer and string keys,
   * `Array.from` (`{ length }` with a callback, or of an array), and patterns in `for…of` heads
   * (records of `rows()`, literal pairs); each result guards or feeds the effect after it.
   */
  | IntsStmt
  | StringsStmt
  | LocalsStmt
  | CollectionsStmt
  | LoopStateStmt
  | CountedStmt
  | IdiomsStmt
  | { readonly k: "arrays"; readonly op: ArraysOp; readonly strs: StrsExpr; readonly nums: NumsExpr; readonly useNums: boolean; readonly a: NumExpr; readonly b: NumExpr | null; readonly x: StrExpr; readonly xn: NumExpr; readonly lits: readonly string[]; readonly cmp: number; readonly e: Effect };

/**
 * Integers (profile `integers`): a budget loop over the integral amounts of `wholes()` with a
 * running total (`budget`); a small integer `tally()` added to a literal near 2^53 and compared
 * (`edge`: exact up to 2^53, rounded past it), divided into (`signed`: it may be -0), or scaled
 * and measured (`scaled`); each guards or feeds the effect after it. `mixed` (profile `int-floats`):
 * the integral amounts of `wholes()` times a fraction, compared with a literal and measured or paid
 * (integers that meet floating point only through conversions, lifted by core/prover/int-floats.ts).
 * `rounded`: `Math.round`/`floor`/`ceil`/`trunc` of an integer (`tally()`, or an amount of
 * `wholes()` or `invoices()` in a loop) times a fraction (`-0.5`, `0.5`, `1.005 * 100`): ties,
 * -0 and double rounding, measured or paid and tested (`Number.isInteger`, `=== k`, `1 / r < 0`).
 */
export type IntsStmt = { readonly k: "ints"; readonly op: "budget" | "edge" | "signed" | "scaled" | "mixed" | "remainder" | "rounded"; readonly limit: number; readonly edge: readonly [number, number, number]; readonly scale: number; readonly sink: "pay" | "measure"; readonly e: Effect };

/**
 * Strings and conversions (profile `strings`, fuzz/strings.ts): `String(…)`, `Number(…)`,
 * `toFixed(digits)`, `toLowerCase`/`toUpperCase`, `trim`/`trimStart`/`trimEnd`, `split(pattern)`,
 * `replace`/`replaceAll(pattern, replacement)`, `slice`/`substring(off, end)`, `charAt(position)`, `padStart`/`padEnd(off + 2, pattern)`, `indexOf(pattern)`, `lastIndexOf(pattern)`, `parseInt(…, radix)`/`parseFloat(…)`, a search from a position (`startsWith`, `endsWith`, `includes`, `indexOf`) of `x`, `Math.min`/`Math.max` of a fraction and corners, or (with `literal`) of the `pick`-th corner
 * text of the op; the result is compared with `lit` (`off` for a position) guarding the effect, and passed to the effect.
 */
export type StringsStmt = { readonly k: "strings"; readonly op: StringsOp; readonly literal: boolean; readonly pick: number; readonly x: StrExpr; readonly n: NumExpr; readonly b: BoolExpr; readonly off: number; readonly digits: number; readonly pattern: string; readonly replacement: string; readonly lit: string; readonly e: Effect };
export type StringsOp = (typeof import("./strings").STRINGS_OPS)[number];

/**
 * Arrays the program builds (profile `locals`): `const out = []` filled by pushes under a
 * condition in a loop over the literal `lits` (`x OP lit` per element), then joined, looped over,
 * counted, popped or shifted, unshifted onto, or spread into another literal; numbers pushed and
 * summed; a change in one alternative of `&&`, `?:`, `??` or `||` only; pushes in a `try` block
 * (before or after its call that may fail), its `catch` and its `finally`; a counter of the calls
 * that returned in a loop inside a `try`, read by its `catch`, `finally` and after; and the shapes refused
 * (an alias, pushes in a loop over an array of unknown length, a push while `entries()` iterates).
 */
export type LocalsStmt = { readonly k: "locals"; readonly op: LocalsOp; readonly lits: readonly string[]; readonly nums: readonly number[]; readonly cond: "===" | "!==" | "startsWith" | "<"; readonly x: StrExpr; readonly xn: NumExpr; readonly src: StrsExpr; readonly cmp: number; readonly e: Effect };

/**
 * Sets, Maps, `JSON.stringify` and in-place array changes (profile `collections`, fuzz/collections.ts).
 */
export type CollectionsStmt = { readonly k: "collections"; readonly op: (typeof import("./collections").COLLECTIONS_OPS)[number]; readonly lits: readonly string[]; readonly nums: readonly number[]; readonly x: StrExpr; readonly xn: NumExpr; readonly src: StrsExpr; readonly cmp: number; readonly pick: number; readonly e: Effect };

/**
 * State carried across the iterations of a loop over an array of unknown length (profile
 * `loopstate`, fuzz/loopstate.ts): a budget over the integral amounts of `invoices()` (`budget`,
 * `budgetBreak`), a counter of emails to `names()` (`counter`, `counterBreak`), a found flag
 * (`found`, `foundBreak`), counter `while` loops (`whileIndex`, `whileRetry`), the element or
 * one field of it a loop picks (`pick`, `pickField`), a `reduce` from an integer literal (`reduce`),
 * each at `limit` (+ `slack`, the off-by-one), with its update kept,
 * left out, made before the check, or made wrong (`update`); the state then guards `e`.
 */
export type LoopStateStmt = { readonly k: "loopstate"; readonly op: LoopStateOp; readonly limit: number; readonly slack: number; readonly strict: boolean; readonly update: "ok" | "missing" | "before" | "wrong"; readonly sink: "pay" | "measure"; readonly lit: string; readonly e: Effect };
/**
 * Reads of a `filter` over `names()` (an array of unknown length) as an array (profile `counts`,
 * fuzz/counted.ts): its length against `limit` (+ `slack`, the off-by-one), loops over a `slice`
 * of it, an element by index, the last one, the count used as a bound on the source, and a filter
 * of a filter; the result guards `e` or is emailed. `via` builds the array with `filter`, or with
 * `push` in a `for…of` (exec/collected.ts): under an `if`, after a `continue`, with a `break` at
 * `lit2`, pushing a changed element, or pushing on both branches of an `if`.
 */
export type CountedStmt = { readonly k: "counted"; readonly op: CountedOp; readonly pred: "startsWith" | "endsWith" | "===" | "!=="; readonly lit: string; readonly lit2: string; readonly limit: number; readonly slack: number; readonly via: CountedVia; readonly outer: boolean; readonly e: Effect };
export const COUNTED_VIA = ["filter", "filter", "push", "pushContinue", "pushBreak", "pushMapped", "pushBoth", "pushLong", "pushSeen"] as const;
export type CountedVia = (typeof COUNTED_VIA)[number];
export const COUNTED_OPS = ["length", "lengthVsSource", "slice", "sliceFrom", "index", "last", "boundSource", "nested", "template", "each", "join"] as const;
export type CountedOp = (typeof COUNTED_OPS)[number];
/** Idiomatic TypeScript (profile `idioms`, fuzz/idioms.ts): `xs.entries()` in `for…of`, `i < f.length` over a bounded array, sorted copies, `encodeURIComponent`. */
export type IdiomsStmt = { readonly k: "idioms"; readonly op: (typeof import("./idioms").IDIOMS_OPS)[number]; readonly lits: readonly string[]; readonly x: StrExpr; readonly src: StrsExpr; readonly cmp: number; readonly pick: number; readonly e: Effect };

export const LOOPSTATE_OPS = ["budget", "budgetBreak", "counter", "counterBreak", "found", "foundBreak", "whileIndex", "whileRetry", "pick", "pickField", "reduce", "logged"] as const;
export type LoopStateOp = (typeof LOOPSTATE_OPS)[number];

export const ALLMAP_READS = ["length", "index", "forOf", "filter", "map", "join", "includes", "some", "every", "pay"] as const;
export type AllMapRead = (typeof ALLMAP_READS)[number];

export const LOCALS_OPS = ["join", "loop", "count", "pop", "shift", "unshift", "spread", "sum", "alias", "unknown", "branch", "tryPush", "tryAssign", "tryCount", "entriesChange", "concat"] as const;
export type LocalsOp = (typeof LOCALS_OPS)[number];

export const ARRAYS_OPS = ["at", "indexOf", "lastIndexOf", "includes", "slice", "flatMap", "flat", "concat", "keys", "values", "entries", "fromLength", "fromArray", "rowPattern", "pairPattern"] as const;
export type ArraysOp = (typeof ARRAYS_OPS)[number];

export interface Helper {
  readonly params: readonly Scalar[];
  /** A default value per parameter (null: none); only trailing parameters keep theirs (TypeScript's rule for omitting). */
  readonly defaults: readonly (HelperArgs | null)[];
  readonly ret: Scalar | "void";
  readonly body: readonly Stmt[];
  /** The value returned at the end (the one of the helper's return type). */
  readonly result: HelperArgs;
  /** A module-level `function`, or a `const` arrow function at the start of `main` (which sees `main`'s parameters). */
  readonly where: "module" | "main";
}

/** A contract argument: the i-th string or number literal the program uses (a corner value when it uses none), a small count, or an array of strings. */
export type ContractArg = { readonly k: "str"; readonly i: number } | { readonly k: "num"; readonly i: number } | { readonly k: "count"; readonly v: number } | { readonly k: "strs"; readonly is: readonly number[] };

export interface GuaranteeIR {
  readonly contract: string;
  readonly args: readonly ContractArg[];
}

export interface ProgramIR {
  /** `async function main` and async helpers (each helper call awaited): tools may then be awaited. */
  readonly async?: boolean;
  /** `main`'s inputs; `row` and `rows` are records of the layer's `Row` (a `Row[]` is read only as a loop source). */
  readonly params: readonly ("str" | "num" | "bool" | "strs" | "nums" | "row" | "rows")[];
  readonly helpers: readonly Helper[];
  readonly body: readonly Stmt[];
  readonly guarantees: readonly GuaranteeIR[];
}
