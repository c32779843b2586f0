/**
 * Array callbacks: `forEach`, `map`, `filter`, `some`, `every`, `find`, `findIndex` with an arrow,
 * a function expression or a local helper as the callback. The callback runs like a `for…of` body
 * (a tool called in it performs its events under that element's condition, or its quantifier):
 * - literal arrays and arrays bounded by an `ensures` are unrolled exactly, element by element, in
 *   array order; `some`, `every`, `find` and `findIndex` stop at the first decisive element, so a
 *   call in the callback for a later element happens only if no earlier element decided;
 * - arrays of unknown length run the callback once at a quantified index (every element runs:
 *   `forEach`, `map`, `filter`); a short-circuiting method over them is modelled only when its
 *   callback performs nothing (no call, no failure), as a quantifier over the elements.
 * A callback may read variables of the enclosing function but not assign them (refused where the
 * assignment is, see assignments.ts), may not be `async` and takes at most (element, index).
 *
 * `filter` with a condition the prover cannot decide element by element gives a filtered view
 * (an opaque value registered here): it can be iterated (`for…of`, the callbacks above), and
 * nothing else reads it, so no consumer can ignore which elements it keeps. The view also reads as
 * the compacted array (`compactView`: length, join, slice, indexing): exactly over a bounded array,
 * over a ghost count of the kept elements over an array of unknown length (counted.ts).
 */
import type * as TS from "typescript";
import { and, implies, ite, not, or, renameSymbols } from "../smt";
import { boolT, merge, num, numFromInt, renameNum, truthy, UNDEF, type FunctionLike, type Sym } from "../values";
import { ARRAY_LENGTH_MAG } from "./integers";
import { checkAwaited } from "./await";
import { isAsync, isDefaultLibSymbol, refuse, skip, symbolOfDecl, type Exec } from "./context";
import { declare } from "./fresh";
import { notOpaque, noFunctionValue } from "./guards";
import { countedArray, factsAt } from "./counted";
import { startedFlag } from "./iterations";
import { indexLoops } from "./elements";
import { lookup } from "./names";
import { bindPattern } from "./objects";
import { compactSym, flowValue, nameTerm, type State } from "./state";
import { execBody } from "./statements";

export const CALLBACK_METHODS = new Set(["forEach", "map", "filter", "some", "every", "find", "findIndex"]);
type Method = "forEach" | "map" | "filter" | "some" | "every" | "find" | "findIndex";

/** The elements an array (or filtered view) offers: the base array and which of its elements are kept. */
export interface View {
  readonly base: Extract<Sym, { k: "arr" } | { k: "sarr" }>;
  /** Bool term: the element at this index is kept (absent: all). */
  readonly keep?: (index: string) => string;
  /**
   * Bool term: what the filters' callbacks established at this index (an element promise, a
   * tool's `ensures`), true at every index; the count of kept elements (counted.ts) needs them.
   */
  readonly facts?: (index: string) => string;
}

/** Filtered views by their opaque value (identity: the value flows through variables unchanged). */
const views = new WeakMap<Sym, View>();

const VIEW_WHY = "the result of `filter` over elements the prover cannot decide one by one; here it can only be iterated (`for…of`, `forEach`, `map`, `some`, `every`, `find`, `filter`): its length and elements are modelled for a filter over an input or a tool result made outside any loop over an array of unknown length, or over a literal array of at most 16 elements";

/** The view behind a value: an array, or a filtered view; undefined for anything else. */
export function viewOf(v: Sym): View | undefined {
  if (v.k === "arr" || v.k === "sarr") return { base: v };
  return views.get(v);
}

/** A filtered view over at most this many elements reads as an array (compactView); the bound of ensures-bounded unrolling. */
const COMPACT_CAP = 16;

/**
 * The array a `filter` over a bounded array returns, for the reads a view does not offer
 * (`length`, `join`, `slice`, indexing, …): the kept elements in order, its length their count.
 * Element m is the base element j that is kept with exactly m kept before it; past the length any
 * element stands (every read is guarded by the length). Over an array of unknown length, the
 * array over a ghost count (counted.ts). Undefined for anything but a view, and where not modelled.
 */
