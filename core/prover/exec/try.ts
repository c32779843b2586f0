/**
 * `try`/`catch`/`finally`. Control leaves the `try` block for the `catch` (or, without one, for the
 * `finally` and then out) at every point where JavaScript may throw there:
 * - the program's own `throw`, and a value that may be undefined where it must be defined (the
 *   throws the executor records; caught ones are no longer findings);
 * - a failing `requires` (before the call's events: the obligation stays a finding, as at every
 *   call, but the path to the `catch` is modelled);
 * - every tool call, after its events were recorded: a tool's implementation may always throw. A
 *   call inside a `try` gets a fresh "this call failed" flag; the path after it continues where
 *   the flag is false and the `catch` is entered where it is true. (A run through such a `catch` is
 *   incomplete at run time, so it establishes no lower bound; the prover still checks it, so it
 *   may report a lower bound that only such a run misses — never the other way round.)
 * Entry points inside a quantified loop (a `for…of` or a callback over an array of unknown length)
 * enter the `catch` if some iteration reaches them. The `catch` and `finally` start from the values
 * the variables had where control left (exit-states.ts records them at each exit): a counter
 * incremented after each successful call (`ok++`) is, in the `catch`, the count before the call
 * that failed (a helper's calls see the caller's variables). Only a change before a point inside a
 * loop over an array of unknown length begun in the block, whose value there depends on the
 * iteration, or where the variables were not recorded, is refused (`settled`).
 * A `finally` runs after the `try`/`catch` ends normally and on every path that leaves them by a
 * throw (which then goes on: a `throw` stays a finding), and on every path that returns from the
 * `try` or `catch` (then the return goes on) or leave them by `break` or `continue` (then the jump
 * goes on, with what the `finally` changed); `break`, `continue` and `return` inside a `finally`
 * are refused.
 */
import type * as TS from "typescript";
import type { CaughtTexts, ThrowFact } from "../facts";
import { and, not, or } from "../smt";
import { refuse, symbolOfDecl, type Exec } from "./context";
import { caughtValue } from "./caught";
import { declare } from "./fresh";
import { compactSym, joinStates, type Flow, type Jump, type State } from "./state";
import { watchChanges, type Change } from "./changes";
import { merge, type Sym } from "../values";
import { execStatement } from "./statements";
import { exitOrder, exitState, recordingExits, type Env } from "./exit-states";

/** A point where control may leave a `try` block by a throw: its condition, under the loops around it, and where it stands in program order. */
interface Exit {
  readonly term: string;
  readonly loops: readonly string[];
  readonly order: number;
  /** A throw the executor records as a finding where nothing catches it. */
  readonly reported?: ThrowFact;
  /** What a `catch` reads of the error (caught.ts): a `throw`'s texts, "tool" for a tool's failure, undefined for the engine's or the runtime's. */
  readonly texts?: CaughtTexts | "tool";
  /** The variables where control leaves (exit-states.ts), when recorded. */
  readonly env?: Env;
}

/** The `try` blocks being executed, innermost last, per executor. */
const frames = new WeakMap<Exec, Exit[][]>();

/**
 * Hook for a tool call (tools.ts) at `label`, after its events: inside a `try`, the call may fail
 * here. Returns the path condition of the run in which it returned.
 */
export function mayFail(ex: Exec, pc: string, label: string, st: State): string {
  const stack = frames.get(ex);
  const frame = stack?.[stack.length - 1];
  if (!frame || pc === "false") return pc;
  const name = ex.world.fresh("failed");
  declare(ex, name, "Bool", ex.loops.length);
  const failed = ex.loops.length === 0 ? name : `(${name} ${ex.loops.join(" ")})`;
  const order = exitOrder(ex, st);
  frame.push({ term: and(pc, failed), loops: [...ex.loops], order, texts: "tool", env: exitState(ex, order) });
  ex.world.failures.push({ label, failed, loops: [...ex.loops], order, guard: pc });
  return and(pc, not(failed));
}

/** Whether the code being executed is inside a `try` block (one whose throws something may catch). */
export function insideTry(ex: Exec): boolean {
  return (frames.get(ex)?.length ?? 0) > 0;
}

