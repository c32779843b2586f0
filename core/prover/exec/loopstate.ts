/**
 * State carried across the iterations of a loop over an array of unknown length (a running total,
 * a counter, a "found" flag, `break`). Each carried variable becomes a function of the iteration
 * index, S(k): its value when iteration k starts, with S(0) its literal value before the loop and
 * S(k + 1) the body's update at k (an `ite` over the paths through the body; S(k) itself where
 * iteration k does not run). A `break` adds the loop's own flag "not broken yet", L(k), which every
 * iteration's path condition includes. The body runs once, at the loop's index q, over S(q).
 *
 * Nothing here is assumed about S(q) beyond S(0): loop-invariants.ts establishes an inductive
 * invariant (base and step checked by the solver) before any guarantee is decided, and refuses the
 * loop when it cannot bound every integer variable. Integer variables claim the magnitude
 * `CARRIED_MAG` in the body, so their arithmetic stays in Int terms; the invariant must show that
 * every run keeps them within it (where every integer is a double, so Int and Float64 agree).
 */
import type * as TS from "typescript";
import type { LoopVar } from "../facts";
import { and, FLOAT64, ite, not, or, rejoin, renameSymbols } from "../smt";
import { boolT, intToFp, merge, numFromInt, type Sym } from "../values";
import { CarriedStateRefusal } from "./carried-refusal";
import { onlyLogged } from "./caught";
import { currentFrame, writtenBy, type CarriedElementWrite, type Exec } from "./context";
import { ARRAY_LENGTH_MAG } from "./integers";
import { declare } from "./fresh";
import { jumpsOf, joinStates, labelsOf, type Flow, type State } from "./state";
import { insideTry } from "./try";
import type { SizeGhost } from "./collected";

export { CarriedStateRefusal };

function refuse(node: TS.Node, reason: string, instead: string): never {
  throw new CarriedStateRefusal(node, reason, instead);
}

/** The magnitude an integer carried variable may reach (the invariant must keep it there). */
export const CARRIED_MAG = 2 ** 52;

/** The largest literal a carried integer may start from. */
export const INIT_MAG = 2 ** 40;

interface Carried {
  readonly sym: TS.Symbol;
  readonly name: string;
  readonly at: TS.Node;
  readonly fn: string;
  /** "Float" and "String": a variable only logged (`onlyLoggedVariable`), any value at every step. */
  readonly sort: "Int" | "Bool" | "Float" | "String";
  readonly init: string;
  readonly initMag: number;
  /** Bool term: an Int variable that is 0 at k may be -0 there (only Float64 operations can tell). */
  readonly negz?: string;
}

/**
 * A variable the loop sets only to its element (`if (o.price < best.price) best = o`), or to one
 * field of it (`min = o.price`): carried as the index of the element it holds, I(k), -1 while it
 * still holds its value from before the loop (any value). After the loop it is that value or
 * (the field of) the element at I(len), exactly; which element is not assumed beyond what the
 * loop-invariants.ts range says (an index below k whose iteration picked it).
 */
interface CarriedElement {
  readonly sym: TS.Symbol;
  readonly name: string;
  readonly at: TS.Node;
  readonly fn: string;
  readonly init: Sym;
  /** The fields it reads from the element (`best = o`: none; `min = o.price`: price). */
  readonly path: readonly string[];
  /** The hidden variable the body's states carry the index in (joined like any other). */
  readonly shadow: TS.Symbol;
}

/** A quantified loop whose body carries state: what the body starts from, and how to close the loop. */
export interface CarriedLoop {
  /** Extra path condition of iteration q (the loop has not been broken out of). */
  readonly entry: string;
  /** Binds the carried variables to their values when iteration q starts (`element`: the loop's element there). */
  enter(body: State, element: Sym): void;
  /** After the body: records the updates and the loop's facts, and binds the values after the loop in `after`. */
  finish(flow: Flow, after: State, factsBefore: number): void;
}

const ZERO_NEG = "(_ -zero 11 53)";

function at(fn: string, k: string): string {
  return `(${fn} ${k})`;
}

function intValue(c: Carried, k: string): Sym {
  return carriedInt(c.fn, c.negz!, k);
}

/**
 * A carried integer's value when iteration k starts: its Int term, and a Float64 term that may be
 * -0 where its sign flag says so (a product with 0 may be; the flag is free, so either sign is covered).
 */