export function compactView(ex: Exec, v: Sym): Extract<Sym, { k: "sarr" }> | undefined {
  const view = views.get(v);
  if (!view) return undefined;
  // One array per view, executor and loop scope: two reads (`queue.length > 0`, then
  // `queue.shift()`) name its length by the same terms, so a path's test is seen to cover the read.
  const perExec = compacted.get(ex) ?? new WeakMap<Sym, Map<string, Extract<Sym, { k: "sarr" }> | undefined>>();
  compacted.set(ex, perExec);
  const perScope = perExec.get(v) ?? new Map<string, Extract<Sym, { k: "sarr" }> | undefined>();
  perExec.set(v, perScope);
  const scope = ex.loops.join(" ");
  if (perScope.has(scope)) return perScope.get(scope);
  const made = compactViewOnce(ex, view);
  perScope.set(scope, made);
  return made;
}

const compacted = new WeakMap<Exec, WeakMap<Sym, Map<string, Extract<Sym, { k: "sarr" }> | undefined>>>();

function compactViewOnce(ex: Exec, view: View): Extract<Sym, { k: "sarr" }> | undefined {
  const base = view.base;
  if (base.k === "sarr" && (base.bound === undefined || base.bound > COMPACT_CAP)) return countedArray(ex, { base, keep: view.keep ?? (() => "true"), facts: view.facts ?? (() => "true") }, view);
  const n = base.k === "arr" ? base.items.length : base.bound;
  if (n === undefined || n === 0 || n > COMPACT_CAP) return undefined;
  const elem = base.k === "sarr" ? base.elem : literalElemType(base.items);
  if (!elem) return undefined;
  const element = (j: number): Sym => (base.k === "arr" ? base.items[j]! : base.at(String(j)));
  // Named terms (nameTerm): every read repeats them, and `join` reads every element.
  const keptTerms = Array.from({ length: n }, (_, j) => nameTerm(ex, and(base.k === "arr" ? "true" : `(< ${j} ${base.len})`, view.keep ? view.keep(String(j)) : "true"), "Bool", "kept"));
  // before[j]: how many of the elements 0…j−1 are kept (Int terms; before[n] is the length).
  const before = ["0"];
  for (let j = 0; j < n; j++) before.push(nameTerm(ex, `(+ ${before[j]} ${ite(keptTerms[j]!, "1", "0")})`, "Int", "kept"));
  // Reads named per loop scope: a name made inside a quantified loop takes its indices.
  const seen = new Map<string, Sym>();
  const at = (index: string): Sym => {
    const key = `${index} ${ex.loops.join(" ")}`;
    const known = seen.get(key);
    if (known) return known;
    let acc = element(n - 1);
    for (let j = n - 1; j >= 0; j--) {
      const m = merge(and(keptTerms[j]!, `(= ${before[j]} ${index})`), element(j), acc);
      if (!m) throw new Error("elements of one array did not merge");
      acc = m;
    }
    // Only reads at a literal index are named: another index may be a bound variable of a quantifier.
    const named = /^\d+$/.test(index) ? compactSym(ex, acc) : acc;
    seen.set(key, named);
    return named;
  };
  return { k: "sarr", len: before[n]!, at, elem, bound: n, label: base.k === "sarr" ? `${base.label}.filter` : "filter" };
}

/** The element type of a literal array of strings, numbers or booleans (undefined for others). */
function literalElemType(items: readonly Sym[]): Extract<Sym, { k: "sarr" }>["elem"] | undefined {
  const kinds = new Set(items.map((x) => x.k));
  if (kinds.size !== 1) return undefined;
  const [kind] = kinds;
  if (kind === "rec") {
    // Records of one shape (a Map's values that are a tool's elements): the first one's type.
    const shape = (r: Sym): string => (r.k === "rec" ? [...r.fields].map(([n, f]) => `${n}:${f.k}${shape(f)}`).join(",") : "");
    if (new Set(items.map(shape)).size !== 1 || !plainRecord(items[0]!)) return undefined;
    return recordType(items[0]!);
  }
  // `[key, value]` pairs (a Map's entries) of scalars, one shape: read by index only (no `join`).
  if (kind === "arr") {
    const shape = (r: Sym): string => (r.k === "arr" ? r.items.map((x) => x.k).join(",") : "");
    if (new Set(items.map(shape)).size !== 1 || !(items[0] as Extract<Sym, { k: "arr" }>).items.every((x) => x.k === "str" || x.k === "num" || x.k === "bool")) return undefined;
    return PAIRS;
  }
  return kind === "str" ? { kind: "string" } : kind === "num" ? { kind: "number" } : kind === "bool" ? { kind: "boolean" } : undefined;
}

