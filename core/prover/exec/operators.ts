/** Binary operators (`&&`, `||`, `??`, equality, comparisons, arithmetic, `+`) and conversion to strings. */
import type * as TS from "typescript";
import { caughtText, instanceOf } from "./caught";
import { NUMBER_TEXT_KIND } from "../conversions";
import { and, excludesZero, ite, not, or, RM, strLit } from "../smt";
import { bool, boolT, compareInt, num, str, strictEquals, withFmag, type NumSym, type Sym, UNDEF } from "../values";
import { refuse, sized, type Exec } from "./context";
import { convert } from "./conversions";
import { arithmeticBound, intArithmetic, intRemainder, intRemainderBy, quotientOf } from "./integers";
import { evalExpr } from "./expressions";
import { cond, definite, notOpaque } from "./guards";
import { refuseObjectOperator } from "./objects";
import { alternatives, branchValues, nameTerm, type State } from "./state";
import { narrowed } from "./narrowing";

/** Whether only the truth of `e` is read where it stands: the test of an `if`, a loop or a ternary, the operand of `!`, or a side of `&&`/`||` that is itself only tested. */
function onlyTested(ex: Exec, e: TS.Expression): boolean {
  const ts = ex.ts;
  let n: TS.Node = e;
  while (ts.isParenthesizedExpression(n.parent)) n = n.parent;
  const p = n.parent;
  if ((ts.isIfStatement(p) || ts.isWhileStatement(p) || ts.isDoStatement(p)) && p.expression === n) return true;
  if (ts.isConditionalExpression(p) && p.condition === n) return true;
  if (ts.isPrefixUnaryExpression(p) && p.operator === ts.SyntaxKind.ExclamationToken) return true;
  if (ts.isBinaryExpression(p) && (p.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || p.operatorToken.kind === ts.SyntaxKind.BarBarToken)) return onlyTested(ex, p);
  return false;
}

