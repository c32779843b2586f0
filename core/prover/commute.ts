/**
 * Which calls of a program commute (docs/footprints.md): for every pair of tool call sites the
 * symbolic execution reaches — a site paired with itself when it may run twice (a loop, a helper
 * called twice) — one solver query asks whether, on some run where both calls happen, their
 * footprints conflict. Unsatisfiable: the calls commute for every input. Satisfiable: they may
 * conflict, and the model gives the argument values. Computed only when asked (`clauz3 describe`,
 * {@link callPairs}), never by `check` or `prove`.
 */
import type * as TS from "typescript";
import { manifestEventAccess, toolFootprint, type EventAccessOf } from "../footprint/derive";
import { conflictTerm, CWD, CWD_ASSUMPTIONS, CWD_DECLARATIONS, symbolicFootprint, type SymFootprint } from "../footprint/symbolic";
import { readGuarantees } from "../guarantees";
import { readLayer, type LayerResult } from "../layer/read";
import type { Span, ToolModel } from "../model";
import { Refusal } from "../refusal";
import { spanOf } from "../span";
import type { ProveInput, ShownValue } from "./api";
import { runViolation } from "./counterexample";
import { candidateReading, renameSym } from "./read-counterexample";
import type { Candidate, ViolationQuery } from "./encode";
import { Executor } from "./exec";
import { World, type Fact } from "./facts";
import { ProgramBudget } from "./limits";
import { checkProgramShape } from "./program-shape";
import { and, or, renameSymbols } from "./smt";
import { SolverError, Z3Session } from "./z3";

/** One tool call site of the program. */
export interface CallSite {
  /** The tool's name as the program calls it. */
  readonly tool: string;
  /** The call as written, arguments shortened: `readFile(a)`. */
  readonly text: string;
  readonly location: Span;
}

/** Argument values that make two calls conflict. */
export interface ConflictWitness {
  /** `main`'s inputs. */
  readonly inputs: Readonly<Record<string, ShownValue>>;
  /** The first call's arguments by parameter name. */
  readonly first: Readonly<Record<string, ShownValue>>;
  /** The second call's arguments (another iteration, for a site paired with itself). */
  readonly second: Readonly<Record<string, ShownValue>>;
}

/** Whether two call sites commute. */
export interface CallPair {
  /** Indices into `calls`; equal for a site paired with itself (two of its executions). */
  readonly first: number;
  readonly second: number;
  /**
   * `commute`: disjoint footprints on every run where both happen. `may conflict`: some run makes
   * them touch one resource (one writing it), or a footprint cannot be decided exactly.
   * `undecided`: the solver gave no answer (not proved to commute).
   */
  readonly verdict: "commute" | "may conflict" | "undecided";
  readonly witness?: ConflictWitness;
  /** Why: an opaque tool, or the solver's reason for `undecided`. */
  readonly reason?: string;
}

/** The call sites of one program and every pair's verdict; `refusal` when `main` is outside the subset. */
export interface ProgramCalls {
  readonly file: string;
  readonly calls: readonly CallSite[];
  readonly pairs: readonly CallPair[];
  readonly refusal?: { readonly message: string; readonly location: Span };
}

/** The longest argument text shown in a call's `text`. */
const ARGUMENT_TEXT = 24;

function callText(call: TS.CallExpression): string {
  const args = call.arguments.map((a) => {
    const t = a.getText().replace(/\s+/g, " ");
    return t.length > ARGUMENT_TEXT ? `${t.slice(0, ARGUMENT_TEXT - 1)}…` : t;
  });
  return `${call.expression.getText()}(${args.join(", ")})`;
}

/** Why a pair whose paths cannot be compared exactly may conflict. */
const INEXACT = "a path's canonical form cannot be compared exactly: a `.` or `..` segment, `//`, a trailing `/`, a `\\`, the empty path, or a path leaving the working directory";

/** One pair's query: unsatisfiable is `commute`; a model is a witness. */
async function ask(session: Z3Session, world: World, q: ViolationQuery, budget: ProgramBudget, first: number, second: number): Promise<CallPair> {
  try {
    const o = await runViolation(session, world, q, budget, candidateReading(q));
    if (o.status === "unsat") return { first, second, verdict: "commute" };
    if (o.status === "unknown") return { first, second, verdict: "undecided", reason: o.reason };
    // runViolation shows the later execution as the event and the earlier one beside it.
    return { first, second, verdict: "may conflict", witness: { inputs: o.cex.inputs, first: o.cex.otherEvent?.fields ?? {}, second: o.cex.event?.fields ?? {} } };
  } catch (error) {
    if (!(error instanceof SolverError)) throw error;
    return { first, second, verdict: "undecided", reason: `the solver failed: ${error.message}` };
  }
}

/**
 * Decide, for every pair of call sites `main` reaches, whether they commute. `accessOf` reads each
 * library's manifest (`eventAccess`, default: from disk, as the build does).
 */