/** The element type of arrays of `[key, value]` pairs (a Map's entries): not a type a tool declares, so nothing is made of it fresh. */
export const PAIRS: Extract<Sym, { k: "sarr" }>["elem"] = { kind: "unsupported", text: "[key, value] pairs" };

/** A record whose fields are strings, numbers, booleans or records of those. */
function plainRecord(v: Sym): boolean {
  return v.k === "rec" && [...v.fields.values()].every((f) => f.k === "str" || f.k === "num" || f.k === "bool" || plainRecord(f));
}

function recordType(v: Sym): Extract<Sym, { k: "sarr" }>["elem"] {
  if (v.k === "rec") return { kind: "record", name: "mapped", fields: [...v.fields].map(([name, f]) => ({ name, type: recordType(f) })) };
  return v.k === "str" ? { kind: "string" } : v.k === "num" ? { kind: "number" } : { kind: "boolean" };
}

export function makeView(view: View, why = VIEW_WHY): Sym {
  const v: Sym = { k: "opaque", why };
  views.set(v, view);
  return v;
}

/**
 * A callback the methods run: a function the prover follows, or the built-in `Boolean`
 * (`xs.filter(Boolean)`: an element's truthiness, with nothing to call).
 */
type Callee = FunctionLike | { readonly builtin: "Boolean"; readonly node: TS.Expression };
const nodeOf = (fn: Callee): TS.Node => ("builtin" in fn ? fn.node : fn);

/** `Boolean` of the default library, passed by name. */
function booleanCallback(ex: Exec, arg0: TS.Expression): Callee | undefined {
  const arg = skip(ex, arg0);
  if (!ex.ts.isIdentifier(arg) || arg.text !== "Boolean") return undefined;
  const sym = ex.checker.getSymbolAtLocation(arg);
  return sym && isDefaultLibSymbol(ex, sym) ? { builtin: "Boolean", node: arg } : undefined;
}

/** `xs.<method>(callback)` for the methods in CALLBACK_METHODS; `target` is already evaluated. */
export function callArrayCallback(ex: Exec, target: Sym, method: Method, e: TS.CallExpression, st: State): Sym {
  const view = viewOf(target);
  if (!view) refuse(e.expression, `\`${method}\` is modelled on arrays only.`, "Call it on an array input, a literal array or an array returned by a tool.");
  if (e.arguments.length !== 1) refuse(e, `\`${method}\` with a \`thisArg\` is not modelled.`, `Pass only the callback: \`xs.${method}((x) => …)\`.`);
  const builtin = booleanCallback(ex, e.arguments[0]!);
  const { fn, named }: { fn: Callee; named: boolean } = builtin ? { fn: builtin, named: false } : callbackOf(ex, e.arguments[0]!, method, st, true);
  checkAwaited(ex, e, false, `\`${method}\``);
  const base = view.base;
  if (named && !("builtin" in fn)) {
    if (ex.inlining.includes(fn)) refuse(e, "Recursion is not modelled.", "Rewrite the helper without calling itself.");
    ex.inlining.push(fn);
  }
  try {
    // The callback's third parameter is the array the method was called on (`target`, a filter's
    // view included): the program cannot change it there (only a local `const` array can be changed).
    if (base.k === "arr" || base.bound !== undefined) return unrolled(ex, view, fn, method, e, st, target);
    return quantified(ex, view, fn, method, e, st, false, target);
  } finally {
    if (named) ex.inlining.pop();
  }
}

