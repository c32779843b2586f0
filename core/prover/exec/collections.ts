/**
 * `Set` and `Map` of strings and numbers the program builds (issue 10): `new Set()`/`new Map()`
 * (empty or from a literal array), `add`, `set`, `has`, `get`, `delete`, `clear`, `size`, and
 * `for…of` in insertion order. A collection is a list of slots in the order keys were first added,
 * each present where its condition holds (values.ts `Slot`); keys compare by SameValueZero (NaN
 * equals NaN, -0 is stored as +0). Only a `const` the function owns may change (as locals.ts
 * requires of arrays); a collection changed across iterations of a loop over an array of unknown
 * length is refused.
 */
import { CarriedStateRefusal } from "./carried-refusal";
import type * as TS from "typescript";
import { and, not, or } from "../smt";
import { boolT, merge, num, numFromInt, sameValueZero, UNDEF, type Slot, type Sym } from "../values";
import { UNROLL_CAP } from "./caps";
import { changeInPlace } from "./changes";
import { copiedByArrayFrom, currentFrame, inside, isDefaultLibSymbol, refuse, skip, symbolAt, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { definite, noFunctionValue, notOpaque } from "./guards";
import { compactCollection, type State } from "./state";
import { uniqueView } from "./unique";
import { isCollecting } from "./collected";
import { makeView } from "./callbacks";
import { freshForMap } from "./map-arrays";

export type Coll = Extract<Sym, { k: "coll" }>;

const READS: ReadonlySet<string> = new Set(["has", "get", "size"]);
/** Iterators, read only where a `for…of` iterates them or a spread copies them (readOnly). */
const ITERATORS: ReadonlySet<string> = new Set(["entries", "keys", "values"]);
const WRITES: ReadonlySet<string> = new Set(["add", "set", "delete", "clear"]);

const INSTEAD = "Use `has`, `get`, `add`, `set`, `delete`, `clear`, `size` and `for…of` on a Set or Map.";

let nextSlot = 0;

/** `new Set(…)` / `new Map(…)` of the standard library; undefined for other constructors. */
export function newCollection(ex: Exec, e: TS.NewExpression, st: State): Sym | undefined {
  const ts = ex.ts;
  if (!ts.isIdentifier(e.expression) || (e.expression.text !== "Set" && e.expression.text !== "Map")) return undefined;
  if (!isDefaultLibSymbol(ex, ex.checker.getSymbolAtLocation(e.expression) ?? ({} as TS.Symbol))) return undefined;
  const map = e.expression.text === "Map";
  const args = e.arguments ?? [];
  let coll: Coll = { k: "coll", map, slots: [] };
  if (args.length > 1) refuse(e, `\`new ${e.expression.text}\` takes at most one argument.`, `Write \`new ${e.expression.text}()\` or pass a literal array.`);
  if (args.length === 1) {
    const init = definite(ex, evalExpr(ex, args[0]!, st), args[0]!, st);
    if (!map && init.k !== "arr") {
      const unique = uniqueView(ex, init, args[0]!);
      if (unique) return unique;
    }
    if (init.k !== "arr") refuse(args[0]!, `\`new ${e.expression.text}\` is modelled from a literal array only (an array of unknown length gives a collection of unknown size).`, map ? "Pass literal pairs (`new Map([[\"a\", 1]])`), or add each entry with `set` in a loop over a literal array." : "Pass a literal array (`new Set([\"a\", \"b\"])`), or add each element with `add` in a loop over a literal array.");
    for (const item of init.items) {
      if (!map) coll = added(coll, key(item, args[0]!), undefined);
      else {
        if (item.k !== "arr" || item.items.length !== 2) refuse(args[0]!, "A Map is built from pairs `[key, value]`.", "Pass literal pairs: `new Map([[\"a\", 1], [\"b\", 2]])`.");
        coll = added(coll, key(item.items[0]!, args[0]!), value(item.items[1]!, args[0]!));
      }
    }
  }
  return capped(coll, e);
}

/** A value as a Set or Map stores it: a number's -0 becomes +0 (SameValueZero keys); others unchanged. */
export function storedKey(v: Sym): Sym {
  if (v.k !== "num") return v;
  if (v.c !== undefined) return Object.is(v.c, -0) ? num(0) : v;
  return { ...v, t: `(ite (fp.isZero ${v.t}) (_ +zero 11 53) ${v.t})` };
}

/** A key: a string or a number (-0 stored as +0, as `add` and `set` do). */
function key(v: Sym, at: TS.Node): Sym {
  notOpaque(v, at);
  noFunctionValue(v, at);
  if (v.k === "str" || v.k === "num") return storedKey(v);
  refuse(at, "Only strings and numbers are modelled as keys of a Set or Map (a value that may be undefined, an object or an array is not).", "Use string or number keys; test a possibly undefined value first.");
}

/** A Map value: a string, number or boolean, or a record of those (a tool result's element). */
function value(v: Sym, at: TS.Node): Sym {
  notOpaque(v, at);
  noFunctionValue(v, at);
  const plain = (x: Sym): boolean => x.k === "str" || x.k === "num" || x.k === "bool" || (x.k === "rec" && [...x.fields.values()].every(plain));
  if (plain(v)) return v;
  refuse(at, "Only strings, numbers, booleans and records of those are modelled as values of a Map.", "Store strings, numbers, booleans or records of those.");
}

/**
 * A value `set` stores: as `value`, or an array no other name holds (map-arrays.ts: a new array,
 * or the `list` of `const list = m.get(k) ?? []; list.push(x); m.set(k, list)`) of such values.
 */
function mapValue(ex: Exec, v: Sym, at: TS.Expression, set: TS.CallExpression): Sym {
  if (v.k !== "arr" && v.k !== "sarr") return value(v, at);
  if (!freshForMap(ex, at, set)) refuse(at, "An array stored in a Map is modelled where no other name holds it: a new array (`[]`, `[x]`, `[...xs, x]`), or the `list` of `const list = m.get(k) ?? []; list.push(x); m.set(k, list);`.", "Store a new array, or group with `m.get(k)!.push(x)` after `if (!m.has(k)) m.set(k, [])`.");
  if (v.k === "arr") for (const item of v.items) value(item, at);
  else if (v.bound === undefined) refuse(at, "An array of unknown length is not modelled as a value of a Map.", "Store arrays the program builds.");
  return v;
}

/** Whether the collection holds `k`, by SameValueZero. */
function holds(c: Coll, k: Sym): string {
  return or(...c.slots.map((s) => and(s.present, equal(s.key, k))));
}

function equal(a: Sym, b: Sym): string {
  const eq = sameValueZero(a, b);
  if (eq === undefined) throw new Error("keys of a collection are strings and numbers");
  return eq;
}

/** `add(k)` / `set(k, v)`: a new slot at the end where k is absent; an existing key keeps its place (a Map's value changes). */
function added(c: Coll, k: Sym, v: Sym | undefined): Coll {
  const there = holds(c, k);
  const slots: Slot[] = c.slots.map((s) => {
    if (v === undefined || s.value === undefined) return s;
    const hit = and(s.present, equal(s.key, k));
    if (hit === "false") return s;
    const m = merge(hit, v, s.value);
    if (!m) throw new KindMismatch();
    return { ...s, value: m };
  });
  if (there !== "true") slots.push({ id: nextSlot++, key: k, present: not(there), ...(v !== undefined ? { value: v } : {}) });
  return { k: "coll", map: c.map, slots };
}

class KindMismatch extends Error {}

function capped(c: Coll, at: TS.Node): Coll {
  if (c.slots.length > UNROLL_CAP) refuse(at, `The collection would be given more than ${UNROLL_CAP} keys.`, "Build a smaller collection.");
  return c;
}

/** `s.size`: the number of present slots. */
export function collectionSize(c: Coll): Sym {
  if (c.slots.every((s) => s.present === "true" || s.present === "false")) return num(c.slots.filter((s) => s.present === "true").length);
  const int = c.slots.length === 0 ? "0" : `(+ 0 ${c.slots.map((s) => `(ite ${s.present} 1 0)`).join(" ")})`;
  return numFromInt(int, c.slots.length);
}

/** The elements `for…of` visits, in insertion order, each where it is present: keys, or `[key, value]` pairs. */
export function collectionItems(c: Coll): { item: Sym; c: string }[] {
  return c.slots.map((s) => ({ item: c.map ? { k: "arr", items: [s.key, s.value!] } : s.key, c: s.present }));
}

/** The elements of a collection whose every slot is known present or absent (for `[...s]`); undefined otherwise. */
export function knownItems(c: Coll): Sym[] | undefined {
  if (!c.slots.every((s) => s.present === "true" || s.present === "false")) return undefined;
  return collectionItems(c).filter((x) => x.c === "true").map((x) => x.item);
}

/** A method call on a Set or Map. */
export function callCollectionMethod(ex: Exec, target: Coll, name: string, e: TS.CallExpression, st: State): Sym {
  const kind = target.map ? "Map" : "Set";
  if (ITERATORS.has(name)) return iterated(ex, target, name, e);
  if (!READS.has(name) && !WRITES.has(name) || name === "size") refuse(e.expression, `\`${kind}.prototype.${name}\` is not modelled.`, INSTEAD);
  if ((name === "add" || name === "get") && target.map !== (name === "get")) refuse(e.expression, `A ${kind} has no \`${name}\`.`, INSTEAD);
  if (name === "set" && !target.map) refuse(e.expression, "A Set has no `set`.", INSTEAD);
  const arity = name === "clear" ? 0 : name === "set" ? 2 : 1;
  if (e.arguments.length !== arity) refuse(e, `\`${name}\` takes ${arity} argument${arity === 1 ? "" : "s"} here.`, INSTEAD);
  const args = e.arguments.map((a) => evalExpr(ex, a, st));
  if (name === "has" || name === "get") {
    const k = args[0]!;
    notOpaque(k, e.arguments[0]!);
    noFunctionValue(k, e.arguments[0]!);
    // A key of another kind (undefined, a boolean) is never held: keys are strings and numbers.
    // So a key that may be undefined (`words.find(…)`) is not held where it is undefined.
    const inner = k.k === "maybe" ? k.v : k;
    if (inner.k !== "str" && inner.k !== "num") refuse(e.arguments[0]!, "Only strings and numbers are modelled as keys of a Set or Map.", "Test a possibly undefined value first.");
    const read = name === "has" ? boolT(holds(target, inner)) : got(target, inner);
    if (k.k !== "maybe") return read;
    const m = merge(k.def, read, name === "has" ? boolT("false") : UNDEF);
    if (!m) refuse(e, "The Map's values and `undefined` do not merge here.", INSTEAD);
    return m;
  }
  const owner = ownedCollection(ex, (e.expression as TS.PropertyAccessExpression).expression);
  let next: Coll;
  let result: Sym = UNDEF;
  try {
    switch (name) {
      case "add": next = added(target, key(args[0]!, e.arguments[0]!), undefined); break;
      case "set": next = added(target, key(args[0]!, e.arguments[0]!), mapValue(ex, args[1]!, e.arguments[1]!, e)); break;
      case "delete": {
        const k = key(args[0]!, e.arguments[0]!);
        result = boolT(holds(target, k));
        next = { k: "coll", map: target.map, slots: target.slots.map((s) => ({ ...s, present: and(s.present, not(equal(s.key, k))) })).filter((s) => s.present !== "false") };
        break;
      }
      default: next = { k: "coll", map: target.map, slots: [] };
    }
  } catch (err) {
    if (err instanceof KindMismatch) refuse(e, "The Map holds values of another kind.", "Store values of one type in a Map.");
    throw err;
  }
  changeInPlace(ex, st, owner, compactCollection(ex, capped(next, e)), e);
  return result;
}

/**
 * `m.entries()`, `m.keys()`, `m.values()` (and a Set's) where they are iterated (`for…of`) or
 * spread (`[...m.entries()]`; readOnly lets nothing else use them): the elements in insertion
 * order, each where its slot is present: an array when every slot is, else a filtered view of the
 * slots (callbacks.ts), which reads as the compacted array.
 */
function iterated(ex: Exec, c: Coll, name: string, e: TS.CallExpression): Sym {
  iteratedOnce(ex, name, e);
  return collectionElements(c, name as "entries" | "keys" | "values");
}

/**
 * Refuses `m.entries()` (`keys()`, `values()`) anywhere but where a `for…of` iterates it or a
 * spread copies it: an iterator is used up by one pass, and only the pass written where it is
 * made is modelled (also for a Map a loop over an array of unknown length built, collected-maps.ts).
 */
export function iteratedOnce(ex: Exec, name: string, e: TS.CallExpression): void {
  const ts = ex.ts;
  if (e.arguments.length > 0) refuse(e, `\`${name}\` takes no arguments.`, `Call \`${name}()\`.`);
  let at: TS.Node = e;
  while (ts.isParenthesizedExpression(at.parent)) at = at.parent;
  const p = at.parent;
  if (!(ts.isForOfStatement(p) && p.expression === at) && !(ts.isSpreadElement(p) && ts.isArrayLiteralExpression(p.parent))) {
    refuse(e, `\`${name}()\` is modelled only where \`for…of\` iterates it or a spread copies it (an iterator is used up by one pass).`, `Write \`for (const x of m.${name}())\` or \`[...m.${name}()]\`.`);
  }
}

/**
 * What iterating a Set or Map yields, in insertion order, each where its slot is present: keys,
 * values or `[key, value]` pairs (`[...m]` and `for…of m` are a Map's pairs, a Set's keys). An
 * array when every slot is present, else a filtered view of the slots (callbacks.ts).
 */
export function collectionElements(c: Coll, name: "entries" | "keys" | "values" = c.map ? "entries" : "keys"): Sym {
  const items = c.slots.map((s): Sym => {
    const v = c.map ? s.value! : s.key;
    return name === "keys" ? s.key : name === "values" ? v : { k: "arr", items: [s.key, v] };
  });
  const keeps = c.slots.map((s) => s.present);
  if (keeps.every((k) => k === "true")) return { k: "arr", items };
  return makeView({ base: { k: "arr", items }, keep: (i) => (/^\d+$/.test(i) ? (keeps[Number(i)] ?? "false") : "false") });
}

/** `m.get(k)`: the value of the present slot holding k, undefined where there is none. */
function got(c: Coll, k: Sym): Sym {
  const hits = c.slots.map((s) => ({ hit: and(s.present, equal(s.key, k)), v: s.value! })).filter((h) => h.hit !== "false");
  if (hits.length === 0) return UNDEF;
  let acc = hits[hits.length - 1]!.v;
  for (let i = hits.length - 2; i >= 0; i--) {
    const m = merge(hits[i]!.hit, hits[i]!.v, acc);
    if (!m) throw new Error("values of one Map did not merge");
    acc = m;
  }
  const def = or(...hits.map((h) => h.hit));
  return def === "true" ? acc : { k: "maybe", def, v: acc };
}

/** Whether `node` reads a collection where it stands (used by locals.ts for spreads too). */
function readOnly(ex: Exec, id: TS.Identifier, sym: TS.Symbol): string | undefined {
  const ts = ex.ts;
  let n: TS.Node = id;
  while (n.parent && (ts.isParenthesizedExpression(n.parent) || ts.isAsExpression(n.parent) || ts.isNonNullExpression(n.parent) || ts.isSatisfiesExpression(n.parent))) n = n.parent;
  const p = n.parent;
  if (ts.isPropertyAccessExpression(p) && p.expression === n) {
    const name = p.name.text;
    if (name === "size") return undefined;
    const call = p.parent;
    if (!ts.isCallExpression(call) || call.expression !== p) return "is read by a method that is not called here";
    if (READS.has(name)) return undefined;
    // `for (const [k, v] of m.entries())`, `[...m.values()]`: read where they stand (nothing keeps the iterator).
    if (ITERATORS.has(name) && (ts.isForOfStatement(call.parent) && call.parent.expression === call || ts.isSpreadElement(call.parent) && ts.isArrayLiteralExpression(call.parent.parent))) {
      if (ts.isForOfStatement(call.parent) && changedWhileIterated(ex, call.parent.statement, sym)) return "is changed while a `for…of` iterates it";
      return undefined;
    }
    // `add` and `set` return the collection itself: only a discarded result keeps it unaliased.
    if ((name === "add" || name === "set") && !ts.isExpressionStatement(call.parent)) return `is returned by \`${name}\` here (chained or stored)`;
    if (WRITES.has(name)) return undefined;
    return `is used by \`${name}\` here`;
  }
  if (ts.isForOfStatement(p) && p.expression === n) return changedWhileIterated(ex, p.statement, sym) ? "is changed while a `for…of` iterates it" : undefined;
  if ((ts.isSpreadElement(p) && ts.isArrayLiteralExpression(p.parent)) || copiedByArrayFrom(ex, n)) return undefined;
  return "is stored, passed or captured here (another name could reach it)";
}

/** Whether the loop body changes the collection (the model iterates a snapshot; JavaScript sees the change). */
function changedWhileIterated(ex: Exec, body: TS.Node, sym: TS.Symbol): boolean {
  const ts = ex.ts;
  let changed = false;
  const look = (m: TS.Node): void => {
    if (changed) return;
    if (ts.isCallExpression(m) && ts.isPropertyAccessExpression(m.expression) && WRITES.has(m.expression.name.text) && ts.isIdentifier(skip(ex, m.expression.expression)) && ex.checker.getSymbolAtLocation(skip(ex, m.expression.expression)) === sym) changed = true;
    else ts.forEachChild(m, look);
  };
  look(body);
  return changed;
}

/**
 * The variable of a collection the program owns: a `const` initialised with `new Set(…)`/`new
 * Map(…)`, declared in the function being executed and not outside a loop over an array of
 * unknown length, whose every mention reads or changes it on the spot. Refuses anything else.
 */
export function ownedCollection(ex: Exec, node0: TS.Expression): TS.Symbol {
  const ts = ex.ts;
  const node = skip(ex, node0);
  const how = "Keep the Set or Map in a `const` initialised with `new Set()`/`new Map()` in the function that changes it, and use it only through its methods, `size` and `for…of`.";
  if (!ts.isIdentifier(node)) refuse(node, "Only a Set or Map held by a local `const` can be changed.", how);
  const sym = ex.checker.getSymbolAtLocation(node);
  const decl = sym?.valueDeclaration;
  if (!sym || !decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name)) refuse(node, `\`${node.text}\` is not a local variable.`, how);
  const list = decl.parent;
  if (!ts.isVariableDeclarationList(list) || !(list.flags & ts.NodeFlags.Const)) refuse(node, `\`${node.text}\` is not a \`const\`: another collection could be assigned to it.`, how);
  const init = decl.initializer && skip(ex, decl.initializer);
  if (!init || !ts.isNewExpression(init)) refuse(node, `\`${node.text}\` is not initialised with \`new Set(…)\` or \`new Map(…)\`: it may be shared with another name.`, how);
  const frame = currentFrame(ex);
  if (frame.fn && !inside(decl, frame.fn)) refuse(node, `The function changes \`${node.text}\`, which it captured from outside: closures that mutate captured state are not modelled.`, "Change the collection with `for…of` in the function that owns it.");
  if (!frame.fn && !inside(decl, node.getSourceFile())) refuse(node, "Changing module state is not modelled.", how);
  if (frame.loopBody && !inside(decl, frame.loopBody) && !isCollecting(ex, sym)) {
    // Carried state: a violation is still looked for among runs with short arrays (prove.ts).
    throw new CarriedStateRefusal(node, `The loop body changes \`${node.text}\`, declared outside a loop over an array of unknown length: that carries state across iterations of a quantified loop, which is not modelled.`, "Loop over a literal array or an array with a bounded length; a Set that starts empty (`new Set<string>()`) right before the loop and gets at most one `add` per iteration, tested with `has`, is modelled, as is a check with `has` alone.");
  }
  const scope = decl.parent.parent.parent;
  const visit = (n: TS.Node): void => {
    if (ts.isIdentifier(n) && n !== decl.name && symbolAt(ex, n) === sym) {
      const why = readOnly(ex, n, sym);
      if (why) refuse(n, `\`${n.text}\` ${why}, so changing it (at line ${node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1}) is not modelled.`, how);
    }
    ts.forEachChild(n, visit);
  };
  visit(scope);
  return sym;
}
