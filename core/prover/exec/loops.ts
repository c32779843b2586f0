/**
 * Loops: `for…of` (literal arrays unrolled, arrays bounded by an `ensures` unrolled exactly, others
 * as one quantified iteration) and `for` with a literal bound (unrolled).
 */
import type * as TS from "typescript";
import { and, implies, not, rejoin, renameSymbols } from "../smt";
import { num, numFromInt, UNDEF, type Sym } from "../values";
import { callMethod } from "./builtins";
import { ARRAY_LENGTH_MAG } from "./integers";
import { compactView, viewOf } from "./callbacks";
import { collectionItems } from "./collections";
import { execExpressionStatement } from "./assignments";
import { BOUNDED_UNROLL_CAP, SYMBOLIC_BOUND_CAP, UNROLL_CAP } from "./caps";
import { currentFrame, isDefaultLibSymbol, refuse, skip, symbolOfDecl, writtenBy, type Exec } from "./context";
import { isPlainConst } from "../../layer/agent-module";
import { evalExpr } from "./expressions";
import { declare } from "./fresh";
import { cond, cond as condOf, definite } from "./guards";
import { compactPc, join, joinStates, jumpsOf, labelsOf, passedOn, type Flow, type Jump, type State } from "./state";
import { startedFlag } from "./iterations";
import { beginCarried, type LoweredWhile } from "./loopstate";
import { beginCollected } from "./collected";
import { bindPattern } from "./objects";
import { execStatement } from "./statements";

/** Binds the loop variable (or destructures the element into its names) along a path; `index` is the element's position. */
export type Binder = (st: State, item: Sym, index: Sym) => void;

/**
 * `for (const x of …)`, or a pattern: `for (const { payee, amount } of invoices)`, `for (const [k, v]
 * of Object.entries(o))`. A pattern reads the element as `const { … } = element` would, at the
 * start of each iteration (its refusals, such as defaults, are those of objects.ts).
 */
function loopBinder(ex: Exec, decl: TS.VariableDeclaration, indexed: boolean): Binder {
  // `xs.entries()` yields the pair `[index, element]`: a literal array of two, which patterns read exactly.
  const element = (item: Sym, index: Sym): Sym => (indexed ? { k: "arr", items: [index, item] } : item);
  if (ex.ts.isIdentifier(decl.name)) {
    const sym = symbolOfDecl(ex, decl);
    return (st, item, index) => st.env.set(sym, element(item, index));
  }
  const pattern = decl.name;
  return (st, item, index) => bindPattern(ex, pattern, element(item, index), st, decl);
}

/** The receiver `xs` when the loop iterates `xs.entries()`. */
function entriesReceiver(ex: Exec, e: TS.Expression): TS.Expression | undefined {
  const ts = ex.ts;
  if (!ts.isCallExpression(e) || e.arguments.length !== 0 || e.questionDotToken) return undefined;
  const callee = e.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.questionDotToken || callee.name.text !== "entries") return undefined;
  return callee.expression;
}

/**
 * The value the loop iterates, and whether each element is the pair `[index, element]` of an
 * array's `entries()` (a Map's `entries()` is its own pairs, collections.ts).
 */
function iterated(ex: Exec, e: TS.Expression, st: State): { value: Sym; indexed: boolean } {
  const receiver = entriesReceiver(ex, e);
  if (!receiver) return { value: definite(ex, evalExpr(ex, e, st), e, st), indexed: false };
  const target = definite(ex, evalExpr(ex, receiver, st), receiver, st);
  if (target.k === "arr" || target.k === "sarr") return { value: target, indexed: true };
  // A filtered view numbers its kept elements: the array of them (callbacks.ts `compactView`;
  // over an array of unknown length, over the filter's ghost count, counted.ts).
  if (viewOf(target)) {
    const kept = compactView(ex, target);
    if (kept) return { value: kept, indexed: true };
    refuse(e, "`entries()` of this filtered array is not modelled (its indices count the kept elements).", "Loop over `xs.entries()` and skip elements with `if`, or keep a counter.");
  }
  return { value: callMethod(ex, target, "entries", e as TS.CallExpression, st), indexed: false };
}

