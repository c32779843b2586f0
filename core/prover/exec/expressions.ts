/**
 * Expressions: literals, templates, array literals, unary operators, conditionals, property and
 * element access, and the refusals for expressions outside the subset. Binary operators are in
 * operators.ts, identifiers in names.ts, calls in calls.ts.
 */
import type * as TS from "typescript";
import { caughtProperty } from "./caught";
import { resolveDeclaration } from "../../runtime-symbols";
import { not } from "../smt";
import { bool, boolT, num, numFromInt, str, UNDEF, withFmag, type Sym } from "../values";
import { ARRAY_LENGTH_MAG, intNegate, STRING_LENGTH_MAG } from "./integers";
import { evalAwait } from "./await";
import { fluentProperty } from "./fluents";
import { evalCall } from "./calls";
import { refuse, sized, skip, tick, type Exec } from "./context";
import { cond, definite, noFunctionValue } from "./guards";
import { compactView } from "./callbacks";
import { lookup } from "./names";
import { evalObjectLiteral, inOptionalChain, readOptional, refuseObjectOperator } from "./objects";
import { concat, evalBinary, toStr, toStrOrUndefined } from "./operators";
import { branchValues, type State } from "./state";
import { arrayLiteral } from "./locals";
import { collectionSize, newCollection } from "./collections";
import { collectingSize } from "./collected";
import { narrowed } from "./narrowing";
import { SET_VIEW_WHY } from "./unique";
import { collectedMapKeys, isCollectedMap } from "./collected-maps";
import { elementAt } from "./arrays";

export function evalExpr(ex: Exec, e0: TS.Expression, st: State): Sym {
  const ts = ex.ts;
  tick(ex, e0);
  const e = skip(ex, e0);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return str(e.text);
  if (ts.isNumericLiteral(e)) return num(Number(e.text));
  if (e.kind === ts.SyntaxKind.TrueKeyword) return bool(true);
  if (e.kind === ts.SyntaxKind.FalseKeyword) return bool(false);
  if (e.kind === ts.SyntaxKind.NullKeyword) refuse(e, "`null` is not modelled.", "Use a value of the parameter's type.");
  if (ts.isIdentifier(e)) return lookup(ex, e, st);
  if (ts.isTemplateExpression(e)) {
    let acc = toStr(ex, str(e.head.text), e);
    for (const span of e.templateSpans) {
      const part = evalExpr(ex, span.expression, st);
      acc = sized(concat(acc, toStrOrUndefined(ex, part, span.expression)), span.expression);
      acc = concat(acc, str(span.literal.text));
    }
    return acc;
  }
  if (ts.isArrayLiteralExpression(e)) {
    return arrayLiteral(ex, e, st);
  }
  if (ts.isPrefixUnaryExpression(e)) {
    if (e.operator === ts.SyntaxKind.ExclamationToken) return boolT(not(cond(evalExpr(ex, e.operand, st), e.operand)));
    if (e.operator === ts.SyntaxKind.MinusToken || e.operator === ts.SyntaxKind.PlusToken) {
      const v = definite(ex, evalExpr(ex, e.operand, st), e.operand, st);
      if (v.k !== "num") refuse(e, "Unary + and - apply to numbers only here.", "Convert explicitly, or compare values of one type.");
      if (e.operator === ts.SyntaxKind.PlusToken) return v;
      if (v.c !== undefined) return num(-v.c);
      const neg = intNegate(v);
      return neg ? { k: "num", t: `(fp.neg ${v.t})`, ...neg } : withFmag({ k: "num", t: `(fp.neg ${v.t})` }, v.fmag);
    }
    refuse(e, "This operator is not modelled.", "Use !, -, +, comparisons and arithmetic.");
  }
  if (ts.isConditionalExpression(e)) {
    const c = cond(evalExpr(ex, e.condition, st), e.condition);
    if (c === "true") return evalExpr(ex, e.whenTrue, st);
    if (c === "false") return evalExpr(ex, e.whenFalse, st);
    // `who ? who.trim() : ""`: each side reads what the test proves defined as defined (narrowing.ts).
    return branchValues(ex, st, c, (s) => narrowed(ex, s, e.condition, true, (n) => evalExpr(ex, e.whenTrue, n)), (s) => narrowed(ex, s, e.condition, false, (n) => evalExpr(ex, e.whenFalse, n)), e);
  }
  if (ts.isBinaryExpression(e)) return evalBinary(ex, e, st);
  if (ts.isCallExpression(e)) return evalCall(ex, e, st);
  if (ts.isPropertyAccessExpression(e)) return evalProperty(ex, e, st);
  if (ts.isElementAccessExpression(e)) return evalElement(ex, e, st);
  if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) refuse(e, "Functions as values are not modelled here.", "Declare a helper with `const name = (...) => ...` and call it by name.");
  if (ts.isAwaitExpression(e)) return evalAwait(ex, e, st);
  if (ts.isYieldExpression(e)) refuse(e, "Generators are not modelled.", "Return an array instead.");
  if (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "Date") refuse(e, "`new Date()` is not modelled (a date object).", "Read the clock with `Date.now()`: a number of milliseconds the prover treats as unknown.");
  if (ts.isNewExpression(e)) {
    const coll = newCollection(ex, e, st);
    if (coll) return coll;
  }
  if (ts.isNewExpression(e)) refuse(e, "`new` is not modelled in agent programs.", "Use plain values; classes are not part of the modelled subset.");
  if (ts.isTaggedTemplateExpression(e)) refuse(e, "Tagged templates call an arbitrary function.", "Use a plain template literal.");
  if (ts.isObjectLiteralExpression(e)) return evalObjectLiteral(ex, e, st);
  if (ts.isDeleteExpression(e)) refuseObjectOperator(ex, e);
  if (ts.isTypeOfExpression(e) || ts.isVoidExpression(e)) refuse(e, "This operator is not modelled.", "Compare values of known types instead.");
  refuse(e, `This expression (${ts.SyntaxKind[e.kind]}) is not modelled.`, "Use literals, variables, operators, calls of tools and local helpers, and the modelled string and array methods.");
}

