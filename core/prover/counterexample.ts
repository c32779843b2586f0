/**
 * Violation queries and the counterexamples read out of their models: the inputs, every tool
 * result the run saw before the breaking call (outside loops over arrays), the breaking event, and
 * short arrays where the violation allows them.
 */
import type { Counterexample, ShownValue } from "./api";
import type { ViolationQuery } from "./encode";
import type { Fact, World } from "./facts";
import type { ProgramBudget } from "./limits";
import { ModelReader } from "./model-reader";
import { and, renameSymbols } from "./smt";
import { renameNum, type Sym } from "./values";
import { applicationsIn, disagreements, EXACT, selectBranch, type ConversionKind } from "./conversions";
import { PLAIN_MAGNITUDE, pinnedNumbers, plainNumbers, printableStrings, readableUnits, SHORT_ARRAY, shownNumbers, shownPlainly, shownPrintably, type ShownNumber } from "./readable";
import { SolverError, type GetValues, type Z3Session } from "./z3";
import { spanOf } from "../span";

/** Loops over arrays longer than this in a model are blamed without looking at each iteration. */
const BLAME_ITERATIONS = 64;

export type Outcome =
  | { readonly status: "unsat" }
  | { readonly status: "unknown"; readonly reason: string }
  | { readonly status: "sat"; readonly index: number; readonly cex: Counterexample; readonly activeSites: readonly Fact[] };

export type Describe = (index: number, reader: ModelReader) => { fact?: Fact; other?: Fact; otherRenames?: ReadonlyMap<string, string> };

/** The call (or throw) a counterexample stops at, and how its loop indices are named in the query. */
export interface Cutoff {
  readonly loops: readonly string[];
  readonly order: number;
  readonly renames?: ReadonlyMap<string, string> | undefined;
  /** The arguments of the call, shown with the counterexample (preconditions). */
  readonly args?: ReadonlyMap<string, Sym>;
}

/**
 * Is one of the query's violations satisfiable? Then read a counterexample from the model. A
 * counterexample whose arrays are long is asked for once more with every top-level array at most
 * SHORT_ARRAY long, and the shorter one is kept when it exists (same violation, easier to read and
 * to replay).
 */
export async function runViolation(
  session: Z3Session,
  world: World,
  q: ViolationQuery,
  budget: ProgramBudget,
  describe: Describe,
  cutoffOf: (index: number) => Cutoff | undefined = () => undefined,
): Promise<Outcome> {
  const ask = (query: ViolationQuery, extra: readonly string[] = [], cap?: number) => attempt(session, world, query, budget, describe, cutoffOf, extra, cap);
  let found = await ask(q);
  // The model may not say which violation it satisfies: evaluating a quantified indicator (a guard
  // with `includes` over an array of unknown length) need not give `true`. Then ask for each one
  // alone, in order, so the counterexample is about the violation it names (the fuzzer found a
  // precondition blamed on a call that cannot fail it).
  if (found.status === "sat" && !found.named) {
    for (const [i, c] of q.candidates.entries()) {
      if (c.indicator === "false") continue;
      const one = await ask(only(q, i));
      if (one.status === "sat") {
        found = one;
        break;
      }
    }
  }
  if (found.status !== "sat") return strip(found);
  const readable = readableUnits(found.used, budget.rlimit);
  let best = found;
  const atMost = (n: number): string[] => arrayLengths(world).map((len) => `(<= ${len} ${n})`);
  // The steps below never lengthen an array: asked for printable strings, a solver kept the one
  // unprintable string a throw needed by moving it to element 30 614 (fuzz seed 2300289).
  let kept: readonly string[] = atMost(Math.max(SHORT_ARRAY, found.longest));
  if (found.longest > SHORT_ARRAY) {
    const bounds = atMost(SHORT_ARRAY);
    const shorter = await ask(only(q, found.index), bounds, readable);
    if (shorter.status === "sat") {
      best = shorter;
      kept = bounds;
    }
  }
  // Readable numbers where the violation allows them: the same violation asked once more with
  // every number the counterexample shows a small integer (not 5e-324, -0 or 0.30000000000000004).
  // Only constraints are added, so the answer is a counterexample of the same violation.
  // When the violation needs larger numbers (two payments that together pass 100000000), whole
  // numbers of any size are still easier to read than 66944959.92156981. For each, the model's own
  // numbers pinned to whole ones first (cheap), then any whole numbers (a search).
  if (plainNumbers(world, PLAIN_MAGNITUDE).length > 0) {
    numbers: for (const magnitude of [PLAIN_MAGNITUDE, 2 ** 53]) {
      if (shownPlainly(best.cex, magnitude)) break;
      const search = plainNumbers(world, magnitude);
      for (const numbers of [...pinnedNumbers(best.numbers, magnitude), search]) {
        const nicer = await ask(only(q, best.index), [...kept, ...numbers], readable);
        // Pins hold only the numbers the model gave values to: the answer must show plainly too.
        if (nicer.status === "sat" && (numbers === search || shownPlainly(nicer.cex, magnitude))) {
          best = nicer;
          kept = [...kept, ...numbers];
          break numbers;
        }
      }
    }
  }
  // Printable strings likewise (not "\u0000" or a lone surrogate where any text would do), asked
  // separately: a violation that needs an unprintable string keeps its readable numbers.
  const printable = printableStrings(world);
  if (printable.length > 0 && !shownPrintably(best.cex)) {
    const nicer = await ask(only(q, best.index), [...kept, ...printable], readable);
    if (nicer.status === "sat") best = nicer;
  }
  return strip(best);
}