export function execForOf(ex: Exec, s: TS.ForOfStatement, st: State): Flow {
  const ts = ex.ts;
  if (s.awaitModifier) refuse(s, "`for await` is not modelled.", "Use a synchronous `for…of`.");
  const init = s.initializer;
  if (!ts.isVariableDeclarationList(init) || init.declarations.length !== 1) {
    refuse(init, "The loop variable must be one `const` declaration.", "Write `for (const x of xs)` or `for (const { a, b } of xs)`.");
  }
  const decl = init.declarations[0]!;
  const { value, indexed } = iterated(ex, s.expression, st);
  const labels = labelsOf(ex, s);
  const loopSym = loopBinder(ex, decl, indexed);
  // A filtered view (callbacks.ts): its base array, each element run only where it is kept.
  const view = value.k === "opaque" ? viewOf(value) : undefined;
  const iterable: Sym = view ? view.base : value;
  const keep = view?.keep;
  // A Set or Map (collections.ts): each slot in insertion order, run where it is present.
  if (iterable.k === "coll" && !keep) return execForOfKept(ex, s, loopSym, collectionItems(iterable), st);
  if (iterable.k === "arr" && keep) return execForOfKept(ex, s, loopSym, iterable.items.map((item, j) => ({ item, c: keep(String(j)) })), st);
  if (iterable.k === "arr") {
    if (iterable.items.length > UNROLL_CAP) refuse(s.expression, `The literal array has more than ${UNROLL_CAP} elements.`, `Split the loop; literal arrays are unrolled up to ${UNROLL_CAP} elements.`);
    const returns: Flow["returns"] = [];
    const broken: State[] = [];
    const outward: Jump[] = [];
    let cur: State | null = st;
    for (const [j, item] of iterable.items.entries()) {
      if (!cur) break;
      loopSym(cur, item, num(j));
      const flow = execStatement(ex, s.statement, cur);
      returns.push(...flow.returns);
      broken.push(...jumpsOf(flow, "break", labels).map((j) => j.state));
      outward.push(...passedOn(flow, labels));
      cur = joinStates(ex, [...jumpsOf(flow, "continue", labels).map((j) => j.state), flow.fall], s);
    }
    return { fall: joinStates(ex, [...broken, cur], s), returns, jumps: outward };
  }
  if (iterable.k !== "sarr") {
    refuse(s.expression, "Only arrays can be iterated.", "Loop over an array input, a literal array, or an array returned by a tool.");
  }
  if (iterable.bound !== undefined) {
    // Length bounded by an `ensures`: unroll exactly, iteration j happens iff j < length.
    const returns: Flow["returns"] = [];
    const broken: State[] = [];
    const outward: Jump[] = [];
    let cur: State | null = st;
    for (let j = 0; j < iterable.bound && cur; j++) {
      const c = and(`(< ${j} ${iterable.len})`, keep ? keep(String(j)) : "true");
      cur = iterationIf(ex, s, loopSym, iterable.at(String(j)), num(j), c, cur, returns, broken, outward);
    }
    return { fall: joinStates(ex, [...broken, cur], s), returns, jumps: outward };
  }
  return quantified(ex, s, iterable, keep, loopSym, labels, st);
}

/**
 * One symbolic iteration at an arbitrary index q with 0 <= q < length (a `for…of` over an array of
 * unknown length, or a counter loop over one, `execFor`), with its carried state (loopstate.ts).
 */