export function evalBinary(ex: Exec, e: TS.BinaryExpression, st: State): Sym {
  const ts = ex.ts;
  const op = e.operatorToken.kind;
  if (op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken) {
    const left = evalExpr(ex, e.left, st);
    const c = cond(left, e.left);
    const and_ = op === ts.SyntaxKind.AmpersandAmpersandToken;
    // a && b: b runs only when a is truthy; the value is a when a is falsy.
    if (c === (and_ ? "false" : "true")) return left;
    if (c === (and_ ? "true" : "false")) return evalExpr(ex, e.right, st);
    // Where only the truth of `a && b` is read (an `if`, `!`, a ternary's test), it is
    // truthy(a) ∧ truthy(b) whatever kinds the two values have (`if (to && to.includes("@"))`).
    // The right side runs where the left is truthy (`&&`) or falsy (`||`): what that proves defined
    // is read as defined there (`!sku || seen.has(sku)`, narrowing.ts).
    const right = (s: State): Sym => narrowed(ex, s, e.left, and_, (n) => evalExpr(ex, e.right, n));
    if (onlyTested(ex, e)) {
      const [rightTruth] = alternatives(ex, st, and_ ? c : not(c), (s) => cond(right(s), e.right), () => "false", e);
      return boolT(and_ ? and(c, rightTruth) : or(c, rightTruth));
    }
    // `customer && customer.email`: a value that is undefined or an object (always truthy) gives
    // undefined where it is undefined, else the right side: a value that may be undefined.
    if (and_ && left.k === "maybe" && (left.v.k === "rec" || left.v.k === "arr" || left.v.k === "sarr" || left.v.k === "coll")) {
      const [value] = alternatives(ex, st, c, right, () => undefined, e);
      notOpaque(value, e.right);
      if (value.k === "undef") return UNDEF;
      return value.k === "maybe" ? { k: "maybe", def: and(c, value.def), v: value.v } : { k: "maybe", def: c, v: value };
    }
    return and_ ? branchValues(ex, st, c, right, () => left, e) : branchValues(ex, st, c, () => left, right, e);
  }
  if (op === ts.SyntaxKind.QuestionQuestionToken) {
    const left = evalExpr(ex, e.left, st);
    notOpaque(left, e.left);
    if (left.k === "maybe") return branchValues(ex, st, left.def, () => left.v, (s) => evalExpr(ex, e.right, s), e);
    return left.k === "undef" ? evalExpr(ex, e.right, st) : left;
  }
  if (op >= ts.SyntaxKind.FirstAssignment && op <= ts.SyntaxKind.LastAssignment) {
    refuse(e, "Assignments inside expressions are not modelled.", "Assign in a statement of its own.");
  }
  if (op === ts.SyntaxKind.CommaToken) refuse(e, "The comma operator is not modelled.", "Write separate statements.");
  if (op === ts.SyntaxKind.InKeyword) refuseObjectOperator(ex, e);
  if (op === ts.SyntaxKind.InstanceOfKeyword) return instanceOf(ex, e, evalExpr(ex, e.left, st));
  const equality = op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.EqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken;
  let left = evalExpr(ex, e.left, st);
  let right = evalExpr(ex, e.right, st);
  // `+` with a string side converts the other side with ToString, `undefined` included.
  if (op === ts.SyntaxKind.PlusToken && (left.k === "str" || right.k === "str")) {
    return sized(concat(toStrOrUndefined(ex, left, e.left), toStrOrUndefined(ex, right, e.right)), e);
  }
  if (!equality) left = definite(ex, left, e.left, st);
  if (!equality) right = definite(ex, right, e.right, st);
  if (op === ts.SyntaxKind.PercentToken && left.k === "num" && right.k === "num" && right.c === undefined && right.int !== undefined && left.int !== undefined) {
    // By a symbolic integer: exact where the path has ruled its zero out (else NaN, refused below).
    const r = excludesZero(st.pc, right.int, ex.world.named) ? intRemainderBy(left, right) : undefined;
    if (r) return sized(r, e);
    refuse(e, "`%` by a number that is not a literal is modelled where the path has ruled out a zero divisor (JavaScript's `x % 0` is NaN).", "Return early when the divisor is 0 (`if (agents.length === 0) return;`), or test it around the `%` (`if (n > 0) … i % n …`).");
  }
  return binaryValue(ex, op, left, right, e);
}

export function binaryValue(ex: Exec, op: TS.SyntaxKind, a: Sym, b: Sym, at: TS.Node): Sym {
  return sized(binaryTerm(ex, op, a, b, at), at);
}

