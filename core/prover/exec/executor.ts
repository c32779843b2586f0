import type * as TS from "typescript";
import type { TypeScript } from "../../context";
import type { ContractModel, LayerModel } from "../../model";
import type { World } from "../facts";
import type { FunctionLike, Lambda, SpecIR, Sym } from "../values";
import { createExec, refuse, symbolOfDecl, valueType, type Exec } from "./context";
import { applyLambda, buildSpec } from "./contracts";
import { evalExpr } from "./expressions";
import { freshInput } from "./fresh";
import type { State } from "./state";
import { execBody } from "./statements";

/**
 * Symbolic execution of the modelled TypeScript subset. One evaluator serves agent programs
 * (facts: events, calls, obligations, throws) and contract bodies (specifications, lambdas).
 * Everything outside the subset throws a `Refusal` on the exact node.
 *
 * Each construct is executed in the file that names it (all in this folder, each function taking
 * the shared context `Exec` as `ex`): state.ts (paths, joins), fresh.ts (inputs, tool results,
 * array elements), guards.ts (definedness, truthiness), statements.ts, assignments.ts, loops.ts
 * (`for…of`, `for`), switch.ts, expressions.ts, names.ts (identifiers), operators.ts, calls.ts
 * (resolution, helpers), await.ts (`await`, async helpers and tools, promise refusals),
 * builtins.ts (Math, string and array methods), tools.ts, contracts.ts,
 * runtime.ts; caps.ts holds the documented caps.
 */
export class Executor {
  private readonly ex: Exec;

  constructor(
    ts: TypeScript,
    program: TS.Program,
    checker: TS.TypeChecker,
    layer: LayerModel,
    world: World,
    isTrusted: (file: TS.SourceFile) => boolean,
    /**
     * Bounded mode: every array (input or tool result) has at most this many elements and loops
     * over them are unrolled. Only used to search for genuine counterexamples where the general
     * encoding cannot decide; never to prove.
     */
    arrayBound?: number,
  ) {
    this.ex = createExec(ts, program, checker, layer, world, isTrusted, arrayBound);
  }

  /** The layer this executor resolves tools, events and contracts in. */
  get layerModel(): LayerModel {
    return this.ex.layer;
  }

  /**
   * Execute `main` with universally quantified inputs. `hostSteps`: the host's cap on its steps
   * (turns.ts `SolverShare.hostSteps`); past it, `ProofAbandoned("steps")`.
   */
  runMain(main: FunctionLike, hostSteps?: number): void {
    runMain(this.ex, main, hostSteps);
  }

  /** Evaluate a contract applied to concrete arguments into a specification. */
  buildSpec(contract: ContractModel, args: readonly Sym[], at: TS.Node): SpecIR {
    return buildSpec(this.ex, contract, args, at);
  }

  /** Apply a contract lambda (predicate, selector, key) to an event or call record. */
  applyLambda(lambda: Lambda, item: Sym): Sym {
    return applyLambda(this.ex, lambda, item);
  }

  /** A `Refusal` on the exact node (see context.ts). */
  refuse(node: TS.Node, reason: string, instead: string): never {
    refuse(node, reason, instead);
  }

  /** The value of an expression along the path `st` (see expressions.ts). */
  evalExpr(e: TS.Expression, st: State): Sym {
    return evalExpr(this.ex, e, st);
  }
}

/** Execute `main` with universally quantified inputs. */
function runMain(ex: Exec, main: FunctionLike, hostSteps: number | undefined): void {
  const ts = ex.ts;
  ex.mainFile = main.getSourceFile();
  if (main.asteriskToken) refuse(main, "`main` is a generator.", "Write `export async function main(...): Promise<void>` or `export function main(...): void`.");
  const st: State = { pc: "true", env: new Map() };
  for (const p of main.parameters) {
    if (!ts.isIdentifier(p.name) || p.dotDotDotToken || p.initializer || p.questionToken) {
      refuse(p, "`main`'s parameters must be plain required parameters.", "Declare each input as `name: string`, `number`, `boolean` or an array of those.");
    }
    const type = valueType(ex, p);
    const sym = freshInput(ex, p.name.text, type, p);
    ex.world.inputs.push({ name: p.name.text, sym, type });
    st.env.set(symbolOfDecl(ex, p), sym);
  }
  ex.frames.push({ fn: main, loopBody: undefined });
  ex.steps = 0;
  ex.hostSteps = hostSteps;
  try {
    execBody(ex, main, st);
  } finally {
    ex.steps = undefined;
    ex.hostSteps = undefined;
    ex.frames.pop();
  }
}
