import type * as TS from "typescript";
import { qualifiedCall, readGuarantees, type GuaranteeModel, type LiteralValue } from "../guarantees";
import { importClosure } from "../layer/imports";
import { readLayer, type LayerResult } from "../layer/read";
import { verifyLock } from "../lock/verify";
import type { Span } from "../model";
import { Refusal } from "../refusal";
import { PROOF_CODES, RULES } from "../rules";
import { spanOf } from "../span";
import { sentenceOf } from "../describe";
import type { ProgramVerdict, ProofResult, ProveInput, Verdict } from "./api";
import { EncodingRefusal, Encoder, relationIsPerformed, relationsOf, type ViolationQuery } from "./encode";
import { Executor } from "./exec";
import { checkProgramShape } from "./program-shape";
import { programCoverage, type ProgramCoverage } from "./coverage";
import { runViolation, type Found, type Outcome } from "./counterexample";
import { candidateReading, type Reading } from "./read-counterexample";
import { World } from "./facts";
import { bool, num, str, type Sym } from "./values";
import { SolverError, Z3Session } from "./z3";
import { askAtOnce, type AtOnce } from "./at-once";
import { checkProgramLimits, failedProof, ProgramBudget } from "./limits";
import { establishInvariants } from "./loop-invariants";
import { CarriedStateRefusal } from "./exec/loopstate";
import { ProofAbandoned } from "./turns";
import { checkObligations, checkThrows, obligationsBySite, obligationsQuery, obligationsReading, throwReading, throwSites, violationMessage, where, type ThrowSite } from "./obligation-checks";

/** Array length bound of the counterexample search that backs up undecided guarantees. */
const BOUNDED_SEARCH = 3;
/** The resource limit of each query of a guarantee's first, short pass (prove.ts `decideEarly`): about two general slices. */
const EARLY_UNITS = 1_500_000;
/** The share of a program's time kept for the search among short runs while a guarantee's general queries run. */
const SEARCH_SHARE = 0.3;
/** The same where a loop carries state (its violations need a concrete length: k = 1..4 elements). */
const BOUNDED_SEARCH_CARRIED = 4;
/** The longest arrays that search takes when a guarantee bounds a count by more (`emailsAtMost(5)`: 6). */
const BOUNDED_SEARCH_CARRIED_MAX = 6;

/**
 * The array length bound of the search where a loop carries state: 4, or one more than the
 * largest small whole number a guarantee is given (at most 6): breaking `emailsAtMost(5)` in a
 * loop that sends once per element takes six elements.
 */
function carriedSearchBound(guarantees: readonly GuaranteeModel[]): number {
  let bound = BOUNDED_SEARCH_CARRIED;
  for (const g of guarantees) {
    for (const a of g.args) {
      const v = a.value;
      if (v.kind === "number" && Number.isInteger(v.value) && v.value >= 0) bound = Math.max(bound, Math.min(v.value + 1, BOUNDED_SEARCH_CARRIED_MAX));
    }
  }
  return bound;
}

/** The sentence of a guarantee: the one renderer's sentence (or the first JSDoc paragraph). */
export function guaranteeSentence(g: GuaranteeModel): string | undefined {
  return sentenceOf(g.contract, g.args).text ?? undefined;
}

/**
 * Prove one agent program: every guarantee, every precondition of every reachable call, and the
 * unreachability of every `throw`. Fail closed: anything outside the modelled subset, any solver
 * `unknown` or timeout, is refused — never proved.
 */
export async function proveProgram(input: ProveInput, layerResult?: LayerResult): Promise<ProgramVerdict> {
  // One program's failure (a stack overflow anywhere, a lost solver) is that program's verdict:
  // the others of a batch keep theirs (limits.ts).
  try {
    checkProgramLimits(input.ts, [input.file]);
    return await proveWithinLimits(input, layerResult);
  } catch (error) {
    // An abandoned proof (turns.ts) has no verdict: its scheduler drops it.
    if (error instanceof ProofAbandoned) throw error;
    return failedProof(input.file, error);
  }
}