/** Run `work` collecting every point where control leaves it by a throw. */
function collecting<T>(ex: Exec, work: () => T): { flow: T; exits: Exit[] } {
  return recordingExits(ex, () => collectingExits(ex, work));
}

function collectingExits<T>(ex: Exec, work: () => T): { flow: T; exits: Exit[] } {
  const exits: Exit[] = [];
  const stack = frames.get(ex) ?? [];
  frames.set(ex, stack);
  const marks = { throws: ex.world.throws.length, obligations: ex.world.obligations.length };
  stack.push(exits);
  let flow: T;
  try {
    flow = work();
  } finally {
    stack.pop();
  }
  for (const t of ex.world.throws.splice(marks.throws)) exits.push({ term: t.guard, loops: t.loops, order: t.order, reported: t, ...(t.thrown ? { texts: t.thrown } : {}), env: exitState(ex, t.order) });
  for (const o of ex.world.obligations.slice(marks.obligations)) exits.push({ term: and(o.guard, not(o.holds)), loops: o.loops, order: o.order, env: exitState(ex, o.order) });
  return { flow, exits };
}

/** The condition that some exit is reached (exits inside loops entered in the block: for some iteration). */
function reached(ex: Exec, exits: readonly Exit[]): string {
  const outer = new Set(ex.loops);
  return or(...exits.map((x) => {
    const inner = x.loops.filter((l) => !outer.has(l));
    return inner.length === 0 ? x.term : `(exists (${inner.map((l) => `(${l} Int)`).join(" ")}) ${x.term})`;
  }));
}

/**
 * Run a block, watching the variables declared outside it that it assigns or changes in place
 * (changes.ts) for `settled`: the path's state carries the changes on. Helpers and callbacks
 * cannot change captured variables (refused where they would).
 */
function runBlock(ex: Exec, block: TS.Block, st: State, what: string, fin: boolean): { flow: Flow; changes: ReadonlyMap<TS.Symbol, Change> } {
  const inner: State = { pc: st.pc, env: new Map(st.env) };
  const { result: flow, changes } = watchChanges(ex, () => execStatement(ex, block, inner));
  // A `return`, `break` or `continue` goes through the `finally` (execTry); one inside the
  // `finally` would replace the value, the jump or the throw that is leaving.
  if (fin && what === "`finally` block" && (flow.jumps ?? []).length > 0) {
    refuse(flow.jumps![0]!.node, "`break` or `continue` inside a `finally` block is not modelled (it would replace the jump, return or throw that is leaving).", "Set a variable declared inside the block and act on it after the `try` statement.");
  }
  if (fin && flow.returns.length > 0 && (what === "`finally` block" || flow.returns.some((r) => !r.env))) {
    refuse(firstReturn(ex, block) ?? block, `\`return\` inside a ${what === "`finally` block" ? what : `${what} with a \`finally\``} is not modelled.`, "Set a variable declared inside the block and act on it after the `try` statement.");
  }
  return { flow, changes };
}

function firstReturn(ex: Exec, block: TS.Block): TS.ReturnStatement | undefined {
  const visit = (n: TS.Node): TS.ReturnStatement | undefined => (ex.ts.isReturnStatement(n) ? n : ex.ts.isFunctionLike(n) ? undefined : ex.ts.forEachChild(n, visit));
  return visit(block);
}

/**
 * Control that leaves a block by a throw goes on (to the `catch`, the `finally`, or out) with the
 * variables as they were where it left (`entryState`). A variable declared outside the block that
 * the block changes (by assignment or in place) before a point it may leave from is read there
 * from the variables recorded at that point (exit-states.ts; a helper runs with its caller's
 * variables, which it cannot change); where none were recorded or the point is inside a loop over
 * an array of unknown length that began in the block (its value there depends on the iteration),
 * the change is refused. A change after the last such point is carried on by the path that ends normally.
 * Returns the variables to read at the exits, with their first change.
 */
function settled(ex: Exec, outer: State, changes: ReadonlyMap<TS.Symbol, Change>, exits: readonly Exit[], what: string): Map<TS.Symbol, Change> {
  const tracked = new Map<TS.Symbol, Change>();
  const around = new Set(ex.loops);
  for (const [sym, change] of changes) {
    if (!outer.env.has(sym)) continue;
    const later = exits.filter((x) => x.order > change.order);
    if (later.length === 0) continue;
    if (later.some((x) => !x.env?.has(sym) || x.loops.some((l) => !around.has(l)))) {
      refuse(change.node, `The ${what} changes \`${sym.name}\`, declared before the \`try\`, and may still throw after this change from inside a loop over an array of unknown length (or from code that runs apart from the block's variables): what the handler sees would depend on the iteration that failed, which is not modelled.`, `Make the change after the last call that may fail (or after the \`try\` statement), or in the \`catch\` block, or loop over an array of at most N elements (\`xs.slice(0, N)\`).`);
    }
    tracked.set(sym, change);
  }
  return tracked;
}