export function quantified(ex: Exec, s: TS.ForOfStatement | TS.ForStatement | TS.WhileStatement, iterable: Extract<Sym, { k: "sarr" }>, keep: ((index: string) => string) | undefined, loopSym: Binder, labels: ReadonlySet<string>, st: State, lowered?: LoweredWhile & { readonly run: (body: State) => Flow }): Flow {
  const q = ex.world.fresh("i");
  declare(ex, q, "Int");
  const range = (x: string) => and(`(<= 0 ${x})`, `(< ${x} ${iterable.len})`, keep ? keep(x) : "true");
  ex.world.loopRanges.set(q, { len: iterable.len });
  const started = startedFlag(ex, q, iterable.len);
  // Arrays the body collects with `push` (collected.ts): this iteration's pushes in the body, a view after it.
  const collected = beginCollected(ex, s, st, q, iterable.len, iterable.label, lowered?.exit);
  // State carried across iterations (loopstate.ts), or `break`: S(q) in the body, S(len) after it;
  // a collection's size the body reads is carried too.
  const carried = beginCarried(ex, s, st, q, iterable, keep, lowered, collected?.ghosts);
  const entry = and(st.pc, range(q), started.term, carried?.entry ?? "true");
  const body: State = { pc: entry, env: new Map(st.env) };
  const element = iterable.at(q);
  const factsBefore = ex.world.facts.length;
  const assumptionsBefore = ex.world.assumptions.length;
  ex.loops.push(q);
  const frame = currentFrame(ex);
  const savedLoopBody = frame.loopBody;
  const savedCarried = frame.carried;
  const savedCollecting = frame.collecting;
  frame.loopBody = s.statement;
  let flow: Flow;
  try {
    carried?.enter(body, element);
    collected?.enter(body);
    // Bound inside the loop: a pattern that may throw (a field that may be undefined) throws in iteration q.
    loopSym(body, element, numFromInt(q, ARRAY_LENGTH_MAG));
    flow = lowered ? lowered.run(body) : execStatement(ex, s.statement, body);
  } finally {
    frame.loopBody = savedLoopBody;
    frame.carried = savedCarried;
    frame.collecting = savedCollecting;
    ex.loops.pop();
  }
  if (flow.returns.length > 0) refuse(s, "`return` inside a loop over an array input or tool result is not modelled.", "Guard the calls with `if` instead, or `break` out of the loop.");
  // `continue outer` where nothing of the outer body follows this loop ends its iteration as a
  // `break` of this loop would (loopstate.ts `ownBreak` gave the loop its "not broken yet" flag).
  const endsOuter = passedOn(flow, labels).filter((j) => j.kind === "continue" && nothingFollows(ex, s, j.label!));
  if (endsOuter.length > 0) {
    const asBreak = (j: Jump): Jump => (endsOuter.includes(j) ? { kind: "break", state: j.state, node: j.node } : j);
    flow = { ...flow, jumps: (flow.jumps ?? []).map(asBreak) };
  }
  const outward = passedOn(flow, labels);
  if (outward.length > 0) refuse(outward[0]!.node, `\`${outward[0]!.kind} ${outward[0]!.label}\` out of a loop over an array of unknown length is not modelled.`, "Set a flag and test it in the outer loop, or loop over an array of at most N elements (`xs.slice(0, N)`, a tool whose `ensures` bounds it).");
  const breaks = jumpsOf(flow, "break", labels);
  // Without carried state, which iterations run would depend on the earlier ones: beginCarried
  // gives every loop with a `break` its "not broken yet" flag, so none reaches here unmodelled.
  if (breaks.length > 0 && !carried) refuse(breaks[0]!.node, "`break` inside a loop over an array input or tool result is not modelled (which iterations run would depend on the earlier ones).", "Skip elements with `if` or `continue` instead, or loop over a literal array or a literal bound.");
  // An iteration ends normally, by `continue` or by `break`; the carried variables are bound after the loop.
  const after = rejoin([...jumpsOf(flow, "continue", labels).map((x) => x.state.pc), ...(flow.fall ? [flow.fall.pc] : []), ...breaks.map((x) => x.state.pc)]);
  started.close(entry, after);
  if (after !== entry) {
    // Some iteration may throw: the code after the loop runs only if no iteration did.
    const q2 = ex.world.fresh("j");
    const renamed = renameSymbols(after, new Map([[q, q2]]));
    // With carried state, an iteration after a `break` does not start, so it need not end normally.
    const entered = carried ? renameSymbols(entry, new Map([[q, q2]])) : "true";
    st.pc = and(st.pc, `(forall ((${q2} Int)) ${implies(and(range(q2), entered), renamed)})`);
  }
  collected?.finish(joinStates(ex, [...jumpsOf(flow, "continue", labels).map((x) => x.state), flow.fall, ...breaks.map((x) => x.state)], s), st, assumptionsBefore);
  carried?.finish(flow, st, factsBefore);
  return { fall: st, returns: [] };
}

