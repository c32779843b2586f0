/**
 * Coverage in the prover (docs/coverage.md): which libraries a program uses is what the prover
 * finds reachable — a call of a `whenUsed` tool whose path condition is satisfiable — never what
 * the program imports or mentions. A query the solver cannot decide counts the call as reachable
 * (fail closed: more is asked of the program, never less). The required contracts the program does
 * not state are returned as guarantees to prove, like the program's own.
 */
import type * as TS from "typescript";
import { resolveCoverage } from "../coverage/declaration";
import { libraryCoverage } from "../coverage/status";
import { sortCoverage, type CoverageUse, type LibraryCoverage } from "../coverage/types";
import { readLiteral, type BoundArgument, type GuaranteeList, type GuaranteeModel } from "../guarantees";
import { librariesOf } from "../manifest";
import type { LayerModel } from "../model";
import { Refusal } from "../refusal";
import { spanOf } from "../span";
import type { ViolationQuery } from "./encode";
import type { Fact, World } from "./facts";
import { runViolation, undecidedOnSolverError } from "./counterexample";
import type { ProgramBudget } from "./limits";
import type { Z3Session } from "./z3";

/** A required contract a used library asks for and the program does not state: proved at the first call that uses the library. */
export interface RequiredGuarantee {
  readonly guarantee: GuaranteeModel;
  readonly library: string;
}

export interface ProgramCoverage {
  /** Used libraries that declare a policy, worst status first. */
  readonly coverage: LibraryCoverage[];
  readonly required: RequiredGuarantee[];
  /** Required contracts whose defaults are not literals: refused, never proved. */
  readonly refusals: { readonly refusal: Refusal; readonly contract: string; readonly library: string }[];
}

/** Is any execution of one call site reachable? (unknown → reachable) */
async function reachable(session: Z3Session, world: World, budget: ProgramBudget, copies: readonly Fact[]): Promise<boolean> {
  const q: ViolationQuery = { declarations: [], assumptions: [], candidates: copies.map((f) => ({ indicator: f.guard, fact: undefined })) };
  const outcome = await undecidedOnSolverError(runViolation(session, world, q, budget, { describe: () => ({}), cutoffOf: (index) => copies[index] }));
  return outcome.status !== "unsat";
}

export async function programCoverage(
  ts: typeof TS,
  checker: TS.TypeChecker,
  layer: LayerModel,
  world: World,
  list: GuaranteeList,
  session: Z3Session,
  budget: ProgramBudget,
): Promise<ProgramCoverage> {
  const libraries = librariesOf(layer);
  const policies = resolveCoverage(layer, libraries);
  const coverage: LibraryCoverage[] = [];
  const required: RequiredGuarantee[] = [];
  const refusals: ProgramCoverage["refusals"][number][] = [];
  if (policies.length === 0) return { coverage, required, refusals };
  const silenced = list.silenced.map((s) => s.fileName);
  for (const policy of policies) {
    // One query per call site (an unrolled loop repeats a call), in program order.
    const bySite = new Map<TS.CallExpression, Fact[]>();
    for (const f of world.facts) if (f.kind === "call" && policy.whenUsed.has(f.tool)) bySite.set(f.site, [...(bySite.get(f.site) ?? []), f]);
    const uses: CoverageUse[] = [];
    let firstSite: TS.CallExpression | undefined;
    for (const [site, copies] of [...bySite].sort(([, a], [, b]) => a[0]!.order - b[0]!.order)) {
      if (!(await reachable(session, world, budget, copies))) continue;
      firstSite ??= site;
      uses.push({ tool: copies[0]!.tool.qualifiedName, location: spanOf(site) });
    }
    if (!firstSite) continue;
    const entry = libraryCoverage(policy, uses, list.guarantees, silenced, libraries);
    coverage.push(entry);
    for (const c of policy.required) {
      if (list.guarantees.some((g) => g.contract.id === c.id)) continue;
      try {
        const args: BoundArgument[] = c.parameters.map((p) => ({ parameter: p, value: readLiteral(ts, checker, p.node.initializer!), defaulted: true }));
        required.push({ guarantee: { contract: c, args, node: firstSite, span: spanOf(firstSite) }, library: entry.library });
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        refusals.push({ refusal: error, contract: c.qualifiedName, library: entry.library });
      }
    }
  }
  return { coverage: sortCoverage(coverage), required, refusals };
}
