/**
 * Arrays as the values of a Map the program builds: grouping, the way agents write it.
 *
 *     byOwner.get(t.owner)!.push(t.id);                  // after `if (!byOwner.has(k)) byOwner.set(k, [])`
 *     byOwner.get(t.owner)?.push(t.id);
 *     const list = byOwner.get(t.owner) ?? [];           // the array in the Map, or a new one,
 *     list.push(t.id);                                   // changed,
 *     byOwner.set(t.owner, list);                        // and stored back at once
 *
 * Values are immutable here (locals.ts): a change in place becomes the Map holding the changed
 * array at that key. That is JavaScript's meaning only where no other reference to the stored
 * array is live when it changes, so:
 *
 * - an array is stored only as a new array (an array literal, `[...xs, x]`) or as the `list` of the
 *   three-statement form above, with one push between, whose arguments mention neither `list` nor
 *   the Map (so nothing reads the Map between the change and the store, and a throw comes before
 *   the change), and which later statements only read on the spot (`list.length`) before anything
 *   changes an array of the Map in place again; the arguments of `M.get(K)!.push(…)` do
 *   not mention the Map either (it is read again to store the change);
 * - a change in place is refused where a read that keeps a reference to an array of the Map (a
 *   `get` bound to a name or passed on, `for…of` over the Map, its `values()`/`entries()`, a
 *   spread) comes before it in the function's text, shares a loop with it, or sits in another
 *   function. Reads on the spot (`get(k)?.length`, `get(k)!.join(", ")`, `[...m.get(k)!]`) keep
 *   nothing.
 */
