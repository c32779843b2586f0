import type * as TS from "typescript";
import type { TypeScript } from "./context";
import { exportedBinding, holdsAny, isPlainConst } from "./layer/agent-module";
import type { ContractModel, LayerModel, ParameterModel, Span, ValueType } from "./model";
import { Refusal } from "./refusal";
import { resolveDeclaration, runtimeExportAt } from "./runtime-symbols";
import { spanOf } from "./span";

/** A literal guarantee argument, with typed paths kept distinct from strings. */
export type LiteralValue =
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "number"; readonly value: number }
  | { readonly kind: "boolean"; readonly value: boolean }
  | { readonly kind: "FilePath"; readonly value: string }
  | { readonly kind: "DirectoryPath"; readonly value: string }
  | { readonly kind: "array"; readonly items: readonly LiteralValue[] };

/** One argument bound to a contract parameter (defaults expanded). */
export interface BoundArgument {
  readonly parameter: ParameterModel;
  readonly value: LiteralValue;
  /** True when the value is the parameter's default, not written at the call. */
  readonly defaulted: boolean;
}

/** One entry of an agent program's `guarantees`. */
export interface GuaranteeModel {
  readonly contract: ContractModel;
  readonly args: readonly BoundArgument[];
  /** The contract call in the `guarantees` array. */
  readonly node: TS.CallExpression;
  readonly span: Span;
}

/** A `noGuarantees(lib)` entry: `fileName` is a trusted file of the library it names (core/coverage maps it to the library). */
export interface SilencedLibrary {
  readonly node: TS.CallExpression;
  readonly fileName: string;
}

/** The guarantees of an agent program: the contract calls, or refusals on the exact nodes. */
export interface GuaranteeList {
  readonly guarantees: readonly GuaranteeModel[];
  /** Entries that are `noGuarantees()`: explicit, reviewable promises of nothing. */
  readonly none: readonly TS.CallExpression[];
  /** The `noGuarantees(lib)` entries among `none`: libraries the program says it promises nothing about. */
  readonly silenced: readonly SilencedLibrary[];
  readonly refusals: readonly Refusal[];
  /** The `guarantees` declaration (or the node that exports it under that name), when the program has one. */
  readonly declaration: TS.Node | undefined;
}

/** How strictly `readGuarantees` reads. */
export interface ReadGuaranteesOptions {
  /**
   * The prover's reading: every written argument must have exactly the contract parameter's
   * declared type, with no type assertion and no `any` on the way. (`describe` shows a mismatch
   * with the contract's documentation instead.)
   */
  readonly exact?: boolean;
}

/** The plain JavaScript value of a literal (what the runtime would receive). */
export function plainValue(v: LiteralValue): unknown {
  return v.kind === "array" ? v.items.map(plainValue) : v.value;
}

/** Source-like text of a literal: `"a"`, `3`, `FilePath("x")`, `[..]`. */
export function literalText(v: LiteralValue): string {
  switch (v.kind) {
    case "string": return JSON.stringify(v.value);
    case "number": return Object.is(v.value, -0) ? "-0" : String(v.value);
    case "boolean": return String(v.value);
    case "FilePath": case "DirectoryPath": return `${v.kind}(${JSON.stringify(v.value)})`;
    case "array": return `[${v.items.map(literalText).join(", ")}]`;
  }
}

/** Evaluate a literal expression (guarantee argument or parameter default); refuses anything else. */
export function readLiteral(ts: TypeScript, checker: TS.TypeChecker, expr: TS.Expression): LiteralValue {
  const e = skipParens(ts, expr);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return { kind: "string", value: e.text };
  if (ts.isNumericLiteral(e)) return { kind: "number", value: Number(e.text) };
  if (ts.isPrefixUnaryExpression(e) && (e.operator === ts.SyntaxKind.MinusToken || e.operator === ts.SyntaxKind.PlusToken) && ts.isNumericLiteral(skipParens(ts, e.operand))) {
    const n = Number((skipParens(ts, e.operand) as TS.NumericLiteral).text);
    return { kind: "number", value: e.operator === ts.SyntaxKind.MinusToken ? -n : n };
  }
  if (e.kind === ts.SyntaxKind.TrueKeyword) return { kind: "boolean", value: true };
  if (e.kind === ts.SyntaxKind.FalseKeyword) return { kind: "boolean", value: false };
  if (ts.isArrayLiteralExpression(e)) {
    return { kind: "array", items: e.elements.map((el) => {
      if (ts.isSpreadElement(el) || ts.isOmittedExpression(el)) throw new Refusal(el, "Spread and holes are not literal array elements.", "List each element literally.");
      return readLiteral(ts, checker, el);
    }) };
  }
  if (ts.isCallExpression(e) && e.arguments.length === 1 && !e.questionDotToken && !e.typeArguments && isPlainCallee(ts, checker, e.expression)) {
    const which = runtimeExportAt(ts, checker, e.expression);
    if (which === "FilePath" || which === "DirectoryPath") {
      const inner = readLiteral(ts, checker, e.arguments[0]!);
      if (inner.kind !== "string") throw new Refusal(e.arguments[0]!, `${which}(...) takes a string literal.`, `Write ${which}("path").`);
      return { kind: which, value: inner.value };
    }
  }
  throw new Refusal(e, `Guarantee arguments must be literals; \`${e.getText()}\` is computed.`, "Write the value literally: a string, number, boolean, `FilePath(\"…\")`, `DirectoryPath(\"…\")` or an array of those.");
}

