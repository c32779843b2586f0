/**
 * The preconditions a program's calls must meet and the throws it may reach, checked over one
 * symbolic execution (the general world or a run with short arrays), and the sentences that report
 * a violation with its counterexample.
 */
import type * as TS from "typescript";
import type { Span } from "../model";
import { PROOF_CODES } from "../rules";
import { spanOf } from "../span";
import type { Counterexample, ProofResult, ShownValue } from "./api";
import type { ViolationQuery } from "./encode";
import { runViolation, undecidedOnSolverError, type Found, type Outcome } from "./counterexample";
import type { Reading } from "./read-counterexample";
import type { Obligation, World } from "./facts";
import { showText } from "./model-reader";
import type { Z3Session } from "./z3";
import type { AtOnce } from "./at-once";
import type { ProgramBudget } from "./limits";

export function where(span: Span, base: string): string {
  const rel = span.fileName.startsWith(base) ? span.fileName.slice(base.length).replace(/^[\\/]/, "") : span.fileName;
  return `${rel}:${span.line}:${span.column}`;
}

export function violationMessage(contract: string, sentence: string | undefined, cex: Counterexample, base: string): string {
  const parts = [`${contract} is violated${sentence ? ` (${sentence})` : ""}.`, `Counterexample: main(${named(cex.inputs)})`];
  if (cex.callSite && cex.event) parts.push(`reaches the call at ${where(cex.callSite, base)}, performing ${cex.event.name}(${named(cex.event.fields)})`);
  if (cex.otherEvent) parts.push(`and ${cex.otherEvent.callSite ? `at ${where(cex.otherEvent.callSite, base)} ` : ""}${cex.otherEvent.name}(${named(cex.otherEvent.fields)})`);
  return `${parts.join(" ")}${withResults(cex)}.`;
}

/** `name=value, …` of shown values. */
function named(values: Readonly<Record<string, ShownValue>>): string {
  return Object.entries(values).map(([k, v]) => `${k}=${showText(v)}`).join(", ");
}

/** ` with tool results a → 1, …` when the run saw any before it stopped, and the calls that threw in it. */
function withResults(cex: Counterexample): string {
  const tools = Object.entries(cex.toolResults);
  const results = tools.length > 0 ? ` with tool results ${tools.map(([k, v]) => `${k} → ${showText(v)}`).join(", ")}` : "";
  const failed = cex.failedCalls ?? [];
  return failed.length > 0 ? `${results}${results ? " and" : " with"} ${failed.join(", ")} throwing (a tool may always fail; the \`try\` catches it)` : results;
}

/**
 * Preconditions: one query for all call sites, then narrowing to report each failing call with its
 * own counterexample. When the query for all cannot be decided, each site is asked on its own, so
 * one hard call leaves the others decided (and reported) rather than unreported.
 */
export async function checkObligations(session: Z3Session, world: World, budget: ProgramBudget, base: string, provedAlready: boolean, first?: Found): Promise<ProofResult[]> {
  const results: ProofResult[] = [];
  let pending = obligationsBySite(world);
  // The counterexample read for all call sites together (at-once.ts) answers the first batch, which is the same query.
  let firstAnswer = first;
  let together = true;
  const proved = (group: readonly Obligation[]) => {
    const o = group[0]!;
    results.push({ kind: "precondition", tool: o.tool.qualifiedName, requires: o.message, verdict: "proved", code: PROOF_CODES.proved, location: spanOf(o.site), message: `proved: the precondition "${o.message}" of ${o.tool.qualifiedName} holds at this call.` });
  };
  if (provedAlready) {
    pending.forEach(proved);
    return results;
  }
  while (pending.length > 0) {
    const batch = together ? pending : pending.slice(0, 1);
    // One candidate per execution of a call (an unrolled loop repeats it), so the counterexample knows which one fails.
    const copies = batch.flat();
    const q = obligationsQuery(copies);
    const outcome = await undecidedOnSolverError(runViolation(session, world, q, budget, obligationsReading(copies), firstAnswer));
    firstAnswer = undefined;
    if (outcome.status === "unsat") {
      batch.forEach(proved);
      pending = pending.slice(batch.length);
      continue;
    }
    if (outcome.status === "unknown") {
      if (together && pending.length > 1) {
        together = false;
        continue;
      }
      const o = batch[0]![0]!;
      results.push({ kind: "precondition", tool: o.tool.qualifiedName, requires: o.message, verdict: "refused", code: PROOF_CODES.unknown, location: spanOf(o.site), message: `refused: the solver could not decide the precondition "${o.message}" of ${o.tool.qualifiedName} at this call (${outcome.reason}); it is not proved.` });
      pending = pending.slice(1);
      continue;
    }
    const o = copies[outcome.index]!;
    const location = spanOf(o.site);
    const cex: Counterexample = { ...outcome.cex, callSite: location, event: undefined };
    results.push({
      kind: "precondition",
      tool: o.tool.qualifiedName,
      requires: o.message,
      verdict: "violated",
      code: PROOF_CODES.precondition,
      location,
      counterexample: cex,
      message: `${o.tool.qualifiedName} may be called with arguments that fail its precondition "${o.message}". Counterexample: main(${named(cex.inputs)})${withResults(cex)} calls ${o.tool.name}(${named(cex.arguments ?? {})}) at ${where(location, base)}.`,
    });
    // One report per call site: the other executions of this call are the same finding.
    pending = pending.filter((group) => group[0]!.site !== o.site);
  }
  return results;
}