/**
 * Whether nothing runs between the end of `loop` and the end of an iteration of the loop `label`
 * names: on the way up only blocks in which it is the last statement, `if` branches and labels.
 */
function nothingFollows(ex: Exec, loop: TS.Node, label: string): boolean {
  const ts = ex.ts;
  let n: TS.Node = loop;
  for (let p = n.parent; p; n = p, p = p.parent) {
    if (ts.isLabeledStatement(p) && p.label.text === label) return false; // the loop itself is labelled: not an outer one
    if (ts.isIterationStatement(p, false)) return ts.isLabeledStatement(p.parent) && p.parent.label.text === label && n === p.statement;
    if (ts.isBlock(p)) {
      if (p.statements[p.statements.length - 1] !== n) return false;
    } else if (ts.isIfStatement(p)) {
      if (n === p.expression) return false;
    } else if (!ts.isLabeledStatement(p)) return false;
  }
  return false;
}

/** `for…of` over a literal array with a filter on it: element j runs iff it is kept (`c`). */
function execForOfKept(ex: Exec, s: TS.ForOfStatement, loopSym: Binder, items: readonly { item: Sym; c: string }[], st: State): Flow {
  const returns: Flow["returns"] = [];
  const broken: State[] = [];
  const outward: Jump[] = [];
  let cur: State | null = st;
  for (const [j, { item, c }] of items.entries()) {
    if (!cur) break;
    if (c === "false") continue;
    cur = iterationIf(ex, s, loopSym, item, num(j), c, cur, returns, broken, outward);
  }
  return { fall: joinStates(ex, [...broken, cur], s), returns, jumps: outward };
}

/**
 * One unrolled iteration that runs only where `c` holds (the element exists, or is kept): the
 * body with the loop variable bound to `item`; its returns and breaks are collected, and the state
 * after it joins the iteration's end (normal or `continue`) with the state where it was skipped.
 */
function iterationIf(ex: Exec, s: TS.ForOfStatement, loopSym: Binder, item: Sym, index: Sym, c: string, cur: State, returns: Flow["returns"], broken: State[], outward: Jump[]): State | null {
  compactPc(ex, cur);
  const body: State = { pc: and(cur.pc, c), env: new Map(cur.env) };
  loopSym(body, item, index);
  const flow = execStatement(ex, s.statement, body);
  const labels = labelsOf(ex, s);
  returns.push(...flow.returns);
  broken.push(...jumpsOf(flow, "break", labels).map((x) => x.state));
  outward.push(...passedOn(flow, labels));
  const end = joinStates(ex, [...jumpsOf(flow, "continue", labels).map((x) => x.state), flow.fall], s);
  const skipped: State = { pc: and(cur.pc, not(c)), env: cur.env };
  return join(ex, cur, c, end, skipped, s);
}

/**
 * `for (let i = 0; i < xs.length; i++)` over an array of unknown length that the body neither
 * changes nor reassigns, and whose counter only the loop's own `i++` changes: the iterations are
 * those of `for (const [i] of xs.entries())`, one symbolic iteration at its index (`quantified`).
 * Undefined for any other loop (unrolled or refused by `execFor`).
 */
