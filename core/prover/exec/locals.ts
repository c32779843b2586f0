/**
 * Arrays the program builds itself: `push`, `pop`, `unshift` and `shift` on a `const` bound to an
 * array literal, and spread of arrays into an array literal (`[...a, x, ...b]`).
 *
 * Values are immutable here: a mutation rebinds the variable to the new array, so the model is
 * exact only when no other name can reach the same array. The array must therefore be owned: a
 * `const` initialised with an array literal, every other mention of it reading it on the spot
 * (`out.length`, `out[0]`, `out.join(", ")`, `...out`, `for (const x of out)`, `return out`), and
 * never stored, passed or captured by a function. A literal array whose length differs by path
 * (`if (c) out.push(x)`) becomes an array of bounded unknown length where the paths meet (values.ts,
 * `merge`); pushes inside a loop over an array of unknown length collect a filtered view
 * (collected.ts), and other changes there are refused.
 */
import { CarriedStateRefusal } from "./carried-refusal";
import type * as TS from "typescript";
import { compactView, makeView, viewOf } from "./callbacks";
import { merge, numFromInt, num, UNDEF, type Sym } from "../values";
import { UNROLL_CAP } from "./caps";
import { copiedByArrayFrom, currentFrame, inside, isDefaultLibSymbol, refuse, skip, symbolAt, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { noFunctionValue, notOpaque } from "./guards";
import { ARRAY_LENGTH_MAG } from "./integers";
import { collectionElements, knownItems, ownedCollection } from "./collections";
import { groupedList, mapRead, pushIntoMap, type MapRead } from "./map-arrays";
import { callInPlace, freshCopy } from "./inplace";
import { changeInPlace } from "./changes";
import { isCollecting } from "./collected";
import type { State } from "./state";

type Arr = Extract<Sym, { k: "arr" } | { k: "sarr" }>;

/** Mutating array methods: the modelled ones, and the ones refused with what to write instead. */
export const MUTATING_METHODS: ReadonlySet<string> = new Set(["push", "pop", "unshift", "shift", "splice", "sort", "reverse", "fill", "copyWithin"]);

const INSTEAD: Readonly<Record<string, string>> = {
  fill: "Write the elements out, or use `Array.from({ length: n }, () => value)`.",
  copyWithin: "Build a new array with `slice` and spread.",
};

/** `out.push(…)`, `out.pop()`, `out.unshift(…)`, `out.shift()` on an owned array; the others are refused. */
export function callMutator(ex: Exec, target: Arr, name: string, e: TS.CallExpression, st: State): Sym {
  const ts = ex.ts;
  const callee = e.expression as TS.PropertyAccessExpression;
  if (INSTEAD[name] !== undefined) refuse(e, `\`${name}\` changes the array in place, which is not modelled.`, INSTEAD[name]!);
  // `m.get(k)!.push(x)`: the array a Map holds, changed where it is (map-arrays.ts).
  const read = name === "push" || name === "unshift" ? mapRead(ex, callee.expression) : undefined;
  // Of a Map a loop over an array of unknown length builds, whose values are not tracked (collected-maps.ts): the arguments only.
  const mapSym = read && ex.checker.getSymbolAtLocation(read.map);
  if (read && mapSym && isCollecting(ex, mapSym)) {
    if (!ts.isExpressionStatement(e.parent) || e.arguments.some((a) => ts.isSpreadElement(a))) refuse(e, `\`${name}\` into a value of \`${read.map.text}\`, which a loop over an array of unknown length builds, is modelled as a statement with plain arguments only (its values are not tracked).`, "Write `m.get(k)!.push(x);` as a statement of its own.");
    for (const a of e.arguments) evalExpr(ex, a, st);
    return UNDEF;
  }
  const sym = read ? ownedCollection(ex, read.map) : ownedArray(ex, callee.expression, name === "sort" || name === "reverse");
  // Known-length in-place changes (inplace.ts).
  if (name === "splice" || name === "sort" || name === "reverse") return callInPlace(ex, target, name, e, st, sym);
  // `out.push(...more)` appends more's elements, as `[...out, ...more]` does (arrayLiteral).
  if (name === "push" && e.arguments.some((a) => ts.isSpreadElement(a))) {
    const parts: Part[] = [{ value: target, spread: true, node: callee.expression }];
    for (const a of e.arguments) parts.push(ts.isSpreadElement(a) ? { value: evalExpr(ex, a.expression, st), spread: true, node: a } : { value: storable(evalExpr(ex, a, st), a), spread: false, node: a });
    return finishChange(ex, e, st, sym, read, joinParts(ex, parts, e), undefined);
  }
  const args: Sym[] = [];
  for (const a of e.arguments) {
    if (ts.isSpreadElement(a)) refuse(a, "Spread arguments are not modelled here.", "Pass each element explicitly, or build the array with `[...out, ...more]`.");
    args.push(storable(evalExpr(ex, a, st), a));
  }
  if ((name === "pop" || name === "shift") && args.length > 0) refuse(e, `\`${name}\` takes no arguments.`, `Call \`out.${name}()\`.`);
  let step: { next: Arr; result: Sym | undefined };
  try {
    step = name === "push" ? { next: pushed(target, args), result: undefined } : name === "unshift" ? { next: unshifted(target, args), result: undefined } : name === "pop" ? popped(target) : shifted(target);
  } catch (err) {
    if (err instanceof KindMismatch) refuse(e, "The array holds values of another kind.", "Store values of one type in an array.");
    throw err;
  }
  return finishChange(ex, e, st, sym, read, step.next, step.result);
}

/** The array after a change: capped, stored (in its variable, or in the Map that holds it), and the call's result. */
function finishChange(ex: Exec, e: TS.CallExpression, st: State, sym: TS.Symbol, read: MapRead | undefined, next: Arr, result: Sym | undefined): Sym {
  if (next.k === "arr" && next.items.length > UNROLL_CAP) refuse(e, `The array would hold more than ${UNROLL_CAP} elements.`, "Build a shorter array.");
  if (next.k === "sarr" && (next.bound ?? 0) > UNROLL_CAP) refuse(e, `The array may hold more than ${UNROLL_CAP} elements.`, "Build a shorter array.");
  if (read) return pushIntoMap(ex, read, next, e, st, sym);
  changeInPlace(ex, st, sym, next, e);
  return result ?? (next.k === "arr" ? num(next.items.length) : numFromInt(next.len, ARRAY_LENGTH_MAG));
}

/** A value that may be stored in an array the program builds. */
export function storable(v: Sym, at: TS.Node): Sym {
  noFunctionValue(v, at);
  notOpaque(v, at);
  if (v.k === "str" || v.k === "num" || v.k === "bool" || v.k === "rec" || v.k === "arr") return v;
  refuse(at, "Only strings, numbers, booleans, records and literal arrays of those can be stored in an array the program builds (a value that may be undefined is not modelled here).", "Test the value first (`if (x !== undefined) out.push(x)`).");
}

/** Memoised element reader: each index is built once, however many views share it. */
function memo(at: (i: string) => Sym): (i: string) => Sym {
  const seen = new Map<string, Sym>();
  return (i) => {
    let v = seen.get(i);
    if (!v) seen.set(i, (v = at(i)));
    return v;
  };
}

const isLit = (t: string): boolean => /^\d+$/.test(t);
const add = (a: string, n: number): string => (isLit(a) ? String(Number(a) + n) : n === 0 ? a : n > 0 ? `(+ ${a} ${n})` : `(- ${a} ${-n})`);

/** One element selected by index: `ite(i = j, x, rest)`; refuses values of different kinds. */
function pick(cond: string, x: Sym, rest: Sym): Sym {
  const m = merge(cond, x, rest);
  if (!m) throw new Error("elements of an array the program built have different kinds");
  return m;
}

function sameKinds(target: Arr, values: readonly Sym[]): void {
  const first = target.k === "arr" ? target.items[0] : target.at("0");
  for (const v of values) if (first && !merge("c", v, first)) throw new KindMismatch();
}

class KindMismatch extends Error {}

/** The array with `xs` appended (an array of bounded length keeps each new element's position). */
export function pushed(target: Arr, xs: readonly Sym[]): Arr {
  if (target.k === "arr") return { k: "arr", items: [...target.items, ...xs] };
  sameKinds(target, xs);
  const base = target;
  const at = memo((i: string): Sym => {
    let acc = base.at(i);
    xs.forEach((x, j) => {
      const idx = add(base.len, j);
      acc = isLit(i) && isLit(idx) ? (i === idx ? x : acc) : pick(`(= ${i} ${idx})`, x, acc);
    });
    return acc;
  });
  return { k: "sarr", len: add(base.len, xs.length), at, elem: base.elem, label: base.label, ...(base.bound !== undefined ? { bound: base.bound + xs.length } : {}) };
}

function unshifted(target: Arr, xs: readonly Sym[]): Arr {
  if (target.k === "arr") return { k: "arr", items: [...xs, ...target.items] };
  sameKinds(target, xs);
  const base = target;
  const n = xs.length;
  const at = memo((i: string): Sym => {
    if (isLit(i)) {
      const k = Number(i);
      return k < n ? xs[k]! : base.at(String(k - n));
    }
    let acc = base.at(`(- ${i} ${n})`);
    for (let j = n - 1; j >= 0; j--) acc = pick(`(= ${i} ${j})`, xs[j]!, acc);
    return acc;
  });
  return { k: "sarr", len: add(base.len, n), at, elem: base.elem, label: base.label, ...(base.bound !== undefined ? { bound: base.bound + n } : {}) };
}

function popped(target: Arr): { next: Arr; result: Sym } {
  if (target.k === "arr") return { next: { k: "arr", items: target.items.slice(0, -1) }, result: target.items.at(-1) ?? UNDEF };
  const len = target.len;
  const next: Arr = { ...target, len: `(ite (> ${len} 0) (- ${len} 1) 0)` };
  return { next, result: { k: "maybe", def: `(> ${len} 0)`, v: target.at(`(- ${len} 1)`) } };
}

function shifted(target: Arr): { next: Arr; result: Sym } {
  if (target.k === "arr") return { next: { k: "arr", items: target.items.slice(1) }, result: target.items[0] ?? UNDEF };
  const base = target;
  const len = base.len;
  const at = memo((i: string): Sym => base.at(add(i, 1)));
  const next: Arr = { k: "sarr", len: `(ite (> ${len} 0) (- ${len} 1) 0)`, at, elem: base.elem, label: base.label, ...(base.bound !== undefined ? { bound: base.bound } : {}) };
  return { next, result: { k: "maybe", def: `(> ${len} 0)`, v: base.at("0") } };
}

/**
 * The variable of an array the program owns: a `const` bound to an array literal, declared in the
 * function being executed (not captured by a callback or helper, not outside a quantified loop),
 * whose every other mention reads it on the spot. Refuses anything else on `node`.
 */
export function ownedArray(ex: Exec, node0: TS.Expression, copies = false): TS.Symbol {
  const ts = ex.ts;
  const node = skip(ex, node0);
  const how = "Build the array in a `const` initialised with an array literal (`const out: string[] = []`), and use it only by reading it (`out.length`, `out.join(…)`, `for (const x of out)`, `[...out]`, `return out`).";
  if (!ts.isIdentifier(node)) refuse(node, "Only an array held by a local `const` can be changed.", how);
  const sym = ex.checker.getSymbolAtLocation(node);
  const decl = sym?.valueDeclaration;
  if (!sym || !decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name)) refuse(node, `\`${node.text}\` is not a local array variable.`, how);
  const list = decl.parent;
  if (!ts.isVariableDeclarationList(list) || !(list.flags & ts.NodeFlags.Const)) refuse(node, `\`${node.text}\` is not a \`const\`: another array could be assigned to it (or it to another name).`, how);
  // `sort`/`reverse` (`copies`) may also reorder a new array a method returned (`const ok = xs.filter(…)`).
  const init = decl.initializer;
  const grouped = groupedList(ex, decl);
  // A new array a method returned (`const queue = orders.filter(…)`, `[...xs]`) is no one else's either.
  if (!init || !(ts.isArrayLiteralExpression(skip(ex, init)) || freshCopy(ex, init) || (grouped && !copies))) refuse(node, `\`${node.text}\` is not initialised with an array literal or a new array (\`xs.filter(…)\`, \`[...xs]\`): the array may be shared with a tool, an input or another variable.`, how);
  const frame = currentFrame(ex);
  if (frame.fn && !inside(decl, frame.fn)) refuse(node, `The function changes \`${node.text}\`, which it captured from outside: closures that mutate captured state are not modelled.`, "Loop with `for…of` in the function that owns the array, or return a new array (`xs.filter(…)`, `xs.map(…)`).");
  if (!frame.fn && !inside(decl, node.getSourceFile())) refuse(node, "Changing module state is not modelled.", how);
  if (frame.loopBody && !inside(decl, frame.loopBody) && !isCollecting(ex, sym)) {
    // Carried state: a violation is still looked for among runs with short arrays (prove.ts).
    throw new CarriedStateRefusal(node, `The loop body changes \`${node.text}\`, declared outside a loop over an array of unknown length (its length after the loop is not tracked).`, "Build the array with `xs.filter((x) => …)` or `xs.map((x) => …)`, or loop over a literal array or a literal bound.");
  }
  // Every mention must read the array where it stands: nothing else may hold it.
  const scope = decl.parent.parent.parent;
  const visit = (n: TS.Node): void => {
    if (ts.isIdentifier(n) && n !== decl.name && symbolAt(ex, n) === sym) {
      // The store of `const list = m.get(k) ?? []; …; m.set(k, list)` (map-arrays.ts).
      const why = grouped && grouped.set.arguments[1] !== undefined && skip(ex, grouped.set.arguments[1]) === n ? undefined : arrayEscapes(ex, n, sym);
      if (why) refuse(n, `\`${n.text}\` ${why}, so changing it in place (at line ${node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1}) is not modelled.`, how);
    }
    ts.forEachChild(n, visit);
  };
  visit(scope);
  return sym;
}