export async function callPairs(input: ProveInput, layerResult?: LayerResult, accessOf: EventAccessOf = manifestEventAccess()): Promise<ProgramCalls> {
  const { ts, program, file } = input;
  const options = input.options ?? {};
  const checker = program.getTypeChecker();
  const layer = layerResult ?? readLayer(ts, program, options);
  const list = readGuarantees(ts, checker, layer.model, file, { exact: true });
  const shape = checkProgramShape(ts, program, file, layer, list.declaration, input.host ?? ts.sys);
  const world = new World();
  const exec = new Executor(ts, program, checker, layer.model, world, layer.isTrusted);
  try {
    if (shape.refusal) throw shape.refusal;
    exec.runMain(shape.main!);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { file: file.fileName, calls: [], pairs: [], refusal: { message: `${error.reason} ${error.instead}`.trim(), location: spanOf(error.node) } };
  }

  // Each site's executions (an unrolled loop or a helper called twice repeats a site), in source order.
  const bySite = new Map<TS.CallExpression, Fact[]>();
  for (const f of world.facts) if (f.kind === "call") bySite.set(f.site, [...(bySite.get(f.site) ?? []), f]);
  const sites = [...bySite.keys()].sort((a, b) => a.getStart() - b.getStart());
  const calls: CallSite[] = sites.map((s) => ({ tool: bySite.get(s)![0]!.tool.name, text: callText(s), location: spanOf(s) }));

  const specs = new Map<ToolModel, ReturnType<typeof toolFootprint>>();
  const footprintOf = (f: Fact, renames: ReadonlyMap<string, string>): SymFootprint => {
    let spec = specs.get(f.tool);
    if (!spec) specs.set(f.tool, (spec = toolFootprint(layer.model, f.tool, accessOf)));
    return symbolicFootprint(spec, renames.size === 0 ? f.fields : new Map([...f.fields].map(([k, v]) => [k, renameSym(v, renames)])));
  };

  const session = await Z3Session.get();
  let counter = 0;
  const pairs: CallPair[] = [];
  for (let i = 0; i < sites.length; i++) {
    for (let j = i; j < sites.length; j++) {
      const left = bySite.get(sites[i]!)!, right = bySite.get(sites[j]!)!;
      // Each pair has the program's budget: a hard pair leaves the others decided.
      const budget = new ProgramBudget(options);
      // Exact conflicts first (the witness touches one resource), then the paths that fail closed.
      let verdict: CallPair | undefined;
      // A working directory other than `/` first: its witnesses read as written (at `/`, `x` is `/x`).
      const attempts = [
        { mode: "exact", cwd: [`(not (= ${CWD} "/"))`] },
        { mode: "exact", cwd: [`(= ${CWD} "/")`] },
        { mode: "inexact", cwd: [] },
      ] as const;
      for (const { mode, cwd } of attempts) {
        const declarations = [...CWD_DECLARATIONS];
        const assumptions = [...CWD_ASSUMPTIONS, ...cwd];
        const fresh = (sort: string): string => {
          const name = `fp!${counter++}`;
          declarations.push(`(declare-const ${name} ${sort})`);
          return name;
        };
        const candidates: Candidate[] = [];
        let opaque = false;
        for (let a = 0; a < left.length; a++) {
          for (let b = i === j ? a : 0; b < right.length; b++) {
            const f = left[a]!, g = right[b]!;
            const same = f === g;
            if (same && f.loops.length === 0) continue; // one execution is one call
            // Two executions in one loop: the second is another iteration (its indices copied).
            const renames = new Map<string, string>();
            if (same || g.loops.some((l) => f.loops.includes(l))) {
              for (const q of g.loops) {
                const copy = `${q}.c${counter++}`;
                renames.set(q, copy);
                declarations.push(`(declare-const ${copy} Int)`);
              }
              for (const x of world.assumptions) if (x.loops.some((l) => renames.has(l))) assumptions.push(renameSymbols(x.term, renames));
            }
            const ff = footprintOf(f, new Map()), fg = footprintOf(g, renames);
            opaque ||= ff === "opaque" || fg === "opaque";
            const other = same ? or(...f.loops.map((q) => `(not (= ${q} ${renames.get(q)}))`)) : "true";
            const guard = renames.size > 0 ? renameSymbols(g.guard, renames) : g.guard;
            candidates.push({ indicator: and(f.guard, guard, other, conflictTerm(ff, fg, fresh, mode)), fact: f, other: g, otherRenames: renames });
          }
        }
        if (candidates.length === 0) break;
        const answer = await ask(session, world, { declarations, assumptions, candidates }, budget, i, j);
        const reason = answer.verdict !== "may conflict" ? undefined : opaque ? "a tool's footprint is opaque (it conflicts with every call)" : mode === "inexact" ? INEXACT : undefined;
        verdict = reason ? { ...answer, reason } : answer;
        if (answer.verdict !== "commute") break;
      }
      if (verdict) pairs.push(verdict);
    }
  }
  return { file: file.fileName, calls, pairs };
}