/** The callback: an inline arrow or function expression, or a local helper named directly. */
export function callbackOf(ex: Exec, arg0: TS.Expression, method: Method | "reduce" | "flatMap" | "Array.from", st: State, arrayParameter = false): { fn: FunctionLike; named: boolean } {
  const ts = ex.ts;
  const arg = skip(ex, arg0);
  let fn: FunctionLike;
  if (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) fn = arg;
  else if (ts.isIdentifier(arg)) {
    const v = lookup(ex, arg, st);
    if (v.k !== "fn") refuse(arg, `The callback of \`${method}\` must be a function the prover can follow.`, `Write the callback inline: \`${method === "Array.from" ? "Array.from({ length: n }, (_, i) => …)" : `xs.${method}((x) => …)`}\`.`);
    fn = v.node;
  } else refuse(arg, `The callback of \`${method}\` must be written inline or be a local helper named directly.`, `Write the callback inline: \`xs.${method}((x) => …)\`.`);
  if (fn.asteriskToken) refuse(fn, "Generators are not modelled.", "Use a plain function.");
  if (isAsync(ex, fn)) {
    refuse(fn, `An \`async\` callback of \`${method}\`: each call returns a promise that \`${method}\` does not await, so its calls run at times the program does not control.`, "Loop with `for (const x of xs) { await tool(x); }` instead.");
  }
  const most = (method === "reduce" ? 3 : 2) + (arrayParameter ? 1 : 0);
  if (fn.parameters.length > most) refuse(fn.parameters[most]!, "The callback's parameter for the array itself is not modelled.", "Use the array by its own name.");
  fn.parameters.forEach((p, i) => {
    // The element may be destructured (`({ to, amount }) => …`), as a `for…of` head may (objects.ts).
    const element = i === (method === "reduce" ? 1 : 0);
    const pattern = element && (ts.isObjectBindingPattern(p.name) || ts.isArrayBindingPattern(p.name));
    if ((!ts.isIdentifier(p.name) && !pattern) || p.dotDotDotToken || p.initializer || p.questionToken) {
      refuse(p, `The callback's parameters must be plain identifiers (${method === "reduce" ? "accumulator, element, index" : arrayParameter ? "element, index, array" : "element, index"}).`, method === "reduce" ? "Write `(total, x) => …` and read fields inside the body." : "Write `(x) => …` or `(x, i) => …` and read fields inside the body.");
    }
  });
  return { fn, named: ts.isIdentifier(arg) };
}

/** Run the callback once on (element, index) along `st`; its value (the path is narrowed to where it returns). */
function runCallback(ex: Exec, fn: Callee, element: Sym, index: Sym, call: TS.CallExpression, st: State, self?: Sym): Sym {
  if (!("builtin" in fn)) return runWith(ex, fn, self ? [element, index, self] : [element, index], st);
  // `Boolean(x)`: ToBoolean, which calls nothing (no `valueOf` or `toString`).
  notOpaque(element, fn.node);
  noFunctionValue(element, fn.node);
  return boolT(truthy(element));
}

/** Run a callback with these arguments (missing parameters are `undefined`). */
export function runWith(ex: Exec, fn: FunctionLike, args: readonly Sym[], st: State): Sym {
  const inner: State = { pc: st.pc, env: new Map(st.env) };
  ex.frames.push({ fn, loopBody: undefined });
  try {
    fn.parameters.forEach((p, i) => {
      if (ex.ts.isIdentifier(p.name)) inner.env.set(symbolOfDecl(ex, p), args[i] ?? UNDEF);
      else bindPattern(ex, p.name, args[i] ?? UNDEF, inner, p);
    });
    const flow = execBody(ex, fn, inner);
    const value = flowValue(flow, inner, fn);
    noFunctionValue(value, fn);
    st.pc = inner.pc;
    return value;
  } finally {
    ex.frames.pop();
  }
}

/**
 * The index JavaScript gives the next element present: how many of the elements before it are
 * present (`present`: their conditions, those certainly absent left out). Over a filtered view this
 * is not the base index.
 */
export function keptIndex(present: readonly string[]): Sym {
  if (present.every((k) => k === "true")) return num(present.length);
  return numFromInt(present.length === 1 ? `(ite ${present[0]} 1 0)` : `(+ ${present.map((k) => `(ite ${k} 1 0)`).join(" ")})`, present.length);
}