function binaryTerm(ex: Exec, op: TS.SyntaxKind, a: Sym, b: Sym, at: TS.Node): Sym {
  const ts = ex.ts;
  const K = ts.SyntaxKind;
  switch (op) {
    case K.EqualsEqualsEqualsToken: case K.ExclamationEqualsEqualsToken: case K.EqualsEqualsToken: case K.ExclamationEqualsToken: {
      const loose = op === K.EqualsEqualsToken || op === K.ExclamationEqualsToken;
      // `==` converts between types (`"1" == 1`): it agrees with `===` only when both sides are of
      // one type where defined (undefined equals only undefined; null is not modelled).
      const inner = (x: Sym): Sym["k"] => (x.k === "maybe" ? x.v.k : x.k);
      if (loose && inner(a) !== inner(b) && a.k !== "undef" && b.k !== "undef") refuse(at, "Loose equality between different types is not modelled.", "Use `===` on values of one type.");
      const eq = strictEquals(a, b);
      if (eq === undefined) refuse(at, "These values cannot be compared.", "Compare strings, numbers or booleans.");
      return boolT(op === K.EqualsEqualsEqualsToken || op === K.EqualsEqualsToken ? eq : not(eq));
    }
    case K.LessThanToken: case K.LessThanEqualsToken: case K.GreaterThanToken: case K.GreaterThanEqualsToken: {
      const rel = op === K.LessThanToken ? "<" : op === K.LessThanEqualsToken ? "<=" : op === K.GreaterThanToken ? ">" : ">=";
      if (a.k === "num" && b.k === "num") {
        if (a.c !== undefined && b.c !== undefined) return bool(rel === "<" ? a.c < b.c : rel === "<=" ? a.c <= b.c : rel === ">" ? a.c > b.c : a.c >= b.c);
        if (a.int && b.int) return boolT(`(${rel} ${a.int} ${b.int})`);
        const exact = intAgainstLiteral(rel, a, b);
        if (exact !== undefined) return boolT(exact);
        const fp = { "<": "fp.lt", "<=": "fp.leq", ">": "fp.gt", ">=": "fp.geq" }[rel];
        return boolT(`(${fp} ${a.t} ${b.t})`);
      }
      if (a.k === "str" && b.k === "str") {
        if (a.c !== undefined && b.c !== undefined) return bool(rel === "<" ? a.c < b.c : rel === "<=" ? a.c <= b.c : rel === ">" ? a.c > b.c : a.c >= b.c);
        const [x, y] = rel === "<" || rel === "<=" ? [a.t, b.t] : [b.t, a.t];
        return boolT(`(${rel === "<" || rel === ">" ? "str.<" : "str.<="} ${x} ${y})`);
      }
      const opaque = a.k === "opaque" ? a : b.k === "opaque" ? b : undefined;
      refuse(at, opaque ? `This comparison reads a value that is not modelled: ${opaque.why}.` : "Relational comparison of different types is not modelled.", "Compare two numbers or two strings.");
    }
    case K.PlusToken: {
      if (a.k === "num" && b.k === "num") {
        if (a.c !== undefined && b.c !== undefined) return num(a.c + b.c);
        return withInt(`(fp.add ${RM} ${a.t} ${b.t})`, intArithmetic("+", a, b), arithmeticBound("+", a, b));
      }
      if (a.k === "str" || b.k === "str") return concat(toStr(ex, a, at), toStr(ex, b, at));
      refuse(at, "`+` on these values is not modelled.", "Add two numbers or concatenate strings.");
    }
    case K.MinusToken: case K.AsteriskToken: case K.SlashToken: case K.PercentToken: case K.AsteriskAsteriskToken: {
      if (a.k !== "num" || b.k !== "num") refuse(at, "Arithmetic applies to numbers only.", "Use numbers on both sides.");
      if (a.c !== undefined && b.c !== undefined) {
        const x = a.c, y = b.c;
        return num(op === K.MinusToken ? x - y : op === K.AsteriskToken ? x * y : op === K.SlashToken ? x / y : op === K.PercentToken ? x % y : x ** y);
      }
      if (op === K.PercentToken) {
        const r = intRemainder(a, b);
        if (r) return r;
        refuse(at, "`%` is modelled on integers (`n % 24`, `i % agents.length`).", "Keep both sides integers (a count, an index, a length, `Math.floor(x / n)`, an amount a tool's `ensures` declares integral).");
      }
      if (op === K.AsteriskAsteriskToken) refuse(at, "`**` on a symbolic number is not modelled.", "Use +, -, * or / on symbolic numbers.");
      const fn = op === K.MinusToken ? "fp.sub" : op === K.AsteriskToken ? "fp.mul" : "fp.div";
      const t = `(${fn} ${RM} ${a.t} ${b.t})`;
      // Division leaves the integers (and its Float64 term is exact, -0 included); its exact
      // quotient is kept for \`Math.floor\` and the like (integers.ts).
      if (op === K.SlashToken) {
        const quotient = quotientOf(a, b);
        return withFmag(quotient ? { k: "num", t, quotient } : { k: "num", t }, arithmeticBound("/", a, b));
      }
      const arith = op === K.MinusToken ? "-" : "*";
      return withInt(t, intArithmetic(arith, a, b), arithmeticBound(arith, a, b));
    }
    default:
      refuse(at, `The operator \`${ts.tokenToString(op) ?? ts.SyntaxKind[op]}\` is not modelled.`, "Use comparisons, +, -, *, /, &&, || and !.");
  }
}

