/**
 * In-place changes of an array the program owns (locals.ts `ownedArray`), on arrays of known
 * length: `out[i] = v` with a known integer index within the array or just past its end,
 * `splice` with known arguments (computed by JavaScript's own `splice` on the elements),
 * `reverse`, and `sort` with the comparators whose order is a total preorder on the values —
 * `(a, b) => a - b` / `b - a` on numbers that are not NaN, `(a, b) => (a < b ? -1 : a > b ? 1 : 0)`
 * (or its reverse) on strings, and no comparator on strings — by a stable sorting network (the
 * result of a stable sort is unique for such an order); where a number may be NaN, some
 * permutation of the elements (`anyPermutation`). `(a, b) => (a < b ? -1 : 1)` is such an order
 * where the keys are distinct, and some permutation where two are equal. Anything else is refused on its node.
 */
import type * as TS from "typescript";
import { and, implies, not, or } from "../smt";
import { merge, type Sym } from "../values";
import { changeInPlace } from "./changes";
import { isDefaultLibSymbol, refuse, skip, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { ownedArray, storable } from "./locals";
import { refuseObjectWrite } from "./objects";
import { nameTerm, type State } from "./state";
import { declare } from "./fresh";
import { toolOf } from "./await";

type Arr = Extract<Sym, { k: "arr" } | { k: "sarr" }>;

/** The longest array `sort` is modelled on (a network of n·(n−1)/2 compare-exchanges). */
export const SORT_CAP = 12;

function knownLength(target: Arr, at: TS.Node, what: string): readonly Sym[] {
  if (target.k !== "arr") refuse(at, `${what} on an array whose length depends on the path is not modelled.`, "Build the array with the same number of elements on every path, or build a new array with `filter`/`map`.");
  return target.items;
}

/** A known number argument (the start and count of `splice`, an index). */
function knownNumber(ex: Exec, a: TS.Expression, st: State, what: string): number {
  const v = evalExpr(ex, a, st);
  if (v.k !== "num" || v.c === undefined) refuse(a, `${what} is modelled with a number the prover knows (a literal, or a counter of an unrolled loop).`, "Use a literal or a loop counter with a literal bound.");
  return v.c;
}

/** The new value must be of the kind the array holds. */
function sameKind(items: readonly Sym[], v: Sym, at: TS.Node): void {
  const first = items[0];
  if (first && !merge("c", first, v)) refuse(at, "The array holds values of another kind.", "Store values of one type in an array.");
}

/** `out.splice(…)`, `out.sort(…)`, `out.reverse()` on an owned array. */
export function callInPlace(ex: Exec, target: Arr, name: "splice" | "sort" | "reverse", e: TS.CallExpression, st: State, sym: TS.Symbol): Sym {
  // A new array of unknown length a method returned (`const ok = xs.filter(…); ok.sort(cmp)`): its sorted copy.
  if (name === "sort" && target.k === "sarr") {
    const sorted = callSortedCopy(ex, target, e);
    changeInPlace(ex, st, sym, sorted, e);
    return sorted;
  }
  const items = knownLength(target, e, `\`${name}\``);
  // `sort` and `reverse` return the array itself, read only where it stands (locals.ts `escapes`).
  if (name === "reverse") {
    if (e.arguments.length > 0) refuse(e, "`reverse` takes no arguments.", "Call `out.reverse()`.");
    const reversed: Sym = { k: "arr", items: [...items].reverse() };
    changeInPlace(ex, st, sym, reversed, e);
    return reversed;
  }
  if (name === "splice") {
    if (e.arguments.length === 0) refuse(e, "`splice` without arguments changes nothing.", "Call `out.splice(start, count, …items)`.");
    const start = knownNumber(ex, e.arguments[0]!, st, "The start of `splice`");
    const count = e.arguments.length > 1 ? knownNumber(ex, e.arguments[1]!, st, "The count of `splice`") : undefined;
    const added = e.arguments.slice(2).map((a) => {
      const v = storable(evalExpr(ex, a, st), a);
      sameKind(items, v, a);
      return v;
    });
    const next = [...items];
    // JavaScript's own `splice` on the elements: relative and clamped starts, truncated counts.
    const removed = count === undefined ? next.splice(start) : next.splice(start, count, ...added);
    changeInPlace(ex, st, sym, { k: "arr", items: next }, e);
    return { k: "arr", items: removed };
  }
  const order = comparator(ex, e);
  if (items.length > SORT_CAP) refuse(e, `\`sort\` is modelled on arrays of at most ${SORT_CAP} elements.`, "Sort a shorter array, or loop in the order the elements come.");
  const sorted: Sym = { k: "arr", items: sortNetwork(ex, items, order, e) };
  changeInPlace(ex, st, sym, sorted, e);
  return sorted;
}

/**
 * The stable sort of `items` by a modelled order, as a network of adjacent compare-exchanges that
 * swap only when the later element must come first (the result of a stable sort is unique for a
 * total preorder, and JavaScript's `sort` is stable). `len`, when given, is the number of elements
 * present (an array of unknown length bounded by `items.length`): the pairs past it never swap, so
 * the present elements are sorted among themselves and the rest stay behind them.
 */
function sortNetwork(ex: Exec, items: readonly Sym[], order: Order, e: TS.CallExpression, len?: string): Sym[] {
  // Numeric keys that may be NaN (Float64 ones), by the element they belong to.
  const mayBeNaN: string[] = [];
  for (const [i, x] of items.entries()) {
    const k = keyOf(x, order.key);
    const what = order.key.length > 0 ? `the key \`${order.key.join(".")}\` of element ${i}` : `element ${i}`;
    if (order.on === "string" ? k?.k !== "str" : k?.k !== "num") refuse(e, order.on === "string" ? `\`sort\` is modelled here on strings only (${what} is not a string).` : `\`sort\` with a numeric comparator is modelled on numbers only (${what} is not a number).`, order.on === "string" ? "Sort strings." : "Sort numbers.");
    if (k?.k === "num" && k.int === undefined && k.c === undefined) mayBeNaN.push(and(len === undefined ? "true" : `(< ${i} ${len})`, `(fp.isNaN ${k.t})`));
    else if (k?.k === "num" && k.c !== undefined && Number.isNaN(k.c)) refuse(e, `\`sort\` with a numeric comparator on ${what}, which is NaN: the comparator is inconsistent and the order is up to the engine.`, "Sort numbers that are not NaN.");
  }
  // `a.x - b.x || a.y - b.y`: exact only where every key is an integer (a NaN difference is falsy,
  // and a fraction's difference is not the order's): each level's key, of every element.
  if (order.then) {
    for (let level: Order | undefined = order; level; level = level.then) {
      for (const [i, x] of items.entries()) {
        const k = keyOf(x, level.key);
        const integral = k?.k === "num" && (k.int !== undefined || (k.c !== undefined && Number.isInteger(k.c)));
        if (!integral) refuse(e, `A comparator that breaks ties with \`||\` is modelled on integer keys (the key \`${level.key.join(".")}\` of element ${i} may be NaN or a fraction).`, "Sort by integers (amounts a tool's `ensures` declares integral with `Number.isInteger`), or by one key.");
      }
    }
  }
  // A comparator that is never 0 is inconsistent where two present keys are equal (or one is NaN).
  if (order.distinctOnly) {
    const keys = items.map((x) => keyOf(x, order.key)!);
    const present = (i: number): string => (len === undefined ? "true" : `(< ${i} ${len})`);
    for (let i = 0; i < keys.length; i++) {
      for (let j = i + 1; j < keys.length; j++) mayBeNaN.push(and(present(j), sameKey(keys[i]!, keys[j]!)));
    }
  }
  const network = compareExchanges(ex, items, order, e, len);
  const nan = or(...mayBeNaN);
  if (nan === "false") return network;
  // The search among short runs looks only at runs without such keys, where the order is exact.
  if (ex.arrayBound !== undefined) {
    ex.world.assumptions.push({ term: not(nan), loops: [...ex.loops] });
    return network;
  }
  return anyPermutation(ex, items, nan, network, e, len);
}

/**
 * Where a key is NaN, `a - b` is an inconsistent comparator (so is `a < b ? -1 : 1` where two keys
 * are equal) and the engine's order is its own (ECMA-262 leaves it implementation-defined), but
 * still an order of the same elements: the result
 * is then some permutation of the present elements (fresh distinct positions), otherwise the
 * exact order. The world over-approximates (facts.ts `nanSorts`): a proof holds for every engine,
 * and a violation is reported only as a run with short arrays and no such keys shows it again.
 */
function anyPermutation(ex: Exec, items: readonly Sym[], nan: string, network: readonly Sym[], e: TS.CallExpression, len?: string): Sym[] {
  if (ex.loops.length > 0) refuse(e, "`sort` with a comparator that is inconsistent on some keys (numbers that may be NaN; equal keys under a comparator that never returns 0), inside a loop over an array of unknown length, is not modelled.", "Sort before the loop, sort integers (a tool whose `ensures` says `Number.isInteger`), or return 0 for equal keys: `(a, b) => (a < b ? -1 : a > b ? 1 : 0)`.");
  const n = items.length;
  const count = len ?? String(n);
  const positions = items.map(() => {
    const p = ex.world.fresh("sortedFrom");
    declare(ex, p, "Int");
    return p;
  });
  const present = (i: number): string => (len === undefined ? "true" : `(< ${i} ${len})`);
  for (const [i, p] of positions.entries()) {
    ex.world.assumptions.push({ term: implies(present(i), and(`(<= 0 ${p})`, `(< ${p} ${count})`)), loops: [] });
    for (let j = i + 1; j < n; j++) ex.world.assumptions.push({ term: implies(present(j), `(not (= ${p} ${positions[j]!}))`), loops: [] });
  }
  ex.world.nanSorts++;
  return network.map((exact, i) => {
    let chosen: Sym = items[n - 1]!;
    for (let j = n - 2; j >= 0; j--) {
      const m = merge(`(= ${positions[i]!} ${j})`, items[j]!, chosen);
      if (!m) refuse(e, "The elements have values of different kinds.", "Sort an array of one element type.");
      chosen = m;
    }
    const m = merge(nan, chosen, exact);
    if (!m) refuse(e, "The elements have values of different kinds.", "Sort an array of one element type.");
    return compact(ex, m);
  });
}

/**
 * The stable sort's compare-exchanges (see `sortNetwork`).
 */
function compareExchanges(ex: Exec, items: readonly Sym[], order: Order, e: TS.CallExpression, len?: string): Sym[] {
  const a = [...items];
  for (let pass = 0; pass < a.length - 1; pass++) {
    for (let j = 0; j < a.length - 1 - pass; j++) {
      const x = a[j]!, y = a[j + 1]!;
      const swap = and(len === undefined ? "true" : `(< ${j + 1} ${len})`, after(order, x, y));
      if (swap === "false") continue;
      const m1 = merge(swap, y, x), m2 = merge(swap, x, y);
      if (!m1 || !m2) refuse(e, "The elements have values of different kinds.", "Sort an array of one element type.");
      a[j] = compact(ex, m1);
      a[j + 1] = compact(ex, m2);
    }
  }
  return a;
}

/** The value a comparator compares: the element, or its field along `path` (`a.amount`, `a[1]`). */
function keyOf(x: Sym, path: readonly string[]): Sym | undefined {
  let v: Sym | undefined = x;
  // A pair's element by its index (`a[1]`, the value of a Map's `[key, value]` entry).
  for (const f of path) v = v?.k === "rec" ? v.fields.get(f) : v?.k === "arr" && /^\d+$/.test(f) ? v.items[Number(f)] : undefined;
  return v;
}

/**
 * A sorted copy: \`xs.toSorted(cmp)\`, or \`sort\` on a copy no name holds (\`xs.slice().sort(cmp)\`,
 * \`[...xs].sort(cmp)\`, \`Array.from(xs).sort(cmp)\`). Over a literal array, the sorted elements;
 * over an array of unknown length bounded by at most SORT_CAP elements (an \`ensures\`, a literal
 * slice), the network over its first SORT_CAP positions with the pairs past its length left alone:
 * element j of the result is the j-th of the present elements in the order the comparator gives.
 */
export function callSortedCopy(ex: Exec, target: Arr, e: TS.CallExpression): Sym {
  const order = comparator(ex, e);
  if (target.k === "arr") {
    if (target.items.length > SORT_CAP) refuse(e, `\`sort\` is modelled on arrays of at most ${SORT_CAP} elements.`, "Sort a shorter array, or loop in the order the elements come.");
    return { k: "arr", items: sortNetwork(ex, target.items, order, e) };
  }
  if (target.bound === undefined || target.bound > SORT_CAP) return anyOrder(ex, target, order, e);
  const base = target;
  const sorted = sortNetwork(ex, Array.from({ length: base.bound! }, (_, j) => base.at(String(j))), order, e, base.len);
  const at = (i: string): Sym => {
    if (/^\d+$/.test(i)) return sorted[Number(i)] ?? base.at(i);
    // Past the last position no read happens (every read is guarded by the length): any element stands.
    let acc = sorted[sorted.length - 1] ?? base.at(i);
    for (let j = sorted.length - 2; j >= 0; j--) acc = merge(`(= ${i} ${j})`, sorted[j]!, acc)!;
    return acc;
  };
  return { k: "sarr", len: base.len, at, elem: base.elem, label: `${base.label}.sort`, bound: base.bound! };
}

/**
 * A sorted copy of an array of unknown length (or longer than SORT_CAP): the same elements in some
 * order — element i is the base's element at `from(i)`, `from` a bijection of the positions (its
 * inverse `back` states that every element appears) — without stating which order. The world
 * over-approximates (facts.ts `unknownSorts`): a proof holds whatever the order, and a violation
 * is reported only as a run with short arrays, sorted exactly by the network, shows it again.
 */
function anyOrder(ex: Exec, base: Extract<Sym, { k: "sarr" }>, order: Order, e: TS.CallExpression): Sym {
  const cap = `Sort \`xs.slice(0, ${SORT_CAP})\` or a tool result whose \`ensures\` bounds its length by ${SORT_CAP}; or loop in the order the elements come and keep the best so far.`;
  // Among short runs every array is bounded and sorted by the network; one that is not is not searched.
  if (ex.arrayBound !== undefined) refuse(e, `Sorting an array is modelled among short runs when its length is at most ${SORT_CAP} (this array's length is not bounded there).`, cap);
  // The positions would depend on the loop's index: one bijection per iteration is not stated.
  if (ex.loops.length > 0) refuse(e, "Sorting an array of unknown length inside a loop over an array of unknown length is not modelled.", `Sort before the loop, or sort at most ${SORT_CAP} elements (${cap})`);
  for (let level: Order | undefined = order; level; level = level.then) {
    const k = keyOf(base.at("0"), level.key);
    if (level.on === "string" ? k?.k !== "str" : k?.k !== "num") refuse(e, level.on === "string" ? "`sort` is modelled here on strings only." : "`sort` with a numeric comparator is modelled on numbers only.", level.on === "string" ? "Sort strings." : "Sort numbers.");
  }
  const from = ex.world.fresh("sortedFrom"), back = ex.world.fresh("sortedBack"), i = ex.world.fresh("i");
  declare(ex, from, "Int", 1);
  declare(ex, back, "Int", 1);
  const n = base.len;
  const inRange = (x: string): string => and(`(<= 0 ${x})`, `(< ${x} ${n})`);
  ex.world.assumptions.push(
    { term: `(forall ((${i} Int)) ${implies(inRange(i), and(inRange(`(${from} ${i})`), `(= (${back} (${from} ${i})) ${i})`))})`, loops: [] },
    { term: `(forall ((${i} Int)) ${implies(inRange(i), and(inRange(`(${back} ${i})`), `(= (${from} (${back} ${i})) ${i})`))})`, loops: [] },
  );
  ex.world.unknownSorts++;
  return { k: "sarr", len: n, at: (x) => base.at(`(${from} ${x})`), elem: base.elem, label: `${base.label}.sort` };
}

/** Array methods that return a new array, which no name holds until the program stores it. */
const NEW_ARRAY_METHODS: ReadonlySet<string> = new Set(["slice", "filter", "map", "concat", "flatMap", "toSorted", "toReversed"]);

/**
 * Whether `call`'s receiver is a new array no name holds: a tool's result (awaited or not),
 * `xs.slice()`, `[...xs]`, `Array.from(xs)`, or the result of a method that returns a new array (`xs.filter(…)`,
 * `xs.map(…)`, `xs.slice(a, b)`, …), so sorting it in place changes nothing anyone else reads.
 * The method must be the default library's on an array (a tool result's own `filter` could return
 * an array it keeps).
 */
export function freshCopy(ex: Exec, receiver: TS.Expression): boolean {
  const ts = ex.ts;
  let r = skip(ex, receiver);
  while (ts.isAwaitExpression(r)) r = skip(ex, r.expression);
  // A tool's result: the runtime hands each call's result to the program as its own copy
  // (runtime/result-copy.ts), which no tool, input or other result shares.
  if (ts.isCallExpression(r) && !r.questionDotToken && toolOf(ex, r)) return true;
  if (ts.isArrayLiteralExpression(r)) return r.elements.length === 1 && ts.isSpreadElement(r.elements[0]!);
  if (!ts.isCallExpression(r) || !ts.isPropertyAccessExpression(r.expression) || r.questionDotToken || r.expression.questionDotToken) return false;
  const name = r.expression.name.text;
  if (name === "from") return r.arguments.length === 1 && ts.isIdentifier(r.expression.expression) && r.expression.expression.text === "Array";
  if (!NEW_ARRAY_METHODS.has(name)) return false;
  const method = ex.checker.getSymbolAtLocation(r.expression.name);
  return method !== undefined && isDefaultLibSymbol(ex, method) && ex.checker.isArrayType(ex.checker.getTypeAtLocation(r.expression.expression));
}

/** The order a comparator gives: on numbers or strings, ascending or not, of the elements or of their field along `key`. */
type Order = {
  on: "number" | "string";
  descending: boolean;
  key: readonly string[];
  /** `a.x - b.x || a.y - b.y`: the order that decides where this one finds the keys equal (integers only). */
  then?: Order;
  /**
   * `(a, b) => (a.x < b.x ? -1 : 1)`: never 0, so consistent only where the keys are pairwise
   * distinct (two equal keys each say "I come first"): exact there, the engine's own order elsewhere.
   */
  distinctOnly?: true;
};

/** Whether two keys compare as neither less nor greater (`<` false both ways: equal, ±0, or a NaN). */
function sameKey(x: Sym, y: Sym): string {
  if (x.k === "str" && y.k === "str") return x.c !== undefined && y.c !== undefined ? String(x.c === y.c) : `(= ${x.t} ${y.t})`;
  if (x.k === "num" && y.k === "num") {
    if (x.c !== undefined && y.c !== undefined) return String(!(x.c < y.c) && !(y.c < x.c));
    return x.int !== undefined && y.int !== undefined ? `(= ${x.int} ${y.int})` : `(not (or (fp.lt ${x.t} ${y.t}) (fp.lt ${y.t} ${x.t})))`;
  }
  throw new Error("sorted elements are checked before they are compared");
}

/** Whether x must come after y (the comparator's result for (x, y) is positive). */
function afterKeys(order: Order, x: Sym, y: Sym): string {
  // x and y are the keys compared (checked by sortNetwork before).
  const [p, q] = order.descending ? [y, x] : [x, y];
  if (p.k === "str" && q.k === "str") return p.c !== undefined && q.c !== undefined ? String(p.c > q.c) : `(str.< ${q.t} ${p.t})`;
  if (p.k === "num" && q.k === "num") {
    if (p.c !== undefined && q.c !== undefined) return String(p.c > q.c);
    return p.int !== undefined && q.int !== undefined ? `(> ${p.int} ${q.int})` : `(fp.gt ${p.t} ${q.t})`;
  }
  throw new Error("sorted elements are checked before they are compared");
}

/** Whether element x must come after element y: by the first key, then (where equal) by the next. */
function after(order: Order, x: Sym, y: Sym): string {
  const kx = keyOf(x, order.key)!, ky = keyOf(y, order.key)!;
  const first = afterKeys(order, kx, ky);
  if (!order.then) return first;
  // Integer keys (checked by sortNetwork): `a.x - b.x` is 0 exactly where they are equal.
  const eq = kx.k === "num" && ky.k === "num" && kx.c !== undefined && ky.c !== undefined ? String(kx.c === ky.c) : `(= ${intOf(kx)} ${intOf(ky)})`;
  return or(first, and(eq, after(order.then, x, y)));
}

function intOf(k: Sym): string {
  if (k.k !== "num") throw new Error("lexicographic keys are checked to be numbers");
  return k.int ?? String(k.c);
}

function compact(ex: Exec, v: Sym): Sym {
  if (v.k === "rec") return { ...v, fields: new Map([...v.fields].map(([k, f]) => [k, compact(ex, f)])) };
  if (v.k === "str" && v.c === undefined) return { k: "str", t: nameTerm(ex, v.t, "String", "s") };
  if (v.k === "num" && v.c === undefined) return v.int !== undefined ? { k: "num", t: nameTerm(ex, v.t, "(_ FloatingPoint 11 53)", "s"), int: nameTerm(ex, v.int, "Int", "s"), mag: v.mag } : { k: "num", t: nameTerm(ex, v.t, "(_ FloatingPoint 11 53)", "s") };
  return v;
}

const SHAPES = "Sort numbers with `(a, b) => a - b` or `(a, b) => b - a` (ties broken with `|| a.y - b.y` on integer keys), strings with `sort()`, `(a, b) => (a < b ? -1 : a > b ? 1 : 0)` or `(a, b) => (a < b ? -1 : 1)`.";

/** The order a comparator argument gives, recognised by its shape; anything else is refused. */
function comparator(ex: Exec, e: TS.CallExpression): Order {
  const ts = ex.ts;
  if (e.arguments.length === 0) return { on: "string", descending: false, key: [] };
  if (e.arguments.length > 1) refuse(e, "`sort` takes one comparator.", SHAPES);
  const fn = skip(ex, e.arguments[0]!);
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) refuse(fn, "`sort` is modelled with a comparator written in place.", SHAPES);
  if (fn.parameters.length !== 2 || !fn.parameters.every((p) => ts.isIdentifier(p.name) && !p.initializer && !p.dotDotDotToken)) refuse(fn, "The comparator must take two plain parameters.", SHAPES);
  const [a, b] = fn.parameters.map((p) => (p.name as TS.Identifier).text) as [string, string];
  let body: TS.Node = fn.body;
  if (ts.isBlock(body)) {
    const only = body.statements.length === 1 ? body.statements[0]! : undefined;
    if (!only || !ts.isReturnStatement(only) || !only.expression) refuse(fn, "The comparator's shape is not one of those modelled.", SHAPES);
    body = only.expression;
  }
  const bare = (n: TS.Node): TS.Node => (ts.isParenthesizedExpression(n) ? bare(n.expression) : n);
  // A parameter and the fields read from it (`a`, `a.amount`, `a.due.day`, `a[1]`), as one text.
  const name = (n: TS.Node): string | undefined => {
    const x = bare(n);
    if (ts.isIdentifier(x)) return x.text;
    if (ts.isPropertyAccessExpression(x) && !x.questionDotToken && ts.isIdentifier(x.name)) {
      const inner = name(x.expression);
      return inner === undefined ? undefined : `${inner}.${x.name.text}`;
    }
    if (ts.isElementAccessExpression(x) && !x.questionDotToken && ts.isNumericLiteral(x.argumentExpression) && /^\d+$/.test(x.argumentExpression.text)) {
      const inner = name(x.expression);
      return inner === undefined ? undefined : `${inner}.${Number(x.argumentExpression.text)}`;
    }
    return undefined;
  };
  // Both sides must read the same path from the two parameters: `a.amount` against `b.amount`.
  const pathOf = (l: string | undefined, r: string | undefined): { key: string[]; ab: boolean } | undefined => {
    if (l === undefined || r === undefined) return undefined;
    const [lp, ...lk] = l.split("."), [rp, ...rk] = r.split(".");
    if (lk.join(".") !== rk.join(".")) return undefined;
    if (lp === a && rp === b) return { key: lk, ab: true };
    if (lp === b && rp === a) return { key: lk, ab: false };
    return undefined;
  };
  const numLit = (n: TS.Node): number | undefined => {
    const x = bare(n);
    if (ts.isNumericLiteral(x)) return Number(x.text);
    if (ts.isPrefixUnaryExpression(x) && x.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(x.operand)) return -Number(x.operand.text);
    return undefined;
  };
  const e0 = bare(body);
  // `a.x - b.x || a.y - b.y` (and more levels): the first difference that is not 0 decides.
  const difference = (n: TS.Node): Order | undefined => {
    const x = bare(n);
    if (!ts.isBinaryExpression(x) || x.operatorToken.kind !== ts.SyntaxKind.MinusToken) return undefined;
    const p = pathOf(name(x.left), name(x.right));
    return p ? { on: "number", descending: !p.ab, key: p.key } : undefined;
  };
  const levels = (n: TS.Node): Order | undefined => {
    const x = bare(n);
    if (ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.BarBarToken) {
      const first = levels(x.left), rest = levels(x.right);
      if (!first || !rest) return undefined;
      const chain = (o: Order): Order => (o.then ? { ...o, then: chain(o.then) } : { ...o, then: rest });
      return chain(first);
    }
    return difference(x);
  };
  if (ts.isBinaryExpression(e0) && e0.operatorToken.kind === ts.SyntaxKind.BarBarToken) {
    const lexicographic = levels(e0);
    if (lexicographic) return lexicographic;
  }
  // `a - b` / `b - a`.
  if (ts.isBinaryExpression(e0) && e0.operatorToken.kind === ts.SyntaxKind.MinusToken) {
    const p = pathOf(name(e0.left), name(e0.right));
    if (p) return { on: "number", descending: !p.ab, key: p.key };
  }
  // `a < b ? -1 : a > b ? 1 : 0` and its mirror images.
  if (ts.isConditionalExpression(e0)) {
    const test = (n: TS.Node): { lt: boolean; ab: boolean; key: string } | undefined => {
      const x = bare(n);
      if (!ts.isBinaryExpression(x)) return undefined;
      const lt = x.operatorToken.kind === ts.SyntaxKind.LessThanToken ? true : x.operatorToken.kind === ts.SyntaxKind.GreaterThanToken ? false : undefined;
      const p = pathOf(name(x.left), name(x.right));
      if (lt === undefined || !p) return undefined;
      return { lt, ab: p.ab, key: p.key.join(".") };
    };
    const inner = bare(e0.whenFalse);
    const t1 = test(e0.condition);
    if (t1 && ts.isConditionalExpression(inner)) {
      const t2 = test(inner.condition);
      const v1 = numLit(e0.whenTrue), v2 = numLit(inner.whenTrue), v3 = numLit(inner.whenFalse);
      // Normalise each test to "a < b" (true when a comes before b in ascending order).
      const aBeforeB = (t: { lt: boolean; ab: boolean }): boolean => t.lt === t.ab;
      if (t2 && t2.key === t1.key && v3 === 0 && aBeforeB(t1) !== aBeforeB(t2) && v1 !== undefined && v2 !== undefined && v1 === -v2 && v1 !== 0) {
        // First branch: a < b (ascending) gives v1; ascending iff v1 < 0.
        const firstIsLess = aBeforeB(t1);
        return { on: "string", descending: firstIsLess ? v1 > 0 : v1 < 0, key: t1.key === "" ? [] : t1.key.split(".") };
      }
    }
  }
  // `a.x < b.x ? -1 : 1` and its mirror images (`>`, `<=`, `>=`, `b.x < a.x`, `1 : -1`): a strict
  // order where the keys are distinct; on strings, or numbers as the checker types them.
  if (ts.isConditionalExpression(e0)) {
    const x = bare(e0.condition);
    const v1 = numLit(e0.whenTrue), v2 = numLit(e0.whenFalse);
    const op = ts.isBinaryExpression(x) ? x.operatorToken.kind : undefined;
    const lt = op === ts.SyntaxKind.LessThanToken || op === ts.SyntaxKind.LessThanEqualsToken ? true : op === ts.SyntaxKind.GreaterThanToken || op === ts.SyntaxKind.GreaterThanEqualsToken ? false : undefined;
    const p = ts.isBinaryExpression(x) ? pathOf(name(x.left), name(x.right)) : undefined;
    if (ts.isBinaryExpression(x) && lt !== undefined && p && v1 !== undefined && v2 !== undefined && v1 === -v2 && v1 !== 0 && !Number.isNaN(v1)) {
      const leftType = ex.checker.getTypeAtLocation(x.left);
      const on = leftType.flags & ts.TypeFlags.NumberLike ? "number" : "string";
      // The test holds when a comes before b in ascending order (distinct keys: `<=` is `<`).
      const aBeforeB = lt === p.ab;
      return { on, descending: aBeforeB ? v1 > 0 : v1 < 0, key: p.key, distinctOnly: true };
    }
  }
  refuse(fn, "The comparator's shape is not one of those modelled (an arbitrary comparator may be inconsistent, call tools, or depend on the sort's internal order).", SHAPES);
}