/**
 * The variables declared before the `try` statement where control has left the block by a throw
 * from one of `exits`: a tracked variable (`settled`) is, in program order, its value at the first
 * exit taken (a run leaves at most once; the `ite` takes the earliest whose condition holds), and
 * `base` holds the others (and a tracked variable's value at the exits before its first change).
 */
function entryState(ex: Exec, outer: State, base: Env, exits: readonly Exit[], tracked: ReadonlyMap<TS.Symbol, Change>): Map<TS.Symbol, Sym> {
  const env = new Map<TS.Symbol, Sym>();
  for (const k of outer.env.keys()) {
    const v = base.get(k);
    if (v !== undefined) env.set(k, v);
  }
  const ordered = [...exits].sort((a, b) => a.order - b.order);
  for (const [sym, change] of tracked) {
    const at = (x: Exit): Sym => (x.order > change.order ? x.env!.get(sym)! : base.get(sym)!);
    let value = at(ordered[ordered.length - 1]!);
    for (let i = ordered.length - 2; i >= 0; i--) {
      const x = ordered[i]!;
      const m = merge(reached(ex, [x]), at(x), value);
      if (!m) refuse(change.node, `\`${sym.name}\` holds values of different kinds at the points the block may throw from.`, "Assign values of one type to the variable on every path.");
      value = m;
    }
    env.set(sym, compactSym(ex, value));
  }
  return env;
}

/** The variables declared before the `try` statement, as a path's state holds them after a block. */
function outerOnly(outer: State, after: { readonly pc: string; readonly env: ReadonlyMap<TS.Symbol, Sym> }): State {
  const env = new Map<TS.Symbol, Sym>();
  for (const k of outer.env.keys()) {
    const v = after.env.get(k);
    if (v !== undefined) env.set(k, v);
  }
  return { pc: after.pc, env };
}