/** Why this mention lets another name reach the array, or undefined when it only reads it. */
export function arrayEscapes(ex: Exec, id: TS.Identifier, sym: TS.Symbol): string | undefined {
  const ts = ex.ts;
  let n: TS.Node = id;
  while (n.parent && (ts.isParenthesizedExpression(n.parent) || ts.isAsExpression(n.parent) || ts.isNonNullExpression(n.parent) || ts.isSatisfiesExpression(n.parent))) n = n.parent;
  const p = n.parent;
  if (ts.isPropertyAccessExpression(p) && p.expression === n) {
    // A method that returns the array itself would alias it: `sort` and `reverse` only with the result discarded.
    const call = p.parent;
    if ((p.name.text === "sort" || p.name.text === "reverse") && ts.isCallExpression(call) && call.expression === p) return ts.isExpressionStatement(call.parent) || readOnTheSpot(ex, call) ? undefined : `is returned by \`${p.name.text}\` here (the same array, under another name)`;
    // `for (const [i, x] of out.entries())`: the iterator reads the live array at every step, as `for (const x of out)` does.
    if ((p.name.text === "entries" || p.name.text === "keys" || p.name.text === "values") && ts.isCallExpression(call) && call.expression === p && ts.isForOfStatement(call.parent) && call.parent.expression === call) {
      return changedIn(ex, call.parent.statement, sym) ? `is changed while a \`for…of\` over \`${p.name.text}()\` iterates it` : undefined;
    }
    return p.name.text === "sort" || p.name.text === "reverse" || p.name.text === "fill" || p.name.text === "copyWithin" ? `is changed by \`${p.name.text}\` here` : undefined;
  }
  if (ts.isElementAccessExpression(p) && p.expression === n) {
    const write = ts.isBinaryExpression(p.parent) && p.parent.left === p && p.parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && p.parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
    // `out[i] = v` as a statement (inplace.ts); as a value, or compound, it is refused where it stands.
    return write && !(p.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isExpressionStatement(p.parent.parent)) ? "is written by index here" : undefined;
  }
  if (ts.isSpreadElement(p) && ts.isArrayLiteralExpression(p.parent)) return undefined;
  // `JSON.stringify(out)` reads the array and keeps nothing (json.ts), also inside the object or
  // array literal it is given (`JSON.stringify({ count: out.length, ids: out })`).
  let top: TS.Node = n;
  for (;;) {
    const up = top.parent;
    if ((ts.isPropertyAssignment(up) && up.initializer === top) || ts.isShorthandPropertyAssignment(up)) top = up.parent;
    else if (ts.isArrayLiteralExpression(up) || ts.isParenthesizedExpression(up) || ts.isAsExpression(up)) top = up;
    else break;
  }
  const q = top.parent;
  if (ts.isCallExpression(q) && q.arguments.length === 1 && q.arguments[0] === top && ts.isPropertyAccessExpression(q.expression) && q.expression.name.text === "stringify" && ts.isIdentifier(q.expression.expression) && q.expression.expression.text === "JSON") return undefined;
  // `Array.from(out)` copies the elements into a new array, as `[...out]` does.
  if (copiedByArrayFrom(ex, n)) return undefined;
  // `new Set(out)` copies the elements into a new collection and keeps no reference to the array.
  if (ts.isNewExpression(p) && p.arguments?.length === 1 && p.arguments[0] === n && ts.isIdentifier(p.expression) && p.expression.text === "Set") {
    const ctor = ex.checker.getSymbolAtLocation(p.expression);
    if (ctor && isDefaultLibSymbol(ex, ctor)) return undefined;
  }
  if (ts.isForOfStatement(p) && p.expression === n) {
    // Iterating while changing the array sees the change; the model iterates a snapshot.
    return changedIn(ex, p.statement, sym) ? "is changed while a `for…of` iterates it" : undefined;
  }
  if (ts.isReturnStatement(p)) return undefined;
  if (ts.isArrowFunction(p) && p.body === n) return "is returned by a function that may keep it";
  return "is stored, passed or captured here (another name could reach it)";
}