import type * as TS from "typescript";
import { and } from "../smt";
import { merge, numFromInt, num, sameValueZero, type Sym } from "../values";
import { storedKey } from "./collections";
import { refuse, skip, symbolAt, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { ARRAY_LENGTH_MAG } from "./integers";
import { changeInPlace } from "./changes";
import { compactCollection, type State } from "./state";

type Coll = Extract<Sym, { k: "coll" }>;
type Arr = Extract<Sym, { k: "arr" } | { k: "sarr" }>;

/** `M.get(K)` with `M` an identifier and `K` free of calls and writes (it is evaluated again to store). */
export interface MapRead {
  readonly call: TS.CallExpression;
  readonly map: TS.Identifier;
  readonly key: TS.Expression;
}

const HOW = "Group with `if (!m.has(k)) m.set(k, []); m.get(k)!.push(x);` or `const list = m.get(k) ?? []; list.push(x); m.set(k, list);`, and read the arrays (`for (const [k, xs] of m)`) after the Map is built.";

/** The `M.get(K)` an expression is (parentheses, `!` and type assertions skipped), if it is one. */
export function mapRead(ex: Exec, e0: TS.Expression): MapRead | undefined {
  const ts = ex.ts;
  const e = skip(ex, e0);
  if (!ts.isCallExpression(e) || e.arguments.length !== 1 || !ts.isPropertyAccessExpression(e.expression) || e.expression.name.text !== "get") return undefined;
  const map = skip(ex, e.expression.expression);
  if (!ts.isIdentifier(map)) return undefined;
  const key = e.arguments[0]!;
  return pureKey(ex, key) ? { call: e, map, key } : undefined;
}

/** A key read twice gives the same value: identifiers, property reads and literals only. */
function pureKey(ex: Exec, e0: TS.Expression): boolean {
  const ts = ex.ts;
  const e = skip(ex, e0);
  if (ts.isIdentifier(e) || ts.isStringLiteral(e) || ts.isNumericLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return true;
  return ts.isPropertyAccessExpression(e) && !e.questionDotToken && pureKey(ex, e.expression);
}

/** Whether two key expressions are the same text (and, being pure, the same value where both are read). */
function sameKey(ex: Exec, a: TS.Expression, b: TS.Expression): boolean {
  const text = (e: TS.Expression): string => skip(ex, e).getText().replace(/\s+/g, "");
  return text(a) === text(b);
}

/** Whether `n` mentions one of `syms`. */
function mentions(ex: Exec, n: TS.Node, syms: readonly TS.Symbol[]): boolean {
  const ts = ex.ts;
  let found = false;
  const visit = (m: TS.Node): void => {
    if (found) return;
    if (ts.isIdentifier(m) && syms.includes(symbolAt(ex, m)!)) found = true;
    else ts.forEachChild(m, visit);
  };
  visit(n);
  return found;
}

/**
 * `const list = M.get(K) ?? [];` followed, in the same block, by at most one `list.push(…)` (or
 * `unshift`) whose arguments mention neither `list` nor `M`, then `M.set(K, list);`, after which
 * `list` is only read on the spot, before anything changes an array of `M` in place: the store and
 * the Map read (undefined where `list` is not a `const` of that form). Nothing can then read the
 * Map between the change and the store, and a throw while the arguments are evaluated comes
 * before the change.
 */
export function groupedList(ex: Exec, decl: TS.VariableDeclaration): { readonly set: TS.CallExpression; readonly read: MapRead } | undefined {
  const ts = ex.ts;
  if (!ts.isIdentifier(decl.name) || !decl.initializer) return undefined;
  const init = skip(ex, decl.initializer);
  if (!ts.isBinaryExpression(init) || init.operatorToken.kind !== ts.SyntaxKind.QuestionQuestionToken) return undefined;
  const empty = skip(ex, init.right);
  if (!ts.isArrayLiteralExpression(empty) || empty.elements.length !== 0) return undefined;
  const read = mapRead(ex, init.left);
  if (!read || skip(ex, init.left) !== read.call) return undefined;
  const list = decl.parent;
  const statement = list.parent;
  if (!ts.isVariableDeclarationList(list) || !(list.flags & ts.NodeFlags.Const) || list.declarations.length !== 1 || !ts.isVariableStatement(statement)) return undefined;
  const block = statement.parent;
  if (!ts.isBlock(block) && !ts.isSourceFile(block)) return undefined;
  const sym = ex.checker.getSymbolAtLocation(decl.name);
  const mapSym = ex.checker.getSymbolAtLocation(read.map);
  if (!sym || !mapSym) return undefined;
  const isName = (n: TS.Node, s: TS.Symbol): boolean => ts.isIdentifier(skip(ex, n as TS.Expression)) && ex.checker.getSymbolAtLocation(skip(ex, n as TS.Expression)) === s;
  const statements = block.statements;
  let set: TS.CallExpression | undefined;
  let end = -1;
  let pushed = false;
  for (let i = statements.indexOf(statement) + 1; i < statements.length; i++) {
    const s = statements[i]!;
    if (!ts.isExpressionStatement(s) || !ts.isCallExpression(s.expression) || !ts.isPropertyAccessExpression(s.expression.expression)) return undefined;
    const call = s.expression;
    const callee = call.expression as TS.PropertyAccessExpression;
    if ((callee.name.text === "push" || callee.name.text === "unshift") && isName(callee.expression, sym) && !pushed) {
      // One change: its arguments are evaluated before it, so a throw there leaves the Map as it was.
      if (!call.arguments.every((a) => !ts.isSpreadElement(a) && !mentions(ex, a, [sym, mapSym]))) return undefined;
      pushed = true;
      continue;
    }
    if (callee.name.text === "set" && isName(callee.expression, mapSym) && call.arguments.length === 2 && sameKey(ex, call.arguments[0]!, read.key) && isName(call.arguments[1]!, sym)) {
      set = call;
      end = s.getEnd();
      break;
    }
    return undefined;
  }
  if (!set) return undefined;
  // After the store, `list` is the array the Map holds: it may only be read on the spot
  // (`list.length`, `list.join(…)`), and only before anything changes an array of the Map in place.
  const changes: number[] = [];
  const mentionsAfter: TS.Identifier[] = [];
  const visit = (n: TS.Node): void => {
    if (n.getStart() > end) {
      if (ts.isIdentifier(n) && symbolAt(ex, n) === sym) mentionsAfter.push(n);
      if (changesInPlace(ex, n, mapSym)) changes.push(n.getStart());
    }
    ts.forEachChild(n, visit);
  };
  visit(block);
  const firstChange = Math.min(Infinity, ...changes);
  if (mentionsAfter.some((n) => n.getStart() > firstChange || !readOnTheSpot(ex, n))) return undefined;
  return { set, read };
}

/** Whether this mention of an array only reads it where it stands (no change, no other name gets it). */
function readOnTheSpot(ex: Exec, id: TS.Identifier): boolean {
  const ts = ex.ts;
  let n: TS.Node = id;
  while (n.parent && (ts.isParenthesizedExpression(n.parent) || ts.isNonNullExpression(n.parent) || ts.isAsExpression(n.parent))) n = n.parent;
  const p = n.parent;
  const written = (x: TS.Node): boolean => {
    const q = x.parent;
    return (ts.isBinaryExpression(q) && q.left === x && q.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && q.operatorToken.kind <= ts.SyntaxKind.LastAssignment) || ((ts.isPrefixUnaryExpression(q) || ts.isPostfixUnaryExpression(q)) && (q.operator === ts.SyntaxKind.PlusPlusToken || q.operator === ts.SyntaxKind.MinusMinusToken)) || ts.isDeleteExpression(q);
  };
  if (ts.isPropertyAccessExpression(p) && p.expression === n) {
    if (p.name.text === "length") return !written(p);
    return ON_THE_SPOT.has(p.name.text) && ts.isCallExpression(p.parent) && p.parent.expression === p;
  }
  if (ts.isElementAccessExpression(p) && p.expression === n) return !written(p);
  return ts.isTemplateSpan(p) || (ts.isSpreadElement(p) && ts.isArrayLiteralExpression(p.parent));
}

/** Whether `n` changes an array of the Map `map` in place: `map.get(k)!.push(…)`, or a `list` read for the three-statement form. */
function changesInPlace(ex: Exec, n: TS.Node, map: TS.Symbol): boolean {
  const ts = ex.ts;
  const ofMap = (read: MapRead | undefined): boolean => read !== undefined && ex.checker.getSymbolAtLocation(read.map) === map;
  if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && (n.expression.name.text === "push" || n.expression.name.text === "unshift")) return ofMap(mapRead(ex, n.expression.expression));
  if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) return ofMap(mapRead(ex, n.left));
  return false;
}