async function proveWithinLimits(input: ProveInput, layerResult?: LayerResult): Promise<ProgramVerdict> {
  const { ts, program, file } = input;
  const options = input.options ?? {};
  const budget = new ProgramBudget(options);
  const checker = program.getTypeChecker();
  const layer = layerResult ?? readLayer(ts, program, options);
  const base = program.getCurrentDirectory();
  const results: ProofResult[] = [];
  const refused = (node: TS.Node, reason: string, instead: string, extra: Partial<ProofResult> = {}): ProofResult => ({
    kind: "guarantee",
    verdict: "refused",
    message: `refused: ${reason} ${instead}`.trim(),
    location: spanOf(node),
    code: PROOF_CODES.refused,
    ...extra,
  });

  // Layer rule violations in this program (declarations in agent source) refuse it outright.
  for (const f of layer.findings.filter((x) => x.file === file)) {
    const { line, character } = file.getLineAndCharacterOfPosition(f.start);
    results.push({ kind: "guarantee", verdict: "refused", message: `refused: ${f.message}`, location: { fileName: file.fileName, start: f.start, length: f.length, line: line + 1, column: character + 1 }, code: RULES[f.rule].code });
  }

  // Between the steps that run on the host's thread, an editor's other work goes first (turns.ts).
  const pause = async (): Promise<void> => {
    if (options.share?.pause) await options.share.pause();
  };
  await pause();

  // A proof over a trusted layer that breaks the layer rules would not mean anything: refuse it.
  // Only the libraries this program reaches count (its tools, their events and contracts, and
  // what those import): a broken library elsewhere in the project cannot change this proof.
  // A trusted file that clauz3.lock does not pin (or that changed since) counts the same way: the
  // folder says where trusted code lives, the lock that it is trusted (core/lock).
  const reached = importClosure(ts, checker, file);
  const trustFindings = [...layer.findings, ...verifyLock(ts, program, layer.isTrusted).findings];
  const layerFindings = trustFindings.filter((f) => f.file !== file && layer.isTrusted(f.file) && reached.has(f.file));
  const layerProblem = layerFindings[0];
  const layerProblemCount = layerFindings.length;

  const list = readGuarantees(ts, checker, layer.model, file, { exact: true });
  for (const r of list.refusals) results.push(refused(r.node, r.reason, r.instead));
  const guarantees = list.guarantees;
  if (list.declaration && guarantees.length === 0 && list.none.length === 0 && list.refusals.length === 0) {
    results.push(refused(list.declaration, "`guarantees` is empty.", "List the contracts the program keeps, or write `[noGuarantees()]` to promise nothing explicitly."));
  }
  if (layerProblem && guarantees.length === 0) {
    results.push(refused(list.declaration ?? file, `The trusted layer breaks ${layerProblemCount} layer rule(s): ${layerProblem.message}`, "Fix the layer first."));
  }
  if (!list.declaration) {
    results.push(refused(file.statements[0] ?? file, "The program has no `guarantees`.", "Add `export const guarantees = [library.contract(literal, ...)]` (or `[noGuarantees()]`)."));
  }

  // Is this the program that will run (program-shape.ts)? Only then is `main` executed symbolically.
  await pause();
  const shape = checkProgramShape(ts, program, file, layer, list.declaration, input.host ?? ts.sys);
  const main = shape.main;
  const world = new World();
  const exec = new Executor(ts, program, checker, layer.model, world, layer.isTrusted);
  let programRefusal: Refusal | undefined;
  await pause();
  try {
    if (shape.refusal) throw shape.refusal;
    exec.runMain(main!, options.share?.hostSteps);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    programRefusal = error;
  }

  await pause();
  const session = await Z3Session.get();
  // Loops that carry state (exec/loopstate.ts): their invariants, before anything is decided.
  const refusedCarried = world.loopStates.length > 0 || programRefusal instanceof CarriedStateRefusal;
  // A world that reads the count of a filter over an array of unknown length (exec/counted.ts) is
  // as inexact as one over a loop's invariant; a program refused for another reason stays refused.
  const carried = refusedCarried || overApproximated(world) !== undefined;
  const carriedBound = carriedSearchBound(guarantees);
  if (!programRefusal && world.loopStates.length > 0) {
    // The search among short runs keeps its share of the time: invariant checks that run out
    // would leave it none (h53 i32: a precondition three elements break, never looked for).
    if (main) budget.keep(Math.floor(budget.programTimeoutMs * SEARCH_SHARE));
    try {
      programRefusal = await establishInvariants(session, world, budget);
    } finally {
      budget.release();
    }
  }
  // Where the general encoding cannot decide, a genuine counterexample is looked for among runs
  // whose arrays are short (exact there).
  const hasArrays = world.loopRanges.size > 0 || [...world.inputs, ...world.toolResults].some((v) => v.sym.k === "sarr");
  const searchable = main !== undefined && (hasArrays || overApproximated(world) !== undefined);
  const boundedRuns = new Map<number, { world: World; exec: Executor } | null>();
  const searchBound = carried ? carriedBound : BOUNDED_SEARCH;
  const boundedSearch = async (bound = searchBound): Promise<{ world: World; exec: Executor } | null> => {
    if (!boundedRuns.has(bound)) {
      await pause();
      const w = new World();
      const e = new Executor(ts, program, checker, layer.model, w, layer.isTrusted, bound);
      try {
        e.runMain(main!, options.share?.hostSteps);
        boundedRuns.set(bound, { world: w, exec: e });
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        boundedRuns.set(bound, null);
      }
    }
    return boundedRuns.get(bound)!;
  };
  const runQuery = (q: ViolationQuery, reading: Reading, first?: Found): Promise<Outcome> => runViolation(session, world, q, budget, reading, first);
  /**
   * A violation found among runs whose arrays are short (unrolled exactly), or undefined: first
   * among runs with at most one element (one copy of each element's terms: h46 i29's ten trims
   * were undecided in 90 s, three in 45 s, one in about a second), then two and four, then the
   * usual bound (h55 i33: four customers' totals, sorted, need four elements; at six the sorting
   * network over a Map's summed values outgrows the formula cap).
   */
  const boundedViolation = async (g: GuaranteeModel, common: GuaranteeCommon, bounds = [1, 2, 4, searchBound]): Promise<ProofResult | undefined> => {
    for (const bound of bounds.filter((b, i, all) => b <= searchBound && all.indexOf(b) === i)) {
      const bounded = await boundedSearch(bound);
      if (!bounded) continue;
      try {
        const found = await decide(g, common, bounded.world, bounded.exec, (q, r) => runViolation(session, bounded.world, q, budget, r), base);
        if (found.verdict === "violated") return { ...found, message: `${found.message} (Found among runs whose arrays have at most ${bound} element${bound === 1 ? "" : "s"}.)` };
      } catch (error) {
        if (!(error instanceof Refusal || error instanceof EncodingRefusal || error instanceof SolverError)) throw error;
      }
    }
    return undefined;
  };
  /**
   * Where loops carry state, a failing precondition or reachable throw found over their invariant
   * may need a state no run reaches: each is reported only as found again among runs with short
   * arrays (unrolled exactly), and refused otherwise.
   */
  const confirmCarried = async (checked: ProofResult[]): Promise<ProofResult[]> => {
    if (!checked.some((r) => r.verdict === "violated")) return checked;
    const bounded = await boundedSearch();
    const again = bounded ? [...(await checkObligations(session, bounded.world, budget, base, false)), ...(await checkThrows(session, bounded.world, budget, base))] : [];
    const key = (r: ProofResult) => `${r.kind}@${r.location?.fileName}:${r.location?.start}`;
    const found = new Map(again.filter((r) => r.verdict === "violated").map((r) => [key(r), r] as const));
    return checked.map((r) => {
      if (r.verdict !== "violated") return r;
      const confirmed = found.get(key(r));
      if (confirmed) return { ...confirmed, message: `${confirmed.message} (Found among runs whose arrays have at most ${carriedBound} elements.)` };
      const { counterexample: _dropped, ...rest } = r;
      const over = overApproximated(world)!;
      return { ...rest, verdict: "refused" as const, code: PROOF_CODES.refused, message: `refused: ${r.message.replace(/^violated: /, "")} This was found over ${over}, and no run with arrays of at most ${carriedBound} elements confirms it; it is not proved.` };
    });
  };
  /**
   * Preconditions and throws the general queries left undecided, looked for among runs with short
   * arrays (exact there, first with at most one element): one found there replaces the refusal;
   * finding none proves nothing.
   */
  const searchUndecided = async (checked: ProofResult[]): Promise<ProofResult[]> => {
    const key = (r: ProofResult) => `${r.kind}@${r.location?.fileName}:${r.location?.start}`;
    const open = new Set(checked.filter((r) => r.verdict === "refused").map(key));
    const found = new Map<string, ProofResult>();
    for (const bound of [1, searchBound].filter((b, i, all) => all.indexOf(b) === i)) {
      if (open.size === 0) break;
      const bounded = await boundedSearch(bound);
      if (!bounded) continue;
      for (const r of [...(await checkObligations(session, bounded.world, budget, base, false)), ...(await checkThrows(session, bounded.world, budget, base))]) {
        if (r.verdict !== "violated" || !open.has(key(r))) continue;
        open.delete(key(r));
        found.set(key(r), { ...r, message: `${r.message} (Found among runs whose arrays have at most ${bound} element${bound === 1 ? "" : "s"}.)` });
      }
    }
    return checked.map((r) => found.get(key(r)) ?? r);
  };
  /** One guarantee over the program's execution; what cannot be decided is refused on the node that stops it. */
  const decideOrRefuse = async (g: GuaranteeModel, common: GuaranteeCommon, prepared?: Prepared, first?: AtOnce["found"], ask = runQuery): Promise<ProofResult> => {
    try {
      return await decide(g, common, world, exec, ask, base, carriedWhy(world, carriedBound), prepared, first);
    } catch (error) {
      if (error instanceof Refusal) return refused(error.node, error.reason, error.instead, common);
      if (error instanceof EncodingRefusal) return refused(g.node, `${common.contract}: ${error.message}.`, "", common);
      if (error instanceof SolverError) return { ...refused(g.node, `the solver rejected the query for ${common.contract} (${error.message}).`, "This is a bug in clauz3; the guarantee is not proved.", common), code: PROOF_CODES.unknown };
      throw error;
    }
  };

  /**
   * A guarantee whose violations may be looked for among short runs: first decided with at most
   * {@link EARLY_UNITS} per query, then, when that leaves it undecided, looked for among runs with
   * at most one and two elements under the same limit, and only then decided with the whole limit
   * (the queries the short pass answered unsat are not asked again). A violation short runs show
   * is found in a second instead of after the general query spent the program's time (the Set of
   * whole lines tested for a name, test/locals/collected-size.test.ts: 64 s, 0.3 s of it the
   * search); a guarantee that holds pays the short pass once.
   */
  const decideEarly = async (g: GuaranteeModel, common: GuaranteeCommon, own: Prepared | undefined): Promise<ProofResult> => {
    const settled = new Set<ViolationQuery>();
    const remembering = (q: ViolationQuery, reading: Reading, first?: Found): Promise<Outcome> =>
      settled.has(q) ? Promise.resolve({ status: "unsat" }) : runQuery(q, reading, first).then((o) => {
        if (o.status === "unsat") settled.add(q);
        return o;
      });
    budget.cap(EARLY_UNITS);
    try {
      const early = await decideOrRefuse(g, common, own, atOnce.found, remembering);
      if (early.verdict !== "refused" || early.code !== PROOF_CODES.unknown) return early;
      const found = await boundedViolation(g, common, [1, 2]);
      if (found) return found;
    } finally {
      budget.uncap();
    }
    return decideOrRefuse(g, common, own, atOnce.found, remembering);
  };

  // Everything the program must keep, asked as one query first (at-once.ts): when it is
  // unsatisfiable, every guarantee, precondition and throw it covers is proved without its own.
  // The guarantees' queries are made here once and asked from them below when it is not, starting
  // from the counterexamples its models gave.
  const commons = guarantees.map((g) => ({ kind: "guarantee" as const, contract: qualifiedCall(g), contractName: g.contract.name, sentence: guaranteeSentence(g), guarantee: g.span }));
  let prepared: Prepared[] | undefined;
  let obligations: ViolationQuery | undefined;
  let throws: ThrowSite[] = [];
  let atOnce: AtOnce = { proved: new Set(), found: new Map() };
  if (!programRefusal && !layerProblem) {
    await pause();
    const encoder = new Encoder(exec.layerModel, world, exec);
    prepared = guarantees.map((g, i) => prepare(g, commons[i]!, exec, encoder));
    const copies = obligationsBySite(world).flat();
    obligations = obligationsQuery(copies);
    throws = throwSites(world);
    const queries = prepared.flatMap((p) => ("queries" in p ? p.queries : []));
    // A guarantee that cannot be encoded is refused below: the others are still asked at once.
    atOnce = await askAtOnce(session, world, [...queries.map((query) => ({ query, reading: candidateReading(query) })), { query: obligations, reading: obligationsReading(copies) }, ...throws.map(({ query, group }) => ({ query, reading: throwReading(group) }))], budget);
  }

  for (const [i, g] of guarantees.entries()) {
    await pause();
    const common = commons[i]!;
    if (layerProblem) {
      const { line, character } = layerProblem.file.getLineAndCharacterOfPosition(layerProblem.start);
      const at = `${where({ fileName: layerProblem.file.fileName, start: layerProblem.start, length: layerProblem.length, line: line + 1, column: character + 1 }, base)}`;
      results.push({ ...common, verdict: "refused", code: PROOF_CODES.refused, location: g.span, message: `refused: the trusted layer breaks ${layerProblemCount} layer rule(s) (first at ${at}: ${layerProblem.message}); a proof over it would not mean anything. Fix the layer first.` });
      continue;
    }
    if (programRefusal) {
      // A loop whose carried state is not modelled for every length may still break the guarantee
      // in a run with a few elements, found exactly by unrolling.
      const found = refusedCarried && main ? await boundedViolation(g, common) : undefined;
      results.push(found ?? refused(programRefusal.node, programRefusal.reason, programRefusal.instead, common));
      continue;
    }
    // Where the general encoding cannot decide, look for a genuine counterexample among runs whose
    // arrays have at most BOUNDED_SEARCH elements (exact there). Finding none proves nothing. Its
    // share of the program's time is kept back from the general queries: a query that runs out of
    // time would otherwise leave it none (h46 i29: ten trimmed addresses, undecided in 90 s, while
    // three are violated in seconds).
    if (searchable) budget.keep(Math.floor(budget.programTimeoutMs * SEARCH_SHARE));
    let result: ProofResult;
    try {
      const own = prepared && provedOnce(prepared[i]!, common, atOnce.proved);
      result = searchable ? await decideEarly(g, common, own) : await decideOrRefuse(g, common, own, atOnce.found);
    } finally {
      budget.release();
    }
    if (result.verdict === "refused" && searchable) result = (await boundedViolation(g, common)) ?? result;
    results.push(result);
  }

  // Coverage (coverage.ts): the libraries `main` reaches, and the required contracts it does not state, proved like its own.
  let coverage: ProgramCoverage | undefined;
  if (!programRefusal && !layerProblem) {
    await pause();
    coverage = await programCoverage(ts, checker, layer.model, world, list, session, budget);
    for (const { refusal, contract, library } of coverage.refusals) results.push(refused(refusal.node, `${contract} (required by ${library}'s coverage policy): ${refusal.reason}`, refusal.instead, { contract, requiredBy: library }));
    for (const { guarantee: g, library } of coverage.required) {
      const contract = qualifiedCall(g);
      const common = { kind: "guarantee" as const, contract, contractName: g.contract.name, sentence: guaranteeSentence(g), guarantee: g.span };
      const result = await decideOrRefuse(g, common);
      results.push({ ...result, message: `${result.message} (Required by ${library}'s coverage policy: the program uses it.)`, requiredBy: library });
    }
  }

  if (!programRefusal && !layerProblem) {
    await pause();
    // As for guarantees, the search among short runs keeps its share of the time from the general
    // queries, and looks for what they left undecided (h53 i32: a half-cent refund three
    // elements show, once the loop's invariant is established, went to the general query alone).
    if (searchable) budget.keep(Math.floor(budget.programTimeoutMs * SEARCH_SHARE));
    let checked: ProofResult[];
    try {
      checked = [...(await checkObligations(session, world, budget, base, obligations !== undefined && atOnce.proved.has(obligations), obligations && atOnce.found.get(obligations))), ...(await checkThrows(session, world, budget, base, throws, atOnce))];
    } finally {
      budget.release();
    }
    checked = overApproximated(world) !== undefined ? await confirmCarried(checked) : checked;
    results.push(...(searchable ? await searchUndecided(checked) : checked));
  } else if (guarantees.length === 0 && programRefusal) {
    results.push(refused(programRefusal.node, programRefusal.reason, programRefusal.instead));
  } else if (programRefusal && main && refusedCarried) {
    // Where loops carry state the program is refused, but its throws and preconditions are looked
    // for among runs with short arrays (exact there): a guarantee violated among them makes the
    // verdict "violated", and then none a run may reach goes unreported (the differential tester's
    // seed 45174: a reachable `throw` no result named); what those runs prove is not proved for
    // longer ones: refused, for the program's reason. With no guarantee violated, only what is found is reported.
    const reportAll = results.some((r) => r.verdict === "violated");
    await pause();
    const bound = (await boundedSearch()) ? searchBound : 1;
    const bounded = await boundedSearch(bound);
    const again = bounded ? [...(await checkObligations(session, bounded.world, budget, base, false)), ...(await checkThrows(session, bounded.world, budget, base))] : [];
    for (const r of again) {
      if (r.verdict === "violated") results.push({ ...r, message: `${r.message} (Found among runs whose arrays have at most ${bound} element${bound === 1 ? "" : "s"}.)` });
      else if (reportAll) {
        const { counterexample: _none, ...rest } = r;
        results.push({ ...rest, verdict: "refused", code: PROOF_CODES.refused, message: `refused: not decided beyond runs whose arrays have at most ${bound} element${bound === 1 ? "" : "s"}: ${programRefusal.reason} ${programRefusal.instead}`.trim() });
      }
    }
  }
  const verdict: Verdict = results.some((r) => r.verdict === "violated") ? "violated" : results.some((r) => r.verdict === "refused") ? "refused" : "proved";
  return { file: file.fileName, verdict, results, ...(budget.wallClock ? { provisional: budget.wallClock } : {}), ...(coverage && coverage.coverage.length > 0 ? { coverage: coverage.coverage } : {}) };
}