/** Methods and properties that read an array and keep no reference to it. */
const READS: ReadonlySet<string> = new Set(["length", "slice", "at", "find", "findIndex", "some", "every", "map", "filter", "join", "includes", "indexOf", "forEach", "reduce"]);

/** Whether the array `sort`/`reverse` returns is only read where it stands (`xs.sort(cmp)[0]`, `xs.sort(cmp).slice(0, 3)`). */
function readOnTheSpot(ex: Exec, call: TS.CallExpression): boolean {
  const ts = ex.ts;
  const p = call.parent;
  if (ts.isElementAccessExpression(p) && p.expression === call) {
    const q = p.parent;
    const written = (ts.isBinaryExpression(q) && q.left === p && q.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && q.operatorToken.kind <= ts.SyntaxKind.LastAssignment) || ts.isPrefixUnaryExpression(q) || ts.isPostfixUnaryExpression(q) || ts.isDeleteExpression(q);
    return !written;
  }
  return ts.isPropertyAccessExpression(p) && p.expression === call && READS.has(p.name.text);
}

/** Whether `s` changes the array `sym` in place (a mutating method, or a write by index). */
function changedIn(ex: Exec, s: TS.Node, sym: TS.Symbol): boolean {
  const ts = ex.ts;
  const isArray = (x: TS.Expression): boolean => ts.isIdentifier(skip(ex, x)) && ex.checker.getSymbolAtLocation(skip(ex, x)) === sym;
  let found = false;
  const look = (m: TS.Node): void => {
    if (found) return;
    if (ts.isCallExpression(m) && ts.isPropertyAccessExpression(m.expression) && MUTATING_METHODS.has(m.expression.name.text) && isArray(m.expression.expression)) found = true;
    else if (ts.isBinaryExpression(m) && m.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isElementAccessExpression(skip(ex, m.left)) && isArray((skip(ex, m.left) as TS.ElementAccessExpression).expression)) found = true;
    else ts.forEachChild(m, look);
  };
  look(s);
  return found;
}

