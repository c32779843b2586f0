/**
 * The value a `catch (err)` binds. What reaches a `catch` is an `Error` in every run when the
 * program's own `throw`s are `new Error(…)` (`TypeError`, `RangeError`) or rethrow a caught value:
 * the engine throws `TypeError`s, the clauz3 runtime throws its `Clauz3Error`s (a failing
 * `requires`, the backstop), and a tool whose implementation throws anything else throws a
 * `ToolFailedError` instead (runtime/errors.ts `asToolError`). Of such a value the program may
 * read `String(err)` (also `${err}`, `"…" + err`), `err.message` and `err instanceof Error` (true),
 * fixed for one entry into the `catch` (two reads agree): exactly what the program's own `throw`
 * gives, any text for a tool's failure (see `caughtValue`). Anything else, or a program that
 * throws other values, keeps the value unmodelled.
 */
import type * as TS from "typescript";
import type { CaughtTexts } from "../facts";
import { Refusal } from "../../refusal";
import { not, or, strLit } from "../smt";
import { bool, merge, str, type Sym } from "../values";
import { isAgentDecl, isDefaultLibSymbol, refuse, writtenBy, type Exec } from "./context";
import { freshValue } from "./fresh";
import { toStr } from "./operators";

const CAUGHT_WHY = "the caught value is whatever was thrown (an error of the program, of a `requires`, or of a tool's implementation)";

/**
 * Per program and entry file: whether every value a `catch` can bind is an `Error` (see the module
 * comment). Per program, because an editor's next program reuses an unchanged file whose imports changed.
 */
const errorsOnly = new WeakMap<TS.Program, Map<TS.SourceFile, boolean>>();

/**
 * Whether the program's own code — `file` and the agent modules it imports, transitively — throws
 * only `new Error(…)` (`TypeError`, `RangeError`) or a caught value it never reassigns.
 */
function onlyErrorsThrown(ex: Exec, file: TS.SourceFile): boolean {
  const cache = errorsOnly.get(ex.program) ?? new Map<TS.SourceFile, boolean>();
  errorsOnly.set(ex.program, cache);
  const known = cache.get(file);
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
    const written = writtenBy(ts, n);
    if (written && catchVariable(written)) ok = false;
    ts.forEachChild(n, visit);
  };
  for (let sf = pending.pop(); sf && ok; sf = pending.pop()) {
    if (seen.has(sf)) continue;
    seen.add(sf);
    visit(sf);
  }
  cache.set(file, ok);
  return ok;
}

/** A point a `catch` may be entered from, with the texts of what it throws there (try.ts). */
export interface CatchEntry {
  readonly term: string;
  /** Inside a quantified loop entered in the `try` block: the text may depend on the iteration. */
  readonly inLoop: boolean;
  /** A `throw` statement's texts, "tool" for a tool whose implementation failed (any Error), undefined for an error of the engine or the runtime. */
  readonly texts: CaughtTexts | "tool" | undefined;
  /** That it is reached, closed over the loops begun in the `try` block (`term` for some iteration). */
  readonly reached: string;
}

/**
 * The value `catch (err)` binds at `decl`, entered from `entries` (in program order). Its texts
 * are those of the first entry reached: a `throw new Error(msg)` of the program's own gives
 * exactly `Error: msg` and `msg` (an Error rethrown, its own); a tool whose implementation failed,
 * any text (a trusted implementation may throw any Error); an error of the engine or the runtime
 * (a read of undefined, a failing `requires`) any text too, but only because their wording is not
 * written out here: those texts are inexact (see `caughtText`).
 */
export function caughtValue(ex: Exec, decl: TS.VariableDeclaration, entries: readonly CatchEntry[]): Sym {
  if (!onlyErrorsThrown(ex, decl.getSourceFile())) return { k: "opaque", why: `${CAUGHT_WHY}; the program throws values other than \`new Error(…)\`, so it may not be an Error` };
  const unknown = (): CaughtTexts => ({ text: freshValue(ex, "caught.text", { kind: "string" }, decl), message: freshValue(ex, "caught.message", { kind: "string" }, decl) });
  const live = entries.filter((x) => x.term !== "false");
  const looped = live.some((x) => x.inLoop);
  // Entries whose texts are not written out: an engine's or the runtime's error, a rethrown one,
  // and, where an entry is inside a loop begun in the `try` (the texts below are then any text for
  // every entry), every entry but a tool's failure (whose text is any text in truth).
  const unwritten = live.filter((x) => x.texts === undefined || (x.texts !== "tool" && (looped || x.texts.inexact === true)));
  let inexact = unwritten.length > 0;
  let unless: string | undefined = inexact ? or(...unwritten.map((x) => x.reached)) : undefined;
  let acc: CaughtTexts = unknown();
  if (!looped) {
    for (const x of [...live].reverse()) {
      const t = x.texts === "tool" || x.texts === undefined ? unknown() : x.texts;
      const text = merge(x.term, t.text, acc.text);
      const message = merge(x.term, t.message, acc.message);
      if (!text || !message) {
        inexact = true;
        unless = undefined; // the texts of the entries before this one are not written out either
        break;
      }
      acc = { text, message };
    }
  }
  return { k: "opaque", why: CAUGHT_WHY, caught: { text: acc.text, message: acc.message, ...(inexact ? { inexact: true as const, ...(unless !== undefined ? { unless } : {}) } : {}) } };
}