function skipParens(ts: TypeScript, e: TS.Expression): TS.Expression {
  let x = e;
  while (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isSatisfiesExpression(x)) x = x.expression;
  return x;
}

/**
 * A callee that names its function without running anything: an identifier, or `ns.name` on a
 * namespace import. (`(f(), lib).contract` or `getLib().contract` would resolve to the contract's
 * declaration by type, and run `f()` when the guarantees are created.)
 */
export function isPlainCallee(ts: TypeScript, checker: TS.TypeChecker, callee: TS.Expression): boolean {
  if (ts.isIdentifier(callee)) return true;
  if (!ts.isPropertyAccessExpression(callee) || callee.questionDotToken || !ts.isIdentifier(callee.expression)) return false;
  const decl = checker.getSymbolAtLocation(callee.expression)?.declarations?.[0];
  return !!decl && ts.isNamespaceImport(decl);
}

/** Whether a literal has a declared type, as the sentence renderer reads it (a typed path is a string too). */
export function valueHasType(value: LiteralValue, type: ValueType): boolean {
  switch (type.kind) {
    case "string": return value.kind === "string" || value.kind === "FilePath" || value.kind === "DirectoryPath";
    case "FilePath": case "DirectoryPath": return value.kind === type.kind;
    case "number": case "boolean": return value.kind === type.kind;
    case "array": return value.kind === "array" && value.items.every((v) => valueHasType(v, type.element));
    default: return false;
  }
}

function describeValue(v: LiteralValue): string {
  return v.kind === "array" ? "an array" : `a ${v.kind}`;
}

/**
 * The prover's check of one written argument: no type assertion inside it, no `any`, and a value
 * of exactly the parameter's declared type (`"3"` where `number` is declared, a string where
 * `string[]` is declared, are refused even when an assertion made TypeScript accept them).
 */
function exactArgumentRefusal(ts: TypeScript, checker: TS.TypeChecker, arg: TS.Expression, p: ParameterModel, value: LiteralValue): Refusal | undefined {
  let assertion: TS.Node | undefined;
  const visit = (n: TS.Node): void => {
    if (assertion) return;
    if (ts.isAsExpression(n) || ts.isTypeAssertionExpression(n) || ts.isSatisfiesExpression(n) || ts.isNonNullExpression(n)) assertion = n;
    else ts.forEachChild(n, visit);
  };
  visit(arg);
  if (assertion) return new Refusal(assertion, "A type assertion in a guarantee argument hides the argument's real type from the checker.", `Write the literal itself; \`${p.name}\` is declared \`${p.typeText}\`.`);
  if (holdsAny(ts, checker, checker.getTypeAtLocation(arg))) return new Refusal(arg, `The argument for \`${p.name}\` has type \`any\`.`, `Write a literal of type \`${p.typeText}\`.`);
  if (!valueHasType(value, p.type)) {
    return new Refusal(arg, `${describeValue(value)} was given where \`${p.name}\` is declared \`${p.typeText}\`${p.type.kind === "unsupported" || p.type.kind === "record" || p.type.kind === "void" ? " (a type guarantee arguments cannot have)" : ""}.`, `Write a literal of type \`${p.typeText}\`.`);
  }
  return undefined;
}

/** The contract a call's callee resolves to (through imports and namespace access), if any. */
export function contractOfCallee(ts: TypeScript, checker: TS.TypeChecker, layer: LayerModel, callee: TS.Expression): ContractModel | undefined {
  const node = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
  const decl = resolveDeclaration(ts, checker, checker.getSymbolAtLocation(node));
  return decl ? layer.contractByDeclaration.get(decl) : undefined;
}

