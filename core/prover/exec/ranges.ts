/**
 * Integer ranges a tool promises of its result, read from its `ensures` (integers.ts says why).
 *
 * A number in the result is an integer in [lo, hi] when the conjuncts of the tool's promises say
 * `Number.isInteger(x)` (or `Number.isSafeInteger(x)`) and bound it with literals (`x > 0`,
 * `x <= 1000`, `0 <= x`, `x === 5`), where `x` is the result, a field of it, an element of it
 * (inside `r.every((e) => …)`), or a field of an element. Only conjuncts at the top of a promise
 * count (a bound under `||` or `!` says nothing for sure); several promises combine, since every
 * one of them holds of every result. The runtime checks each promise on the actual result, so a
 * completed call's result is in its range. A range that no integer satisfies is ignored (the
 * promise can never hold; assuming it would prove anything), and so is one wider than ±2^32.
 */
import type * as TS from "typescript";
import { elementPromiseOf } from "../../element-promise";
import type { ToolModel } from "../../model";
import { isDefaultLibSymbol, skip, type Exec } from "./context";

/** An integer range, both ends integers of magnitude at most 2^53. */
export interface IntRange {
  readonly lo: number;
  readonly hi: number;
}

/**
 * Ranges by path into the result: "" the result itself, ".f" its field f, "[]" an element,
 * "[].f" a field of an element.
 */
export type IntRanges = ReadonlyMap<string, IntRange>;

interface Facts {
  integral: boolean;
  safe: boolean;
  lo: number;
  hi: number;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Ranges wider than ±2^32 keep the Float64 encoding: an Int term that a Float64 operation needs
 * (beyond 2^53, or for `/`) must be converted, which the solver does slowly for wide integers,
 * while amounts, counts and indices are far narrower. (A safe integer alone: Float64.)
 */
const RANGE_LIMIT = 2 ** 32;

export function integerRanges(ex: Exec, tool: ToolModel): IntRanges {
  const ts = ex.ts;
  const facts = new Map<string, Facts>();
  const at = (path: string): Facts => {
    let f = facts.get(path);
    if (!f) facts.set(path, (f = { integral: false, safe: false, lo: -Infinity, hi: Infinity }));
    return f;
  };
  for (const en of tool.ensures) {
    const fn = en.fn;
    const shape = elementPromiseOf(ts, fn, ex.checker);
    if (shape.kind === "malformed") continue;
    const [param, body, prefix] = shape.kind === "element"
      ? [shape.element.parameters[0], shape.element.body, "[]"]
      : [fn.parameters[0], fn.body, ""];
    if (!param || !ts.isIdentifier(param.name) || ts.isBlock(body)) continue;
    const base = ex.checker.getSymbolAtLocation(param.name);
    if (!base) continue;
    const pathOf = (e: TS.Expression): string | undefined => {
      const x = skip(ex, e);
      if (ts.isIdentifier(x)) return ex.checker.getSymbolAtLocation(x) === base ? prefix : undefined;
      if (ts.isPropertyAccessExpression(x) && ts.isIdentifier(x.name)) {
        const inner = skip(ex, x.expression);
        if (ts.isIdentifier(inner) && ex.checker.getSymbolAtLocation(inner) === base) return `${prefix}.${x.name.text}`;
      }
      return undefined;
    };
    for (const c of conjuncts(ex, body)) {
      if (ts.isCallExpression(c) && c.arguments.length === 1) {
        const callee = skip(ex, c.expression);
        if (!ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.expression) || callee.expression.text !== "Number") continue;
        const sym = ex.checker.getSymbolAtLocation(callee.expression);
        if (!sym || !isDefaultLibSymbol(ex, sym)) continue;
        const name = callee.name.text;
        const path = pathOf(c.arguments[0]!);
        if (path === undefined || (name !== "isInteger" && name !== "isSafeInteger")) continue;
        const f = at(path);
        f.integral = true;
        if (name === "isSafeInteger") f.safe = true;
        continue;
      }
      if (!ts.isBinaryExpression(c)) continue;
      const op = c.operatorToken.kind;
      const K = ts.SyntaxKind;
      const flip: Partial<Record<TS.SyntaxKind, TS.SyntaxKind>> = { [K.LessThanToken]: K.GreaterThanToken, [K.LessThanEqualsToken]: K.GreaterThanEqualsToken, [K.GreaterThanToken]: K.LessThanToken, [K.GreaterThanEqualsToken]: K.LessThanEqualsToken, [K.EqualsEqualsEqualsToken]: K.EqualsEqualsEqualsToken };
      if (flip[op] === undefined) continue;
      let path = pathOf(c.left), lit = literal(ex, c.right), rel: TS.SyntaxKind = op;
      if (path === undefined || lit === undefined) {
        path = pathOf(c.right);
        lit = literal(ex, c.left);
        rel = flip[op]!;
      }
      if (path === undefined || lit === undefined) continue;
      const f = at(path);
      // Bounds of an integer: x > 2.5 means x >= 3, x < 2.5 means x <= 2.
      if (rel === K.GreaterThanToken) f.lo = Math.max(f.lo, Math.floor(lit) + 1);
      else if (rel === K.GreaterThanEqualsToken) f.lo = Math.max(f.lo, Math.ceil(lit));
      else if (rel === K.LessThanToken) f.hi = Math.min(f.hi, Math.ceil(lit) - 1);
      else if (rel === K.LessThanEqualsToken) f.hi = Math.min(f.hi, Math.floor(lit));
      else if (Number.isInteger(lit)) { f.lo = Math.max(f.lo, lit); f.hi = Math.min(f.hi, lit); }
      else { f.lo = Infinity; f.hi = -Infinity; } // x === 2.5 and an integer: never
    }
  }
  const out = new Map<string, IntRange>();
  for (const [path, f] of facts) {
    if (!f.integral) continue;
    const lo = f.safe ? Math.max(f.lo, -SAFE) : f.lo;
    const hi = f.safe ? Math.min(f.hi, SAFE) : f.hi;
    if (!(lo <= hi) || !(Math.abs(lo) <= RANGE_LIMIT && Math.abs(hi) <= RANGE_LIMIT)) continue;
    out.set(path, { lo, hi });
  }
  return out;
}

/** The top-level conjuncts of a predicate body (`a && (b && c)` → a, b, c). */
function conjuncts(ex: Exec, e: TS.Expression): TS.Expression[] {
  const ts = ex.ts;
  const x = skip(ex, e);
  if (ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) return [...conjuncts(ex, x.left), ...conjuncts(ex, x.right)];
  return [x];
}

/** A numeric literal, possibly negated: `5`, `-5`, `1e3`. */
function literal(ex: Exec, e: TS.Expression): number | undefined {
  const ts = ex.ts;
  const x = skip(ex, e);
  if (ts.isNumericLiteral(x)) return Number(x.text);
  if (ts.isPrefixUnaryExpression(x) && x.operator === ts.SyntaxKind.MinusToken) {
    const inner = skip(ex, x.operand);
    if (ts.isNumericLiteral(inner)) return -Number(inner.text);
  }
  return undefined;
}
