/**
 * Statements and blocks: declarations, `if`, `return`, `throw`, `break`/`continue`, expression
 * statements, function bodies; the refusals for statements outside the subset. Loops are in
 * loops.ts, `switch` in switch.ts, assignments in assignments.ts.
 */
import type * as TS from "typescript";
import type { CaughtTexts } from "../facts";
import { caughtTexts, thrownTexts } from "./caught";
import { holeOpen } from "../holes";
import { and, not, or } from "../smt";
import { UNDEF, type FunctionLike, type Sym } from "../values";
import { execExpressionStatement } from "./assignments";
import { currentFrame, refuse, skip, symbolOfDecl, tick, type Exec } from "./context";
import { bindPattern, definedOnPath } from "./objects";
import { evalExpr, functionValue } from "./expressions";
import { cond, notOpaque } from "./guards";
import { execFor, execForOf } from "./loops";
import { alternatives, compactPc, flowValue, join, joinStates, noJumps, type Flow, type Jump, type State } from "./state";
import { execSwitch } from "./switch";
import { execTry } from "./try";
import { exitOrder } from "./exit-states";
import { execWhile } from "./while";
import { definedWhere, narrow, narrowed } from "./narrowing";

export function execBody(ex: Exec, fn: FunctionLike, st: State): Flow {
  const ts = ex.ts;
  if (!fn.body) refuse(fn, "The function has no body.", "Write the function inline.");
  if (!ts.isBlock(fn.body)) {
    const value = evalExpr(ex, fn.body, st);
    return { fall: null, returns: [{ pc: st.pc, value }] };
  }
  enterBlock(ex, fn.body.statements, st);
  const flow = execStatements(ex, fn.body.statements, st);
  noJumps(flow);
  return flow;
}

export function evalFunctionBodyValue(ex: Exec, fn: FunctionLike, st: State): Sym {
  const ts = ex.ts;
  if (!fn.body) refuse(fn, "The function has no body.", "Write the function inline.");
  if (!ts.isBlock(fn.body)) return evalExpr(ex, fn.body, st);
  enterBlock(ex, fn.body.statements, st);
  const flow = execStatements(ex, fn.body.statements, st);
  noJumps(flow);
  return flowValue(flow, st, fn);
}

export function execStatements(ex: Exec, stmts: readonly TS.Statement[], st: State): Flow {
  const returns: Flow["returns"] = [];
  const jumps: Jump[] = [];
  let cur: State | null = st;
  for (const s of stmts) {
    if (!cur) break;
    const flow = execStatement(ex, s, cur);
    returns.push(...flow.returns);
    jumps.push(...(flow.jumps ?? []));
    cur = flow.fall;
  }
  return { fall: cur, returns, jumps };
}

/**
 * Entering a block (again: the next iteration of a loop body): its `let`/`const` bindings are in
 * their temporal dead zone until their declarations run, so a value from an earlier iteration must
 * not be visible. A read before the declaration is then refused in `lookup`.
 */
export function enterBlock(ex: Exec, stmts: readonly TS.Statement[], st: State): void {
  const ts = ex.ts;
  if (holeOpen("tdz")) return;
  const forget = (name: TS.BindingName): void => {
    if (ts.isIdentifier(name)) {
      const sym = ex.checker.getSymbolAtLocation(name);
      if (sym) st.env.delete(sym);
    } else for (const el of name.elements) if (!ts.isOmittedExpression(el)) forget(el.name);
  };
  for (const s of stmts) if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) forget(d.name);
}

