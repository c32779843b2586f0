/**
 * What an agent module may contain, read without executing it: which declaration the module
 * exports under a name (what the runner will call), what its top level runs at load, comments that
 * silence the checker, and values of type `any`. Each check returns (or throws) a `Refusal` on the
 * exact node.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import { Refusal } from "../refusal";

/** The declaration a module exports under a name, or why it cannot be the one that runs. */
export type ExportedBinding =
  | { readonly kind: "none" }
  | { readonly kind: "found"; readonly declaration: TS.Declaration }
  | { readonly kind: "refused"; readonly refusal: Refusal };

/**
 * The single declaration that `file` exports as `name` at run time, followed through local
 * aliases (`export { run as main }`). Refused: a binding declared in another module (`export { main }
 * from`, `export *`), several declarations (overloads, merged declarations), a type-only export
 * (erased: at run time another module's `export *` would supply the name).
 */
export function exportedBinding(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile, name: string): ExportedBinding {
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) return { kind: "none" };
  const exported = checker.getExportsOfModule(moduleSymbol).find((s) => s.name === name);
  if (!exported) return { kind: "none" };
  const refused = (node: TS.Node, reason: string, instead: string): ExportedBinding => ({ kind: "refused", refusal: new Refusal(node, reason, instead) });
  const declareHere = name === "main" ? "Declare `export function main(...)` in this file." : "Declare `export const guarantees = [...]` in this file.";
  // The node of this file that makes the export: its own declaration, an export specifier, or `export *`.
  const local = exported.declarations?.find((d) => d.getSourceFile() === file);
  const via = local ?? exportStarProviding(ts, checker, file, name) ?? file.statements[0] ?? file;
  for (const d of exported.declarations ?? []) {
    if (d.getSourceFile() === file && ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) {
      return refused(d, `\`${name}\` is exported only as a type, so the module exports no value under that name at run time (another module's \`export *\` could supply it).`, declareHere);
    }
  }
  let target = exported;
  if (target.flags & ts.SymbolFlags.Alias) {
    try {
      target = checker.getAliasedSymbol(target);
    } catch {
      return refused(via, `\`${name}\` does not resolve to a declaration.`, declareHere);
    }
  }
  const declarations = target.declarations ?? [];
  if (declarations.length === 0) return refused(via, `\`${name}\` does not resolve to a declaration.`, declareHere);
  if (declarations.length > 1) {
    const second = declarations[1]!;
    return refused(second.getSourceFile() === file ? second : via, `\`${name}\` has ${declarations.length} declarations (overloads or merged declarations); the prover must see the one function or value that runs.`, `Declare \`${name}\` once.`);
  }
  const declaration = declarations[0]!;
  if (declaration.getSourceFile() !== file) {
    return refused(via, `\`${name}\` is declared in another module (${moduleName(declaration.getSourceFile())}); the program proved must declare what it exports.`, declareHere);
  }
  return { kind: "found", declaration };
}

function moduleName(file: TS.SourceFile): string {
  return file.fileName.replace(/\\/g, "/").split("/").pop() ?? file.fileName;
}

/** The `export * from "…"` statement of `file` through which `name` is exported, if any. */
function exportStarProviding(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile, name: string): TS.Node | undefined {
  for (const s of file.statements) {
    if (!ts.isExportDeclaration(s) || s.exportClause || !s.moduleSpecifier) continue;
    const m = checker.getSymbolAtLocation(s.moduleSpecifier);
    if (m && checker.getExportsOfModule(m).some((x) => x.name === name)) return s;
  }
  return undefined;
}

/** `const` exactly: not `let`, `var`, `using` or `await using`. */
export function isPlainConst(ts: TypeScript, list: TS.VariableDeclarationList): boolean {
  return (list.flags & ts.NodeFlags.BlockScoped) === ts.NodeFlags.Const;
}

function hasModifier(ts: TypeScript, node: TS.Node, kind: TS.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((m) => m.kind === kind) ?? false);
}

/** Built-ins a module may construct at load from inert literals: `new Map([[k, v], …])`, `new Set([…])`. */
const INERT_COLLECTIONS = new Set(["Map", "Set"]);

/**
 * Whether evaluating an expression at module load runs no code (calls, getters, conversions of
 * identifiers): literals, functions, arrays and plain object literals of those, and `new Map`/`new
 * Set` of a literal array of them (the built-ins themselves, not a local of that name: `program`
 * tells the default library apart).
 */
