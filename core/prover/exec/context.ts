/**
 * The executor's shared context (`Exec`, passed as `ex` to every concern) and the small lookups all
 * of them use: refusing, step and term-size budgets, declarations, frames.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../../context";
import { isProjectSource } from "../../layer/classify";
import type { ContractModel, LayerModel, ValueType } from "../../model";
import { Refusal } from "../../refusal";
import { valueTypeOf } from "../../types";
import type { World } from "../facts";
import { ProofAbandoned } from "../turns";
import type { FunctionLike, Sym } from "../values";
import { EXEC_STEP_LIMIT, TERM_CHAR_LIMIT } from "./caps";

/** A variable a quantified loop sets to its element: the element, and the hidden variable that records its index. */
export interface CarriedElementWrite {
  readonly element: Sym;
  readonly shadow: TS.Symbol;
  readonly index: Sym;
}

/** A function the executor is inside: `main`, an inlined helper, a contract body or lambda. */
export interface Frame {
  readonly fn: FunctionLike | undefined;
  /** The quantified-loop body the frame is executing in, if any (assignments may not escape it). */
  loopBody: TS.Node | undefined;
  /** Variables declared outside `loopBody` that it may assign: the state the loop carries (loopstate.ts). */
  carried?: ReadonlySet<TS.Symbol>;
  /** Carried variables the body may only set to its element (loopstate.ts): each with the index it then holds. */
  carriedElements?: ReadonlyMap<TS.Symbol, CarriedElementWrite>;
  /** Arrays and Sets declared outside `body` that it collects, at the loop's index `q` (collected.ts). */
  collecting?: { readonly body: TS.Node; readonly targets: ReadonlyMap<TS.Symbol, unknown>; readonly q: string };
}

/**
 * One executor's context: the program it reads, the world it fills with facts, and its stacks. One
 * evaluator serves agent programs (facts: events, calls, obligations, throws) and contract bodies
 * (specifications, lambdas); every concern's functions take it as `ex`.
 */
export interface Exec {
  readonly ts: TypeScript;
  readonly program: TS.Program;
  readonly checker: TS.TypeChecker;
  readonly layer: LayerModel;
  readonly world: World;
  readonly isTrusted: (file: TS.SourceFile) => boolean;
  /**
   * Bounded mode: every array (input or tool result) has at most this many elements and loops
   * over them are unrolled. Only used to search for genuine counterexamples where the general
   * encoding cannot decide; never to prove.
   */
  readonly arrayBound: number | undefined;
  readonly frames: Frame[];
  /** The quantified loop indices in scope, outermost first. */
  readonly loops: string[];
  /** Helpers being inlined (recursion is refused). */
  readonly inlining: FunctionLike[];
  /** Contracts being applied (a contract may not call itself). */
  readonly contractStack: ContractModel[];
  readonly moduleConsts: Map<TS.Node, Sym>;
  /** Element functions by array, element path and loop indices (see `elementValue`). */
  readonly elementFns: Map<string, string>;
  /** Module top level, contract bodies and predicates: no tool or helper calls. */
  pureOnly: boolean;
  /** Statements and expressions of `main` executed so far (see EXEC_STEP_LIMIT); undefined outside `runMain`. */
  steps: number | undefined;
  /** The host's cap on those steps (turns.ts `SolverShare.hostSteps`), while `runMain` runs. */
  hostSteps: number | undefined;
  /** The program's own file: only helpers declared here are inlined. */
  mainFile: TS.SourceFile | undefined;
  /** Arrays created so far (each has its own element functions). */
  arrays: number;
  /** Callbacks of `Promise.all` that do more than make one call, being run: their calls may interleave (all-map.ts `awaitAllMap`). */
  unordered: number;
  /** Trimmed strings by method, string term and loop indices, with the assumption that defines them (strings.ts). */
  readonly trims: Map<string, { readonly r: string; readonly defined: World["assumptions"][number] }>;
}

export function createExec(
  ts: TypeScript,
  program: TS.Program,
  checker: TS.TypeChecker,
  layer: LayerModel,
  world: World,
  isTrusted: (file: TS.SourceFile) => boolean,
  arrayBound: number | undefined,
): Exec {
  return {
    ts, program, checker, layer, world, isTrusted, arrayBound,
    frames: [{ fn: undefined, loopBody: undefined }],
    loops: [],
    inlining: [],
    contractStack: [],
    moduleConsts: new Map(),
    elementFns: new Map(),
    unordered: 0,
    pureOnly: false,
    steps: undefined,
    hostSteps: undefined,
    mainFile: undefined,
    arrays: 0,
    trims: new Map(),
  };
}

/** Everything outside the subset ends here: a `Refusal` on the exact node, with what to write instead. */
export function refuse(node: TS.Node, reason: string, instead: string): never {
  throw new Refusal(node, reason, instead);
}

/** The innermost function being executed. */
export function currentFrame(ex: Exec): Frame {
  return ex.frames[ex.frames.length - 1]!;
}