/** A program's precondition obligations grouped by call site, in order of each site's first execution. */
export function obligationsBySite(world: World): Obligation[][] {
  const bySite = new Map<TS.Node, Obligation[]>();
  for (const o of world.obligations) bySite.set(o.site, [...(bySite.get(o.site) ?? []), o]);
  return [...bySite.values()];
}

/** A precondition's counterexample stops at the execution of the call that fails it, and shows its arguments. */
export function obligationsReading(copies: readonly Obligation[]): Reading {
  return {
    describe: () => ({}),
    cutoffOf: (index) => {
      const o = copies[index]!;
      return { loops: o.loops, order: o.order, args: o.args };
    },
  };
}

/** A throw's counterexample stops at the copy of the throw that is reached. */
export function throwReading(group: ThrowSite["group"]): Reading {
  return { describe: () => ({}), cutoffOf: (index) => group[index] };
}

/** The query whether any of these executions of calls fails its tool's precondition: one candidate each. */
export function obligationsQuery(copies: readonly Obligation[]): ViolationQuery {
  return { declarations: [], assumptions: [], candidates: copies.map((o) => ({ indicator: `(and ${o.guard} (not ${o.holds}))`, fact: undefined })) };
}

/**
 * The `throw` sites of a world, each with the query whether it is reached: one query per site (an
 * unrolled loop repeats a throw once per iteration, and the site is reachable when any of them is),
 * one candidate per copy, so the counterexample knows which.
 */
export function throwSites(world: World): ThrowSite[] {
  const bySite = new Map<TS.Node, World["throws"][number][]>();
  for (const t of world.throws) bySite.set(t.site, [...(bySite.get(t.site) ?? []), t]);
  return [...bySite.values()].map((group) => ({ group, query: { declarations: [], assumptions: [], candidates: group.map((x) => ({ indicator: x.guard, fact: undefined })) } }));
}

export interface ThrowSite {
  readonly group: World["throws"][number][];
  readonly query: ViolationQuery;
}

/** Whether each `throw` site is reachable; `atOnce`: what asking the sites' queries together with others settled (at-once.ts). */
export async function checkThrows(session: Z3Session, world: World, budget: ProgramBudget, base: string, sites = throwSites(world), atOnce?: AtOnce): Promise<ProofResult[]> {
  const results: ProofResult[] = [];
  for (const { group, query: q } of sites) {
    const t = group[0]!;
    const location = spanOf(t.site);
    const outcome: Outcome = atOnce?.proved.has(q) ? { status: "unsat" } : await undecidedOnSolverError(runViolation(session, world, q, budget, throwReading(group), atOnce?.found.get(q)));
    if (outcome.status === "unsat") results.push({ kind: "throw", verdict: "proved", code: PROOF_CODES.proved, location, message: t.message ? `proved: ${t.message.replace("may be", "is never")}.` : "proved: this throw is unreachable." });
    else if (outcome.status === "unknown") results.push({ kind: "throw", verdict: "refused", code: PROOF_CODES.unknown, location, message: `refused: the solver could not decide whether this throw is reachable (${outcome.reason}).` });
    else {
      const what = t.message ? `${t.message}: the run would go on with undefined` : "A throw is reachable";
      results.push({ kind: "throw", verdict: "violated", code: PROOF_CODES.throw, location, counterexample: { ...outcome.cex, callSite: location, event: undefined }, message: `${what} at ${where(location, base)}: main(${named(outcome.cex.inputs)})${withResults(outcome.cex)}.` });
    }
  }
  return results;
}