export function carriedInt(fn: string, negz: string, k: string): Sym {
  const i = at(fn, k);
  return { k: "num", t: ite(and(at(negz, k), `(= ${i} 0)`), ZERO_NEG, intToFp(i)), int: i, mag: CARRIED_MAG };
}

/** The bounds loop-invariants.ts starts from for a carried integer: its start's magnitude and the most one step adds. */
export function carriedBounds(initMag: number, mag: number): { base: number; step: number } {
  return { step: mag > CARRIED_MAG ? mag - CARRIED_MAG : 0, base: Math.max(initMag, mag < CARRIED_MAG ? mag : 0) };
}

function valueAt(c: Carried, k: string): Sym {
  if (c.sort === "Float") return { k: "num", t: at(c.fn, k) };
  if (c.sort === "String") return { k: "str", t: at(c.fn, k) };
  return c.sort === "Int" ? intValue(c, k) : boolT(at(c.fn, k));
}

/**
 * Whether every read of a variable, in the function that declares it, is its own write
 * (`total += x`) or only goes to the console (caught.ts `onlyLogged`: `console.log(\`charged
 * ${total}\`)`), none inside a nested function. Its value then changes no event, no precondition
 * and no throw, so a loop may carry it as any number (or text) at every step: no invariant is
 * needed for a total kept only to be logged (h58 i23).
 */
function onlyLoggedVariable(ex: Exec, sym: TS.Symbol): boolean {
  const ts = ex.ts;
  const decl = sym.valueDeclaration;
  if (!decl || !ts.isVariableDeclaration(decl)) return false;
  let scope: TS.Node = decl;
  while (scope.parent && !ts.isFunctionLike(scope) && !ts.isSourceFile(scope)) scope = scope.parent;
  let ok = true;
  const visit = (n: TS.Node, nested: boolean): void => {
    if (!ok) return;
    if (ts.isIdentifier(n) && n !== decl.name && ex.checker.getSymbolAtLocation(n) === sym) {
      let top: TS.Node = n;
      while (ts.isParenthesizedExpression(top.parent)) top = top.parent;
      const written = writtenBy(ts, top.parent) === top;
      if (nested || (!written && !onlyLogged(ex, n))) ok = false;
      return;
    }
    ts.forEachChild(n, (c) => visit(c, nested || (ts.isFunctionLike(c) && c !== scope)));
  };
  visit(scope, false);
  return ok;
}

/**
 * The variables the loop body assigns that are declared outside it, each with its first
 * assignment. Nested functions are skipped (their assignments of captured variables are refused).
 */
function carriedAssignments(ex: Exec, body: TS.Node): Map<TS.Symbol, TS.Node> {
  const ts = ex.ts;
  const out = new Map<TS.Symbol, TS.Node>();
  const target = (e: TS.Expression, node: TS.Node): void => {
    let t = e;
    while (ts.isParenthesizedExpression(t)) t = t.expression;
    if (!ts.isIdentifier(t)) return;
    const sym = ex.checker.getSymbolAtLocation(t);
    const decl = sym?.valueDeclaration;
    if (!sym || !decl || !ts.isVariableDeclaration(decl)) return;
    for (let n: TS.Node | undefined = decl; n; n = n.parent) if (n === body) return;
    if (!out.has(sym)) out.set(sym, node);
  };
  const visit = (n: TS.Node): void => {
    if (ts.isFunctionLike(n)) return;
    const written = writtenBy(ts, n);
    if (written) target(written, n);
    ts.forEachChild(n, visit);
  };
  visit(body);
  return out;
}

/**
 * `x = o` or `x = o.price` (`o.a.b`), with `o` the `for…of` loop's own variable: the fields read
 * from its element, or undefined for any other write. Each later write must be the same value
 * (changes.ts compares it with the element's fields).
 */