type GuaranteeCommon = { kind: "guarantee"; contract: string; contractName: string; sentence: string | undefined; guarantee: Span };

/**
 * A guarantee's violation queries over one symbolic execution; or its result, when it is settled
 * without the solver; or the error that stops its encoding (thrown again where it is decided).
 */
type Prepared = { readonly queries: readonly ViolationQuery[] } | { readonly result: ProofResult } | { readonly error: unknown };

function prepare(g: GuaranteeModel, common: GuaranteeCommon, exec: Executor, encoder: Encoder): Prepared {
  try {
    const spec = exec.buildSpec(g.contract, g.args.map((a) => literalSym(a.value)), g.node);
    const unperformed = relationsOf(spec).find((r) => !relationIsPerformed(exec.layerModel, r));
    if (unperformed) {
      const name = unperformed.source.kind === "event" ? unperformed.source.event.name : unperformed.source.tool.name;
      return { result: { ...common, verdict: "refused", code: PROOF_CODES.refused, location: spanOf(g.node), message: `refused: \`${common.contract}\` constrains ${name} events, but no tool of this program's layer performs them, so it would hold vacuously. Declare \`performs(...)\` on the tools that perform ${name}, or select the library that does.` } };
    }
    return { queries: encoder.queries(spec) };
  } catch (error) {
    return { error };
  }
}