/** Whether an array stored into a Map at `node` is one no other name holds (see the header). */
export function freshForMap(ex: Exec, node: TS.Expression, set: TS.CallExpression): boolean {
  const ts = ex.ts;
  const e = skip(ex, node);
  if (ts.isArrayLiteralExpression(e)) return true;
  if (!ts.isIdentifier(e)) return false;
  const decl = ex.checker.getSymbolAtLocation(e)?.valueDeclaration;
  if (!decl || !ts.isVariableDeclaration(decl)) return false;
  const grouped = groupedList(ex, decl);
  if (grouped?.set !== set) return false;
  checkNoLiveAlias(ex, grouped.read.map, set);
  return true;
}

/**
 * A change in place of an array the Map `map` holds, at `site`: refused where a read that keeps a
 * reference to one of its arrays may have run before it (see the header).
 */
export function checkNoLiveAlias(ex: Exec, map: TS.Identifier, site: TS.Node): void {
  const ts = ex.ts;
  const sym = ex.checker.getSymbolAtLocation(map);
  const decl = sym?.valueDeclaration;
  if (!sym || !decl) return;
  const owner = enclosingFunction(ex, decl);
  const siteOwner = enclosingFunction(ex, site);
  const scope: TS.Node = owner ?? decl.getSourceFile();
  const loopsOf = (n: TS.Node): Set<TS.Node> => {
    const out = new Set<TS.Node>();
    // A loop around the Map's declaration makes a new Map each time: it is not shared.
    for (let p = n.parent; p && p !== scope; p = p.parent) if ((ts.isIterationStatement(p, false) || (ts.isFunctionLike(p) && p !== owner)) && !inside(decl, p)) out.add(p);
    return out;
  };
  const siteLoops = loopsOf(site);
  const visit = (n: TS.Node): void => {
    if (ts.isIdentifier(n) && n !== map && n !== (decl as TS.NamedDeclaration).name && symbolAt(ex, n) === sym) {
      const why = keepsReference(ex, n, site);
      if (why) {
        const before = n.getStart() < site.getStart();
        const shared = [...loopsOf(n)].some((l) => siteLoops.has(l));
        const elsewhere = enclosingFunction(ex, n) !== siteOwner;
        if (before || shared || elsewhere) {
          const line = n.getSourceFile().getLineAndCharacterOfPosition(n.getStart()).line + 1;
          refuse(site, `This changes an array \`${map.text}\` holds in place, but ${why} (line ${line})${before ? "" : shared ? " in the same loop" : " in another function"}, and would see the change: values of a Map are modelled as copies.`, HOW);
        }
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(decl.getSourceFile());
}

function enclosingFunction(ex: Exec, n: TS.Node): TS.Node | undefined {
  for (let p = n.parent; p; p = p.parent) if (ex.ts.isFunctionLike(p)) return p;
  return undefined;
}

/** Why this mention of the Map keeps a reference to one of its arrays, or undefined. */
function keepsReference(ex: Exec, id: TS.Identifier, site: TS.Node): string | undefined {
  const ts = ex.ts;
  let n: TS.Node = id;
  while (n.parent && (ts.isParenthesizedExpression(n.parent) || ts.isAsExpression(n.parent) || ts.isNonNullExpression(n.parent) || ts.isSatisfiesExpression(n.parent))) n = n.parent;
  const p = n.parent;
  if (ts.isForOfStatement(p) && p.expression === n) return "a `for…of` over the Map binds its arrays";
  if (ts.isSpreadElement(p)) return "a spread copies references to its arrays";
  if (!ts.isPropertyAccessExpression(p) || p.expression !== n) return "the Map is used here";
  const name = p.name.text;
  if (name === "values" || name === "entries") return `\`${name}()\` yields its arrays`;
  if (name !== "get") return undefined;
  const call = p.parent;
  if (!ts.isCallExpression(call) || call.expression !== p) return "`get` is read here";
  // The change itself, and the read of the three-statement form whose store is the change.
  if (call === site || inside(call, site)) return undefined;
  let at: TS.Node = call;
  while (at.parent && (ts.isParenthesizedExpression(at.parent) || ts.isNonNullExpression(at.parent) || ts.isAsExpression(at.parent))) at = at.parent;
  const q = at.parent;
  if (ts.isBinaryExpression(q) && q.left === at && q.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken && ts.isVariableDeclaration(q.parent)) {
    const grouped = groupedList(ex, q.parent);
    if (grouped && grouped.read.call === call) return undefined;
  }
  if (ts.isPropertyAccessExpression(q) && q.expression === at) {
    const method = q.name.text;
    if (method === "push" || method === "unshift") return undefined; // a change in place, checked where it runs
    if (method === "length") return undefined;
    if (ON_THE_SPOT.has(method) && ts.isCallExpression(q.parent) && q.parent.expression === q) return undefined;
  }
  if (ts.isElementAccessExpression(q) && q.expression === at) return undefined;
  if (ts.isSpreadElement(q) && ts.isArrayLiteralExpression(q.parent)) return undefined;
  if (ts.isPrefixUnaryExpression(q) && q.operator === ts.SyntaxKind.ExclamationToken) return undefined;
  if (ts.isBinaryExpression(q) && (q.operatorToken.kind === ts.SyntaxKind.EqualsEqualsEqualsToken || q.operatorToken.kind === ts.SyntaxKind.ExclamationEqualsEqualsToken)) return undefined;
  if ((ts.isIfStatement(q) && q.expression === at) || (ts.isConditionalExpression(q) && q.condition === at)) return undefined;
  return "`get` hands one of its arrays on here";
}

function inside(n: TS.Node, outer: TS.Node): boolean {
  for (let p: TS.Node | undefined = n; p; p = p.parent) if (p === outer) return true;
  return false;
}

/** Methods that read an array and keep no reference to it. */
const ON_THE_SPOT: ReadonlySet<string> = new Set(["slice", "at", "find", "findIndex", "some", "every", "map", "filter", "join", "includes", "indexOf", "forEach", "reduce"]);

/**
 * `M.get(K)!.push(…)` / `M.get(K)?.push(…)` (and `unshift`), with `next` the array read there (on
 * this path, where it is defined) after the change: the Map holds it at K afterwards.
 */
export function pushIntoMap(ex: Exec, read: MapRead, next: Arr, e: TS.CallExpression, st: State, owner: TS.Symbol): Sym {
  if (e.arguments.some((a) => mentions(ex, a, [owner]))) refuse(e, `The arguments read \`${read.map.text}\`, which this call changes.`, HOW);
  checkNoLiveAlias(ex, read.map, e);
  const coll = evalExpr(ex, read.map, st);
  if (coll.k !== "coll" || !coll.map) refuse(read.map, "Only a Map the program builds is modelled here.", HOW);
  const key = evalExpr(ex, read.key, st);
  if (key.k !== "str" && key.k !== "num") refuse(read.key, "Only strings and numbers are modelled as keys of a Map.", HOW);
  const stored = storedKey(key);
  const slots = coll.slots.map((s) => {
    const eq = sameValueZero(s.key, stored);
    if (eq === undefined) refuse(read.key, "Only strings and numbers are modelled as keys of a Map.", HOW);
    const value = merge(and(s.present, eq), next, s.value!);
    if (!value) refuse(e, "The Map holds values of another kind.", "Store arrays of one element type in a Map.");
    return { ...s, value };
  });
  changeInPlace(ex, st, owner, compactCollection(ex, { k: "coll", map: true, slots } satisfies Coll), e);
  return next.k === "arr" ? num(next.items.length) : numFromInt(next.len, ARRAY_LENGTH_MAG);
}