function counterOverArray(ex: Exec, s: TS.ForStatement, st: State): Flow | undefined {
  const ts = ex.ts;
  const init = s.initializer, test = s.condition, step = s.incrementor;
  if (!init || !test || !step || !ts.isVariableDeclarationList(init) || !(init.flags & ts.NodeFlags.Let) || init.declarations.length !== 1) return undefined;
  const decl = init.declarations[0]!;
  if (!ts.isIdentifier(decl.name) || !decl.initializer || !ts.isNumericLiteral(skip(ex, decl.initializer)) || Number((skip(ex, decl.initializer) as TS.NumericLiteral).text) !== 0) return undefined;
  const counter = ex.checker.getSymbolAtLocation(decl.name);
  const isCounter = (n: TS.Node): boolean => ts.isIdentifier(n) && ex.checker.getSymbolAtLocation(n) === counter;
  // `i < xs.length && C`: C ends the loop like a `break` at the start of an iteration (while.ts does the same).
  const test0 = skip(ex, test);
  const both = ts.isBinaryExpression(test0) && test0.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken;
  const cond = both ? skip(ex, test0.left) : test0;
  const rest = both ? test0.right : undefined;
  if (!ts.isBinaryExpression(cond) || !isCounter(skip(ex, cond.left))) return undefined;
  // `i <= xs.length` runs once more, at the length, after every other iteration.
  const inclusive = cond.operatorToken.kind === ts.SyntaxKind.LessThanEqualsToken;
  if (cond.operatorToken.kind !== ts.SyntaxKind.LessThanToken && !inclusive) return undefined;
  const right = skip(ex, cond.right);
  if (!ts.isPropertyAccessExpression(right) || right.name.text !== "length" || !ts.isIdentifier(right.expression)) return undefined;
  if (!isUnitStep(ex, step, isCounter)) return undefined;
  // The array: of unknown length, and no other array takes its name's place in the loop.
  const array = ex.checker.getSymbolAtLocation(right.expression);
  // A filter's result reads as the array of its kept elements (over a ghost count: counted.ts).
  const value = evalExpr(ex, right.expression, st);
  const iterable = value.k === "sarr" ? value : compactView(ex, value);
  if (!array || iterable === undefined || iterable.bound !== undefined) return undefined;
  // The body may read the counter and the array, never assign them.
  let assigned = false;
  const named = (n: TS.Node): boolean => {
    const x = skip(ex, n as TS.Expression);
    return ts.isIdentifier(x) && (isCounter(x) || ex.checker.getSymbolAtLocation(x) === array);
  };
  const visit = (n: TS.Node): void => {
    if (assigned) return;
    const written = writtenBy(ts, n);
    if (written && named(written)) assigned = true;
    else ts.forEachChild(n, visit);
  };
  visit(s.statement);
  if (rest) visit(rest);
  if (assigned) return undefined;
  // After a `break` the last iteration does not run: which paths broke is not kept apart.
  if (inclusive && (rest || breaksOut(ex, s.statement))) return undefined;
  const sym = symbolOfDecl(ex, decl);
  const bind: Binder = (body, _item, index) => body.env.set(sym, index);
  const run = (b: State): Flow => {
    if (!rest) return execStatement(ex, s.statement, b);
    // Iteration q < xs.length tests `C` (the `&&` reaches it), and ends the loop where it fails.
    const c = condOf(evalExpr(ex, rest, b), rest);
    const exit: Jump = { kind: "break", state: { pc: and(b.pc, not(c)), env: new Map(b.env) }, node: rest };
    const flow = execStatement(ex, s.statement, { pc: and(b.pc, c), env: b.env });
    return { ...flow, jumps: [exit, ...(flow.jumps ?? [])] };
  };
  const flow = quantified(ex, s, iterable, undefined, bind, labelsOf(ex, s), st, rest ? { counter: counter!, exit: rest, run } : undefined);
  if (!inclusive || !flow.fall) return flow;
  // The iteration at i = xs.length, on the state every other iteration left (the element read
  // there is undefined); a `continue` in it ends the loop as its end does.
  const last: State = { pc: flow.fall.pc, env: new Map(flow.fall.env) };
  last.env.set(sym, numFromInt(iterable.len, ARRAY_LENGTH_MAG));
  const extra = execStatement(ex, s.statement, last);
  const labels = labelsOf(ex, s);
  const out = joinStates(ex, [...jumpsOf(extra, "continue", labels).map((j) => j.state), extra.fall], s);
  if (out) for (const [k, v] of out.env) if (st.env.has(k)) st.env.set(k, v);
  return { fall: out ? { pc: out.pc, env: st.env } : null, returns: extra.returns, jumps: passedOn(extra, labels) };
}

