/**
 * Arrays and Sets a loop over an array of unknown length collects: `const out: T[] = []` (or
 * `const seen = new Set<string>()`) before the loop, `out.push(v)` (`seen.add(k)`) in its body
 * under any condition, at most once per iteration. The additions come in iteration order, one per
 * iteration that makes one, so after the loop `out` is exactly a filtered view (callbacks.ts) of
 * the loop's iterations: base element i is the value iteration i pushes, kept iff iteration i
 * runs, reaches a push and ends normally (its path condition at the end, renamed from the loop's
 * index q to i). It reads like `xs.filter(…).map(…)`: iterated, joined, counted (`length`,
 * counted.ts), spread into a `Set`; a Set is that view's distinct values (unique.ts).
 *
 * Inside the body the variable stands for this iteration's additions only (an empty literal, so
 * the ordinary `push` and path merges count them). Two reads are modelled there. Membership,
 * `out.includes(k)` / `seen.has(k)` (the "each address once" loop): some earlier iteration j < q
 * added k, or this one did. For it each iteration's addition is named by two functions of the
 * index, "iteration j added" and "the key it added", defined after the body ran (iteration j added
 * exactly where its path reached the addition: the definition refers to the functions only at
 * earlier indices, so it has one solution, the run's). And the size, `out.length` / `seen.size`
 * (`if (done.size >= 10) break;`): a ghost the loop carries (loopstate.ts), its value when the
 * iteration started plus this iteration's additions (for a Set, of keys no earlier iteration
 * added); after the loop the view's count is that ghost at the length. Any other mention there is refused. An
 * iteration that ends abruptly stops the run (a `try` around the loop is refused: its `catch`
 * would see the addition of the iteration that threw).
 */
import type * as TS from "typescript";
import { and, implies, ite, not, or, renameSymbols } from "../smt";
import { boolT, numFromInt, sameValueZero, UNDEF, type Sym } from "../values";
import { elemTypeOf, makeView, renameSym, viewOf } from "./callbacks";
import { changeInPlace } from "./changes";
import { ownedCollection, storedKey } from "./collections";
import { carriedSizes, factsAt } from "./counted";
import { currentFrame, inside, isDefaultLibSymbol, refuse, skip, symbolAt, writtenBy, type Exec } from "./context";
import { ARRAY_LENGTH_MAG } from "./integers";
import { indexLoops } from "./elements";
import { evalExpr } from "./expressions";
import { declare } from "./fresh";
import { ownedArray, pushed as pushedArray, storable } from "./locals";
import type { State } from "./state";
import { insideTry } from "./try";
import { uniqueView } from "./unique";
import { collectedMap, forgottenValue, mapValueType } from "./collected-maps";
import type { ValueType } from "../../model";

type Kind = "array" | "set" | "map";

const COLLECTED_WHY = "an array a loop over an array of unknown length built with `push`: it can be iterated (`for…of`, `forEach`, `map`, `filter`, `some`, `every`, `find`), joined, spread into a `Set`, and read by `length`, index, `slice` and `at` where the loop runs outside every other loop over an array of unknown length";

/** The loop's collected arrays: bound to this iteration's pushes in the body, to the whole collection after it. */
export interface Collectors {
  /** The sizes the body reads, for the loop's carried state (loopstate.ts). */
  readonly ghosts: readonly SizeGhost[];
  enter(body: State): void;
  /** `end`: the join of the iteration's normal ends (fall-through, `continue`, `break`). */
  finish(end: State | null, after: State, assumptionsBefore: number): void;
}

/**
 * How a mention of a collected variable uses it: a change (`out.push(x)`, `seen.add(k)` as
 * statements), a membership test, a read of its size (`out.length`, `seen.size`), or neither.
 */
function mentionOf(ex: Exec, id: TS.Identifier, kind: Kind): "change" | "member" | "count" | "get" | undefined {
  const ts = ex.ts;
  let n: TS.Node = id;
  while (n.parent && (ts.isParenthesizedExpression(n.parent) || ts.isNonNullExpression(n.parent))) n = n.parent;
  const access = n.parent;
  if (!access || !ts.isPropertyAccessExpression(access) || access.expression !== n || access.questionDotToken) return undefined;
  const call = access.parent;
  if (access.name.text === (kind === "array" ? "length" : "size") && !(ts.isCallExpression(call) && call.expression === access) && writtenBy(ts, call) !== access) return "count";
  if (!ts.isCallExpression(call) || call.expression !== access) return undefined;
  const name = access.name.text;
  if (name === CHANGE[kind] && ts.isExpressionStatement(call.parent)) return "change";
  if (name === (kind === "array" ? "includes" : "has") && call.arguments.length === 1 && !ts.isSpreadElement(call.arguments[0]!)) return "member";
  if (name === "get" && kind === "map" && call.arguments.length === 1 && !ts.isSpreadElement(call.arguments[0]!)) return "get";
  return undefined;
}

