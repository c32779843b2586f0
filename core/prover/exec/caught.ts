/**
 * The value a `catch (err)` binds. What reaches a `catch` is an `Error` in every run when the
 * program's own `throw`s are `new Error(…)` (`TypeError`, `RangeError`) or rethrow a caught value:
 * the engine throws `TypeError`s, the clauz3 runtime throws its `Clauz3Error`s (a failing
 * `requires`, the backstop), and a tool whose implementation throws anything else throws a
 * `ToolFailedError` instead (runtime/errors.ts `asToolError`). Of such a value the program may
 * read `String(err)` (also `${err}`, `"…" + err`), `err.message` and `err instanceof Error` (true):
 * each text is a string the prover does not know, one per entry into the `catch` (so two reads
 * agree). Anything else, or a program that throws other values, keeps the value unmodelled.
 */
import type * as TS from "typescript";
import { bool, type Sym } from "../values";
import { isAgentDecl, isDefaultLibSymbol, refuse, type Exec } from "./context";
import { freshValue } from "./fresh";

const CAUGHT_WHY = "the caught value is whatever was thrown (an error of the program, of a `requires`, or of a tool's implementation)";

/** Per entry file: whether every value a `catch` can bind is an `Error` (see the module comment). */
const errorsOnly = new WeakMap<TS.SourceFile, boolean>();

/**
 * Whether the program's own code — `file` and the agent modules it imports, transitively — throws
 * only `new Error(…)` (`TypeError`, `RangeError`) or a caught value it never reassigns.
 */
function onlyErrorsThrown(ex: Exec, file: TS.SourceFile): boolean {
  const known = errorsOnly.get(file);
  if (known !== undefined) return known;
  const ts = ex.ts;
  let ok = true;
  const catchVariable = (e: TS.Expression): TS.Symbol | undefined => {
    if (!ts.isIdentifier(e)) return undefined;
    const sym = ex.checker.getSymbolAtLocation(e);
    const decl = sym?.valueDeclaration;
    return decl && ts.isVariableDeclaration(decl) && ts.isCatchClause(decl.parent) ? sym : undefined;
  };
  const seen = new Set<TS.SourceFile>();
  const pending: TS.SourceFile[] = [file];
  const visit = (n: TS.Node): void => {
    if (!ok) return;
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier) {
      const target = ex.checker.getSymbolAtLocation(n.moduleSpecifier)?.valueDeclaration;
      if (target && ts.isSourceFile(target) && isAgentDecl(ex, target)) pending.push(target);
    }
    if (ts.isThrowStatement(n)) {
      let e = n.expression;
      while (ts.isParenthesizedExpression(e)) e = e.expression;
      const made = ts.isNewExpression(e) && ts.isIdentifier(e.expression) && /^(Error|TypeError|RangeError)$/.test(e.expression.text) && isDefaultLibSymbol(ex, ex.checker.getSymbolAtLocation(e.expression) ?? ({} as TS.Symbol));
      if (!made && !catchVariable(e)) ok = false;
    }
    // A caught value rebound to something else before it is rethrown.
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment && catchVariable(n.left)) ok = false;
    ts.forEachChild(n, visit);
  };
  for (let sf = pending.pop(); sf && ok; sf = pending.pop()) {
    if (seen.has(sf)) continue;
    seen.add(sf);
    visit(sf);
  }
  errorsOnly.set(file, ok);
  return ok;
}

/** The value `catch (err)` binds at `decl`, on one entry into the `catch`. */
export function caughtValue(ex: Exec, decl: TS.VariableDeclaration): Sym {
  if (!onlyErrorsThrown(ex, decl.getSourceFile())) return { k: "opaque", why: `${CAUGHT_WHY}; the program throws values other than \`new Error(…)\`, so it may not be an Error` };
  const text = freshValue(ex, "caught.text", { kind: "string" }, decl);
  const message = freshValue(ex, "caught.message", { kind: "string" }, decl);
  return { k: "opaque", why: CAUGHT_WHY, caught: { text, message } };
}

/** `String(err)` of a caught Error, or undefined for any other value. */
export function caughtText(v: Sym): Sym | undefined {
  return v.k === "opaque" ? v.caught?.text : undefined;
}

/** `err.message` of a caught Error (other properties of it are refused), or undefined for any other value. */
export function caughtProperty(v: Sym, name: TS.Identifier | TS.PrivateIdentifier): Sym | undefined {
  if (v.k !== "opaque" || !v.caught) return undefined;
  if (name.text === "message") return v.caught.message;
  refuse(name, `\`${name.text}\` of a caught error is not modelled (its text is: \`String(err)\`, \`err.message\`).`, "Read `err.message` or `String(err)`.");
}

/** `x instanceof C`: true of a caught Error and `Error`; anything else is refused. */
export function instanceOf(ex: Exec, e: TS.BinaryExpression, left: Sym): Sym {
  const ts = ex.ts;
  const sym = ts.isIdentifier(e.right) ? ex.checker.getSymbolAtLocation(e.right) : undefined;
  if (left.k === "opaque" && left.caught && sym && (e.right as TS.Identifier).text === "Error" && isDefaultLibSymbol(ex, sym)) return bool(true);
  refuse(e, "`instanceof` is modelled only as `err instanceof Error` of a value a `catch` binds (always true: every value that reaches a `catch` is an Error).", "Test what you need with a comparison, or read `err.message`.");
}