/** Bind a contract call's arguments to the contract's parameters, expanding defaults (`exact`: see `ReadGuaranteesOptions`). */
export function bindArguments(ts: TypeScript, checker: TS.TypeChecker, contract: ContractModel, call: TS.CallExpression, exact = false): BoundArgument[] {
  const args = call.arguments;
  for (const a of args) if (ts.isSpreadElement(a)) throw new Refusal(a, "Spread arguments cannot be bound to the contract's parameters.", "Pass each argument literally.");
  if (args.length > contract.parameters.length) {
    throw new Refusal(args[contract.parameters.length]!, `\`${contract.name}\` takes ${contract.parameters.length} argument(s).`, "Remove the extra arguments.");
  }
  return contract.parameters.map((p, i) => {
    const arg = args[i];
    if (arg) {
      const value = readLiteral(ts, checker, arg);
      const problem = exact ? exactArgumentRefusal(ts, checker, arg, p, value) : undefined;
      if (problem) throw problem;
      return { parameter: p, value, defaulted: false };
    }
    if (p.node.initializer) return { parameter: p, value: readLiteral(ts, checker, p.node.initializer), defaulted: true };
    throw new Refusal(call, `Argument \`${p.name}\` of \`${contract.name}\` is missing.`, `Pass a literal for \`${p.name}\`.`);
  });
}

const WRITE_GUARANTEES = "Write `export const guarantees = [lib.contract(\"literal\"), ...]`.";

/**
 * The declaration of the binding the program exports as `guarantees` (what the runner reads):
 * a `const` declared once in this file. A `let`/`var`, an export from another module, a local
 * that is not exported, or a second declaration are refused.
 */
function guaranteesDeclaration(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile): { node?: TS.Node; declaration?: TS.VariableDeclaration; refusal?: Refusal } {
  const binding = exportedBinding(ts, checker, file, "guarantees");
  if (binding.kind === "refused") return { node: binding.refusal.node, refusal: binding.refusal };
  if (binding.kind === "none") {
    for (const stmt of file.statements) {
      if (!ts.isVariableStatement(stmt)) continue;
      const local = stmt.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === "guarantees");
      if (local) return { node: local, refusal: new Refusal(local.name, "`guarantees` is declared but not exported; the runner reads the exported binding.", WRITE_GUARANTEES) };
    }
    return {};
  }
  const d = binding.declaration;
  if (!ts.isVariableDeclaration(d) || !ts.isVariableDeclarationList(d.parent)) {
    return { node: d, refusal: new Refusal(d, "`guarantees` must be a `const` array literal of contract calls.", WRITE_GUARANTEES) };
  }
  if (!isPlainConst(ts, d.parent)) {
    return { node: d, refusal: new Refusal(d.parent, "`guarantees` is not a `const`: it could be reassigned after the proof, before the runner reads it.", WRITE_GUARANTEES) };
  }
  return { node: d, declaration: d };
}

/** `[...]`, `([...])`, `[...] as const` or `[...] satisfies T`: no other expression (an assertion such as `as any` hides what the entries are). */
function arrayInitializer(ts: TypeScript, init: TS.Expression | undefined): TS.ArrayLiteralExpression | undefined {
  let e = init;
  while (e && (ts.isParenthesizedExpression(e) || ts.isSatisfiesExpression(e) || (ts.isAsExpression(e) && ts.isConstTypeReference(e.type)))) e = e.expression;
  return e && ts.isArrayLiteralExpression(e) ? e : undefined;
}

/**
 * Read `export const guarantees = [contract(args), ...]` of an agent program: the binding the module
 * exports under that name. Each entry must be a call of a trusted contract, named directly, with
 * literal arguments, or `noGuarantees()`; nothing in the initializer may run code of its own.
 */