/**
 * `[a, ...xs, b]`: spread of arrays the prover knows the elements of (literal arrays, and arrays
 * of bounded length built by the program); others are refused.
 */
export function arrayLiteral(ex: Exec, e: TS.ArrayLiteralExpression, st: State): Sym {
  const ts = ex.ts;
  // `[...xs]` alone: the same elements, for a filtered view (a Set built from an array: unique.ts)
  // or an array of unknown length too, which no other spread can follow.
  const only = e.elements.length === 1 ? e.elements[0]! : undefined;
  let evaluated: Sym | undefined;
  if (only && ts.isSpreadElement(only)) {
    evaluated = evalExpr(ex, only.expression, st);
    // `[...m]`: a Set's keys or a Map's pairs, each where its key is present (collections.ts).
    if (evaluated.k === "coll") evaluated = collectionElements(evaluated);
    const view = viewOf(evaluated);
    if (view?.keep) return makeView(view);
    if (evaluated.k === "sarr" && evaluated.bound === undefined) return evaluated;
  }
  const parts: Part[] = [];
  for (const el of e.elements) {
    if (ts.isOmittedExpression(el)) refuse(el, "Holes are not modelled.", "List the elements explicitly.");
    if (ts.isSpreadElement(el)) {
      parts.push({ value: el === only && evaluated ? evaluated : evalExpr(ex, el.expression, st), spread: true, node: el });
      continue;
    }
    const v = evalExpr(ex, el, st);
    noFunctionValue(v, el);
    parts.push({ value: v, spread: false, node: el });
  }
  return joinParts(ex, parts, e);
}