function isInert(ts: TypeScript, e: TS.Expression, program?: TS.Program, checker?: TS.TypeChecker): boolean {
  let x = e;
  while (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isSatisfiesExpression(x)) x = x.expression;
  const inert = (y: TS.Expression): boolean => isInert(ts, y, program, checker);
  if (ts.isArrowFunction(x) || ts.isFunctionExpression(x) || ts.isLiteralExpression(x) || ts.isNoSubstitutionTemplateLiteral(x)) return true;
  if (x.kind === ts.SyntaxKind.TrueKeyword || x.kind === ts.SyntaxKind.FalseKeyword || x.kind === ts.SyntaxKind.NullKeyword) return true;
  if (ts.isPrefixUnaryExpression(x)) return inert(x.operand);
  if (ts.isArrayLiteralExpression(x)) return x.elements.every((el) => !ts.isSpreadElement(el) && !ts.isOmittedExpression(el) && inert(el));
  // `{ cap: 500, team: "ops" }`: no getter, method, spread, computed or shorthand name, no `__proto__`.
  if (ts.isObjectLiteralExpression(x)) {
    return x.properties.every((p) => ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) || ts.isNumericLiteral(p.name)) && p.name.text !== "__proto__" && inert(p.initializer));
  }
  if (ts.isNewExpression(x) && ts.isIdentifier(x.expression) && INERT_COLLECTIONS.has(x.expression.text) && program && checker) {
    const decls = checker.getSymbolAtLocation(x.expression)?.declarations ?? [];
    const builtIn = decls.length > 0 && decls.every((d) => program.isSourceFileDefaultLibrary(d.getSourceFile()));
    const args = x.arguments ?? [];
    return builtIn && (args.length === 0 || (args.length === 1 && ts.isArrayLiteralExpression(args[0]!) && inert(args[0]!)));
  }
  return false;
}

/**
 * Top-level code of an agent module runs when the module is loaded, outside `main`: only
 * declarations may be there (imports, re-exports, functions, `const`s of literals or function
 * expressions, interfaces and type aliases). `exempt` holds declarations another reader checks
 * (the program's `guarantees`). Ambient (`declare`) statements, namespaces, enums and classes are
 * refused: they either run code or describe values that do not exist at run time.
 */
export function topLevelRefusal(ts: TypeScript, file: TS.SourceFile, exempt: ReadonlySet<TS.Node> = new Set(), program?: TS.Program, checker?: TS.TypeChecker): Refusal | undefined {
  for (const s of file.statements) {
    if (hasModifier(ts, s, ts.SyntaxKind.DeclareKeyword)) {
      return new Refusal(s, "Ambient (`declare`) declarations in agent code describe values that TypeScript cannot see being created; the checker would trust them.", "Remove the declaration; import values from TypeScript modules instead.");
    }
    if (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) continue;
    if (ts.isImportEqualsDeclaration(s)) {
      if (ts.isExternalModuleReference(s.moduleReference)) continue;
      return new Refusal(s, "`import x = N.y` aliases a namespace value at load.", "Import from a module instead.");
    }
    if (ts.isFunctionDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEmptyStatement(s)) continue;
    if (ts.isVariableStatement(s) && isPlainConst(ts, s.declarationList)) {
      for (const d of s.declarationList.declarations) {
        if (exempt.has(d)) continue;
        if (!ts.isIdentifier(d.name)) {
          return new Refusal(d.name, "Destructuring at the top level runs code (iterators, getters) when the module is loaded.", "Declare each value with its own `const name = literal`.");
        }
        if (d.initializer && !isInert(ts, d.initializer, program, checker)) {
          return new Refusal(d.initializer, "Top-level code runs when the module is imported, outside `main`.", "Move the computation into `main`; at the top level declare only literals and helpers.");
        }
      }
      continue;
    }
    if (ts.isVariableStatement(s)) {
      return new Refusal(s.declarationList, "Top-level `let`, `var` and `using` bindings can change (or run code) after the proof looked at them.", "Declare constants with `const name = literal`, and keep changing state inside `main`.");
    }
    return new Refusal(s, "Top-level statements run when the module is imported, outside `main`.", "Move this into `main`.");
  }
  return undefined;
}

const SILENCER = /@ts-(?:ignore|nocheck|expect-error)/gi;
/** What may precede a directive on its line: a comment opener (`//`, `///`, `/*`) or a block comment's margin. */
const DIRECTIVE_PREFIX = /(?:\/\/\/?|\/\*+)\s*$|^\s*\**\s*$/;

/**
 * A comment that silences the type checker (`@ts-ignore`, `@ts-nocheck`, `@ts-expect-error`):
 * the proof relies on the types, so errors may not be hidden. A directive is recognised where
 * TypeScript would read one, at the start of a comment or of a block comment's line, in any case;
 * matches inside string, template and regular-expression literals are text, not comments.
 */