/** One statement or expression of `main` executed, counted against EXEC_STEP_LIMIT. */
export function tick(ex: Exec, node: TS.Node): void {
  if (ex.steps === undefined) return;
  if (++ex.steps > EXEC_STEP_LIMIT) {
    refuse(node, `Proving the program takes more than ${EXEC_STEP_LIMIT} steps of symbolic execution (unrolled loops count every iteration).`, "Use smaller literal loop bounds and fewer nested loops, or loop over the array itself (`for (const x of xs)`), which is not unrolled.");
  }
  // Not a verdict: the host (an editor) does not run this much at once, `clauz3 check` does.
  if (ex.hostSteps !== undefined && ex.steps > ex.hostSteps) throw new ProofAbandoned("steps");
}

/** A value whose term has grown past TERM_CHAR_LIMIT (a value built from itself in a loop) is refused here, before it doubles again. */
export function sized(v: Sym, at: TS.Node): Sym {
  const t = v.k === "str" || v.k === "num" || v.k === "bool" ? v.t : "";
  if (t.length > TERM_CHAR_LIMIT || (v.k === "num" && (v.int?.length ?? 0) > TERM_CHAR_LIMIT)) refuse(at, `This value's formula has grown past ${TERM_CHAR_LIMIT} characters (a value built from itself, repeatedly).`, "Build the value once instead of doubling it in a loop, or loop fewer times.");
  return v;
}

export function isAsync(ex: Exec, fn: FunctionLike): boolean {
  return (ex.ts.getModifiers(fn as TS.HasModifiers) ?? []).some((m) => m.kind === ex.ts.SyntaxKind.AsyncKeyword);
}

/**
 * The variable an identifier names: for the name of a shorthand property (`{ ids }`) the variable
 * it reads, where `getSymbolAtLocation` gives the property (an array stored in an object that way
 * was not seen as stored: a wrong proof, session 43).
 */
export function symbolAt(ex: Exec, id: TS.Node): TS.Symbol | undefined {
  const p = id.parent;
  return p && ex.ts.isShorthandPropertyAssignment(p) && p.name === id ? ex.checker.getShorthandAssignmentValueSymbol(p) : ex.checker.getSymbolAtLocation(id);
}

export function symbolOfDecl(ex: Exec, decl: TS.ParameterDeclaration | TS.VariableDeclaration | TS.BindingElement): TS.Symbol {
  const s = ex.checker.getSymbolAtLocation(decl.name);
  if (!s) refuse(decl, "clauz3 could not resolve this declaration.", "Use a plain identifier.");
  return s;
}

export function valueType(ex: Exec, decl: TS.ParameterDeclaration): ValueType {
  return valueTypeOf({ ts: ex.ts, checker: ex.checker }, ex.checker.getTypeAtLocation(decl));
}

function isDefaultLib(ex: Exec, decl: TS.Node): boolean {
  return ex.program.isSourceFileDefaultLibrary(decl.getSourceFile());
}

export function isDefaultLibSymbol(ex: Exec, sym: TS.Symbol): boolean {
  const decls = sym.declarations ?? [];
  return decls.length > 0 && decls.every((d) => isDefaultLib(ex, d) || /[\\/]node_modules[\\/]@types[\\/]node[\\/]/.test(d.getSourceFile().fileName));
}

/** Whether `n` is the one argument of the built-in `Array.from(n)`, which copies its elements into a new array and keeps no reference. */
export function copiedByArrayFrom(ex: Exec, n: TS.Node): boolean {
  const ts = ex.ts;
  const p = n.parent;
  if (!ts.isCallExpression(p) || p.arguments.length !== 1 || p.arguments[0] !== n || !ts.isPropertyAccessExpression(p.expression)) return false;
  const { expression: array, name } = p.expression;
  if (name.text !== "from" || !ts.isIdentifier(array) || array.text !== "Array") return false;
  const ctor = ex.checker.getSymbolAtLocation(array);
  return ctor !== undefined && isDefaultLibSymbol(ex, ctor);
}

export function isAgentDecl(ex: Exec, decl: TS.Node): boolean {
  const sf = decl.getSourceFile();
  return isProjectSource(sf.fileName, sf.isDeclarationFile) && !ex.isTrusted(sf);
}

export function inside(node: TS.Node, container: TS.Node): boolean {
  for (let n: TS.Node | undefined = node; n; n = n.parent) if (n === container) return true;
  return false;
}

/** The expression under parentheses, `as`, `satisfies`, `!` and type assertions. */
/** What a node writes: the left side of an assignment (`=`, `+=`, …) or the operand of `++`/`--`; undefined for anything else. */
export function writtenBy(ts: TypeScript, n: TS.Node): TS.Expression | undefined {
  if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment) return n.left;
  if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)) return n.operand;
  return undefined;
}

export function skip(ex: Exec, e: TS.Expression): TS.Expression {
  const ts = ex.ts;
  let x = e;
  while (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isSatisfiesExpression(x) || ts.isNonNullExpression(x) || ts.isTypeAssertionExpression(x)) x = x.expression;
  return x;
}

/** Run `work` as pure code in a frame of its own (a `requires` or `ensures` body): no tool or helper calls. */
export function withPure<T>(ex: Exec, work: () => T): T {
  const saved = ex.pureOnly;
  ex.pureOnly = true;
  ex.frames.push({ fn: undefined, loopBody: undefined });
  try {
    return work();
  } finally {
    ex.frames.pop();
    ex.pureOnly = saved;
  }
}
