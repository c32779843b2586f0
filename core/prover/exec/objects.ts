/**
 * Objects in agent code: object literals (plain data only), destructuring of tool results, the
 * one object of named arguments a tool may take, optional chaining on possibly-undefined values,
 * and the refusals for everything object-shaped that could run hidden code (getters, methods,
 * `__proto__`, unknown spreads, computed keys, mutation, `in`, `delete`).
 *
 * An object is a record of modelled values (`rec`). Records the program builds from literals are
 * marked `literal`: only those may be spread or passed as a tool's named arguments, because their
 * own properties are exactly the fields the prover knows (a tool result may be a class instance
 * whose properties live on a prototype or behind getters).
 */
import type * as TS from "typescript";
import type { ToolModel } from "../../model";
import { showValueType } from "../../types";
import { and, hasConjunct } from "../smt";
import { str, UNDEF, type Sym } from "../values";
import { refuse, symbolOfDecl, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { definite, noFunctionValue, notOpaque } from "./guards";
import { lookup } from "./names";
import { branchValues, type State } from "./state";

/** Keys that change what JavaScript does with an object (its prototype, conversions, serialisation). */
const HOOK_KEYS = new Set(["__proto__", "constructor", "toString", "valueOf", "toJSON", "then"]);

const PLAIN = "Write plain data: `{ key: value }` or shorthand `{ key }`, with literal keys.";

/** `{ a: 1, b, ...base }`: a record of modelled values, evaluated left to right. */
export function evalObjectLiteral(ex: Exec, e: TS.ObjectLiteralExpression, st: State): Sym {
  const ts = ex.ts;
  const fields = new Map<string, Sym>();
  for (const p of e.properties) {
    if (ts.isSpreadAssignment(p)) {
      const v = evalExpr(ex, p.expression, st);
      if (v.k !== "rec" || !v.literal) {
        refuse(p, "Only an object the program built from a literal can be spread (a tool result or an unknown value may hide properties on its prototype or behind getters; `...undefined` adds nothing).", "Spread a `const` bound to an object literal, or list the properties: `{ total: r.total, payee: r.payee }`.");
      }
      for (const [k, x] of v.fields) setField(fields, k, x);
      continue;
    }
    if (ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p)) {
      refuse(p, "Methods, getters and setters in an object literal run code when the object is read or converted.", `${PLAIN} Compute the value before the literal.`);
    }
    if (ts.isShorthandPropertyAssignment(p)) {
      if (p.objectAssignmentInitializer) refuse(p, "A default in an object literal is not modelled.", PLAIN);
      const key = p.name.text;
      if (HOOK_KEYS.has(key)) refuse(p.name, `A property named \`${key}\` changes how JavaScript treats the object.`, "Rename the property.");
      const v = lookup(ex, p.name, st);
      noFunctionValue(v, p);
      setField(fields, key, plainValue(v, p));
      continue;
    }
    // A property assignment: a literal key and a value.
    const key = literalKey(ex, p.name);
    if (key === undefined) refuse(p.name, "A computed key that is not a literal hides which property is set.", `${PLAIN} Use a literal key (\`{ "key": value }\`).`);
    if (HOOK_KEYS.has(key)) refuse(p.name, `A property named \`${key}\` changes how JavaScript treats the object (its prototype, or how it is converted or serialised).`, "Rename the property.");
    const v = evalExpr(ex, p.initializer, st);
    noFunctionValue(v, p.initializer);
    setField(fields, key, plainValue(v, p.initializer));
  }
  return { k: "rec", fields, literal: true };
}

/** A later property replaces the value of an earlier one of the same key and keeps its place (as in JavaScript: `Object.keys` shows it). */
function setField(fields: Map<string, Sym>, key: string, v: Sym): void {
  fields.set(key, v);
}

/** A property value: data the prover models (a value that may be `undefined` stays exact). */
function plainValue(v: Sym, at: TS.Node): Sym {
  if (v.k === "opaque") refuse(at, `This value cannot be stored in an object: ${v.why}.`, "Store strings, numbers, booleans, arrays and objects of those.");
  return v;
}

function literalKey(ex: Exec, name: TS.PropertyName): string | undefined {
  const ts = ex.ts;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (ts.isNumericLiteral(name)) return String(Number(name.text));
  if (ts.isComputedPropertyName(name)) {
    const x = name.expression;
    if (ts.isStringLiteral(x) || ts.isNoSubstitutionTemplateLiteral(x)) return x.text;
    if (ts.isNumericLiteral(x)) return String(Number(x.text));
  }
  return undefined;
}

/**
 * `[a = "x"] = xs`, `{ a = f() } = obj`: the default runs exactly where the element or property is
 * `undefined` (JavaScript's test, `=== undefined`), under that path's condition, so a call in it
 * happens there and only there, as a parameter's default does (calls.ts); earlier names of the
 * pattern are bound by then.
 */
