import * as util from "node:util";
import * as vm from "node:vm";
import ts from "typescript";
import * as events from "../runtime/events";
import * as runtime from "../runtime/index";
import { DECLARATION } from "../runtime/brand";
import type { Occurrence } from "../runtime/occurrence";
import { parameterNames } from "../runtime/params";
import * as spec from "../runtime/spec";
import type { Guarantee } from "../runtime/spec-data";
import { LAYER_IMPORT } from "./project";

/**
 * Runs generated programs for real: the layer and the program are transpiled to CommonJS and run
 * in this process against the real runtime (`record()` collects the trace, `check()` judges it).
 * Two small rewrites make the runs observable: every tool implementation returns what the oracle
 * chooses, and every tool call and `throw` reports its position, so that a trace, an error and a
 * counterexample's `tool@line:column` refer to the same call sites.
 *
 * Async programs run synchronously: `async` is dropped from the layer's implementations and the
 * program's functions, and `await e` becomes `e`. For a program in which every promise is awaited
 * where it is made (the only async programs the prover does not refuse), this is the same run:
 * one call at a time, in program order, each `await` giving the resolved value or throwing where
 * the promise rejects. Programs with a promise that is not awaited at once are refused by the
 * prover, so their runs vouch for nothing. (test/async/runtime.test.ts runs the real async runtime.)
 */

/** What the runtime knows of a tool of the layer, for choosing its results. */
export interface ToolRuntime {
  readonly name: string;
  /** `ensures` predicates over (result, the call's arguments). */
  readonly ensures: readonly ((result: unknown, args: readonly unknown[]) => boolean)[];
}

/** One run in progress: who chooses tool results, and what happened so far. */
interface RunState {
  readonly choose: (tool: ToolRuntime, label: string, args: readonly unknown[]) => unknown;
  readonly sites: string[];
  readonly siteOf: Map<Occurrence, string>;
  readonly results: [string, unknown][];
  readonly errorSites: WeakMap<object, string>;
  /** Calls whose `requires` failed, caught by the program or not (a `try` around the call may catch it). */
  readonly failedPreconditions: string[];
  thrown?: { readonly label: string; readonly value: unknown };
}

/** The outcome of one run of `main`. */
export interface Run {
  readonly trace: readonly Occurrence[];
  /** The call site (`tool@line:column`) of each occurrence. */
  readonly siteOf: ReadonlyMap<Occurrence, string>;
  /** Tool results supplied, in call order, by call site. */
  readonly results: readonly (readonly [string, unknown])[];
  /** Set when `main` threw. */
  readonly error?: { readonly value: unknown; readonly callSite?: string; readonly throwSite?: string };
  /** The call sites (`tool@line:column`) whose `requires` failed in the run, in order, caught or not. */
  readonly failedPreconditions: readonly string[];
}

/** A run that performs more events than this is stopped (a generated program never comes close). */
const MAX_TRACE = 100_000;

/** Thrown into a run by the oracle itself (not by the program): never a disagreement about the prover. */
export class OracleFailure extends Error {}

const tools = new Map<string, ToolRuntime>();
let current: RunState | undefined;

/** The hooks the rewritten code calls (passed to each module as `__fz`). */
const hooks = {
  /** `trusted(...)` of the layer: the real one, after noting the tool's `ensures`. */
  trusted(name: string, ...parts: unknown[]): unknown {
    const impl = parts[parts.length - 1] as (...args: unknown[]) => unknown;
    const params = parameterNames(impl);
    const ensures = parts
      .filter((p): p is { predicate: (...xs: unknown[]) => unknown } => typeof p === "object" && p !== null && (p as Record<symbol, unknown>)[DECLARATION] === "ensures")
      .map((e) => {
        const names = parameterNames(e.predicate as (...xs: unknown[]) => unknown).slice(1);
        return (result: unknown, args: readonly unknown[]) => e.predicate(result, ...names.map((n) => args[params.indexOf(n)])) === true;
      });
    tools.set(name, { name, ensures });
    return (runtime.trusted as (...xs: unknown[]) => unknown)(...parts);
  },
  /** A tool implementation: the result the run's chooser picks for this call site. */
  result(name: string, args: unknown[]): unknown {
    const run = current;
    const tool = tools.get(name);
    if (!run || !tool) throw new Error(`fuzz: ${name} was called outside a run`);
    const label = run.sites[run.sites.length - 1] ?? `${name}@?`;
    const value = run.choose(tool, label, args);
    run.results.push([label, value]);
    return value;
  },
  /** A tool call in the program, at `label` (`tool@line:column`). */
  call(label: string, fn: (...args: unknown[]) => unknown, ...args: unknown[]): unknown {
    const run = current;
    run?.sites.push(label);
    try {
      return fn(...args);
    } catch (error) {
      if (run && typeof error === "object" && error !== null && !run.errorSites.has(error)) {
        run.errorSites.set(error, label);
        if (error instanceof runtime.RequiresError) run.failedPreconditions.push(label);
      }
      throw error;
    } finally {
      run?.sites.pop();
    }
  },
  /**
   * `Promise.all([c1, c2, …])` in a run (runs are synchronous, see above): every call is made, in
   * array order, even after one fails (an async tool's failed check rejects its own promise); the
   * first failure in array order is what `await` throws.
   */
  all(thunks: readonly (() => unknown)[]): unknown[] {
    const results: unknown[] = [];
    let failure: { readonly error: unknown } | undefined;
    for (const thunk of thunks) {
      try {
        results.push(thunk());
      } catch (error) {
        failure ??= { error };
        results.push(undefined);
      }
    }
    if (failure) throw failure.error;
    return results;
  },
  /** `Promise.all(xs.map(f))` in a run: `all` over each element's call of `f`, in array order. */
  allMap(xs: readonly unknown[], f: (x: unknown, i: number) => unknown): unknown[] {
    return hooks.all(xs.map((x, i) => () => f(x, i)));
  },
  /** A `throw` statement at `label` (`line:column`). */
  thrown(label: string, value: unknown): unknown {
    if (current) current.thrown = { label, value };
    return value;
  },
};