/** `i++`, `++i` or `i += 1` of the counter `isCounter` names (parentheses skipped): a counter loop's step. */
export function isUnitStep(ex: Exec, e0: TS.Expression, isCounter: (n: TS.Node) => boolean): boolean {
  const ts = ex.ts;
  const e = skip(ex, e0);
  return ((ts.isPostfixUnaryExpression(e) || ts.isPrefixUnaryExpression(e)) && e.operator === ts.SyntaxKind.PlusPlusToken && isCounter(skip(ex, e.operand)))
    || (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusEqualsToken && isCounter(skip(ex, e.left)) && ts.isNumericLiteral(skip(ex, e.right)) && Number((skip(ex, e.right) as TS.NumericLiteral).text) === 1);
}

/** Whether `body` has a `break` that leaves the loop it is the body of (any labelled one, to be safe). */
function breaksOut(ex: Exec, body: TS.Statement): boolean {
  const ts = ex.ts;
  const visit = (n: TS.Node, nested: boolean): boolean => {
    if (ts.isFunctionLike(n)) return false;
    if (ts.isBreakStatement(n)) return n.label !== undefined || !nested;
    const inner = nested || ts.isIterationStatement(n, false) || ts.isSwitchStatement(n);
    return ts.forEachChild(n, (c) => visit(c, inner)) ?? false;
  };
  return visit(body, false);
}

export function execFor(ex: Exec, s: TS.ForStatement, st: State): Flow {
  const ts = ex.ts;
  const overArray = counterOverArray(ex, s, st);
  if (overArray) return overArray;
  const init = s.initializer;
  if (!init || !ts.isVariableDeclarationList(init) || !(init.flags & ts.NodeFlags.Let)) {
    refuse(s, "A `for` loop must declare its counter with `let`.", "Write `for (let i = 0; i < N; i++)` with a literal N.");
  }
  const inner: State = { pc: st.pc, env: new Map(st.env) };
  for (const d of init.declarations) {
    if (!ts.isIdentifier(d.name)) refuse(d.name, "Destructuring is not modelled.", "Declare the counter as `let i = 0`.");
    inner.env.set(symbolOfDecl(ex, d), d.initializer ? evalExpr(ex, d.initializer, inner) : UNDEF);
  }
  const returns: Flow["returns"] = [];
  const broken: State[] = [];
  const exited: State[] = [];
  const outward: Jump[] = [];
  const labels = labelsOf(ex, s);
  let cur: State | null = inner;
  for (let n = 0; ; n++) {
    if (!cur) break;
    if (n > UNROLL_CAP) refuse(s, `The loop runs more than ${UNROLL_CAP} iterations.`, `Loops with literal bounds are unrolled up to ${UNROLL_CAP} iterations.`);
    const caps = s.condition ? conjunctCaps(ex, s.condition, cur) : [];
    // The first conjunct past its bound: JavaScript evaluates nothing else of the test.
    if (caps[0] === "past") break;
    const test = s.condition ? cond(evalExpr(ex, s.condition, cur), s.condition) : "true";
    if (test === "false") break;
    if (caps.includes("past")) {
      // A later conjunct past its bound: the ones before it ran (above); the test is false in every run.
      exited.push({ pc: and(cur.pc, not(test)), env: cur.env });
      cur = null;
      break;
    }
    if (test !== "true") {
      if (!caps.includes("within")) refuse(s.condition ?? s, "The loop bound is not a literal, so the loop cannot be unrolled.", `Use a literal bound (\`i < 10\`), a bound \`i < xs.length\` on an array of at most N elements, N ≤ ${BOUNDED_UNROLL_CAP} (\`xs.slice(0, N)\`, a tool whose \`ensures\` bounds it), \`i < Math.min(N, xs.length)\`, \`i < n\` for an integer \`n\` known to be at most ${SYMBOLIC_BOUND_CAP} (\`ensures((n) => Number.isInteger(n) && n <= 20)\`), or loop over the array with \`for (const x of xs)\`.`);
      // Within the array's static bound: this iteration runs where the test holds, the loop ends where it does not.
      compactPc(ex, cur);
      exited.push({ pc: and(cur.pc, not(test)), env: cur.env });
      cur = { pc: and(cur.pc, test), env: new Map(cur.env) };
    }
    const flow = execStatement(ex, s.statement, cur);
    returns.push(...flow.returns);
    broken.push(...jumpsOf(flow, "break", labels).map((j) => j.state));
    outward.push(...passedOn(flow, labels));
    // `continue` goes on with the incrementor, like the end of the body.
    cur = joinStates(ex, [...jumpsOf(flow, "continue", labels).map((j) => j.state), flow.fall], s);
    if (cur && s.incrementor) execExpressionStatement(ex, s.incrementor, cur);
  }
  const out = joinStates(ex, [...broken, ...exited, cur], s);
  if (out) for (const [k, v] of out.env) if (st.env.has(k)) st.env.set(k, v);
  return { fall: out ? { pc: out.pc, env: st.env } : null, returns, jumps: outward };
}