function withDefault(ex: Exec, el: TS.BindingElement, item: Sym, st: State): Sym {
  const init = el.initializer;
  if (!init) return item;
  notOpaque(item, el);
  // An element of an array of unknown length that may itself be undefined: undefined where either is.
  const flat: Sym = item.k === "maybe" && item.v.k === "maybe" ? { k: "maybe", def: and(item.def, item.v.def), v: item.v.v } : item;
  if (flat.k === "undef") return evalExpr(ex, init, st);
  if (flat.k !== "maybe") return flat;
  return branchValues(ex, st, flat.def, () => flat.v, (s) => evalExpr(ex, init, s), el);
}

/**
 * A value that may be undefined, where the path's condition says it is not (`while (queue.length >
 * 0) { const id = queue.shift()!; … }`: the loop's test is a conjunct of the path's condition): the
 * value itself. Others unchanged.
 */
export function definedOnPath(ex: Exec, value: Sym, st: State): Sym {
  return value.k === "maybe" && hasConjunct(st.pc, value.def, ex.world.named) ? value.v : value;
}

/**
 * `const { total, payee: to, inner: { x } } = value`: each name is bound to its field. Destructuring
 * `undefined` throws in JavaScript: a possibly-undefined value is reported where it may be.
 */
export function bindPattern(ex: Exec, pattern: TS.BindingName, value: Sym, st: State, at: TS.Node): void {
  const ts = ex.ts;
  if (ts.isIdentifier(pattern)) {
    st.env.set(symbolOfDecl(ex, pattern.parent as TS.VariableDeclaration | TS.BindingElement), definedOnPath(ex, value, st));
    return;
  }
  notOpaque(value, at);
  const v = definite(ex, value, at, st);
  if (ts.isArrayBindingPattern(pattern)) {
    // A literal array's elements by position (`undefined` past its end); an array of unknown
    // length has element j where j < length, `undefined` elsewhere.
    if (v.k !== "arr" && v.k !== "sarr") refuse(pattern, "Array destructuring is modelled for arrays only.", "Destructure an array, or read its elements by index.");
    pattern.elements.forEach((el, j) => {
      if (ts.isOmittedExpression(el)) return;
      if (el.dotDotDotToken) refuse(el, "A rest element in array destructuring is not modelled.", "Name each element you need, or use `xs.slice(n)`.");
      const item: Sym = v.k === "arr" ? v.items[j] ?? UNDEF : { k: "maybe", def: `(< ${j} ${v.len})`, v: v.at(String(j)) };
      bindPattern(ex, el.name, withDefault(ex, el, item, st), st, el);
    });
    return;
  }
  if (v.k !== "rec") refuse(pattern, `Only objects can be destructured here; this value is ${v.k === "arr" || v.k === "sarr" ? "an array" : "not an object"}.`, "Destructure a tool result or an object literal.");
  for (const el of pattern.elements) {
    if (el.dotDotDotToken) refuse(el, "A rest element copies properties the prover does not know of.", "Name each property you need: `const { a, b } = obj`.");
    const key = el.propertyName ? literalKey(ex, el.propertyName) : ts.isIdentifier(el.name) ? el.name.text : undefined;
    if (key === undefined) refuse(el.propertyName ?? el, "A computed key that is not a literal hides which property is read.", "Use a literal key: `const { total } = obj`.");
    const field = v.fields.get(key);
    if (!field) refuse(el, `The property \`${key}\` is not a modelled field of this object.`, "Destructure only the properties its type declares.");
    bindPattern(ex, el.name, withDefault(ex, el, field, st), st, el);
  }
}

/**
 * `a?.b` (and the rest of its chain, `a?.b.c`): `undefined` where `a` is, else the field. The
 * fields of a record are always defined, so a possibly-undefined value in a chain comes from the
 * chain's own `?.` and short-circuits the rest of it exactly.
 */
export function readOptional(ex: Exec, e: TS.PropertyAccessExpression | TS.ElementAccessExpression, target: Sym, read: (defined: Sym) => Sym): Sym {
  notOpaque(target, e.expression);
  if (target.k === "undef") return UNDEF;
  const v = read(target.k === "maybe" ? target.v : target);
  // Only the chain's own `?.` may make a value in it undefined: then the rest short-circuits exactly.
  if (v.k === "undef" || v.k === "maybe") refuse(e, "A property that may itself be undefined, read in an optional chain, is not modelled.", "Read it into a variable first (`const note = r?.note;`) and test that variable.");
  return target.k === "maybe" ? { k: "maybe", def: target.def, v } : v;
}

/** Whether a property or element access continues an optional chain (`a?.b.c`: the `.c`). */
export function inOptionalChain(ex: Exec, e: TS.PropertyAccessExpression | TS.ElementAccessExpression): boolean {
  return (e.flags & ex.ts.NodeFlags.OptionalChain) !== 0;
}