/** Whether the callback's value decides (stops) the method at this element. */
function decides(method: Method, value: Sym, at: TS.Node): string {
  if (method !== "some" && method !== "every" && method !== "find" && method !== "findIndex") return "false";
  notOpaque(value, at);
  return method === "every" ? not(truthy(value)) : truthy(value);
}

/**
 * Literal arrays and bounded arrays: element j runs when it is present (j < length, kept by a
 * filter) and no earlier element decided.
 */
function unrolled(ex: Exec, view: View, fn: Callee, method: Method, e: TS.CallExpression, st: State, self?: Sym): Sym {
  const base = view.base;
  const count = base.k === "arr" ? base.items.length : base.bound!;
  const entries: { present: string; ran: string; dec: string; element: Sym; value: Sym; index: Sym }[] = [];
  let decided = "false";
  // The index JavaScript passes (and `findIndex` returns) counts the elements present before this
  // one: over a filtered view it is not the base index (`xs.filter(p).forEach((x, i) => …)`).
  let kept: string[] = [];
  for (let j = 0; j < count; j++) {
    const element = base.k === "arr" ? base.items[j]! : base.at(String(j));
    const present = and(base.k === "arr" ? "true" : `(< ${j} ${base.len})`, view.keep ? view.keep(String(j)) : "true");
    const index = view.keep ? keptIndex(kept) : num(j);
    kept = present === "false" ? kept : [...kept, present];
    const ran = and(present, not(decided));
    if (ran === "false") {
      entries.push({ present, ran, dec: "false", element, value: UNDEF, index });
      continue;
    }
    const before = st.pc;
    const body: State = { pc: and(before, ran), env: st.env };
    const value = runCallback(ex, fn, element, index, e, body, self);
    // Where the element did not run, the path goes on as before; where it ran, as the callback left it.
    st.pc = body.pc === and(before, ran) ? before : or(body.pc, and(before, not(ran)));
    const dec = decides(method, value, nodeOf(fn));
    entries.push({ present, ran, dec, element, value, index });
    // `decided ∨ (present ∧ ¬decided ∧ dec)` is `decided ∨ (present ∧ dec)`: the same Boolean
    // function without repeating `decided`, which doubled the term with every element (an `every`
    // over twelve tickets printed 8 MB). Named, as every later element's `ran` repeats it.
    decided = nameTerm(ex, or(decided, and(present, dec)), "Bool", "decided");
  }
  switch (method) {
    case "forEach": return UNDEF;
    case "some": return boolT(decided);
    case "every": return boolT(not(decided));
    case "find": case "findIndex": {
      let result: Sym = method === "find" ? UNDEF : num(-1);
      for (const en of [...entries].reverse()) {
        const first = and(en.ran, en.dec);
        if (first === "false") continue;
        const m = merge(first, method === "find" ? en.element : en.index, result);
        if (!m) refuse(e, "The elements have values of different kinds.", "Use arrays of one element type.");
        result = m;
      }
      return result;
    }
    case "map": return mappedEntries(ex, view, entries, e);
    case "filter": {
      const keeps = entries.map((en) => and(en.present, truthy(notUndecidable(en.value, nodeOf(fn)))));
      if (base.k === "arr" && keeps.every((k) => k === "true" || k === "false")) return { k: "arr", items: base.items.filter((_, j) => keeps[j] === "true") };
      const keep = (index: string): string => {
        if (/^\d+$/.test(index)) return keeps[Number(index)] ?? "false";
        let acc = "false";
        for (let j = keeps.length - 1; j >= 0; j--) acc = ite(`(= ${index} ${j})`, keeps[j]!, acc);
        return acc;
      };
      return makeView({ base, keep });
    }
  }
}

function notUndecidable(v: Sym, at: TS.Node): Sym {
  notOpaque(v, at);
  return v;
}

/**
 * The array `map` returns over a literal or bounded array (or a view of one), from the callback's
 * value at every index (`present`: the element exists and is kept; absent ones hold `undefined`).
 */