/** One element of an array being built, or an array (or Set, Map, filter's result) spread into it. */
export interface Part {
  readonly value: Sym;
  readonly spread: boolean;
  readonly node: TS.Node;
}

/** The array of `parts` in order, each spread part's elements in its place (`[a, ...xs, b]`, `out.push(...xs)`). */
export function joinParts(ex: Exec, parts: readonly Part[], at: TS.Node): Arr {
  if (!parts.some((p) => p.spread)) return { k: "arr", items: parts.map((p) => p.value) };
  let acc: Arr = { k: "arr", items: [] };
  for (const part of parts) {
    let p = part.value;
    if (part.spread) {
      // A Set or Map whose every key is known present or absent spreads into its elements in insertion order.
      const known = p.k === "coll" ? knownItems(p) : undefined;
      if (known) p = { k: "arr", items: known };
      // A filter's result: the array of its kept elements (callbacks.ts; over an array of unknown
      // length, over a ghost count, counted.ts).
      if (p.k !== "arr" && p.k !== "sarr" && viewOf(p)) p = compactView(ex, p) ?? p;
      if (p.k !== "arr" && p.k !== "sarr") refuse(part.node, "Only arrays, and Sets and Maps whose keys are all known to be there, can be spread here (a string spreads into code points, which is not modelled).", "Spread arrays: `[...a, ...b]`, or loop over the Set with `for…of`.");
    }
    try {
      if (!part.spread) acc = pushed(acc, [p]);
      else if (p.k === "arr") acc = p.items.length === 0 ? acc : acc.k === "arr" ? { k: "arr", items: [...acc.items, ...p.items] } : pushed(acc, p.items);
      else acc = concatArrays(acc, p as Extract<Sym, { k: "sarr" }>);
    } catch (err) {
      if (err instanceof KindMismatch || (err instanceof Error && /different kinds/.test(err.message))) refuse(at, "The elements have values of different kinds.", "Build arrays of one element type.");
      throw err;
    }
  }
  if (acc.k === "sarr" && (acc.bound ?? 0) > UNROLL_CAP) refuse(at, `The array may hold more than ${UNROLL_CAP} elements.`, "Build a shorter array.");
  return acc;
}