/** A prepared guarantee without its queries proved together with others (at-once.ts): proved when none is left. */
function provedOnce(p: Prepared, common: GuaranteeCommon, proved: ReadonlySet<ViolationQuery>): Prepared {
  if (!("queries" in p)) return p;
  const left = p.queries.filter((q) => !proved.has(q));
  return left.length === 0 ? { result: provedGuarantee(common) } : { queries: left };
}

function provedGuarantee(common: GuaranteeCommon): ProofResult {
  return { ...common, verdict: "proved", code: PROOF_CODES.proved, location: common.guarantee, message: `proved: ${common.sentence ?? common.contract}` };
}

/** Decide one guarantee over one symbolic execution: proved, violated (with counterexample) or refused. */
async function decide(
  g: GuaranteeModel,
  common: GuaranteeCommon,
  world: World,
  exec: Executor,
  runQuery: (q: ViolationQuery, reading: Reading, first?: Found) => Promise<Outcome>,
  base: string,
  inexact?: string,
  prepared: Prepared = prepare(g, common, exec, new Encoder(exec.layerModel, world, exec)),
  /** Counterexamples already read for some of the queries (at-once.ts). */
  first?: ReadonlyMap<ViolationQuery, Found>,
): Promise<ProofResult> {
  const { contract, sentence } = common;
  if ("error" in prepared) throw prepared.error;
  if ("result" in prepared) return prepared.result;
  for (const q0 of prepared.queries) {
    // Over a loop's invariant a model may show a state no run reaches: never a counterexample by itself.
    const q = inexact && !q0.inexact ? { ...q0, inexact } : q0;
    const o = await runQuery(q, candidateReading(q), first?.get(q0));
    if (o.status === "unsat") continue;
    if (q.partial && o.status === "unknown") continue;
    if (o.status === "unknown") {
      return { ...common, verdict: "refused", code: PROOF_CODES.unknown, location: g.span, message: `refused: the solver could not decide ${contract} (${o.reason}); it is not proved. Simplify the program or split the guarantee.` };
    }
    if (q.inexact) return { ...common, verdict: "refused", code: PROOF_CODES.refused, location: g.span, message: `refused: ${q.inexact}.` };
    return {
      ...common,
      verdict: "violated",
      code: PROOF_CODES.violated,
      location: o.cex.callSite ?? g.span,
      counterexample: o.cex,
      message: violationMessage(contract, sentence, o.cex, base),
    };
  }
  return provedGuarantee(common);
}