function lineColumn(sf: ts.SourceFile, node: ts.Node): string {
  const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  return `${line + 1}:${character + 1}`;
}

const hook = (f: ts.NodeFactory, name: keyof typeof hooks) => f.createPropertyAccessExpression(f.createIdentifier("__fz"), name);

/** Layer rewrite: `export const t = trusted(..., function t(a) {…})` → `__fz.trusted("t", ..., function t(a) { return __fz.result("t", [a]); })`. */
function layerTransformer(context: ts.TransformationContext): ts.Transformer<ts.SourceFile> {
  const f = context.factory;
  const visit = (node: ts.Node): ts.Node => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isCallExpression(node.initializer) && ts.isIdentifier(node.initializer.expression) && node.initializer.expression.text === "trusted") {
      const name = node.name.text;
      const call = node.initializer;
      const args = [...call.arguments];
      const impl = args[args.length - 1];
      if (impl && (ts.isFunctionExpression(impl) || ts.isArrowFunction(impl))) {
        const params = impl.parameters.map((p) => f.createIdentifier((p.name as ts.Identifier).text));
        const body = f.createBlock([f.createReturnStatement(f.createCallExpression(hook(f, "result"), undefined, [f.createStringLiteral(name), f.createArrayLiteralExpression(params)]))]);
        args[args.length - 1] = ts.isFunctionExpression(impl)
          ? f.updateFunctionExpression(impl, syncModifiers(impl.modifiers), impl.asteriskToken, impl.name, impl.typeParameters, impl.parameters, impl.type, body)
          : f.updateArrowFunction(impl, syncModifiers(impl.modifiers), impl.typeParameters, impl.parameters, impl.type, impl.equalsGreaterThanToken, body);
      }
      return f.updateVariableDeclaration(node, node.name, node.exclamationToken, node.type, f.createCallExpression(hook(f, "trusted"), undefined, [f.createStringLiteral(name), ...args]));
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (sf) => ts.visitNode(sf, visit) as ts.SourceFile;
}

/** Program rewrite: `tool(a)` → `__fz.call("tool@L:C", tool, a)`, `throw e` → `throw __fz.thrown("L:C", e)`. */
function planTransformer(toolNames: ReadonlySet<string>) {
  return (context: ts.TransformationContext): ts.Transformer<ts.SourceFile> => {
    const f = context.factory;
    return (sf) => {
      const visit = (node: ts.Node): ts.Node => {
        if (ts.isCallExpression(node)) {
          const callee = node.expression;
          const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
          if (name !== undefined && toolNames.has(name)) {
            const label = `${name}@${lineColumn(sf, node)}`;
            const args = node.arguments.map((a) => ts.visitNode(a, visit) as ts.Expression);
            return f.createCallExpression(hook(f, "call"), undefined, [f.createStringLiteral(label), ts.visitNode(callee, visit) as ts.Expression, ...args]);
          }
        }
        if (
          ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression) &&
          node.expression.expression.text === "Promise" && node.expression.name.text === "all" && node.arguments.length === 1 && ts.isArrayLiteralExpression(node.arguments[0]!)
        ) {
          const thunks = node.arguments[0].elements.map((el) => f.createArrowFunction(undefined, undefined, [], undefined, undefined, ts.visitNode(el, visit) as ts.Expression));
          return f.createCallExpression(hook(f, "all"), undefined, [f.createArrayLiteralExpression(thunks)]);
        }
        if (
          ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression) &&
          node.expression.expression.text === "Promise" && node.expression.name.text === "all" && node.arguments.length === 1 &&
          ts.isCallExpression(node.arguments[0]!) && ts.isPropertyAccessExpression(node.arguments[0].expression) && node.arguments[0].expression.name.text === "map" && node.arguments[0].arguments.length === 1
        ) {
          // `Promise.all(xs.map(f))`: every element's call, even after one fails, as for a literal array.
          const map = node.arguments[0];
          const target = ts.visitNode((map.expression as ts.PropertyAccessExpression).expression, visit) as ts.Expression;
          return f.createCallExpression(hook(f, "allMap"), undefined, [target, ts.visitNode(map.arguments[0]!, visit) as ts.Expression]);
        }
        // Runs are synchronous (see above): `await e` is `e`, async functions are plain ones.
        if (ts.isAwaitExpression(node)) return f.createParenthesizedExpression(ts.visitNode(node.expression, visit) as ts.Expression);
        if (ts.isFunctionDeclaration(node)) {
          const fn = ts.visitEachChild(node, visit, context);
          return f.updateFunctionDeclaration(fn, syncModifiers(fn.modifiers), fn.asteriskToken, fn.name, fn.typeParameters, fn.parameters, fn.type, fn.body);
        }
        if (ts.isArrowFunction(node)) {
          const fn = ts.visitEachChild(node, visit, context);
          return f.updateArrowFunction(fn, syncModifiers(fn.modifiers), fn.typeParameters, fn.parameters, fn.type, fn.equalsGreaterThanToken, fn.body);
        }
        if (ts.isThrowStatement(node)) {
          return f.updateThrowStatement(node, f.createCallExpression(hook(f, "thrown"), undefined, [f.createStringLiteral(lineColumn(sf, node)), ts.visitNode(node.expression, visit) as ts.Expression]));
        }
        return ts.visitEachChild(node, visit, context);
      };
      return ts.visitNode(sf, visit) as ts.SourceFile;
    };
  };
}