/** The texts of `new Error(arg)` (`TypeError`, `RangeError`): its message is `String(arg)` ("" without one), its text `Name: message` (`Name` alone for ""). */
export function thrownTexts(ex: Exec, name: string, arg: Sym | undefined, at: TS.Node): CaughtTexts | undefined {
  let message: Sym;
  try {
    message = arg === undefined || arg.k === "undef" ? str("") : arg.k === "maybe" ? (merge(arg.def, toStr(ex, arg.v, at), str("")) ?? str("")) : toStr(ex, arg, at);
  } catch (error) {
    if (error instanceof Refusal) return undefined;
    throw error;
  }
  if (message.k !== "str") return undefined;
  if (message.c !== undefined) return { text: str(message.c === "" ? name : `${name}: ${message.c}`), message };
  return { text: { k: "str", t: `(ite (= ${message.t} "") ${strLit(name)} (str.++ ${strLit(`${name}: `)} ${message.t}))` }, message };
}

/** The texts of a caught Error being rethrown (`throw err`), or undefined for any other value. */
export function caughtTexts(v: Sym): CaughtTexts | undefined {
  return v.k === "opaque" && v.caught ? v.caught : undefined;
}

/**
 * A read of a caught Error's text: inexact texts (an error of the engine or the runtime may reach
 * the `catch`) make the world over-approximated. In the search among short runs, which reports
 * only what a run shows, the runs are assumed not to enter the `catch` from where the texts are not
 * written out (an under-approximation: every run left is one JavaScript has, its texts exact), so
 * that no counterexample rests on a wording no run has; refused where that condition is not known.
 */
function readText(ex: Exec, v: Extract<Sym, { k: "opaque" }>, t: Sym, at: TS.Node): Sym {
  if (!v.caught?.inexact || onlyLogged(ex, at)) return t;
  if (ex.arrayBound !== undefined && v.caught.unless !== undefined) {
    // A world-wide assumption, not a path condition: a run that met it would otherwise look like
    // one that stopped there, and a lower bound would fail for it.
    ex.world.assumptions.push({ term: not(v.caught.unless), loops: [...ex.loops] });
    return t;
  }
  if (ex.arrayBound !== undefined) refuse(at, "The text of an error the engine or the runtime throws (a value that may be undefined, a failing `requires`) may reach this `catch`; its wording is not modelled, so no counterexample is read from it.", "Read the text only where the `try` block's calls cannot fail a `requires` and read nothing that may be undefined, or do not read it.");
  ex.world.inexactCaught++;
  return t;
}

/**
 * Whether a read only goes to the console: the first call around it (past `String(…)` of it, and
 * its own `toFixed(…)`/`toString(…)`) is `console.log` (`info`, `warn`, `error`, `debug`), with
 * templates, `+` and parentheses between. Its value then changes no event (caught.ts: the wording
 * of an error; loopstate.ts: a total the loop keeps only to log it).
 */
export function onlyLogged(ex: Exec, at: TS.Node): boolean {
  const ts = ex.ts;
  let n: TS.Node = at;
  for (let p = n.parent; p; n = p, p = p.parent) {
    if (ts.isCallExpression(p)) {
      const callee = p.expression;
      if (ts.isIdentifier(callee) && callee.text === "String" && p.arguments[0] === n) continue;
      if (callee === n && ts.isPropertyAccessExpression(n) && /^(toFixed|toString)$/.test(n.name.text)) continue;
      return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "console" && /^(log|info|warn|error|debug)$/.test(callee.name.text) && p.arguments.includes(n as TS.Expression) && isDefaultLibSymbol(ex, ex.checker.getSymbolAtLocation(callee.expression) ?? ({} as TS.Symbol));
    }
    const passThrough = ts.isTemplateSpan(p) || ts.isTemplateExpression(p) || ts.isParenthesizedExpression(p) || (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.PlusToken) || (ts.isPropertyAccessExpression(p) && (p.name === n || (p.expression === n && /^(toFixed|toString)$/.test(p.name.text))));
    if (!passThrough) return false;
  }
  return false;
}

/** `String(err)` of a caught Error, or undefined for any other value. */
export function caughtText(ex: Exec, v: Sym, at: TS.Node): Sym | undefined {
  return v.k === "opaque" && v.caught ? readText(ex, v, v.caught.text, at) : undefined;
}

/** `err.message` of a caught Error (other properties of it are refused), or undefined for any other value. */
export function caughtProperty(ex: Exec, v: Sym, name: TS.Identifier | TS.PrivateIdentifier): Sym | undefined {
  if (v.k !== "opaque" || !v.caught) return undefined;
  if (name.text === "message") return readText(ex, v, v.caught.message, name);
  refuse(name, `\`${name.text}\` of a caught error is not modelled (its text is: \`String(err)\`, \`err.message\`).`, "Read `err.message` or `String(err)`.");
}

/** `x instanceof C`: true of a caught Error and `Error`; anything else is refused. */
export function instanceOf(ex: Exec, e: TS.BinaryExpression, left: Sym): Sym {
  const ts = ex.ts;
  const sym = ts.isIdentifier(e.right) ? ex.checker.getSymbolAtLocation(e.right) : undefined;
  if (left.k === "opaque" && left.caught && sym && (e.right as TS.Identifier).text === "Error" && isDefaultLibSymbol(ex, sym)) return bool(true);
  refuse(e, "`instanceof` is modelled only as `err instanceof Error` of a value a `catch` binds (always true: every value that reaches a `catch` is an Error).", "Test what you need with a comparison, or read `err.message`.");
}