function elementPath(ex: Exec, loop: TS.ForOfStatement, node: TS.Node): string[] | undefined {
  const ts = ex.ts;
  if (!ts.isBinaryExpression(node) || node.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return undefined;
  const init = loop.initializer;
  if (!ts.isVariableDeclarationList(init) || init.declarations.length !== 1 || !ts.isIdentifier(init.declarations[0]!.name)) return undefined;
  const own = ex.checker.getSymbolAtLocation(init.declarations[0]!.name);
  const path: string[] = [];
  let e: TS.Expression = node.right;
  for (;;) {
    while (ts.isParenthesizedExpression(e)) e = e.expression;
    if (!ts.isPropertyAccessExpression(e) || e.questionDotToken) break;
    path.unshift(e.name.text);
    e = e.expression;
  }
  return ts.isIdentifier(e) && own !== undefined && ex.checker.getSymbolAtLocation(e) === own ? path : undefined;
}

/** The fields `path` of an element (undefined where one is not a field of a record). */
function project(element: Sym, path: readonly string[]): Sym | undefined {
  let v: Sym | undefined = element;
  for (const f of path) v = v?.k === "rec" ? v.fields.get(f) : undefined;
  return v;
}

/**
 * The first jump that leaves this loop, if any: a `break` not inside an inner loop or `switch`, and
 * a labelled `break` (or a `continue` of an outer loop) from anywhere in the body, inner loops
 * included, whose label is not one inside the body (adv37 C3: `break outer` of the loop itself
 * was not counted, so iterations after it ran in the model).
 */
function ownBreak(ex: Exec, loop: TS.IterationStatement): TS.Node | undefined {
  const ts = ex.ts;
  const own = ts.isLabeledStatement(loop.parent) ? loop.parent.label.text : undefined;
  const inside = new Set<string>();
  const labels = (n: TS.Node): void => {
    if (ts.isFunctionLike(n)) return;
    if (ts.isLabeledStatement(n)) inside.add(n.label.text);
    ts.forEachChild(n, labels);
  };
  labels(loop.statement);
  let found: TS.Node | undefined;
  const visit = (n: TS.Node, nested: boolean): void => {
    if (found || ts.isFunctionLike(n)) return;
    if (ts.isBreakStatement(n) && (n.label ? !inside.has(n.label.text) : !nested)) {
      found = n;
      return;
    }
    if (ts.isContinueStatement(n) && n.label && !inside.has(n.label.text) && n.label.text !== own) {
      found = n;
      return;
    }
    const deeper = nested || ts.isIterationStatement(n, false) || ts.isSwitchStatement(n);
    ts.forEachChild(n, (c) => visit(c, deeper));
  };
  visit(loop.statement, false);
  return found;
}

/**
 * A `while` loop read as a counter loop (while.ts): its counter is the index, not carried state,
 * and its condition's other part ends the loop like a `break` at `exit`.
 */
export interface LoweredWhile {
  readonly counter: TS.Symbol;
  readonly exit: TS.Node | undefined;
}

/**
 * Prepares the carried state of a quantified `for…of` (undefined when the body carries none): the
 * loop is at index `q` over an array of length `len`, entered from `st`.
 */
export function beginCarried(ex: Exec, loop: TS.ForOfStatement | TS.ForStatement | TS.WhileStatement, st: State, q: string, iterable: Extract<Sym, { k: "sarr" }>, keep: ((index: string) => string) | undefined, lowered?: LoweredWhile, sizes: readonly SizeGhost[] = []): CarriedLoop | undefined {
  const len = iterable.len;
  const assigned = carriedAssignments(ex, loop.statement);
  if (lowered) assigned.delete(lowered.counter);
  const brk = ownBreak(ex, loop) ?? lowered?.exit;
  if (assigned.size === 0 && !brk && sizes.length === 0) return undefined;
  const first = brk ?? [...assigned.values()][0] ?? sizes[0]!.at;
  if (ex.loops.length > 0) {
    refuse(first, "State carried across iterations (an assignment of a variable declared outside the loop, or `break`) is not modelled in a loop nested inside another loop over an array of unknown length.", "Carry state in the outer loop only, or loop over a literal array.");
  }
  // The search among short runs unrolls every loop it can; one it cannot has no invariant there.
  if (ex.arrayBound !== undefined) refuse(first, "State carried across iterations of a loop over an array the search among short runs cannot bound is not modelled there.", "Loop over an array input or a tool result.");
  if (insideTry(ex)) {
    refuse(first, "State carried across iterations (an assignment of a variable declared outside the loop, or `break`) is not modelled inside a `try` (a throw would stop the loop at an iteration the state depends on).", "Move the loop out of the `try`, or compute the state in a helper called outside it.");
  }
  const vars: Carried[] = [];
  const elements: CarriedElement[] = [];
  for (const [sym, node] of assigned) {
    const v = st.env.get(sym);
    let path: string[] | undefined;
    const name = sym.name;
    if ((v?.k === "num" || v?.k === "str") && onlyLoggedVariable(ex, sym)) {
      const fn = ex.world.fresh(`${name}.logged`);
      declare(ex, fn, v.k === "num" ? FLOAT64 : "String", 1);
      vars.push({ sym, name, at: node, fn, sort: v.k === "num" ? "Float" : "String", init: v.t, initMag: 0 });
    } else if (v?.k === "num" && v.c !== undefined && Number.isInteger(v.c) && !Object.is(v.c, -0) && Math.abs(v.c) <= INIT_MAG && v.int !== undefined) {
      const fn = ex.world.fresh(`${name}.at`);
      declare(ex, fn, "Int", 1);
      const negz = ex.world.fresh(`${name}.negativeZero`);
      declare(ex, negz, "Bool", 1);
      vars.push({ sym, name, at: node, fn, sort: "Int", init: v.int, initMag: Math.abs(v.c), negz });
    } else if (v?.k === "bool" && v.c !== undefined) {
      const fn = ex.world.fresh(`${name}.at`);
      declare(ex, fn, "Bool", 1);
      vars.push({ sym, name, at: node, fn, sort: "Bool", init: String(v.c), initMag: 0 });
    } else if (v && ex.ts.isForOfStatement(loop) && (path = elementPath(ex, loop, node))) {
      const fn = ex.world.fresh(`${name}.index`);
      declare(ex, fn, "Int", 1);
      elements.push({ sym, name, at: node, fn, init: v, path, shadow: { name: `${name}.index`, flags: 0, escapedName: `${name}.index`, declarations: [] } as unknown as TS.Symbol });
    } else {
      refuse(node, `\`${name}\` is carried across iterations of a loop over an array of unknown length, but only integer and boolean variables that hold a literal when the loop starts are modelled.`, "Start it from a literal (`let total = 0`, `let done = false`) right before the loop and keep it an integer (amounts a tool's `ensures` declares integral with `Number.isInteger` and literal bounds), set it only to the loop's element or one field of it (`best = o`, `min = o.price`), or loop over a literal array.");
    }
  }
  for (const c of vars) if (c.sort === "Int" || c.sort === "Bool") ex.world.assumptions.push({ term: `(= ${at(c.fn, "0")} ${c.init})`, loops: [] });
  for (const c of elements) ex.world.assumptions.push({ term: `(= ${at(c.fn, "0")} (- 1))`, loops: [] });
  // A collection's size read in the body (collected.ts) starts at 0: the collection starts empty.
  for (const g of sizes) ex.world.assumptions.push({ term: `(= ${at(g.fn, "0")} 0)`, loops: [] });
  const picks = (c: CarriedElement, element: Sym): Sym => {
    const v = project(element, c.path);
    if (!v) refuse(c.at, `\`${c.name}\` is set to \`${c.path.join(".")}\` of the loop's element, which is not a field of it the prover models.`, "Set it to the element itself and read the field after the loop.");
    return v;
  };
  const held = (c: CarriedElement, k: string): Sym => {
    const v = merge(`(= ${at(c.fn, k)} (- 1))`, c.init, picks(c, iterable.at(at(c.fn, k))));
    if (!v) refuse(c.at, `\`${c.name}\` holds a value of another kind before the loop than the loop's elements.`, "Start it from the array's first element or `undefined`.");
    return v;
  };
  let live: string | undefined;
  if (brk) {
    live = ex.world.fresh("notBroken");
    declare(ex, live, "Bool", 1);
    ex.world.assumptions.push({ term: at(live, "0"), loops: [] });
  }
  const carriedSyms = new Set([...vars.map((c) => c.sym), ...elements.map((c) => c.sym)]);
  return {
    entry: live ? at(live, q) : "true",
    enter(body, element) {
      for (const c of vars) body.env.set(c.sym, valueAt(c, q));
      const writes = new Map<TS.Symbol, CarriedElementWrite>();
      for (const c of elements) {
        body.env.set(c.sym, held(c, q));
        body.env.set(c.shadow, numFromInt(at(c.fn, q), ARRAY_LENGTH_MAG));
        writes.set(c.sym, { element: picks(c, element), shadow: c.shadow, index: numFromInt(q, ARRAY_LENGTH_MAG) });
      }
      const frame = currentFrame(ex);
      frame.carried = carriedSyms;
      frame.carriedElements = writes;
    },
    finish(flow, after, factsBefore) {
      const frame = currentFrame(ex);
      frame.carried = undefined;
      frame.carriedElements = undefined;
      const labels = labelsOf(ex, loop);
      const breaks = jumpsOf(flow, "break", labels).map((j) => j.state);
      const end = joinStates(ex, [...jumpsOf(flow, "continue", labels).map((j) => j.state), flow.fall, ...breaks], loop);
      const out: LoopVar[] = [];
      for (const c of vars) {
        const v = end?.env.get(c.sym);
        const still = at(c.fn, q);
        // Only logged: any value after the loop too, and nothing for the invariant to carry.
        if (c.sort === "Float" || c.sort === "String") {
          after.env.set(c.sym, valueAt(c, len));
          continue;
        }
        if (c.sort === "Int") {
          if (end && (v?.k !== "num" || v.int === undefined)) {
            refuse(c.at, `\`${c.name}\` is carried across iterations of a loop over an array of unknown length, and after an iteration it may not be an exact integer (a fraction, a Float64 operation, or a value past 2^53).`, "Keep it an integer: add and subtract integers (amounts a tool's `ensures` declares integral with `Number.isInteger` and literal bounds), or loop over a literal array.");
          }
          const { base, step } = carriedBounds(c.initMag, v?.k === "num" && v.int !== undefined ? v.mag : 0);
          const next = end && v?.k === "num" && v.int !== undefined ? ite(end.pc, v.int, still) : still;
          out.push({ name: c.name, fn: c.fn, sort: "Int", init: c.init, next, base, step, at: c.at });
          after.env.set(c.sym, valueAt(c, len));
        } else {
          if (end && v?.k !== "bool") refuse(c.at, `\`${c.name}\` is carried across iterations and may stop being a boolean.`, "Assign only booleans to it.");
          const next = end && v?.k === "bool" ? ite(end.pc, v.t, still) : still;
          out.push({ name: c.name, fn: c.fn, sort: "Bool", init: c.init, next, at: c.at });
          after.env.set(c.sym, valueAt(c, len));
        }
      }
      for (const c of elements) {
        const v = end?.env.get(c.shadow);
        const still = at(c.fn, q);
        const next = end && v?.k === "num" && v.int !== undefined ? ite(end.pc, v.int, still) : still;
        // Each iteration j keeps it or sets it to j (j's update is j exactly where iteration j
        // ran and picked its element): so it is -1, or an index below k whose iteration picked.
        // (Its value when iteration i starts is below i, so only the iteration's own pick makes it i.)
        const picked = (i: string): string => and(`(< ${at(c.fn, i)} ${i})`, `(= ${renameSymbols(next, new Map([[q, i]]))} ${i})`);
        const index = (k: string): string => {
          const i = at(c.fn, k);
          return or(`(= ${i} (- 1))`, and(`(<= 0 ${i})`, `(< ${i} ${k})`, keep ? keep(i) : "true", picked(i)));
        };
        out.push({ name: c.name, fn: c.fn, sort: "Int", init: "(- 1)", next, index, at: c.at });
        after.env.set(c.sym, held(c, len));
      }
      for (const g of sizes) {
        // At most one addition per iteration (collected.ts): the size grows by at most 1 at each step.
        const still = at(g.fn, q);
        out.push({ name: g.name, fn: g.fn, sort: "Int", init: "0", next: end ? ite(end.pc, g.next(end), still) : still, base: 0, step: 1, at: g.at });
      }
      if (live) {
        const broke = breaks.length === 0 ? "false" : rejoin(breaks.map((b) => b.pc));
        out.push({ name: "", fn: live, sort: "Bool", init: "true", next: and(at(live, q), not(broke)), at: brk! });
      }
      // Nothing to carry (only logged variables): no invariant to find, nothing over-approximated.
      if (out.length === 0) return;
      const facts = ex.world.facts.slice(factsBefore).filter((f) => f.loops.includes(q));
      ex.world.loopStates.push({ node: loop, q, len, vars: out, facts });
    },
  };
}