/**
 * An integer (with an Int term) compared with a literal that has none (a fraction, ±Infinity, NaN,
 * or beyond 2^53): the equivalent integer comparison (x < 0.3 ⇔ x ≤ 0), so no Float64 is needed.
 */
function intAgainstLiteral(rel: "<" | "<=" | ">" | ">=", a: NumSym, b: NumSym): string | undefined {
  if (a.int !== undefined && b.c !== undefined) return compareInt(a.int, REL_TO_COMPARISON[rel], [b.c]);
  if (b.int !== undefined && a.c !== undefined) return compareInt(b.int, REL_TO_COMPARISON[FLIPPED[rel]], [a.c]);
  return undefined;
}
const REL_TO_COMPARISON = { "<": "lessThan", "<=": "atMost", ">": "greaterThan", ">=": "atLeast" } as const;
const FLIPPED = { "<": ">", "<=": ">=", ">": "<", ">=": "<=" } as const;

/** A number with its Float64 term and, when there is one, its exact Int term (integers.ts), else its finite bound. */
function withInt(t: string, int: { int: string; mag: number } | undefined, fmag: number | undefined): Sym {
  return int ? { k: "num", t, ...int } : withFmag({ k: "num", t }, fmag);
}

/**
 * The text of a number that may not be an integer: JavaScript's shortest round-trip digits, a
 * function of the number the solver does not know (conversions.ts); refused where no model can
 * be checked against JavaScript (contract predicates and top-level values).
 */
export function numberText(ex: Exec, t: string, at: TS.Node): Sym {
  return convert(ex, NUMBER_TEXT_KIND, t, at, { reason: "Converting a number that may not be an integer to a string is not modelled here: JavaScript prints the shortest digits that round-trip", instead: "Format integers only (lengths, counts, integer arithmetic), or compare the number directly instead of formatting it." });
}

export function toStr(ex: Exec, v: Sym, at: TS.Node): Sym {
  switch (v.k) {
    case "str": return v;
    case "num": {
      if (v.c !== undefined) return str(String(v.c));
      if (v.int === undefined) return numberText(ex, v.t, at);
      // An integer prints as its decimal digits (-0 as "0"). Int terms are lengths (below 2^53
      // by the language) and literals merged with them, where JavaScript's digits are exact.
      const n = nameTerm(ex, v.int, "Int", "n");
      return { k: "str", t: `(ite (>= ${n} 0) (str.from_int ${n}) (str.++ "-" (str.from_int (- ${n}))))` };
    }
    case "bool": return v.c !== undefined ? str(String(v.c)) : { k: "str", t: ite(v.t, '"true"', '"false"') };
    case "undef": return str("undefined");
    case "opaque": {
      const text = caughtText(ex, v, at);
      if (text) return text;
      refuse(at, `Converting this value to a string is not modelled: ${v.why}.`, "Concatenate strings, numbers and booleans only.");
    }
    default: refuse(at, "Converting this value to a string is not modelled.", "Concatenate strings, numbers and booleans only.");
  }
}

/**
 * ToString of a value that may be undefined, as template literals and `+` with a string apply it:
 * an undefined value is written as "undefined" (the run goes on; nothing throws).
 */
export function toStrOrUndefined(ex: Exec, v: Sym, at: TS.Node): Sym {
  if (v.k !== "maybe") return toStr(ex, v, at);
  if (v.def === "true") return toStr(ex, v.v, at);
  if (v.def === "false") return str("undefined");
  const inner = toStr(ex, v.v, at);
  if (inner.k !== "str") throw new Error("toStr returned a non-string");
  return { k: "str", t: ite(v.def, inner.c !== undefined ? strLit(inner.c) : inner.t, strLit("undefined")) };
}

export function concat(a: Sym, b: Sym): Sym {
  if (a.k !== "str" || b.k !== "str") throw new Error("concat of non-strings");
  if (a.c !== undefined && b.c !== undefined) return str(a.c + b.c);
  if (a.c === "") return b;
  if (b.c === "") return a;
  return { k: "str", t: `(str.++ ${a.t} ${b.t})` };
}