/** The method that adds to each kind of collection. */
const CHANGE: Readonly<Record<Kind, string>> = { array: "push", set: "add", map: "set" };

/** An array literal, or `new Set()` / `new Map()` without arguments, as the variable's initialiser. */
function kindOf(ex: Exec, decl: TS.VariableDeclaration): Kind | undefined {
  const ts = ex.ts;
  const init = decl.initializer && skip(ex, decl.initializer);
  if (!init) return undefined;
  if (ts.isArrayLiteralExpression(init)) return "array";
  if (ts.isNewExpression(init) && ts.isIdentifier(init.expression) && (init.expression.text === "Set" || init.expression.text === "Map") && (init.arguments?.length ?? 0) === 0) {
    const ctor = ex.checker.getSymbolAtLocation(init.expression);
    return ctor && isDefaultLibSymbol(ex, ctor) ? (init.expression.text === "Set" ? "set" : "map") : undefined;
  }
  return undefined;
}

/** The arrays and Sets the loop body changes that are declared outside it, each with its first change. */
function collectTargets(ex: Exec, body: TS.Node): Map<TS.Symbol, { kind: Kind; first: TS.Identifier }> {
  const ts = ex.ts;
  const out = new Map<TS.Symbol, { kind: Kind; first: TS.Identifier }>();
  const visit = (n: TS.Node): void => {
    if (ts.isIdentifier(n)) {
      const sym = ex.checker.getSymbolAtLocation(n);
      const decl = sym?.valueDeclaration;
      const kind = decl && ts.isVariableDeclaration(decl) && !inside(decl, body) ? kindOf(ex, decl) : undefined;
      if (sym && kind && !out.has(sym) && mentionOf(ex, n, kind) === "change") out.set(sym, { kind, first: n });
    }
    ts.forEachChild(n, visit);
  };
  visit(body);
  return out;
}

/** A collected variable: how it is changed, and (with membership tests in the body) what each iteration added. */
interface Target {
  readonly sym: TS.Symbol;
  readonly kind: Kind;
  readonly first: TS.Identifier;
  /**
   * Functions of the iteration index: iteration j added (Bool), and the key it added (String); `j`
   * names the bound index of every "some earlier iteration added k", so the same test is one term.
   */
  readonly member?: { readonly added: string; readonly key: string; readonly j: string };
  /** With `out.length` / `seen.size` read in the body: a ghost carried counter, the size when iteration k starts (loopstate.ts). */
  readonly count?: { readonly fn: string; readonly at: TS.Node };
  /** A Map's value type: its values are not tracked, any of this type where read (collected-maps.ts). */
  readonly valueType?: ValueType;
}

/** A collection's size read in the body of the loop collecting it: the loop carries it as a ghost counter. */
export interface SizeGhost {
  readonly name: string;
  readonly fn: string;
  readonly at: TS.Node;
  /** The size at the end of iteration q, in the state there. */
  next(end: State): string;
}

/**
 * Prepares the collected arrays and Sets of a quantified loop at index q over an array of length
 * `len` (undefined when the body changes none declared outside it). Refuses, on the node, what
 * the view would not model exactly.
 */