/** What this world over-approximates, whose models are counterexamples only once a run with short arrays shows them again. */
function overApproximated(world: World): string | undefined {
  if (world.loopStates.length > 0) return "the invariant of a loop that carries state";
  if (world.countedFilters > 0) return "the bounds of the count of a `filter` over an array of unknown length";
  if (world.unknownJoins > 0) return "any text for the `join` of an array of unknown length";
  if (world.nanSorts > 0) return "any order for a `sort` whose comparator is inconsistent on some keys (NaN, or equal keys under a comparator that never returns 0)";
  if (world.unknownSorts > 0) return "any order for a `sort` of an array of unknown length";
  if (world.unknownSplits > 0) return "the parts past the first few of a `split` of an unknown string";
  if (world.keptIndices > 0) return "the position of an element among the kept elements of a `filter` over an array of unknown length";
  if (world.inexactCaught > 0) return "any text for an error the engine or the runtime throws";
  if (world.dollarReplacements > 0) return "any text for a `replace` whose replacement may hold a `$` pattern";
  if (world.forgottenMapValues > 0) return "any value for what a Map built by a loop over an array of unknown length holds";
  return undefined;
}

/** Why a violation in this world is not yet a counterexample (loops that carry state), if so. */
function carriedWhy(world: World, bound: number): string | undefined {
  if (world.loopStates.length === 0 && world.countedFilters > 0) {
    return `the count of a \`filter\` over an array of unknown length is read here, and over its bounds (0 ≤ count ≤ length, the kept elements in order) the guarantee may fail, but no run with arrays of at most ${bound} elements breaks it (longer runs are not searched); it is not proved`;
  }
  if (world.loopStates.length === 0 && world.unknownJoins > 0) {
    return `the \`join\` of an array of unknown length is read here, and for some text it could be the guarantee may fail, but no run with arrays of at most ${bound} elements (joined exactly) breaks it (longer runs are not searched); it is not proved`;
  }
  if (world.loopStates.length === 0 && world.nanSorts > 0) {
    return `a \`sort\` whose comparator is inconsistent on some keys is read here (where a key is NaN, or two keys are equal under a comparator that never returns 0, the engine's order is its own), and for some order the guarantee may fail, but no run with arrays of at most ${bound} elements and no such keys breaks it; it is not proved`;
  }
  if (world.loopStates.length === 0 && world.unknownSorts > 0) {
    return `a \`sort\` of an array of unknown length is read here, and for some order of its elements the guarantee may fail, but no run with arrays of at most ${bound} elements (sorted exactly) breaks it; it is not proved`;
  }
  if (world.loopStates.length === 0 && world.unknownSplits > 0) {
    return `a \`split\` of a string the prover does not know is read here, and for some cut past its first parts the guarantee may fail, but no run with at most ${bound} parts (cut exactly) breaks it; it is not proved`;
  }
  if (world.loopStates.length === 0 && world.keptIndices > 0) {
    return `an element's position among the kept elements of a \`filter\` over an array of unknown length is read here, and for some position it could have the guarantee may fail, but no run with arrays of at most ${bound} elements (positions exact) breaks it; it is not proved`;
  }
  if (world.loopStates.length === 0 && world.inexactCaught > 0) {
    return `the text of an error the engine or the runtime throws (a read of undefined, a failing \`requires\`) is read here, and for some wording the guarantee may fail, but the wording is not modelled, so no run shows it; it is not proved`;
  }
  if (world.loopStates.length === 0 && world.dollarReplacements > 0) {
    return `a \`replace\` with a replacement the prover does not know is read here, and where the replacement holds a \`$\` (JavaScript expands \`$&\`, \`$$\` and the text around the match in it) the guarantee may fail for some text, but no run with arrays of at most ${bound} elements and no \`$\` in the replacement breaks it; it is not proved`;
  }
  if (world.loopStates.length === 0 && world.forgottenMapValues > 0) {
    return `a value of a Map a loop over an array of unknown length built is read here (its values are not tracked across iterations), and for some values of its type the guarantee may fail, but no run with arrays of at most ${bound} elements (Maps exact there) breaks it; it is not proved`;
  }
  if (world.loopStates.length === 0) return undefined;
  return `a loop here carries state across iterations, and over its invariant the guarantee may fail, but no run with arrays of at most ${bound} elements breaks it (longer runs are not searched); it is not proved`;
}

function literalSym(v: LiteralValue): Sym {
  switch (v.kind) {
    case "string": case "FilePath": case "DirectoryPath": return str(v.value);
    case "number": return num(v.value);
    case "boolean": return bool(v.value);
    case "array": return { k: "arr", items: v.items.map(literalSym) };
  }
}
