/**
 * `while` and `do…while` whose number of iterations is evident: the condition is decided (true or
 * false, not symbolic) before every iteration, as with a counter against a literal
 * (`let i = 0; while (i < 3) { …; i++; }`). They are unrolled like `for` with a literal bound.
 * A counter over an array of unknown length (`while (i < xs.length && xs[i] !== "") { …; i++; }`)
 * is a counter loop over it (`counterOverArray`). Any other condition is refused on its node.
 */
import type * as TS from "typescript";
import { and, not } from "../smt";
import { UNROLL_CAP } from "./caps";
import { refuse, skip, symbolAt, symbolOfDecl, writtenBy, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { cond } from "./guards";
import { isUnitStep, conjunctCaps, quantified, type Binder } from "./loops";
import { compactPc, joinStates, jumpsOf, labelsOf, passedOn, type Flow, type Jump, type State } from "./state";
import { execStatement, execStatements } from "./statements";
import type { Sym } from "../values";

/**
 * `let i = 0; … while (i < xs.length && C) { …; i++; }` over an array of unknown length: the
 * iterations of `for (let i = 0; i < xs.length; i++) { if (!(C)) break; … }`, one symbolic
 * iteration at its index (loops.ts `quantified`), `C` ending the loop like a `break`. It applies
 * only when the counter holds 0 as the loop starts; the body ends with its step (`i++`, `++i`,
 * `i += 1`) and neither it nor `C` otherwise assigns the counter or the array; nothing in the body
 * would `continue` the loop (past the step); and nothing outside the loop reads the counter (its
 * value after the loop, the index where `C` first failed, is not modelled). Undefined otherwise
 * (the loop is then unrolled or refused as any other `while`).
 */
function counterOverArray(ex: Exec, s: TS.WhileStatement, st: State): Flow | undefined {
  const ts = ex.ts;
  const test = skip(ex, s.expression);
  const both = ts.isBinaryExpression(test) && test.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken;
  const bound = both ? skip(ex, test.left) : test;
  const rest = both ? test.right : undefined;
  if (!ts.isBinaryExpression(bound) || bound.operatorToken.kind !== ts.SyntaxKind.LessThanToken) return undefined;
  const left = skip(ex, bound.left);
  const right = skip(ex, bound.right);
  if (!ts.isIdentifier(left) || !ts.isPropertyAccessExpression(right) || right.name.text !== "length" || !ts.isIdentifier(right.expression)) return undefined;
  const counter = ex.checker.getSymbolAtLocation(left);
  const array = ex.checker.getSymbolAtLocation(right.expression);
  const decl = counter?.valueDeclaration;
  if (!counter || !array || !decl || !ts.isVariableDeclaration(decl) || !ts.isVariableDeclarationList(decl.parent) || !(decl.parent.flags & ts.NodeFlags.Let)) return undefined;
  // The counter belongs to the function running the loop: a helper's loop over a counter it
  // captured would change the caller's variable (refused where the step runs, which the lowering
  // skips; the outside reviewer's while_reenter_helper).
  const owner = (n: TS.Node): TS.Node | undefined => ts.findAncestor(n.parent, (a) => ts.isFunctionLike(a));
  if (owner(decl) !== owner(s)) return undefined;
  const sym = symbolOfDecl(ex, decl);
  const start = st.env.get(sym);
  if (start?.k !== "num" || start.c !== 0 || Object.is(start.c, -0)) return undefined;
  const body = s.statement;
  if (!ts.isBlock(body) || body.statements.length === 0) return undefined;
  const stepStatement = body.statements[body.statements.length - 1]!;
  const isCounter = (n: TS.Node): boolean => {
    const x = skip(ex, n as TS.Expression);
    return ts.isIdentifier(x) && ex.checker.getSymbolAtLocation(x) === counter;
  };
  if (!ts.isExpressionStatement(stepStatement) || !isUnitStep(ex, stepStatement.expression, isCounter)) return undefined;
  // Nothing else assigns the counter or the array, and no `continue` skips the step.
  let unfit = false;
  const named = (n: TS.Node): boolean => {
    const x = skip(ex, n as TS.Expression);
    return ts.isIdentifier(x) && (ex.checker.getSymbolAtLocation(x) === counter || ex.checker.getSymbolAtLocation(x) === array);
  };
  const visit = (n: TS.Node, nested: boolean): void => {
    if (unfit || n === stepStatement) return;
    const written = writtenBy(ts, n);
    if (written && named(written)) unfit = true;
    else if (ts.isContinueStatement(n) && (n.label !== undefined || !nested)) unfit = true;
    else ts.forEachChild(n, (c) => visit(c, nested || ts.isIterationStatement(n, false)));
  };
  visit(body, false);
  if (rest) visit(rest, false);
  // The counter is read only in the loop (and declared before it).
  const read = (n: TS.Node): void => {
    if (unfit || n === s) return;
    if (ts.isIdentifier(n) && n !== decl.name && symbolAt(ex, n) === counter) unfit = true;
    else ts.forEachChild(n, read);
  };
  read(s.getSourceFile());
  if (unfit) return undefined;
  const iterable = evalExpr(ex, right.expression, st);
  if (iterable.k !== "sarr" || iterable.bound !== undefined) return undefined;
  const bind: Binder = (b, _item, index) => b.env.set(sym, index);
  const run = (b: State): Flow => {
    if (!rest) return execStatements(ex, body.statements.slice(0, -1), b);
    // Iteration q < xs.length tests `C` (the `&&` reaches it), and ends the loop where it fails.
    const c = cond(evalExpr(ex, rest, b), rest);
    const exit: Jump = { kind: "break", state: { pc: and(b.pc, not(c)), env: new Map(b.env) }, node: rest };
    const flow = execStatements(ex, body.statements.slice(0, -1), { pc: and(b.pc, c), env: b.env });
    return { ...flow, jumps: [exit, ...(flow.jumps ?? [])] };
  };
  const flow = quantified(ex, s, iterable, undefined, bind, labelsOf(ex, s), st, { counter, exit: rest, run });
  // After the loop the counter holds the index where it stopped, which is not modelled: nothing
  // outside the loop reads it (above), but the same `while` may run again (inside another loop, a
  // helper called twice), and it must not start again from 0 (the outside reviewer's
  // while_reenter_*: a second run over every element where JavaScript makes none). Opaque, the
  // second run is not lowered, and an ordinary `while` cannot decide its test: refused.
  const after: Sym = { k: "opaque", why: `\`${left.text}\` after the loop over \`${right.expression.text}\` (the index where it stopped is not modelled)` };
  const havoc = (state: State): State => {
    const env = new Map(state.env);
    env.set(sym, after);
    return { ...state, env };
  };
  return {
    ...flow,
    fall: flow.fall && havoc(flow.fall),
    jumps: flow.jumps?.map((j) => ({ ...j, state: havoc(j.state) })),
    returns: flow.returns.map((r) => (r.env ? { ...r, env: new Map([...r.env, [sym, after]]) } : r)),
  };
}

export function execWhile(ex: Exec, s: TS.WhileStatement | TS.DoStatement, st: State): Flow {
  if (ex.ts.isWhileStatement(s)) {
    const overArray = counterOverArray(ex, s, st);
    if (overArray) return overArray;
  }
  const ts = ex.ts;
  const isDo = ts.isDoStatement(s);
  const returns: Flow["returns"] = [];
  const broken: State[] = [];
  const exited: State[] = [];
  const outward: Jump[] = [];
  const labels = labelsOf(ex, s);
  // `i < xs.length` (in any conjunct) over an array of at most N elements: decided past N, and within
  // it the loop ends on the paths where the test fails (as a `for` does, loops.ts).
  let cur: State | null = { pc: st.pc, env: new Map(st.env) };
  for (let n = 0; cur; n++) {
    if (n > UNROLL_CAP) refuse(s, `The loop runs more than ${UNROLL_CAP} iterations.`, `Loops with evident bounds are unrolled up to ${UNROLL_CAP} iterations.`);
    // A `do…while` runs its body once before the first test; `continue` goes to the test.
    if (!isDo || n > 0) {
      // Any conjunct may be the counter test (`found === undefined && attempt < 3`).
      const caps = conjunctCaps(ex, s.expression, cur);
      // The first conjunct past its bound: JavaScript evaluates nothing else of the test.
      if (caps[0] === "past") break;
      const test = cond(evalExpr(ex, s.expression, cur), s.expression);
      if (test === "false") break;
      if (caps.includes("past")) {
        // A later conjunct past its bound: the conjuncts before it were evaluated (above), and the
        // test is false in every run (its term may not show it: `i < xs.length` of a bounded array).
        exited.push({ pc: and(cur.pc, not(test)), env: cur.env });
        cur = null;
        break;
      }
      if (test !== "true") {
        if (!caps.includes("within")) refuse(s.expression, `The \`${isDo ? "do…while" : "while"}\` condition is not decided before every iteration (the loop runs an unknown number of times).`, "Count against a literal (`let i = 0; while (i < 5) { …; i++; }`), count over an array (`let i = 0; while (i < xs.length && …) { …; i++; }`, the step last), write `for (let i = 0; i < N; i++)` with a literal N, or loop over an array with `for (const x of xs)`.");
        compactPc(ex, cur);
        exited.push({ pc: and(cur.pc, not(test)), env: cur.env });
        cur = { pc: and(cur.pc, test), env: new Map(cur.env) };
      }
    }
    const flow = execStatement(ex, s.statement, cur);
    returns.push(...flow.returns);
    broken.push(...jumpsOf(flow, "break", labels).map((j) => j.state));
    outward.push(...passedOn(flow, labels));
    cur = joinStates(ex, [...jumpsOf(flow, "continue", labels).map((j) => j.state), flow.fall], s);
  }
  const out = joinStates(ex, [...broken, ...exited, cur], s);
  if (out) for (const [k, v] of out.env) if (st.env.has(k)) st.env.set(k, v);
  return { fall: out ? { pc: out.pc, env: st.env } : null, returns, jumps: outward };
}