/**
 * The counter tests among the `&&` conjuncts of a loop's test, in order, each past or within its
 * static bound (a literal counts: `found === undefined && attempt < 3`); undefined for the others.
 * Any conjunct within its bound bounds the loop; the first past it ends the loop before the test
 * runs, a later one after the conjuncts before it ran.
 */
export function conjunctCaps(ex: Exec, test: TS.Expression, st: State): ("past" | "within" | undefined)[] {
  const ts = ex.ts;
  const conjuncts: TS.Expression[] = [];
  const flatten = (e: TS.Expression): void => {
    const x = skip(ex, e);
    if (ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) {
      flatten(x.left);
      flatten(x.right);
    } else conjuncts.push(x);
  };
  flatten(test);
  return conjuncts.map((c) => lengthCap(ex, c, st, true));
}

/**
 * Whether a counter test `i < b` (`<=`) is past, or within, a static bound of `b`: `xs.length` of
 * an array of at most N elements, a literal, or `Math.min` of anything with one of those among its
 * arguments (`i < Math.min(3, xs.length)`). Undefined when `b` has no static bound.
 */
export function lengthCap(ex: Exec, test: TS.Expression, st: State, literal = false): "past" | "within" | undefined {
  const ts = ex.ts;
  if (!ts.isBinaryExpression(test)) return undefined;
  const op = test.operatorToken.kind;
  if (op !== ts.SyntaxKind.LessThanToken && op !== ts.SyntaxKind.LessThanEqualsToken) return undefined;
  if (!ts.isIdentifier(test.left)) return undefined;
  const bound = staticBound(ex, test.right, st, !literal);
  if (bound === undefined) return undefined;
  const counter = evalExpr(ex, test.left, st);
  if (counter.k !== "num" || counter.c === undefined) return undefined;
  const past = op === ts.SyntaxKind.LessThanToken ? counter.c >= bound : counter.c > bound;
  return past ? "past" : "within";
}

function isMath(ex: Exec, id: TS.Identifier): boolean {
  const sym = ex.checker.getSymbolAtLocation(id);
  return sym !== undefined && isDefaultLibSymbol(ex, sym);
}

/** The initializer of the `const` an identifier names (undefined for anything else). */
function constInitializer(ex: Exec, id: TS.Identifier): TS.Expression | undefined {
  const ts = ex.ts;
  const decl = ex.checker.getSymbolAtLocation(id)?.valueDeclaration;
  if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer) return undefined;
  return ts.isVariableDeclarationList(decl.parent) && isPlainConst(ts, decl.parent) ? decl.initializer : undefined;
}