/** The named arguments of a call of a tool of one object: its properties, read from an object literal. */
export function toolObjectArguments(ex: Exec, tool: ToolModel, e: TS.CallExpression, st: State): Map<string, Sym> {
  const object = tool.objectParameter!;
  const arg = e.arguments[0];
  if (e.arguments.length !== 1 || !arg) refuse(e, `\`${tool.name}\` takes one object of named arguments (\`${object.name}: ${object.typeText}\`).`, `Call it as \`${tool.name}({ ${tool.parameters.map((p) => p.name).join(", ")} })\`.`);
  const v = definite(ex, evalExpr(ex, arg, st), arg, st);
  if (v.k !== "rec" || !v.literal) {
    refuse(arg, `The named arguments of \`${tool.name}\` must be an object the program builds from a literal (another object may hide properties on its prototype or behind getters).`, `Pass an object literal: \`${tool.name}({ ${tool.parameters.map((p) => `${p.name}: …`).join(", ")} })\`.`);
  }
  const args = new Map<string, Sym>();
  for (const p of tool.parameters) {
    const field = v.fields.get(p.name);
    if (!field) refuse(arg, `The named argument \`${p.name}\` of \`${tool.name}\` is missing.`, `Pass every property: \`${p.name}: ${showValueType(p.type)}\`.`);
    args.set(p.name, field);
  }
  return args;
}

/** Bind the object parameter of a builder or predicate of a tool of named arguments (whole, or destructured). */
export function bindObjectArgument(ex: Exec, param: TS.ParameterDeclaration, args: ReadonlyMap<string, Sym>, env: Map<TS.Symbol, Sym>): void {
  const ts = ex.ts;
  if (ts.isIdentifier(param.name)) {
    env.set(symbolOfDecl(ex, param), { k: "rec", fields: new Map(args) });
    return;
  }
  if (!ts.isObjectBindingPattern(param.name)) return; // reported by the layer rules
  for (const el of param.name.elements) {
    const key = el.propertyName && (ts.isIdentifier(el.propertyName) || ts.isStringLiteral(el.propertyName)) ? el.propertyName.text : ts.isIdentifier(el.name) ? el.name.text : undefined;
    if (key !== undefined && ts.isIdentifier(el.name)) env.set(symbolOfDecl(ex, el), args.get(key) ?? UNDEF);
  }
}

/** Writes into objects: refused with what to write instead. */
export function refuseObjectWrite(ex: Exec, target: TS.Expression): void {
  const ts = ex.ts;
  if (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target)) {
    refuse(target, "Objects are not changed in the modelled subset (a write could reach a setter, a prototype or an alias).", "Build a new object instead: `const next = { ...obj, key: value }` (obj an object literal), or keep the value in a `let` variable.");
  }
  if (ts.isObjectLiteralExpression(target) || ts.isArrayLiteralExpression(target)) {
    refuse(target, "Destructuring assignment is not modelled.", "Declare new variables: `const { a, b } = obj`.");
  }
}

/** `key in obj` and `delete obj.key`: refused with what to write instead. */
export function refuseObjectOperator(ex: Exec, e: TS.Expression): never {
  const ts = ex.ts;
  if (ts.isDeleteExpression(e)) refuse(e, "`delete` changes an object, which is not modelled.", "Build a new object without the property: `const { a, b } = obj; const next = { a, b }`.");
  refuse(e, "`in` looks up the prototype chain, which is not modelled.", "Give the object a type that declares the property and read it (`obj.key`), or compare a possibly-undefined value with `undefined`.");
}

/** Array-index keys (canonical integers below 2^32 - 1) come first, ascending; the rest in insertion order (JavaScript's own-key order). */
export function ownKeys(fields: ReadonlyMap<string, Sym>): string[] {
  const keys = [...fields.keys()];
  const isIndex = (k: string): boolean => /^(0|[1-9]\d*)$/.test(k) && Number(k) < 2 ** 32 - 1;
  return [...keys.filter(isIndex).sort((a, b) => Number(a) - Number(b)), ...keys.filter((k) => !isIndex(k))];
}

/**
 * `Object.keys/values/entries(o)` on an object the program built from a literal: its own
 * properties are exactly its fields, in JavaScript's order. Any other object (a tool result may
 * carry properties its type does not declare, on itself or its prototype) is refused.
 */
export function callObjectStatic(ex: Exec, name: string, e: TS.CallExpression, st: State): Sym {
  if (name !== "keys" && name !== "values" && name !== "entries") refuse(e, `\`Object.${name}\` is not modelled.`, "Use `Object.keys`, `Object.values` or `Object.entries` of an object literal, or build a new object with a literal.");
  const arg = e.arguments[0];
  if (e.arguments.length !== 1 || !arg) refuse(e, `\`Object.${name}\` takes one object.`, `Call \`Object.${name}(obj)\`.`);
  const v = evalExpr(ex, arg, st);
  notOpaque(v, arg);
  const o = definite(ex, v, arg, st);
  if (o.k !== "rec" || !o.literal) {
    refuse(arg, `\`Object.${name}\` is modelled only on an object the program built from a literal (${o.k === "rec" ? "a tool result or parameter may carry properties its type does not declare" : "this value is not such an object"}).`, "Build the object with a literal first (`const o = { a: r.a, b: r.b }`), or read the fields you need by name.");
  }
  const keys = ownKeys(o.fields);
  return { k: "arr", items: keys.map((k): Sym => (name === "keys" ? str(k) : name === "values" ? o.fields.get(k)! : { k: "arr", items: [str(k), o.fields.get(k)!] })) };
}