export function beginCollected(ex: Exec, loop: TS.IterationStatement, st: State, q: string, len: string, label: string, testInBody?: TS.Node): Collectors | undefined {
  const ts = ex.ts;
  const body = loop.statement;
  const frame = currentFrame(ex);
  const found = [...collectTargets(ex, body)].filter(([sym]) => !frame.fn || inside(sym.valueDeclaration!, frame.fn));
  if (found.length === 0) return undefined;
  const targets = new Map<TS.Symbol, Target>();
  for (const [sym, { kind, first }] of found) {
    const name = sym.name;
    const what = CHANGE[kind];
    const noun = kind === "array" ? "array" : kind === "set" ? "Set" : "Map";
    const decl = sym.valueDeclaration as TS.VariableDeclaration;
    if (ex.loops.length > 0) {
      refuse(first, `\`${name}\` is collected by a loop nested inside another loop over an array of unknown length, which is not modelled.`, "Collect in the outer loop only, or build the inner result with `filter`/`map`.");
    }
    if (insideTry(ex)) {
      refuse(first, `\`${name}\` is collected by a loop inside a \`try\`: an iteration that throws after its \`${what}\` would leave its element for the \`catch\`, which is not modelled.`, "Move the loop out of the `try`, or build the array with `filter`/`map`.");
    }
    // The owner's checks (a `const`, declared by this function, never aliased, stored or passed).
    if (kind === "array") ownedArray(ex, first);
    else ownedCollection(ex, first);
    const start = st.env.get(sym);
    if (kind === "array" ? start?.k !== "arr" || start.items.length > 0 : start?.k !== "coll" || start.slots.length > 0) {
      const empty = kind === "array" ? `\`const ${name}: T[] = []\`` : `\`const ${name} = new ${noun}<string${kind === "map" ? ", V" : ""}>()\``;
      refuse(first, `\`${name}\` is not empty when the loop starts: only ${kind === "array" ? "an array" : `a ${noun}`} a loop over an array of unknown length builds from empty is modelled.`, `Start it empty right before the loop (${empty}), and add what comes before after the loop.`);
    }
    // A function that reads it (a callback in the body, a helper declared next to it) would read
    // this iteration's additions where JavaScript reads the whole collection: refused.
    const scope = decl.parent.parent.parent;
    const inFunction = (n: TS.Node): boolean => {
      for (let p = n.parent; p && p !== scope; p = p.parent) if (ts.isFunctionLike(p)) return true;
      return false;
    };
    const closures = (n: TS.Node): void => {
      if (ts.isIdentifier(n) && n !== decl.name && symbolAt(ex, n) === sym && inFunction(n)) {
        refuse(n, `\`${name}\` is used by a function here while a loop over an array of unknown length collects it (line ${lineOf(first)}), which is not modelled.`, `Use it directly in the loop's body (\`if (${name}.${kind === "array" ? "includes" : "has"}(x)) continue;\`), not through a callback or helper.`);
      }
      ts.forEachChild(n, closures);
    };
    closures(scope);
    let members = false;
    let counted: TS.Node | undefined;
    const visit = (n: TS.Node): void => {
      if (ts.isIdentifier(n) && n !== decl.name && symbolAt(ex, n) === sym) {
        const use = mentionOf(ex, n, kind);
        if (use === "member" || use === "get") members = true;
        else if (use === "count") counted ??= n.parent;
        else if (use !== "change") {
          refuse(n, `\`${name}\` is read inside the loop that collects it with \`${what}\` (over an array of unknown length, what the loop adds and \`${kind === "array" ? "includes" : "has"}\` checks are modelled, not the ${noun} while it grows${kind === "map" ? "; its values are any of their type" : ""}).`, `Read it after the loop, or keep what the body needs in a variable of its own (a counter: \`let n = 0\` … \`n++\`).`);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(body);
    if (testInBody) visit(testInBody);
    // The loop's own test (and a `for`'s step) runs between iterations, where the body's additions
    // model nothing of the collection so far: any mention there is refused (outside review adv36:
    // `while (i < to.length && out.length === i)` read the length as 0).
    const between = ts.isWhileStatement(loop) || ts.isDoStatement(loop) ? [loop.expression] : ts.isForStatement(loop) ? [loop.condition, loop.incrementor] : [];
    const mentions = (n: TS.Node): void => {
      // A lowered loop's extra test (`i < xs.length && seen.size < 10`) runs at the start of each iteration, in its body.
      if (n === testInBody) return;
      if (ts.isIdentifier(n) && symbolAt(ex, n) === sym) {
        refuse(n, `\`${name}\` is read by the loop's test while the loop collects it with \`${what}\` (over an array of unknown length, the collection is modelled after the loop, and inside the body as \`${kind === "array" ? "includes" : "has"}\` only).`, "Keep what the test needs in a variable of its own (a counter: `let n = 0` … `n++`), or read the collection after the loop.");
      }
      ts.forEachChild(n, mentions);
    };
    for (const e of between) if (e) mentions(e);
    let member: Target["member"];
    // A Set's size counts the additions of keys no earlier iteration added: membership again.
    if (members || (counted && kind !== "array")) {
      const added = ex.world.fresh(`${name}.added`);
      declare(ex, added, "Bool", 1);
      const key = ex.world.fresh(`${name}.key`);
      declare(ex, key, "String", 1);
      member = { added, key, j: ex.world.fresh("j") };
    }
    let count: Target["count"];
    if (counted) {
      const fn = ex.world.fresh(`${name}.${kind === "array" ? "length" : "size"}`);
      declare(ex, fn, "Int", 1);
      count = { fn, at: counted };
    }
    const valueType = kind === "map" ? mapValueType(ex, decl, first) : undefined;
    targets.set(sym, { sym, kind, first, ...(member ? { member } : {}), ...(count ? { count } : {}), ...(valueType ? { valueType } : {}) });
  }
  const ghosts: SizeGhost[] = [];
  for (const t of targets.values()) {
    const { count } = t;
    if (count) ghosts.push({ name: `${t.sym.name}.${t.kind === "array" ? "length" : "size"}`, fn: count.fn, at: count.at, next: (end) => sizeNow(ex, t, q, end.env.get(t.sym), count.at) });
  }
  return {
    ghosts,
    enter(st2) {
      for (const sym of targets.keys()) st2.env.set(sym, { k: "arr", items: [] });
      frame.collecting = { body, targets, q };
    },
    finish(end, after, assumptionsBefore) {
      const local = ex.world.assumptions.slice(assumptionsBefore).filter((a) => a.loops.includes(q));
      const own = factsAt(local.map((a) => a.term), q);
      const rename = (t: string, i: string): string => renameSymbols(t, new Map([[q, i]]));
      for (const t of targets.values()) {
        const { sym, first, member } = t;
        const v = end?.env.get(sym);
        let pushed: { when: string; value: Sym } | undefined;
        if (!end || !v || (v.k === "arr" && v.items.length === 0)) pushed = undefined;
        else if (v.k === "arr" && v.items.length === 1) pushed = { when: end.pc, value: v.items[0]! };
        else if (v.k === "sarr" && v.bound === 1) pushed = { when: and(end.pc, `(= ${v.len} 1)`), value: v.at("0") };
        else refuse(first, `One iteration may add more than one element to \`${sym.name}\`, which is not modelled over an array of unknown length.`, "Add at most once per iteration (`if (…) out.push(x); else out.push(y)`), or build the array with `flatMap` on a literal array.");
        if (pushed && pushed.value.k !== "str" && pushed.value.k !== "num" && pushed.value.k !== "bool" && pushed.value.k !== "rec") {
          refuse(first, `\`${sym.name}\` collects values other than strings, numbers, booleans or records of those over an array of unknown length, which is not modelled.`, "Collect strings, numbers, booleans or records of those.");
        }
        if (member) {
          // What each iteration added, for the membership tests of later iterations: true of every run.
          const j = ex.world.fresh("j");
          const range = and(`(<= 0 ${j})`, `(< ${j} ${len})`);
          const addedAt = pushed ? and(range, rename(pushed.when, j)) : "false";
          ex.world.assumptions.push({ term: `(forall ((${j} Int)) (= (${member.added} ${j}) ${addedAt}))`, loops: [] });
          if (pushed) {
            if (pushed.value.k !== "str") refuse(first, `\`${sym.name}\` is tested for membership across iterations, which is modelled for strings only.`, "Collect and test strings (an id or an address).");
            ex.world.assumptions.push({ term: `(forall ((${j} Int)) ${implies(`(${member.added} ${j})`, `(= (${member.key} ${j}) ${rename(pushed.value.t, j)})`)})`, loops: [] });
          }
        }
        if (!pushed) {
          after.env.set(sym, t.kind === "array" ? { k: "arr", items: [] } : { k: "coll", map: t.kind === "map", slots: [] });
          continue;
        }
        const { when, value } = pushed;
        const elem = elemTypeOf(value, first);
        const seen = new Set<string>();
        const at = (i: string): Sym => {
          // What the iteration established about its value (a tool's `ensures`) holds at every element read.
          if (ex.steps !== undefined && i !== q && !seen.has(i)) {
            seen.add(i);
            for (const a of local) ex.world.assumptions.push({ term: rename(a.term, i), loops: a.loops.flatMap((l) => (l === q ? indexLoops(ex, i) : [l])) });
          }
          return renameSym(value, new Map([[q, i]]));
        };
        const base: Extract<Sym, { k: "sarr" }> = { k: "sarr", len, at, elem, label: `${label}.collected` };
        // The iteration's facts belong to whether it pushed (true in every run), as for `filter`.
        const view = makeView({ base, keep: (i) => and(rename(when, i), own(i)), facts: own }, COLLECTED_WHY);
        // A Set holds each key once, in the order of first insertion: the array's distinct values (unique.ts).
        const keys = t.kind === "array" ? view : uniqueView(ex, view, first)!;
        // A Map's keys are the Set of the keys its iterations set; its values are not tracked (collected-maps.ts).
        const collection = t.kind === "map" ? collectedMap(ex, keys, t.valueType!, sym.name, first) : keys;
        after.env.set(sym, collection);
        if (t.count) for (const c of new Set([keys, collection])) carriedSizes.set(viewOf(c)!, `(${t.count.fn} ${len})`);
      }
    },
  };
}

function lineOf(n: TS.Node): number {
  return n.getSourceFile().getLineAndCharacterOfPosition(n.getStart()).line + 1;
}

/** The collected target a property access `access` reads a member of, in the body of the loop collecting it. */
function targetRead(ex: Exec, access: TS.PropertyAccessExpression): { t: Target; q: string; name: string } | undefined {
  const frame = currentFrame(ex);
  const c = frame.collecting;
  if (!c || c.body !== frame.loopBody) return undefined;
  const recv = skip(ex, access.expression);
  if (!ex.ts.isIdentifier(recv)) return undefined;
  const sym = ex.checker.getSymbolAtLocation(recv);
  const t = sym ? (c.targets.get(sym) as Target | undefined) : undefined;
  return t ? { t, q: c.q, name: access.name.text } : undefined;
}

/** The collected target `e` calls a method of, in the body of the loop collecting it. */
function targetOf(ex: Exec, e: TS.CallExpression): { t: Target; q: string; name: string } | undefined {
  const callee = skip(ex, e.expression);
  return ex.ts.isPropertyAccessExpression(callee) ? targetRead(ex, callee) : undefined;
}

/**
 * A method of a variable the running loop collects, called in its body: `seen.add(k)` (appended to
 * this iteration's additions, a number's -0 as +0), and the membership tests `seen.has(k)` /
 * `out.includes(k)`: some earlier iteration added k, or this one did. `push` goes the ordinary
 * way (locals.ts). Undefined for anything else.
 */
export function collectingCall(ex: Exec, e: TS.CallExpression, st: State): Sym | undefined {
  const found = targetOf(ex, e);
  if (!found) return undefined;
  const { t, q, name } = found;
  const current = st.env.get(t.sym);
  if (current?.k !== "arr" && current?.k !== "sarr") return undefined;
  if (name === "add" && t.kind === "set") {
    if (e.arguments.length !== 1) refuse(e, "`add` takes one argument here.", "Call `seen.add(key)`.");
    const v = storedKey(storable(evalExpr(ex, e.arguments[0]!, st), e.arguments[0]!));
    changeInPlace(ex, st, t.sym, pushedArray(current, [v]), e);
    return UNDEF;
  }
  if (name === "set" && t.kind === "map") {
    if (e.arguments.length !== 2) refuse(e, "`set` takes two arguments here.", "Call `m.set(key, value)`.");
    const [arg, valueArg] = e.arguments as unknown as [TS.Expression, TS.Expression];
    const k = storable(evalExpr(ex, arg, st), arg);
    if (k.k !== "str") refuse(arg, `A Map a loop over an array of unknown length builds is modelled with string keys only.`, "Key the Map by strings (an id or an address), or loop over an array with a bounded length.");
    // The value is evaluated (its calls happen, its reads may throw), then not tracked (collected-maps.ts).
    evalExpr(ex, valueArg, st);
    changeInPlace(ex, st, t.sym, pushedArray(current, [k]), e);
    return UNDEF;
  }
  if ((name === "has" && t.kind !== "array") || (name === "includes" && t.kind === "array")) return boolT(memberTerm(ex, t, q, current, e.arguments[0]!, st));
  if (name === "get" && t.kind === "map") return forgottenValue(ex, t.sym.name, t.valueType!, memberTerm(ex, t, q, current, e.arguments[0]!, st), e);
  return undefined;
}

/** Whether the collection holds the value of `arg` at this point of iteration q: an earlier iteration added it, or this one did. */
function memberTerm(ex: Exec, t: Target, q: string, current: Extract<Sym, { k: "arr" } | { k: "sarr" }>, arg: TS.Expression, st: State): string {
  const k = evalExpr(ex, arg, st);
  // A string that may be undefined (`const [sku] = line.split("=")`): the collected strings never include undefined.
  const key = k.k === "maybe" && k.v.k === "str" ? k.v : k;
  if (key.k !== "str") refuse(arg, `Membership in \`${t.sym.name}\` across iterations of a loop over an array of unknown length is modelled for strings only.`, "Test strings (an id or an address), or loop over an array with a bounded length.");
  const same = (x: Sym): string => sameValueZero(x, k) ?? refuse(arg, "The collected values and this one cannot be compared.", "Collect and test strings.");
  const now = current.k === "arr" ? or(...current.items.map(same)) : and(`(< 0 ${current.len})`, same(current.at("0")));
  return or(and(k.k === "maybe" ? k.def : "true", earlierAdded(t, q, key.t)), now);
}

/** Some iteration before q added the string `key`. */
function earlierAdded(t: Target, q: string, key: string): string {
  if (!t.member) throw new Error("a membership test of a collected variable without its functions");
  const { added, key: keyAt, j } = t.member;
  return `(exists ((${j} Int)) ${and(`(<= 0 ${j})`, `(< ${j} ${q})`, `(${added} ${j})`, `(= (${keyAt} ${j}) ${key})`)})`;
}

/**
 * The size of a collected variable at a point of iteration q's body, an Int term: its size when
 * the iteration started, plus the iteration's additions so far (for a Set, those of a key no
 * earlier iteration, nor an earlier addition of this one, added).
 */
function sizeNow(ex: Exec, t: Target, q: string, current: Sym | undefined, at: TS.Node): string {
  const start = `(${t.count!.fn} ${q})`;
  if (current?.k !== "arr" && current?.k !== "sarr") throw new Error("a collected variable without this iteration's additions");
  if (t.kind === "array") return current.k === "arr" ? (current.items.length === 0 ? start : `(+ ${start} ${current.items.length})`) : `(+ ${start} ${current.len})`;
  const keyOf = (v: Sym): string => {
    if (v.k !== "str") refuse(at, `The size of \`${t.sym.name}\` inside the loop that collects it is modelled for Sets of strings only.`, "Collect strings (an id or an address), or keep a counter of your own (`let n = 0` … `n++`).");
    return v.t;
  };
  if (current.k === "sarr") {
    if (current.bound !== 1) throw new Error("more than one addition in one iteration");
    return `(+ ${start} ${ite(and(`(< 0 ${current.len})`, not(earlierAdded(t, q, keyOf(current.at("0"))))), "1", "0")})`;
  }
  const keys = current.items.map(keyOf);
  const fresh = keys.map((k, i) => ite(and(not(earlierAdded(t, q, k)), ...keys.slice(0, i).map((p) => not(`(= ${p} ${k})`))), "1", "0"));
  return fresh.length === 0 ? start : `(+ ${start} ${fresh.join(" ")})`;
}

/**
 * `out.length` / `seen.size` in the body of the loop collecting it (a number: the loop carries its
 * value when each iteration starts); undefined for any other property read.
 */
export function collectingSize(ex: Exec, e: TS.PropertyAccessExpression, st: State): Sym | undefined {
  const found = targetRead(ex, e);
  if (!found?.t.count || found.name !== (found.t.kind === "array" ? "length" : "size")) return undefined;
  return numFromInt(sizeNow(ex, found.t, found.q, st.env.get(found.t.sym), e), ARRAY_LENGTH_MAG);
}

/** Whether `sym` is an array or Set the quantified loop running now collects (its owner checks let the body change it). */
export function isCollecting(ex: Exec, sym: TS.Symbol): boolean {
  const frame = currentFrame(ex);
  const c = frame.collecting;
  return c !== undefined && c.body === frame.loopBody && c.targets.has(sym);
}