/** The query with every violation but one left out (indices stay the same). */
function only(q: ViolationQuery, index: number): ViolationQuery {
  return { ...q, candidates: q.candidates.map((c, i) => (i === index ? c : { ...c, indicator: "false" })) };
}

function strip(o: Outcome & { readonly longest?: number; readonly named?: boolean; readonly used?: number; readonly numbers?: readonly ShownNumber[] }): Outcome {
  if (o.status !== "sat") return o;
  const { longest: _longest, named: _named, used: _used, numbers: _numbers, ...rest } = o as Outcome & { readonly longest: number; readonly named: boolean; readonly used: number; readonly numbers: readonly ShownNumber[] };
  return rest;
}

/** Length terms of the arrays a run starts from or receives outside loops. */
function arrayLengths(world: World): string[] {
  const out: string[] = [];
  const visit = (s: Sym): void => {
    if (s.k === "sarr") out.push(s.len);
    else if (s.k === "rec") for (const v of s.fields.values()) visit(v);
    else if (s.k === "arr") s.items.forEach(visit);
  };
  for (const input of world.inputs) visit(input.sym);
  for (const r of world.toolResults) if (r.loops.length === 0) visit(r.sym);
  return out;
}

async function attempt(
  session: Z3Session,
  world: World,
  q: ViolationQuery,
  budget: ProgramBudget,
  describe: Describe,
  cutoffOf: (index: number) => Cutoff | undefined,
  extra: readonly string[],
  cap?: number,
): Promise<(Outcome & { readonly status: "unsat" | "unknown" }) | (Outcome & { readonly status: "sat"; readonly longest: number; readonly named: boolean; readonly used: number; readonly numbers: readonly ShownNumber[] })> {
  const live = q.candidates.map((c, i) => ({ c, i })).filter(({ c }) => c.indicator !== "false");
  if (live.length === 0) return { status: "unsat" };
  const names = live.map(({ i }) => `violation!${i}`);
  const conversions = world.conversions;
  // After a model whose conversions disagree with JavaScript, the next query first asks for one
  // where each of them gets the input whose text the model wanted, or else takes its exact branch
  // (conversions.ts `disagreements`): a "steered" query. Its answer is a counterexample when sat;
  // when unsat it proves nothing (it only looked at some runs), and the query is asked again
  // without it.
  let steer: string | undefined;
  // With conversions, the query is first asked with their abstract terms (any text in range): unsat
  // there is unsat (an over-approximation); sat there proves nothing and the exact query follows.
  let abstract = conversions.kinds.size > 0;
  // Resource units over every round: what finding this answer cost.
  let used = 0;
  for (let round = 0; ; round++) {
    const raw = [
      [...world.declarations, ...q.declarations, ...live.map(({ c }, k) => `(define-fun ${names[k]} () Bool ${c.indicator})`)].join("\n"),
      ...world.assumptions.map((a) => a.term), ...q.assumptions, ...extra, ...conversions.facts, ...(steer ? [steer] : []), names.length === 1 ? names[0]! : `(or ${names.join(" ")})`,
    ];
    const [decls, ...assertions] = conversions.kinds.size > 0 ? [...selectBranch(raw, !abstract), ...(abstract ? [] : [EXACT])] : raw;
    const applications = conversions.kinds.size > 0 && !abstract ? applicationsIn(conversions, [decls!, ...assertions]) : undefined;
    const next = budget.next();
    if (!next) return { status: "unknown", reason: budget.programReason };
    const limits = cap === undefined ? next : { ...next, rlimit: Math.min(next.rlimit, cap) };
    const declared = world.declarations.length;
    if (abstract) {
      abstract = false;
      const answer = await session.query(decls!, assertions, limits, async () => undefined);
      budget.note(answer);
      used += answer.used ?? 0;
      if (answer.status === "unsat") return { status: "unsat" };
      round--;
      continue;
    }
    type Checked = { readonly found: Awaited<ReturnType<typeof readCounterexample>> } | { readonly refine: readonly string[]; readonly hints: readonly string[] } | { readonly unchecked: ConversionKind };
    const answer = await session.query(decls!, assertions, limits, async (get): Promise<Checked> => {
      // A model is a counterexample only where its conversions agree with JavaScript (conversions.ts).
      if (applications?.quantified) return { unchecked: applications.quantified };
      const found = applications ? await disagreements(get, world.declarations.slice(declared), applications.ground) : undefined;
      if (found && found.facts.length > 0) return { refine: found.facts, hints: found.hints };
      return { found: await readCounterexample(get, declared) };
    });
    budget.note(answer);
    used += answer.used ?? 0;
    const steered = steer !== undefined;
    steer = undefined;
    if (answer.status !== "sat") {
      if (steered) continue;
      const { used: _used, ...settled } = answer;
      return settled;
    }
    const r = answer.result;
    if ("found" in r) return { status: "sat", ...r.found, used };
    if ("unchecked" in r) return { status: "unknown", reason: `a model depends on ${r.unchecked.what} inside a loop over an array of unknown length (first at ${lineOf(conversions, r.unchecked)}), which is not modelled exactly there` };
    r.refine.forEach((f) => conversions.learn(f));
    if (round + 1 >= MAX_REFINEMENTS) {
      const kind = conversions.kinds.values().next().value!;
      return { status: "unknown", reason: `models kept depending on ${kind.kind.what} (first at ${lineOf(conversions, kind.kind)}) after ${MAX_REFINEMENTS} corrections by JavaScript's own result` };
    }
    if (!steered && r.hints.length > 0) steer = r.hints.length === 1 ? r.hints[0] : `(and ${r.hints.join(" ")})`;
  }

  async function readCounterexample(get: GetValues, declared: number) {
    // Reading an array's elements may declare its element functions only now.
    const reader = new ModelReader(get, () => world.declarations.slice(declared));
    names.forEach((n) => reader.wantTerm(n));
    for (const input of world.inputs) reader.want(input.sym);
    for (const r of world.toolResults) if (r.loops.length === 0) reader.want(r.sym);
    for (const c of q.contributors ?? []) reader.wantTerm(c.active);
    await reader.fetch();
    const longest = Math.max(0, ...arrayLengths(world).map((len) => reader.int(len) ?? 0));
    const k = names.findIndex((n) => reader.bool(n));
    const index = live[Math.max(0, k)]!.i;
    const described = describe(index, reader);
    // For pairs, the later call is the one that breaks the guarantee; the earlier one is shown beside it.
    const chosen = described.other
      ? { fact: described.other, factRenames: described.otherRenames, other: described.fact, otherRenames: undefined }
      : { fact: described.fact, factRenames: undefined, other: undefined, otherRenames: undefined };
    let fact = chosen.fact;
    let factRenames = chosen.factRenames;
    const activeSites = (q.contributors ?? []).filter((c) => reader.bool(c.active)).map((c) => c.fact);
    if (!fact && q.aggregate && !q.aggregate.tooFew) {
      const blamed = await blameAggregate(q, reader, world);
      fact = blamed?.fact;
      factRenames = blamed?.renames;
    }
    for (const input of world.inputs) reader.wantElements(input.sym);
    const otherFields = chosen.other ? renamedFields(chosen.other, chosen.otherRenames) : undefined;
    const factFields = fact ? renamedFields(fact, factRenames) : undefined;
    if (factFields) for (const v of factFields.values()) reader.want(v);
    if (otherFields) for (const v of otherFields.values()) reader.want(v);
    await reader.fetch();
    const inputs: Record<string, ShownValue> = {};
    for (const input of world.inputs) inputs[input.name] = reader.show(input.sym);
    const cutoff: Cutoff | undefined = fact ? { loops: fact.loops, order: fact.order, renames: factRenames } : cutoffOf(index);
    const { toolResults, failedCalls } = await resultsBefore(world, reader, cutoff);
    const args = cutoff?.args ? [...cutoff.args].map(([name, v]) => [name, renameSym(v, cutoff.renames ?? new Map())] as const) : undefined;
    if (args) {
      for (const [, v] of args) reader.want(v);
      await reader.fetch();
      for (const [, v] of args) reader.wantElements(v);
      await reader.fetch();
    }
    const eventOf = (f: Fact, fields: ReadonlyMap<string, Sym>) => ({
      name: f.kind === "event" ? f.event!.name : f.tool.name,
      fields: Object.fromEntries([...fields].map(([key, v]) => [key, reader.show(v)])),
    });
    const cex: Counterexample = {
      inputs,
      toolResults,
      ...(failedCalls.length > 0 ? { failedCalls } : {}),
      callSite: fact ? spanOf(fact.site) : undefined,
      event: fact && factFields ? eventOf(fact, factFields) : undefined,
      ...(args ? { arguments: Object.fromEntries(args.map(([name, v]) => [name, reader.show(v)])) } : {}),
      ...(chosen.other && otherFields ? { otherEvent: { ...eventOf(chosen.other, otherFields), callSite: spanOf(chosen.other.site) } } : {}),
    };
    return { index, cex, activeSites, longest, named: k >= 0 || live.length === 1, numbers: shownNumbers(world, reader) };
  }
}