/**
 * `[...a, ...b]` where `b` has an unknown length (bounded or not): b's element i sits at
 * a.length + i. Reads past a's end read a at an index it does not have, and b before its start:
 * element functions there are unconstrained by any run, so what their promises say of them is harmless.
 */
function concatArrays(a: Arr, b: Extract<Sym, { k: "sarr" }>): Arr {
  if (a.k === "arr" && a.items.length === 0) return b;
  if (a.k === "sarr" && JSON.stringify(a.elem) !== JSON.stringify(b.elem)) throw new KindMismatch();
  const la = a.k === "arr" ? String(a.items.length) : a.len;
  const ba = a.k === "arr" ? a.items.length : a.bound;
  const bound = ba !== undefined && b.bound !== undefined ? ba + b.bound : undefined;
  const readA = (i: string): Sym => (a.k === "sarr" ? a.at(i) : isLit(i) ? (a.items[Number(i)] ?? a.items[a.items.length - 1]!) : a.items.reduceRight<Sym>((acc, x, j) => pick(`(= ${i} ${j})`, x, acc), a.items[a.items.length - 1]!));
  if (a.k === "arr") sameKinds(b, a.items);
  const at = memo((i: string): Sym => {
    if (isLit(i) && isLit(la)) return Number(i) < Number(la) ? readA(i) : b.at(String(Number(i) - Number(la)));
    return pick(`(< ${i} ${la})`, readA(i), b.at(`(- ${i} ${la})`));
  });
  return { k: "sarr", len: isLit(la) ? add(b.len, Number(la)) : `(+ ${la} ${b.len})`, at, elem: b.elem, label: b.label, ...(bound !== undefined ? { bound } : {}) };
}