export function readGuarantees(ts: TypeScript, checker: TS.TypeChecker, layer: LayerModel, file: TS.SourceFile, options: ReadGuaranteesOptions = {}): GuaranteeList {
  const guarantees: GuaranteeModel[] = [];
  const none: TS.CallExpression[] = [];
  const silenced: SilencedLibrary[] = [];
  const refusals: Refusal[] = [];
  const found = guaranteesDeclaration(ts, checker, file);
  const declaration = found.node;
  if (found.refusal) refusals.push(found.refusal);
  if (!found.declaration) return { guarantees, none, silenced, refusals, declaration };
  const init = arrayInitializer(ts, found.declaration.initializer);
  if (!init) {
    refusals.push(new Refusal(found.declaration.initializer ?? found.declaration, "`guarantees` must be an array literal of contract calls (no assertion, condition or computed value around it).", WRITE_GUARANTEES));
    return { guarantees, none, silenced, refusals, declaration };
  }
  for (const el of init.elements) {
    try {
      let e: TS.Expression = el;
      while (ts.isParenthesizedExpression(e)) e = e.expression;
      if (ts.isSpreadElement(e)) throw new Refusal(el, "A spread in `guarantees` hides which contracts it holds.", "List each contract call.");
      if (!ts.isCallExpression(e)) {
        throw new Refusal(el, "Each guarantee must be a call of a trusted contract (no comma, condition, assertion or computed value).", "Write `lib.contractName(literal, ...)`.");
      }
      if (e.questionDotToken || e.typeArguments) throw new Refusal(e, "A guarantee is a plain call of a contract (no `?.`, no type arguments).", "Write `lib.contractName(literal, ...)`.");
      if (!isPlainCallee(ts, checker, e.expression)) {
        throw new Refusal(e.expression, "The contract must be named directly, so that nothing runs to find it.", "Write `lib.contractName(...)` with `import * as lib from \"…\"`, or `contractName(...)` imported by name.");
      }
      if (runtimeExportAt(ts, checker, e.expression) === "noGuarantees") {
        if (e.arguments.length > 1) throw new Refusal(e.arguments[1]!, "`noGuarantees` takes at most one argument: the library it promises nothing about.", "Write `noGuarantees()` or `noGuarantees(lib)`.");
        const arg = e.arguments[0];
        if (arg) silenced.push({ node: e, fileName: libraryFileOf(ts, checker, layer, arg) });
        none.push(e);
        continue;
      }
      const contract = contractOfCallee(ts, checker, layer, e.expression);
      if (!contract) {
        throw new Refusal(e.expression, `\`${e.expression.getText()}\` is not a contract of the trusted layer.`, "Call a contract exported by a trusted library (`export const name = contract(...)`).");
      }
      guarantees.push({ contract, args: bindArguments(ts, checker, contract, e, options.exact ?? false), node: e, span: spanOf(e) });
    } catch (error) {
      if (error instanceof Refusal) refusals.push(error);
      else throw error;
    }
  }
  return { guarantees, none, silenced, refusals, declaration };
}

const NAME_A_LIBRARY = "Write `noGuarantees(lib)` with `import * as lib from \"./tools/<domain>/trusted/<module>\"`, or pass one of the library's tools or contracts.";

/**
 * The trusted file that names the library of `noGuarantees(lib)`: a namespace import of a trusted
 * module, or a tool or contract of the layer (by declaration, never by name).
 */
function libraryFileOf(ts: TypeScript, checker: TS.TypeChecker, layer: LayerModel, arg: TS.Expression): string {
  if (ts.isSpreadElement(arg)) throw new Refusal(arg, "A spread hides which library `noGuarantees` names.", NAME_A_LIBRARY);
  if (!isPlainCallee(ts, checker, arg)) throw new Refusal(arg, "`noGuarantees` names a library directly, so that nothing runs to find it.", NAME_A_LIBRARY);
  const decl = ts.isIdentifier(arg) ? checker.getSymbolAtLocation(arg)?.declarations?.[0] : undefined;
  if (decl && ts.isNamespaceImport(decl)) {
    const specifier = decl.parent.parent.moduleSpecifier;
    const module = checker.getSymbolAtLocation(specifier)?.valueDeclaration;
    if (module && ts.isSourceFile(module) && layer.files.has(module.fileName)) return module.fileName;
    throw new Refusal(arg, `\`${arg.getText()}\` is not a module of the trusted layer.`, NAME_A_LIBRARY);
  }
  const node = ts.isPropertyAccessExpression(arg) ? arg.name : arg;
  const target = resolveDeclaration(ts, checker, checker.getSymbolAtLocation(node));
  const named = target && (layer.toolByDeclaration.get(target) ?? layer.contractByDeclaration.get(target));
  if (named) return named.fileName;
  throw new Refusal(arg, `\`${arg.getText()}\` is not a trusted library, tool or contract.`, NAME_A_LIBRARY);
}

/** `filesystem.onlyReadsFiles(files=[FilePath("test.md")])`: the library-qualified call with named arguments. */
export function qualifiedCall(g: GuaranteeModel): string {
  return `${g.contract.qualifiedName}(${g.args.map((a) => `${a.parameter.name}=${literalText(a.value)}`).join(", ")})`;
}