export function execStatement(ex: Exec, s: TS.Statement, st: State): Flow {
  const ts = ex.ts;
  tick(ex, s);
  const fall = (): Flow => ({ fall: st, returns: [] });
  if (ts.isBlock(s)) {
    enterBlock(ex, s.statements, st);
    return execStatements(ex, s.statements, st);
  }
  if (ts.isEmptyStatement(s) || ts.isFunctionDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) {
    if (ts.isFunctionDeclaration(s) && s.asteriskToken) refuse(s, "Generators are not modelled.", "Return an array instead.");
    return fall();
  }
  if (ts.isVariableStatement(s)) {
    const list = s.declarationList;
    if (!(list.flags & (ts.NodeFlags.Const | ts.NodeFlags.Let))) refuse(s, "`var` is not modelled.", "Declare variables with `const` or `let`.");
    for (const d of list.declarations) {
      let value: Sym = UNDEF;
      if (d.initializer) {
        const init = skip(ex, d.initializer);
        value = ts.isArrowFunction(init) || ts.isFunctionExpression(init) ? functionValue(init) : evalExpr(ex, d.initializer, st);
      }
      // `const { total, payee } = await getInvoice(id)` (objects.ts).
      if (!ts.isIdentifier(d.name)) bindPattern(ex, d.name, value, st, d.initializer ?? d);
      else st.env.set(symbolOfDecl(ex, d), definedOnPath(ex, value, st));
    }
    return fall();
  }
  if (ts.isExpressionStatement(s)) {
    execExpressionStatement(ex, s.expression, st);
    return fall();
  }
  if (ts.isIfStatement(s)) {
    const c = cond(evalExpr(ex, s.expression, st), s.expression);
    if (c === "true") return execStatement(ex, s.thenStatement, st);
    if (c === "false") return s.elseStatement ? execStatement(ex, s.elseStatement, st) : fall();
    compactPc(ex, st);
    // Each branch reads what its test proves defined as defined, and so does the code after an
    // `if (!sku) continue;` (narrowing.ts).
    const s1: State = { pc: and(st.pc, c), env: new Map(st.env) };
    const undo1 = narrow(ex, s1, definedWhere(ex, s.expression, true));
    const f1 = execStatement(ex, s.thenStatement, s1);
    const s2: State = { pc: and(st.pc, not(c)), env: new Map(st.env) };
    const undo2 = narrow(ex, s2, definedWhere(ex, s.expression, false));
    const f2: Flow = s.elseStatement ? execStatement(ex, s.elseStatement, s2) : { fall: s2, returns: [] };
    // Where both branches go on, the join holds the value as it was (equal on either path).
    if (f1.fall && f2.fall) {
      undo1(f1.fall);
      undo2(f2.fall);
    }
    return { fall: join(ex, st, c, f1.fall, f2.fall, s), returns: [...f1.returns, ...f2.returns], jumps: [...(f1.jumps ?? []), ...(f2.jumps ?? [])] };
  }
  if (ts.isReturnStatement(s)) {
    if (currentFrame(ex).loopBody) refuse(s, "`return` inside a loop over an array input or tool result is not modelled.", "Filter with an `if` around the calls instead of returning early.");
    const value = s.expression ? evalExpr(ex, s.expression, st) : UNDEF;
    // The variables as they are here, for a `finally` the return runs first (try.ts).
    return { fall: null, returns: [{ pc: st.pc, value, env: new Map(st.env) }] };
  }
  if (ts.isThrowStatement(s)) {
    const e = skip(ex, s.expression);
    let thrown: CaughtTexts | undefined;
    if (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && /^(Error|TypeError|RangeError)$/.test(e.expression.text)) {
      const args = (e.arguments ?? []).map((a) => evalExpr(ex, a, st));
      thrown = thrownTexts(ex, e.expression.text, args[0], e);
    } else thrown = caughtTexts(evalExpr(ex, s.expression, st));
    ex.world.throws.push({ guard: st.pc, site: s, loops: [...ex.loops], order: exitOrder(ex, st), ...(thrown ? { thrown } : {}), ...(ex.unordered > 0 ? { unordered: ex.unordered } : {}) });
    return { fall: null, returns: [] };
  }
  if (ts.isForOfStatement(s)) return execForOf(ex, s, st);
  if (ts.isForStatement(s)) return execFor(ex, s, st);
  if (ts.isSwitchStatement(s)) return execSwitch(ex, s, st);
  if (ts.isWhileStatement(s) || ts.isDoStatement(s)) return execWhile(ex, s, st);
  if (ts.isForInStatement(s)) refuse(s, "`for…in` is not modelled.", "Use `for (const x of array)`.");
  if (ts.isTryStatement(s)) return execTry(ex, s, st);
  if (ts.isBreakStatement(s) || ts.isContinueStatement(s)) {
    const kind = ts.isBreakStatement(s) ? "break" : "continue";
    return { fall: null, returns: [], jumps: [{ kind, state: st, node: s, ...(s.label ? { label: s.label.text } : {}) }] };
  }
  if (ts.isLabeledStatement(s)) {
    // A loop or switch under the label takes the jumps naming it (labelsOf); a labeled block ends here for `break label`.
    const flow = execStatement(ex, s.statement, st);
    const label = s.label.text;
    const mine = (flow.jumps ?? []).filter((j) => j.label === label);
    if (mine.length === 0) return flow;
    return { fall: joinStates(ex, [...mine.map((j) => j.state), flow.fall], s), returns: flow.returns, jumps: (flow.jumps ?? []).filter((j) => j.label !== label) };
  }
  if (ts.isClassDeclaration(s)) refuse(s, "Classes are not modelled in agent programs.", "Use plain functions and values.");
  refuse(s, `This statement (${ts.SyntaxKind[s.kind]}) is not modelled.`, "Use const/let, if/else, switch, for…of, for with a literal bound, return and throw.");
}

/** Evaluate for effect only: `a && f()`, `c ? f() : g()` as statements need no common value type. */
export function evalDiscard(ex: Exec, e0: TS.Expression, st: State): void {
  const ts = ex.ts;
  const e = skip(ex, e0);
  const branch = (c: string, a: (s: State) => void, b: (s: State) => void): void => {
    if (c === "true") return a(st);
    if (c === "false") return b(st);
    alternatives(ex, st, c, a, b, e);
  };
  if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken || e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken)) {
    const left = evalExpr(ex, e.left, st);
    const isAnd = e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken;
    const right = (s: State) => (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ? evalDiscard(ex, e.right, s) : narrowed(ex, s, e.left, isAnd, (n) => evalDiscard(ex, e.right, n)));
    const none = () => undefined;
    if (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) {
      notOpaque(left, e.left);
      const c = left.k === "undef" ? "true" : left.k === "maybe" ? not(left.def) : "false";
      return branch(c, right, none);
    }
    const c = cond(left, e.left);
    return isAnd ? branch(c, right, none) : branch(c, none, right);
  }
  if (ts.isConditionalExpression(e)) {
    const c = cond(evalExpr(ex, e.condition, st), e.condition);
    return branch(c, (s) => narrowed(ex, s, e.condition, true, (n) => evalDiscard(ex, e.whenTrue, n)), (s) => narrowed(ex, s, e.condition, false, (n) => evalDiscard(ex, e.whenFalse, n)));
  }
  if (ts.isVoidExpression(e)) return evalDiscard(ex, e.expression, st);
  evalExpr(ex, e0, st);
}