export function mappedEntries(ex: Exec, view: View, entries: readonly { present: string; value: Sym }[], e: TS.CallExpression): Sym {
  if (view.base.k === "arr") {
    // Elements a filter dropped for certain are gone; the others keep their condition.
    const live = entries.filter((en) => en.present !== "false");
    // Every element there: the callback's values as they are, arrays too (`ws.map((w) => listInventory({ w }))`).
    if (live.every((en) => en.present === "true")) return { k: "arr", items: live.map((en) => (en.value.k === "undef" || isArrayValue(en.value) ? en.value : scalarOrRecord(en.value, e))) };
    const items = live.map((en) => en.value.k === "undef" ? en.value : scalarOrRecord(en.value, e));
    const keeps = live.map((en) => en.present);
    return makeView({ base: { k: "arr", items }, keep: (i) => keeps[Number(i)] ?? "false" });
  }
  return mappedUnrolled(ex, view, entries.map((en) => en.value), e);
}

/** `map` over a bounded array or a view: the same presence, each element the callback's value at its index. */
function mappedUnrolled(ex: Exec, view: View, values: Sym[], e: TS.CallExpression): Sym {
  const base = view.base as Extract<Sym, { k: "sarr" }>;
  const at = (index: string): Sym => {
    if (/^\d+$/.test(index)) return values[Number(index)] ?? scalarOrRecord(values[values.length - 1] ?? UNDEF, e);
    let acc: Sym = scalarOrRecord(values[values.length - 1] ?? UNDEF, e);
    for (let j = values.length - 2; j >= 0; j--) {
      const m = merge(`(= ${index} ${j})`, values[j]!, acc);
      if (!m) refuse(e, "The callback returns values of different kinds for different elements.", "Return values of one type.");
      acc = m;
    }
    return acc;
  };
  if (values.length === 0) refuse(e, "`map` over an array bounded to no elements.", "Skip the `map`.");
  if (values.every((v) => v.k === "undef")) return { k: "opaque", why: "an array of `undefined` (the `map` callback returns nothing)" };
  const first = scalarOrRecord(values[0]!, e);
  const mapped: Sym = { k: "sarr", len: base.len, at, elem: elemTypeOf(first, e), bound: base.bound, label: `${base.label}.map` };
  return view.keep ? makeView({ base: mapped as Extract<Sym, { k: "sarr" }>, keep: view.keep }) : mapped;
}

/** An array, or a filter's result. */
function isArrayValue(v: Sym): boolean {
  return v.k === "arr" || v.k === "sarr" || views.has(v);
}

function scalarOrRecord(v: Sym, at: TS.Node): Sym {
  if (v.k === "str" || v.k === "num" || v.k === "bool" || v.k === "rec") return v;
  refuse(at, "`map` to values other than strings, numbers, booleans or records of those is not modelled.", "Map to strings, numbers or booleans, or loop with `for…of`.");
}

export function elemTypeOf(v: Sym, at: TS.Node): Extract<Sym, { k: "sarr" }>["elem"] {
  switch (v.k) {
    case "str": return { kind: "string" };
    case "num": return { kind: "number" };
    case "bool": return { kind: "boolean" };
    case "rec": return { kind: "record", name: "mapped", fields: [...v.fields].map(([name, f]) => ({ name, type: elemTypeOf(f, at) })) };
    default: refuse(at, "`map` to values other than strings, numbers, booleans or records of those is not modelled.", "Map to strings, numbers or booleans, or loop with `for…of`.");
  }
}

/** A value with the quantified index renamed (the callback's value at another element). */
export function renameSym(v: Sym, renames: ReadonlyMap<string, string>): Sym {
  switch (v.k) {
    case "str": return v.c !== undefined ? v : { k: "str", t: renameSymbols(v.t, renames) };
    case "bool": return v.c !== undefined ? v : boolT(renameSymbols(v.t, renames));
    case "num": return renameNum(v, (t) => renameSymbols(t, renames));
    case "maybe": return { k: "maybe", def: renameSymbols(v.def, renames), v: renameSym(v.v, renames) };
    case "rec": return { k: "rec", fields: new Map([...v.fields].map(([k, x]) => [k, renameSym(x, renames)])) };
    case "undef": return v;
    default: throw new Error(`a ${v.k} value cannot be renamed`);
  }
}

/**
 * What a callback's run established at its index (the parts of a `trim`, an element promise) holds
 * at every index, whatever the callback decides there: assumed under its own quantifier. Only inside
 * a quantifier that decides something (`∃k. facts(k) ∧ hit(k)`) it could be dodged where the
 * quantifier is negated (`xs.some((s) => s.trim() === "")` false for `[""]` by a `trim` whose parts
 * do not make up its string: a false violation, h52 i08).
 */