/** A parameter no code of its function assigns (`xs` of `main(xs: string[])`): it holds one value throughout. */
function unassignedParameter(ex: Exec, sym: TS.Symbol | undefined): boolean {
  const ts = ex.ts;
  const decl = sym?.valueDeclaration;
  if (!decl || !ts.isParameter(decl) || !ts.isIdentifier(decl.name)) return false;
  let assigned = false;
  const visit = (n: TS.Node): void => {
    if (assigned) return;
    const target = writtenBy(ts, n);
    if (target && ts.isIdentifier(skip(ex, target)) && ex.checker.getSymbolAtLocation(skip(ex, target)) === sym) assigned = true;
    ts.forEachChild(n, visit);
  };
  visit(decl.parent);
  return !assigned;
}

/** Whether every name an expression reads (property names aside) is a `const`, an unassigned parameter or a built-in. */
function readsOnlyConsts(ex: Exec, e: TS.Expression): boolean {
  const ts = ex.ts;
  let ok = true;
  const visit = (n: TS.Node): void => {
    if (!ok) return;
    if (ts.isPropertyAccessExpression(n)) return visit(n.expression);
    if (ts.isIdentifier(n)) {
      const sym = ex.checker.getSymbolAtLocation(n);
      if (!(constInitializer(ex, n) || (sym && isDefaultLibSymbol(ex, sym)) || unassignedParameter(ex, sym))) ok = false;
      return;
    }
    if (ts.isFunctionLike(n)) ok = false;
    else ts.forEachChild(n, visit);
  };
  visit(e);
  return ok;
}

/** A number `e` never exceeds in any run (see `lengthCap`); `top`: a bare literal is no array's bound, so only inside `Math.min`. */
function staticBound(ex: Exec, e0: TS.Expression, st: State, top = false): number | undefined {
  const ts = ex.ts;
  const e = skip(ex, e0);
  if (ts.isPropertyAccessExpression(e) && e.name.text === "length" && ts.isIdentifier(e.expression)) {
    const arr = evalExpr(ex, e.expression, st);
    if (arr.k === "sarr") return arr.bound;
    // A filter keeps at most its base's elements (`const pro = all.filter(…)` over a bounded `all`).
    const base = viewOf(arr)?.base;
    return base === undefined ? undefined : base.k === "arr" ? base.items.length : base.bound;
  }
  if (!top && ts.isNumericLiteral(e)) return Number(e.text);
  // `const n = Math.min(xs.length, 5)` before the loop: the bound of what it holds, read now (the
  // names it reads are `const` too, so they hold what they held then).
  if (ts.isIdentifier(e)) {
    const init = constInitializer(ex, e);
    return (init && readsOnlyConsts(ex, init) ? staticBound(ex, init, st, top) : undefined) ?? integerBound(ex, e, st);
  }
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && ts.isIdentifier(e.expression.expression) && e.expression.expression.text === "Math" && e.expression.name.text === "min" && e.arguments.every((a) => !ts.isSpreadElement(a)) && isMath(ex, e.expression.expression)) {
    const bounds = e.arguments.map((a) => staticBound(ex, a, st)).filter((b): b is number => b !== undefined);
    return bounds.length === 0 ? undefined : Math.min(...bounds);
  }
  return integerBound(ex, e, st);
}

/**
 * The static bound of an integer a variable or field holds (`c <= cartons`, where a tool's
 * `ensures` says `Number.isInteger(n) && n <= 20`): the magnitude its Int term is known to stay
 * within (values.ts `NumSym.mag`), when it is at most `SYMBOLIC_BOUND_CAP`. Only reads (no call is
 * evaluated twice).
 */
function integerBound(ex: Exec, e: TS.Expression, st: State): number | undefined {
  const ts = ex.ts;
  const pure = (x: TS.Expression): boolean => ts.isIdentifier(x) || (ts.isPropertyAccessExpression(x) && !x.questionDotToken && pure(skip(ex, x.expression)));
  if (!pure(e)) return undefined;
  const v = evalExpr(ex, e, st);
  return v.k === "num" && v.int !== undefined && v.mag <= SYMBOLIC_BOUND_CAP ? v.mag : undefined;
}