/** `out[i] = v` on an owned array: a known index within the array, or just past its end. */
export function assignElement(ex: Exec, e: TS.BinaryExpression, st: State): void {
  const ts = ex.ts;
  const left = skip(ex, e.left) as TS.ElementAccessExpression;
  if (e.operatorToken.kind !== ts.SyntaxKind.EqualsToken) refuse(e.operatorToken, "Compound assignment to an element is not modelled.", "Read the element, compute, and assign with `out[i] = value`.");
  // Writes into objects keep their own refusal (objects.ts).
  if (!ex.checker.isArrayType(ex.checker.getTypeAtLocation(left.expression))) refuseObjectWrite(ex, left);
  const sym = ownedArray(ex, left.expression);
  const target = evalExpr(ex, left.expression, st);
  if (target.k !== "arr" && target.k !== "sarr") refuse(left, "Only elements of arrays the program built can be assigned.", "Assign elements of a local array literal.");
  const items = knownLength(target, left, "Assigning an element");
  const i = knownNumber(ex, left.argumentExpression, st, "The index of an element assignment");
  if (!Number.isInteger(i) || i < 0 || i > items.length) refuse(left.argumentExpression, `Index ${i} is not within the array or just past its end (${items.length} elements): holes and non-index properties are not modelled.`, "Assign within the array, or `push` to add at the end.");
  const v = storable(evalExpr(ex, e.right, st), e.right);
  sameKind(items, v, e.right);
  const next = [...items];
  next[i] = v;
  changeInPlace(ex, st, sym, { k: "arr", items: next }, e);
}