export function assumedAtEvery(ex: Exec, range: (x: string) => string, facts: (x: string) => string): void {
  const k = ex.world.fresh("k");
  const f = facts(k);
  if (f === "true") return;
  ex.world.assumptions.push({ term: `(forall ((${k} Int)) ${implies(range(k), f)})`, loops: [...ex.loops] });
}

/**
 * An array of unknown length: the callback runs once at a quantified index q (0 ≤ q < length, kept
 * by a filter). Calls in it are facts under q's quantifier; the code after the method runs only if
 * no element's run failed. Inside a `try`, an element's failure stops the later elements (see
 * iterations.ts), except under `Promise.all` (`all`), where every element's call is made.
 */
export function quantified(ex: Exec, view: View, fn: Callee, method: Method, e: TS.CallExpression, st: State, all = false, self?: Sym): Sym {
  const base = view.base as Extract<Sym, { k: "sarr" }>;
  // Over a filtered view of unknown length, an element's index in the filtered array (the count of
  // kept elements before it) is not modelled: the index one symbolic iteration has is the base's.
  const readsIndex = !("builtin" in fn) && (fn.parameters.length >= 2 || fn.parameters.some((p) => p.dotDotDotToken !== undefined));
  if (view.keep && method === "findIndex") {
    refuse(e, "The index of an element of a filtered array of unknown length (its position among the kept elements, which `findIndex` returns) is not modelled.", "Use the element itself (`find`, `some`), or search the base array: `xs.findIndex((x) => keep(x) && …)`.");
  }
  const q = ex.world.fresh("i");
  declare(ex, q, "Int");
  const range = (x: string): string => and(`(<= 0 ${x})`, `(< ${x} ${base.len})`, view.keep ? view.keep(x) : "true");
  ex.world.loopRanges.set(q, { len: base.len });
  // `Promise.all` makes every element's call even after one rejected: every element starts.
  const started = all ? undefined : startedFlag(ex, q, base.len);
  const entry = and(st.pc, range(q), started?.term ?? "true");
  const body: State = { pc: entry, env: st.env };
  const marks = { facts: ex.world.facts.length, obligations: ex.world.obligations.length, throws: ex.world.throws.length, results: ex.world.toolResults.length, assumptions: ex.world.assumptions.length };
  // Over a filtered view the callback's index is its position among the kept elements: some
  // integer from 0 to q, stated, not defined (`World.keptIndices`): a violation is a counterexample
  // only once a run with short arrays, where the position is exact (`keptIndex`), shows it again.
  let index = numFromInt(q, ARRAY_LENGTH_MAG);
  if (view.keep && readsIndex) {
    const name = ex.world.fresh("keptIndex");
    declare(ex, name, "Int", ex.loops.length + 1);
    const term = `(${name} ${[...ex.loops, q].join(" ")})`;
    ex.world.assumptions.push({ term: and(`(<= 0 ${term})`, `(<= ${term} ${q})`), loops: [...ex.loops, q] });
    ex.world.keptIndices++;
    index = numFromInt(term, ARRAY_LENGTH_MAG);
  }
  ex.loops.push(q);
  let value: Sym;
  try {
    value = runCallback(ex, fn, base.at(q), index, e, body, self);
  } finally {
    ex.loops.pop();
  }
  const effects = ex.world.facts.length > marks.facts || ex.world.obligations.length > marks.obligations || ex.world.throws.length > marks.throws || ex.world.toolResults.length > marks.results;
  const shortCircuits = method === "some" || method === "every" || method === "find" || method === "findIndex";
  if (shortCircuits && effects) {
    refuse(e, `A \`${method}\` callback that calls a tool or may fail, over an array of unknown length: which elements it runs on depends on every earlier element.`, `Decide with a callback that only computes (\`const hit = xs.${method}((x) => x.startsWith("/secret"))\`), then call tools outside it; or loop with \`for (const x of xs)\` and guard the calls with \`if\`.`);
  }
  started?.close(entry, body.pc);
  if (body.pc !== entry) {
    // Some element's run may fail: the code after the method runs only if none did.
    const q2 = ex.world.fresh("j");
    st.pc = and(st.pc, `(forall ((${q2} Int)) ${implies(range(q2), renameSymbols(body.pc, new Map([[q, q2]])))})`);
  }
  if (method === "forEach") return UNDEF;
  if (method === "map" || method === "filter") {
    const local = ex.world.assumptions.slice(marks.assumptions).filter((a) => a.loops.includes(q));
    if (method === "filter") {
      const kept = truthy(notUndecidable(value, nodeOf(fn)));
      const own = factsAt(local.map((a) => a.term), q);
      assumedAtEvery(ex, range, own);
      // What the callback's run established at its index (the first index `indexOf` found, a
      // tool's ensures) is part of whether an element is kept: the view is read at other indices
      // (a later loop's), where those facts were never assumed (h48 i15: `xs.filter((x, i) =>
      // xs.indexOf(x) === i)` kept both copies of a duplicate, a false violation). True in every
      // run, so conjoining it keeps every run's elements.
      const keep = (i: string): string => and(view.keep ? view.keep(i) : "true", renameSymbols(kept, new Map([[q, i]])), own(i));
      return makeView({ base, keep, facts: (i) => and(view.facts ? view.facts(i) : "true", own(i)) });
    }
    // A callback that returns nothing (its calls are what matters): an array of `undefined`s, never read.
    if (value.k === "undef") return { k: "opaque", why: "an array of `undefined` (the `map` callback returns nothing)" };
    const mappedValue = scalarOrRecord(value, e);
    const seen = new Set<string>();
    const at = (i: string): Sym => {
      const renames = new Map([[q, i]]);
      // The facts the callback's run established about its value (an `ensures` of a tool it called)
      // hold at every element: instantiate them at the element read.
      if (ex.steps !== undefined && !seen.has(i) && i !== q) {
        seen.add(i);
        // (An index computed from a loop's, `xs[i + 1]`, depends on that loop.)
        for (const a of local) ex.world.assumptions.push({ term: renameSymbols(a.term, renames), loops: a.loops.flatMap((l) => (l === q ? indexLoops(ex, i) : [l])) });
      }
      return renameSym(mappedValue, renames);
    };
    const mapped: Sym = { k: "sarr", len: base.len, at, elem: elemTypeOf(mappedValue, e), label: `${base.label}.map` };
    return view.keep ? makeView({ base: mapped as Extract<Sym, { k: "sarr" }>, keep: view.keep, facts: view.facts }) : mapped;
  }
  // Pure short-circuiting methods: quantifiers over the elements (facts about the element read
  // at the bound index belong inside the quantifier, as for `includes`).
  const local = ex.world.assumptions.splice(marks.assumptions).map((a) => a.term);
  const dec = decides(method, value, nodeOf(fn));
  const k = ex.world.fresh("k");
  const at = (x: string, term: string): string => renameSymbols(term, new Map([[q, x]]));
  const facts = (x: string): string => and(...local.map((t) => at(x, t)));
  assumedAtEvery(ex, range, facts);
  const some = `(exists ((${k} Int)) ${and(range(k), facts(k), at(k, dec))})`;
  if (method === "some") return boolT(some);
  if (method === "every") return boolT(not(some));
  // find / findIndex: the first deciding index, a fresh integer constrained where one exists.
  const first = ex.world.fresh("first");
  declare(ex, first, "Int", ex.loops.length);
  const f = ex.loops.length === 0 ? first : `(${first} ${ex.loops.join(" ")})`;
  const j = ex.world.fresh("j");
  const earlier = `(forall ((${j} Int)) ${implies(and(`(<= 0 ${j})`, `(< ${j} ${f})`, view.keep ? view.keep(j) : "true", facts(j)), not(at(j, dec)))})`;
  ex.world.assumptions.push({ term: implies(some, and(range(f), facts(f), at(f, dec), earlier)), loops: [...ex.loops] });
  if (method === "findIndex") return numFromInt(ite(some, f, "(- 1)"), ARRAY_LENGTH_MAG);
  const element = base.at(f);
  return { k: "maybe", def: some, v: element };
}
