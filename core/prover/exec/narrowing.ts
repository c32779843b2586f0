/**
 * Narrowing a variable that may be undefined by the test that guards it. Where `if (!sku)
 * continue;` falls through, or the right side of `!sku || seen.has(sku)` runs, `sku` is truthy,
 * so defined: there it is read as its defined value, which is exact on that path (the path
 * condition already says the value is defined; only the value's kind changes, so that what takes
 * strings only, a Set's `add` or a tool's argument, takes it).
 *
 * Only what the test's shape proves is narrowed, of local variables the state binds: `x` (true),
 * `x !== undefined`, `x != undefined`, `x != null` (true), their negations (false), under `!`,
 * `&&` (true: both sides) and `||` (false: both sides). `x !== null` proves nothing (undefined is
 * not null).
 */
import type * as TS from "typescript";
import type { Sym } from "../values";
import { isDefaultLibSymbol, type Exec } from "./context";
import type { State } from "./state";

/** The identifiers `test` proves defined where its value is `truth` (truthy for `true`). */
export function definedWhere(ex: Exec, test: TS.Expression, truth: boolean): TS.Identifier[] {
  const ts = ex.ts;
  let e = test;
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  if (ts.isIdentifier(e)) return truth ? [e] : [];
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken) return definedWhere(ex, e.operand, !truth);
  if (!ts.isBinaryExpression(e)) return [];
  const op = e.operatorToken.kind;
  if (op === ts.SyntaxKind.AmpersandAmpersandToken) return truth ? [...definedWhere(ex, e.left, true), ...definedWhere(ex, e.right, true)] : [];
  if (op === ts.SyntaxKind.BarBarToken) return truth ? [] : [...definedWhere(ex, e.left, false), ...definedWhere(ex, e.right, false)];
  const nullish = (x: TS.Expression): "undefined" | "null" | undefined => {
    let y = x;
    while (ts.isParenthesizedExpression(y)) y = y.expression;
    if (ts.isIdentifier(y) && y.text === "undefined") {
      // The global, not a local of that name (as names.ts reads it).
      const sym = ex.checker.getSymbolAtLocation(y);
      return !sym || !sym.declarations?.length || isDefaultLibSymbol(ex, sym) ? "undefined" : undefined;
    }
    return y.kind === ts.SyntaxKind.NullKeyword ? "null" : undefined;
  };
  const side = nullish(e.right) ? { other: e.left, lit: nullish(e.right)! } : nullish(e.left) ? { other: e.right, lit: nullish(e.left)! } : undefined;
  if (!side) return [];
  let x = side.other;
  while (ts.isParenthesizedExpression(x)) x = x.expression;
  if (!ts.isIdentifier(x)) return [];
  // `x != null` and `x != undefined` are false for both; `x !== undefined` for undefined only.
  const proves = (strict: boolean): boolean => !strict || side.lit === "undefined";
  if (op === ts.SyntaxKind.ExclamationEqualsEqualsToken) return truth && proves(true) ? [x] : [];
  if (op === ts.SyntaxKind.ExclamationEqualsToken) return truth && proves(false) ? [x] : [];
  if (op === ts.SyntaxKind.EqualsEqualsEqualsToken) return !truth && proves(true) ? [x] : [];
  if (op === ts.SyntaxKind.EqualsEqualsToken) return !truth && proves(false) ? [x] : [];
  return [];
}

/**
 * Binds each of `ids` that `st` holds as a value that may be undefined to its defined value;
 * returns how to undo it in a state that came from `st` (for a test inside an expression, whose
 * narrowing ends with the operand it guards; for an `if` whose two branches meet again).
 */
export function narrow(ex: Exec, st: State, ids: readonly TS.Identifier[]): (later?: State) => void {
  const changed: { sym: TS.Symbol; from: Sym; to: Sym }[] = [];
  for (const id of ids) {
    const sym = ex.checker.getSymbolAtLocation(id);
    const v = sym ? st.env.get(sym) : undefined;
    if (!sym || v?.k !== "maybe") continue;
    st.env.set(sym, v.v);
    changed.push({ sym, from: v, to: v.v });
  }
  return (later = st) => {
    for (const { sym, from, to } of changed) if (later.env.get(sym) === to) later.env.set(sym, from);
  };
}

/** Runs `f` in `st` with what `test` being `truth` proves defined narrowed, undone afterwards. */
export function narrowed<T>(ex: Exec, st: State, test: TS.Expression, truth: boolean, f: (s: State) => T): T {
  const undo = narrow(ex, st, definedWhere(ex, test, truth));
  try {
    return f(st);
  } finally {
    undo();
  }
}