export function functionValue(fn: TS.ArrowFunction | TS.FunctionExpression): Sym {
  return { k: "fn", node: fn };
}

function evalProperty(ex: Exec, e: TS.PropertyAccessExpression, st: State): Sym {
  const ts = ex.ts;
  const decl = resolveDeclaration(ts, ex.checker, ex.checker.getSymbolAtLocation(e.name));
  if (decl && ex.layer.toolByDeclaration.has(decl)) {
    refuse(e, `The trusted tool \`${e.name.text}\` is used as a value (aliasing, callbacks and indirect calls hide calls from the prover).`, `Call it directly: \`${e.getText()}(...)\`.`);
  }
  if (decl && ex.layer.contractByDeclaration.has(decl)) return { k: "contract", contract: ex.layer.contractByDeclaration.get(decl)! };
  if (decl && ex.layer.eventByDeclaration.has(decl)) return { k: "eventClass", event: ex.layer.eventByDeclaration.get(decl)! };
  const fluent = decl && ex.layer.fluentByDeclaration?.get(decl);
  if (fluent) return { k: "fluent", fluent };
  const size = collectingSize(ex, e, st);
  if (size) return size;
  // `a?.b`, and the rest of its chain: undefined where `a` is (objects.ts).
  if (e.questionDotToken || inOptionalChain(ex, e)) return readOptional(ex, e, evalExpr(ex, e.expression, st), (t) => readProperty(ex, e, t));
  return readProperty(ex, e, definite(ex, evalExpr(ex, e.expression, st), e.expression, st));
}

function readProperty(ex: Exec, e: TS.PropertyAccessExpression, target: Sym): Sym {
  const name = e.name.text;
  if (target.k === "fluent") return fluentProperty(ex, target, e);
  if (name === "length") {
    if (target.k === "str") return target.c !== undefined ? num(target.c.length) : numFromInt(`(str.len ${target.t})`, STRING_LENGTH_MAG);
    if (target.k === "arr") return num(target.items.length);
    if (target.k === "sarr") return numFromInt(target.len, ARRAY_LENGTH_MAG);
  }
  if (target.k === "coll" && name === "size") return collectionSize(target);
  // A Set built from an array (unique.ts): its size is the number of distinct values, its compacted length.
  if (name === "size" && target.k === "opaque" && (target.why === SET_VIEW_WHY || isCollectedMap(target))) {
    const distinct = compactView(ex, collectedMapKeys(target) ?? target);
    if (distinct) return numFromInt(distinct.len, ARRAY_LENGTH_MAG);
  }
  if (target.k === "rec") {
    const v = target.fields.get(name);
    if (v) return v;
  }
  const caught = caughtProperty(ex, target, e.name);
  if (caught) return caught;
  const compact = compactView(ex, target);
  if (compact) return readProperty(ex, e, compact);
  if (target.k === "opaque") refuse(e, `This value cannot be read: ${target.why}.`, "Use tool results of modelled types (string, number, boolean, arrays, interfaces of those).");
  refuse(e.name, `The property \`${name}\` is not modelled here.`, "Read `length`, fields of events and tool results, or call the modelled string and array methods.");
}

function evalElement(ex: Exec, e: TS.ElementAccessExpression, st: State): Sym {
  const ts = ex.ts;
  const decl = resolveDeclaration(ts, ex.checker, ex.checker.getSymbolAtLocation(e.expression));
  if (decl && (ts.isSourceFile(decl) || ts.isModuleDeclaration(decl) || ts.isNamespaceImport(decl))) {
    refuse(e, "Computed access to a module hides which function is called.", "Import the tool by name and call it directly.");
  }
  const target0 = evalExpr(ex, e.expression, st);
  const index = evalExpr(ex, e.argumentExpression, st);
  const read = (target: Sym): Sym => {
    if (target.k === "arr" && index.k === "num" && index.c !== undefined) {
      return Number.isInteger(index.c) && index.c >= 0 && index.c < target.items.length ? target.items[index.c]! : UNDEF;
    }
    const array = compactView(ex, target) ?? target;
    const element = array.k === "arr" || array.k === "sarr" ? elementAt(ex, array, index, e) : undefined;
    if (element) return element;
    refuse(e, "Indexing is modelled only for arrays with an integer index (a literal, or the index of a loop or callback).", "Loop with `for (const x of xs)` instead of indexing.");
  };
  // `sorted[2]?.[1]`: undefined where the array is, the element otherwise (objects.ts).
  return e.questionDotToken || inOptionalChain(ex, e) ? readOptional(ex, e, target0, read) : read(target0);
}