export function silencerRefusal(ts: TypeScript, file: TS.SourceFile): Refusal | undefined {
  for (const m of file.text.matchAll(SILENCER)) {
    const at = m.index;
    const node = innermostAt(ts, file, at);
    if (isLiteralToken(ts, node) && node.getStart(file) <= at) continue;
    // A directive opens its comment (or a line of a block comment), as TypeScript reads it;
    // prose that mentions one ("do not use `@ts-ignore`") silences nothing.
    const before = file.text.slice(file.text.lastIndexOf("\n", at - 1) + 1, at);
    if (!DIRECTIVE_PREFIX.test(before)) continue;
    return new Refusal(commentNode(ts, file, at), `\`${m[0]}\` silences the type checker; the proof relies on the types TypeScript checks.`, "Remove the comment and fix the error it hides.");
  }
  return undefined;
}

function isLiteralToken(ts: TypeScript, node: TS.Node): boolean {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node) || ts.isRegularExpressionLiteral(node);
}

/** The innermost node whose token range (leading trivia excluded) contains `pos`; the file when none. */
export function innermostAt(ts: TypeScript, file: TS.SourceFile, pos: number): TS.Node {
  let node: TS.Node = file;
  for (;;) {
    const child: TS.Node | undefined = ts.forEachChild(node, (c) => (c.getStart(file) <= pos && pos < c.end ? c : undefined));
    if (!child) return node;
    node = child;
  }
}

/**
 * A node that stands for a comment in refusals (`Refusal` needs a node): the node the comment
 * leads (the next statement or expression), or the innermost node around it. The message says
 * which comment.
 */
function commentNode(ts: TypeScript, file: TS.SourceFile, pos: number): TS.Node {
  const container = innermostAt(ts, file, pos);
  let next: TS.Node | undefined;
  ts.forEachChild(container, (c) => {
    if (!next && c.getStart(file) >= pos) next = c;
  });
  return next ?? container;
}

/** Whether a type is `any`, or holds `any` in array elements, tuple members, union/intersection members or object properties. */
export function holdsAny(ts: TypeScript, checker: TS.TypeChecker, type: TS.Type, depth = 0, seen = new Set<TS.Type>()): boolean {
  if (type.flags & ts.TypeFlags.Any) return true;
  if (depth > 4 || seen.has(type)) return false;
  seen.add(type);
  if (type.isUnionOrIntersection()) return type.types.some((t) => holdsAny(ts, checker, t, depth + 1, seen));
  if (!(type.flags & ts.TypeFlags.Object)) return false;
  if (checker.isArrayType(type) || checker.isTupleType(type)) return checker.getTypeArguments(type as TS.TypeReference).some((t) => holdsAny(ts, checker, t, depth + 1, seen));
  if (type.getCallSignatures().length > 0) return false;
  return checker.getPropertiesOfType(type).some((p) => {
    const decl = p.valueDeclaration;
    if (!decl || ts.isMethodDeclaration(decl) || ts.isMethodSignature(decl)) return false;
    return holdsAny(ts, checker, checker.getTypeOfSymbol(p), depth + 1, seen);
  });
}

/**
 * The first expression of agent code whose type is `any` (or holds `any`): such a value escapes
 * every type the proof relies on (a string that is really an array, a number that is really a
 * string), so it is refused wherever it appears. Type positions and import/export clauses are
 * not values and are skipped; so is the discarded value of an expression statement (its parts
 * are checked).
 */
export function anyRefusal(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile): Refusal | undefined {
  let found: TS.Node | undefined;
  const visit = (node: TS.Node): void => {
    if (found || ts.isTypeNode(node) || ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isImportEqualsDeclaration(node)) return;
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isHeritageClause(node)) return;
    // A statement's own value is discarded (`yield x;`, `f();`): it reaches nothing, its parts are still checked.
    const discarded = !!node.parent && ts.isExpressionStatement(node.parent);
    if (ts.isExpression(node) && !discarded && !isDeclarationName(ts, node) && holdsAny(ts, checker, checker.getTypeAtLocation(node))) {
      found = node;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  if (!found) return undefined;
  return new Refusal(found, `\`${clip(found.getText())}\` has type \`any\` (or holds it); the proof relies on the types TypeScript checks, and \`any\` turns them off.`, "Give the value its real type (declare parameters and results, remove `as any`).");
}

/** A name that declares (a variable, parameter, property, label) rather than reads a value. */
function isDeclarationName(ts: TypeScript, node: TS.Node): boolean {
  const p = node.parent;
  if (!p || !ts.isIdentifier(node)) return false;
  if ((ts.isBreakOrContinueStatement(p) || ts.isLabeledStatement(p)) && p.label === node) return true;
  // `const { to: a } = r`: `to` names the property read; the value is checked as `a` and `r`.
  if (ts.isBindingElement(p) && p.propertyName === node) return true;
  return !ts.isPropertyAccessExpression(p) && (p as { name?: TS.Node }).name === node;
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, " ");
  return one.length > 60 ? `${one.slice(0, 57)}...` : one;
}