/** A function's modifiers without `async`. */
function syncModifiers<M extends ts.ModifierLike>(modifiers: ts.NodeArray<M> | undefined): M[] | undefined {
  return modifiers?.filter((m) => m.kind !== ts.SyntaxKind.AsyncKeyword);
}

/** The programs' `console`: formats what it is given as Node's does (so the arguments are used), prints nothing. */
const quietConsole = Object.fromEntries(["log", "info", "warn", "error", "debug"].map((m) => [m, (...args: unknown[]): void => void util.format(...args)]));

const transpileOptions: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };

function load(text: string, fileName: string, before: ts.TransformerFactory<ts.SourceFile>, modules: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const js = ts.transpileModule(text, { compilerOptions: transpileOptions, fileName, transformers: { before: [before] } }).outputText;
  const fn = vm.compileFunction(js, ["exports", "require", "module", "__fz", "console"], { filename: fileName });
  const module = { exports: {} as Record<string, unknown> };
  const require = (id: string): unknown => {
    if (!(id in modules)) throw new Error(`fuzz: ${fileName} requires ${id}, which the harness does not provide`);
    return modules[id];
  };
  fn(module.exports, require, module, hooks, quietConsole);
  return module.exports;
}

const RUNTIME_MODULES = { clauz3: runtime, "clauz3/events": events, "clauz3/spec": spec };

/** The layer, loaded with its implementations replaced by the oracle's choices. */
export interface LoadedLayer {
  readonly exports: Readonly<Record<string, unknown>>;
  readonly toolNames: ReadonlySet<string>;
}

export function loadLayer(layerText: string): LoadedLayer {
  const exports = load(layerText, "layer.ts", layerTransformer, RUNTIME_MODULES);
  const toolNames = new Set(Object.keys(exports).filter((k) => runtime.toolInfo(exports[k]) !== undefined));
  return { exports, toolNames };
}

/** A loaded program: its `main` and its `guarantees`. */
export interface LoadedPlan {
  readonly main: (...args: unknown[]) => unknown;
  readonly guarantees: readonly Guarantee[];
}

export function loadPlan(text: string, layer: LoadedLayer): LoadedPlan {
  const exports = load(text, "plan.ts", planTransformer(layer.toolNames), { ...RUNTIME_MODULES, [LAYER_IMPORT]: layer.exports });
  if (typeof exports.main !== "function") throw new Error("fuzz: the program exports no main");
  return { main: exports.main as LoadedPlan["main"], guarantees: (exports.guarantees ?? []) as Guarantee[] };
}

/** Run `main(...args)` once under a recorder; `choose` picks every tool result. */
export function runMain(plan: LoadedPlan, args: readonly unknown[], choose: RunState["choose"]): Run {
  const state: RunState = { choose, sites: [], siteOf: new Map(), results: [], errorSites: new WeakMap(), failedPreconditions: [] };
  const recorder: runtime.Recorder = {
    trace: [],
    before(_tool, occurrences, trace) {
      if (trace.length > MAX_TRACE) throw new OracleFailure(`the run performed more than ${MAX_TRACE} events`);
      const site = state.sites[state.sites.length - 1] ?? "?";
      for (const o of occurrences) state.siteOf.set(o, site);
    },
  };
  const saved = current;
  current = state;
  try {
    runtime.record(() => plan.main(...args), recorder);
    return { trace: recorder.trace, siteOf: state.siteOf, results: state.results, failedPreconditions: state.failedPreconditions };
  } catch (value) {
    const callSite = typeof value === "object" && value !== null ? state.errorSites.get(value) : undefined;
    const throwSite = state.thrown && state.thrown.value === value ? state.thrown.label : undefined;
    return { trace: recorder.trace, siteOf: state.siteOf, results: state.results, failedPreconditions: state.failedPreconditions, error: { value, callSite, throwSite } };
  } finally {
    current = saved;
  }
}