export function execTry(ex: Exec, s: TS.TryStatement, st: State): Flow {
  const ts = ex.ts;
  const fin = s.finallyBlock;
  const handler = s.catchClause;
  const tried = collecting(ex, () => runBlock(ex, s.tryBlock, st, "`try` block", fin !== undefined));
  const triedTracked = settled(ex, st, tried.flow.changes, tried.exits, "`try` block");
  let outcome: Flow = tried.flow.flow;
  // Paths that leave by a throw and are not caught here (they go through the `finally`, then on),
  // and the variables there: as the block they leave from changed them (`entryState`).
  let escaping: Exit[] = [];
  let escapingEnv = (): Map<TS.Symbol, Sym> => entryState(ex, st, st.env, tried.exits, triedTracked);
  if (handler) {
    const entry = reached(ex, tried.exits);
    let caught: Flow = { fall: null, returns: [] };
    if (entry !== "false") {
      const cst: State = { pc: and(st.pc, entry), env: entryState(ex, st, st.env, tried.exits, triedTracked) };
      const started = new Map(cst.env);
      const decl = handler.variableDeclaration;
      if (decl) {
        if (!ts.isIdentifier(decl.name)) refuse(decl.name, "Destructuring the caught value is not modelled.", "Write `catch (error)` or `catch`.");
        // What was thrown: an Error whose texts are unknown (caught.ts), or a value not modelled at all.
        const outer = new Set(ex.loops);
        // A throw inside `Promise.all` callbacks that interleave may not be the first rejection (adv37 C2): any text.
        const crossed = (x: Exit): boolean => (x.reported?.unordered ?? 0) > ex.unordered;
        const entries = [...tried.exits].sort((a, b) => a.order - b.order).map((x) => ({ term: x.term, inLoop: x.loops.some((l) => !outer.has(l)), texts: crossed(x) ? undefined : x.texts, reached: reached(ex, [x]) }));
        cst.env.set(symbolOfDecl(ex, decl), caughtValue(ex, decl, entries));
      }
      if (fin) {
        const handled = collecting(ex, () => runBlock(ex, handler.block, cst, "`catch` block", true));
        const handledTracked = settled(ex, st, handled.flow.changes, handled.exits, "`catch` block");
        caught = handled.flow.flow;
        escaping = handled.exits;
        escapingEnv = () => entryState(ex, st, started, handled.exits, handledTracked);
      } else caught = runBlock(ex, handler.block, cst, "`catch` block", false).flow;
    }
    outcome = {
      fall: joinStates(ex, [outcome.fall, caught.fall], s),
      returns: [...outcome.returns, ...caught.returns],
      jumps: [...(outcome.jumps ?? []), ...(caught.jumps ?? [])],
    };
  } else escaping = tried.exits;
  if (!fin) {
    return { ...outcome, fall: outcome.fall ? outerOnly(st, outcome.fall) : null };
  }
  // The `finally` on the normal path, after what the blocks changed in place.
  let fall: State | null = null;
  if (outcome.fall) {
    const after = runBlock(ex, fin, outerOnly(st, outcome.fall), "`finally` block", true).flow;
    fall = after.fall ? outerOnly(st, after.fall) : null;
  }
  // On the paths that return, with the variables as each `return` left them: the value was
  // computed before the `finally` ran, and is returned where the `finally` ends normally.
  let returns: Flow["returns"] = [];
  if (outcome.returns.length > 0) {
    const back = joinStates(ex, outcome.returns.map((r) => outerOnly(st, { pc: r.pc, env: r.env! })), fin)!;
    const after = runBlock(ex, fin, back, "`finally` block", true).flow;
    const done = after.fall?.pc;
    returns = done === undefined ? [] : outcome.returns.map((r) => ({ ...r, pc: and(r.pc, done) }));
  }
  // On the paths that leave by `break` or `continue` (per jump and label): the `finally` runs on
  // their joined state, and the jump goes on from where it ends normally, with what it changed.
  const jumps: Jump[] = [];
  const groups = new Map<string, Jump[]>();
  for (const j of outcome.jumps ?? []) {
    const key = `${j.kind} ${j.label ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), j]);
  }
  for (const group of groups.values()) {
    const back = joinStates(ex, group.map((j) => outerOnly(st, j.state)), fin);
    if (!back) continue;
    const after = runBlock(ex, fin, back, "`finally` block", true).flow;
    if (after.fall) jumps.push({ kind: group[0]!.kind, node: group[0]!.node, state: outerOnly(st, after.fall), ...(group[0]!.label !== undefined ? { label: group[0]!.label } : {}) });
  }
  // And on the paths that leave by a throw (with the variables as they were there, `entryState`):
  // its events happen, then the throw goes on — where the `finally` ends normally. One that throws
  // itself (its own `throw`, a call that fails) replaces the error leaving (adv37 C1): its exits,
  // recorded while it runs, are what an enclosing `catch` sees there.
  const out = reached(ex, escaping);
  if (out !== "false") {
    const entered: State = { pc: and(st.pc, out), env: escapingEnv() };
    const after = runBlock(ex, fin, entered, "`finally` block", true).flow;
    const done = after.fall?.pc ?? "false";
    // The throw goes on: a `throw` is a finding again unless an enclosing `try` catches it, and a
    // failed call enters the enclosing `try`'s `catch`, if any — after the `finally`, with the
    // variables as it left them (an enclosing `try` reads them there: `settled`).
    const left: State = after.fall ?? entered;
    const stack = frames.get(ex);
    const enclosing = stack?.[stack.length - 1];
    for (const x of escaping) {
      const order = exitOrder(ex, left);
      if (x.reported) ex.world.throws.push({ ...x.reported, guard: and(x.reported.guard, done), order });
      else if (enclosing) enclosing.push({ ...x, term: and(x.term, done), order, env: exitState(ex, order) ?? new Map(left.env) });
    }
  }
  return { fall, returns, jumps };
}