/** How many times a query is asked again with facts that correct a model's conversions. */
const MAX_REFINEMENTS = 12;

function lineOf(conversions: World["conversions"], kind: ConversionKind): string {
  const at = conversions.kinds.get(kind.fn)?.at;
  if (!at) return "?";
  const sf = at.getSourceFile();
  const { line, character } = sf.getLineAndCharacterOfPosition(at.getStart());
  return `line ${line + 1}, column ${character + 1}`;
}

/** An execution of a call site: where it stands in the run, its result and whether it happens. */
interface Execution {
  readonly label: string;
  readonly key: readonly number[];
  readonly sym: Sym;
  readonly guard: string;
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * The tool results the run saw before the cutoff, labelled the way the runtime counts executions:
 * `tool@3:5`, then `tool@3:5#2`, …
 *
 * Order: the symbolic execution numbers everything in program order, and runs a loop body once,
 * so everything inside a loop is numbered after what precedes the loop and before what follows it.
 * A place is therefore (first number inside each enclosing loop, iteration)…, then its own number,
 * compared lexicographically: a result after a loop comes after a cutoff inside it.
 */
async function resultsBefore(world: World, reader: ModelReader, cutoff: Cutoff | undefined): Promise<{ toolResults: Record<string, ShownValue>; failedCalls: string[] }> {
  const starts = new Map<string, number>();
  for (const item of [...world.toolResults, ...world.facts, ...world.obligations, ...world.throws]) {
    for (const l of item.loops) starts.set(l, Math.min(starts.get(l) ?? Infinity, item.order));
  }
  const keyOf = (loops: readonly string[], at: readonly number[], order: number): number[] => [...loops.flatMap((l, i) => [starts.get(l) ?? order, at[i]!]), order];

  let limit: number[] | undefined;
  if (cutoff) {
    const indices = cutoff.loops.map((l) => cutoff.renames?.get(l) ?? l);
    indices.forEach((l) => reader.wantTerm(l, "Int"));
    await reader.fetch();
    // An iteration the model does not name: every iteration may come before the cutoff.
    limit = keyOf(cutoff.loops, indices.map((l) => reader.int(l) ?? Infinity), cutoff.order);
  }

  // Results of calls inside loops over arrays are left out (the replay draws them). The model
  // satisfies the world's per-iteration facts (a tool's `ensures`, element ranges) only at the
  // iteration its index constant names; read at another iteration, a result can break its own
  // `ensures` (the fuzzer found `amounts()`, which ensures at most 2 elements, shown with 6:
  // fuzz/findings/counterexample-does-not-replay-131270.ts). Showing them needs those facts
  // instantiated for the shown iterations in the query first.
  const executions: Execution[] = [];
  for (const r of world.toolResults) {
    if (r.loops.length > 0) continue;
    const key = keyOf([], [], r.order);
    if (limit && compareKeys(key, limit) >= 0) continue;
    executions.push({ label: r.label, key, sym: r.sym, guard: r.guard });
  }
  executions.sort((a, b) => compareKeys(a.key, b.key));
  for (const e of executions) {
    reader.wantTerm(e.guard);
    reader.want(e.sym);
  }
  await reader.fetch();
  const happened = executions.filter((e) => reader.bool(e.guard));
  happened.forEach((e) => reader.wantElements(e.sym));
  await reader.fetch();
  const shown: Record<string, ShownValue> = {};
  const count = new Map<string, number>();
  for (const e of happened) {
    const n = (count.get(e.label) ?? 0) + 1;
    count.set(e.label, n);
    shown[n === 1 ? e.label : `${e.label}#${n}`] = reader.show(e.sym);
  }
  return { toolResults: shown, failedCalls: await failedBefore(world, reader, limit) };
}

/**
 * The calls inside a `try` that throw before the cutoff, numbered like the runtime counts a call
 * site's executions (every execution of the site, failed or not). A site that also runs inside a
 * loop over an array cannot be numbered, and a failure inside such a loop not placed: both are left
 * out (the replay draws whether they fail).
 */
async function failedBefore(world: World, reader: ModelReader, limit: readonly number[] | undefined): Promise<string[]> {
  const labelOf = (f: Fact): string => {
    const pos = f.site.getSourceFile().getLineAndCharacterOfPosition(f.site.getStart());
    return `${f.tool.name}@${pos.line + 1}:${pos.character + 1}`;
  };
  const calls = world.facts.filter((f) => f.kind === "call").map((f) => ({ label: labelOf(f), fact: f }));
  const inLoops = new Set(calls.filter((c) => c.fact.loops.length > 0).map((c) => c.label));
  const failures = world.failures.filter((x) => x.loops.length === 0 && !inLoops.has(x.label) && !(limit && compareKeys([x.order], limit) >= 0));
  if (failures.length === 0) return [];
  const relevant = calls.filter((c) => failures.some((x) => x.label === c.label));
  for (const c of relevant) reader.wantTerm(c.fact.guard);
  for (const x of failures) reader.wantTerm(and(x.guard, x.failed));
  await reader.fetch();
  const out: string[] = [];
  for (const x of failures) {
    if (!reader.bool(and(x.guard, x.failed))) continue;
    // The failing execution is the last execution of its site before the failure.
    const n = relevant.filter((c) => c.label === x.label && c.fact.order < x.order && reader.bool(c.fact.guard)).length;
    out.push(n <= 1 ? x.label : `${x.label}#${n}`);
  }
  return out;
}

/**
 * The call that first takes the running count or sum past the upper bound, in program order, with
 * the iteration it happens in when it is inside a loop over an array (its index renamed to it).
 */
async function blameAggregate(q: ViolationQuery, reader: ModelReader, world: World): Promise<{ fact: Fact; renames?: ReadonlyMap<string, string> } | undefined> {
  const agg = q.aggregate!;
  const contributors = q.contributors ?? [];
  for (const v of agg.values) if (v) reader.want(v);
  const loopLength = (f: Fact): string | undefined => (f.loops.length > 0 ? world.loopRanges.get(f.loops[0]!)?.len : undefined);
  for (const c of contributors) {
    const len = loopLength(c.fact);
    if (len) reader.wantTerm(len, "Int");
  }
  await reader.fetch();
  const lengthOf = (f: Fact): number | undefined => {
    const len = loopLength(f);
    const n = len === undefined ? undefined : reader.int(len);
    return f.loops.length !== 1 || n === undefined || n > BLAME_ITERATIONS ? undefined : n;
  };
  const at = (c: { fact: Fact; active: string }, i: number) => renameSymbols(c.active, new Map([[c.fact.loops[0]!, String(i)]]));
  for (const c of contributors) for (let i = 0; i < (lengthOf(c.fact) ?? 0); i++) reader.wantTerm(at(c, i));
  await reader.fetch();
  const upper = agg.op === "atMost" || agg.op === "equals" ? (x: number) => x > agg.bounds[0]!
    : agg.op === "lessThan" ? (x: number) => x >= agg.bounds[0]!
    : agg.op === "between" ? (x: number) => x > agg.bounds[1]!
    : undefined;
  const order = contributors.map((c, i) => ({ c, i })).sort((a, b) => a.c.fact.order - b.c.fact.order);
  const done = new Set<string>();
  let running = 0;
  for (const { c, i } of order) {
    if (c.fact.loops.length > 0) {
      // A loop body runs every iteration before what follows the loop: its calls are counted
      // iteration by iteration, each iteration's calls in program order.
      const loop = c.fact.loops[0]!;
      if (done.has(loop)) continue;
      done.add(loop);
      const body = order.filter((o) => o.c.fact.loops[0] === loop).map((o) => o.c);
      const lengths = body.map((b) => lengthOf(b.fact));
      // A model whose iterations cannot be read: the loop is blamed as a whole.
      if (lengths.some((n) => n === undefined)) return { fact: c.fact };
      for (let k = 0; k < lengths[0]!; k++) {
        for (const b of body) {
          if (!reader.bool(at(b, k))) continue;
          running += 1;
          if (upper?.(running)) return { fact: b.fact, renames: new Map([[loop, String(k)]]) };
        }
      }
      continue;
    }
    if (!reader.bool(c.active)) continue;
    const v = agg.values[i];
    const shown = v ? reader.show(v) : 1;
    running += typeof shown === "number" ? shown : Number(shown);
    if (upper?.(running)) return { fact: c.fact };
  }
  return undefined;
}

/** A symbolic value with constants renamed (a loop index to an iteration, a call's copy in a pair). */
export function renameSym(v: Sym, renames: ReadonlyMap<string, string>): Sym {
  if (renames.size === 0) return v;
  switch (v.k) {
    case "str": case "bool": return v.c !== undefined ? v : { ...v, t: renameSymbols(v.t, renames) };
    case "num": return renameNum(v, (t) => renameSymbols(t, renames));
    case "maybe": return { k: "maybe", def: renameSymbols(v.def, renames), v: renameSym(v.v, renames) };
    case "arr": return { k: "arr", items: v.items.map((i) => renameSym(i, renames)) };
    case "rec": return { k: "rec", fields: new Map([...v.fields].map(([key, f]) => [key, renameSym(f, renames)])) };
    case "sarr": return { ...v, len: renameSymbols(v.len, renames), at: (index) => renameSym(v.at(index), renames) };
    // A collection never reaches a fact (it is no tool argument); renaming one would be a bug.
    case "coll": throw new Error("a collection cannot be renamed");
    default: return v;
  }
}

function renamedFields(f: Fact, renames: ReadonlyMap<string, string> | undefined): ReadonlyMap<string, Sym> {
  if (!renames || renames.size === 0) return f.fields;
  return new Map([...f.fields].map(([k, v]) => [k, renameSym(v, renames)]));
}

/** A solver failure (a rejected query, a lost session) leaves a precondition or throw undecided: refused. */
export async function undecidedOnSolverError(outcome: Promise<Outcome>): Promise<Outcome> {
  try {
    return await outcome;
  } catch (error) {
    if (error instanceof SolverError) return { status: "unknown", reason: `the solver failed: ${error.message}` };
    throw error;
  }
}
