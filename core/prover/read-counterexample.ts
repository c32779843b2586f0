/**
 * Reading a counterexample out of a satisfying model: the inputs, every tool result the run saw
 * before the breaking call (outside loops over arrays), the calls that threw, the breaking event and
 * the call to blame for a count or sum. counterexample.ts asks the queries.
 */
import type { Counterexample, ShownValue } from "./api";
import type { ViolationQuery } from "./encode";
import type { Fact, World } from "./facts";
import { ModelReader } from "./model-reader";
import { and, renameSymbols } from "./smt";
import { parseSExprs, printSExpr, type SExpr } from "./sexpr";
import { renameNum, type Sym } from "./values";
import { shownNumbers, type ShownNumber } from "./readable";
import type { GetValues } from "./z3";
import { spanOf } from "../span";

/** Loops over arrays longer than this in a model are blamed without looking at each iteration. */
const BLAME_ITERATIONS = 64;

export type Describe = (index: number, reader: ModelReader) => { fact?: Fact; other?: Fact; otherRenames?: ReadonlyMap<string, string> };

/** The call (or throw) a counterexample stops at, and how its loop indices are named in the query. */
export interface Cutoff {
  readonly loops: readonly string[];
  readonly order: number;
  readonly renames?: ReadonlyMap<string, string> | undefined;
  /** The arguments of the call, shown with the counterexample (preconditions). */
  readonly args?: ReadonlyMap<string, Sym>;
}

/** How a query's counterexample is read: which fact each violation names, where the run stops otherwise. */
export interface Reading {
  readonly describe: Describe;
  readonly cutoffOf: (index: number) => Cutoff | undefined;
}

/** How a guarantee's counterexample is read: each candidate names the fact (and, for pairs, the other fact) it is about. */
export function candidateReading(q: ViolationQuery): Reading {
  return {
    describe: (index) => {
      const c = q.candidates[index]!;
      return { fact: c.fact, other: c.other, otherRenames: c.otherRenames };
    },
    cutoffOf: () => undefined,
  };
}

/** The Boolean names a query gives its live candidates in the model, and those candidates' indices. */
export interface CandidatesRead {
  readonly names: readonly string[];
  readonly indices: readonly number[];
  /** How many of the world's declarations the query was built with (later ones are sent with each read). */
  readonly declared: number;
}

/** A counterexample read out of a model, with what the readability steps need to know about it. */
export interface FoundCounterexample {
  /** The candidate the model satisfies (the first live one when it does not say: `named` false). */
  readonly index: number;
  readonly cex: Counterexample;
  readonly activeSites: readonly Fact[];
  /** The longest top-level array in the model. */
  readonly longest: number;
  readonly named: boolean;
  readonly numbers: readonly ShownNumber[];
}

/**
 * The counterexample a model of one query gives: which of its candidates the model satisfies, the
 * inputs, the results of calls before the one that breaks it, and that call's event. The model may
 * be of a larger query (at-once.ts): `names` are the candidates' names there.
 */
export async function readCounterexample(get: GetValues, world: World, q: ViolationQuery, { names, indices, declared }: CandidatesRead, { describe, cutoffOf }: Reading): Promise<FoundCounterexample> {
  // Reading an array's elements may declare its element functions only now.
  const reader = new ModelReader(get, () => world.declarations.slice(declared));
  names.forEach((n) => reader.wantTerm(n));
  for (const input of world.inputs) reader.want(input.sym);
  for (const r of world.toolResults) if (r.loops.length === 0) reader.want(r.sym);
  for (const c of q.contributors ?? []) reader.wantTerm(c.active);
  await reader.fetch();
  const longest = Math.max(0, ...arrayLengths(world).map((len) => reader.int(len) ?? 0));
  const k = names.findIndex((n) => reader.bool(n));
  const index = indices[Math.max(0, k)]!;
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
  return { index, cex, activeSites, longest, named: k >= 0 || indices.length === 1, numbers: shownNumbers(world, reader) };
}

/** Length terms of the arrays a run starts from or receives outside loops. */
export function arrayLengths(world: World): string[] {
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
  // Quantifiers in the activity terms (an element of a Set, a call under `xs.some(…)`) are
  // grounded at the model's bounds: the model leaves them unevaluated.
  const bounds = new Map<string, number | undefined>();
  for (const c of contributors) for (const b of quantifierBounds(c.active)) reader.wantTerm(b, "Int");
  await reader.fetch();
  for (const c of contributors) for (const b of quantifierBounds(c.active)) bounds.set(b, reader.int(b));
  const grounded = (t: string): string => groundBoundedQuantifiers(t, (b) => bounds.get(b));
  const at = (c: { fact: Fact; active: string }, i: number) => grounded(renameSymbols(c.active, new Map([[c.fact.loops[0]!, String(i)]])));
  // A sum's summand at iteration k of the loop its call is in (a count's is 1).
  const valueAt = (i: number, k: number): Sym | undefined => {
    const v = agg.values[i];
    return v && renameSym(v, new Map([[contributors[i]!.fact.loops[0]!, String(k)]]));
  };
  contributors.forEach((c, i) => {
    for (let k = 0; k < (lengthOf(c.fact) ?? 0); k++) {
      reader.wantTerm(at(c, k));
      const v = valueAt(i, k);
      if (v) reader.want(v);
    }
  });
  for (const c of contributors) if (c.fact.loops.length === 0) reader.wantTerm(grounded(c.active));
  await reader.fetch();
  const amount = (v: Sym | undefined): number => {
    const shown = v ? reader.show(v) : 1;
    return typeof shown === "number" ? shown : Number(shown);
  };
  const upper = agg.op === "atMost" || agg.op === "equals" ? (x: number) => x > agg.bounds[0]!
    : agg.op === "lessThan" ? (x: number) => x >= agg.bounds[0]!
    : agg.op === "between" ? (x: number) => x > agg.bounds[1]!
    : undefined;
  const order = contributors.map((c, i) => ({ c, i })).sort((a, b) => a.c.fact.order - b.c.fact.order);
  const done = new Set<string>();
  const undecided: Fact[] = [];
  let mixed = false;
  let running = 0;
  for (const { c, i } of order) {
    if (c.fact.loops.length > 0) {
      // A loop body runs every iteration before what follows the loop: its calls are counted
      // iteration by iteration, each iteration's calls in program order.
      const loop = c.fact.loops[0]!;
      if (done.has(loop)) continue;
      done.add(loop);
      const body = order.filter((o) => o.c.fact.loops[0] === loop);
      const lengths = body.map((b) => lengthOf(b.c.fact));
      // A model whose iterations cannot be read: the loop is blamed as a whole.
      if (lengths.some((n) => n === undefined)) return { fact: c.fact };
      for (let k = 0; k < lengths[0]!; k++) {
        for (const b of body) {
          if (!reader.bool(at(b.c, k))) continue;
          running += amount(valueAt(b.i, k));
          if (upper?.(running)) return { fact: b.c.fact, renames: new Map([[loop, String(k)]]) };
        }
      }
      continue;
    }
    const active = reader.truth(grounded(c.active));
    if (active === undefined) undecided.push(c.fact);
    if (active !== true) continue;
    if (undecided.length > 0) mixed = true;
    running += amount(agg.values[i]);
    if (upper?.(running)) return { fact: c.fact };
  }
  // Calls whose activity the model leaves unevaluated (a quantifier over an array longer than
  // grounding reaches, h58 i37): the running total is then unknown. When they are all one call site
  // (the iterations of an unrolled loop) and no call known to be active follows the first of them,
  // the call that takes the total past the bound is at that site, which is blamed as a loop whose
  // iterations cannot be read is.
  if (!mixed && undecided.length > 0 && undecided.every((f) => f.site === undecided[0]!.site)) return { fact: undecided[0]! };
  return undefined;
}

/** A quantifier over one Int index whose guard bounds it: `0 ≤ k < bound` among the conjuncts the body starts with. */
function boundedQuantifier(e: SExpr): { quantifier: "forall" | "exists"; index: string; bound: SExpr; body: SExpr } | undefined {
  if (!Array.isArray(e) || (e[0] !== "forall" && e[0] !== "exists") || e.length !== 3 || !Array.isArray(e[1]) || e[1].length !== 1) return undefined;
  const binder = e[1][0];
  if (!Array.isArray(binder) || binder[1] !== "Int" || typeof binder[0] !== "string") return undefined;
  const index = binder[0];
  const body = e[2]!;
  // `forall`: `(=> guard …)`; `exists`: `(and guard… …)`, the guard among its conjuncts.
  const guard = Array.isArray(body) && body[0] === "=>" ? body[1] : Array.isArray(body) && body[0] === "and" ? body : undefined;
  const conjuncts: SExpr[] = [];
  const flatten = (x: SExpr | undefined): void => {
    if (Array.isArray(x) && x[0] === "and") x.slice(1).forEach(flatten);
    else if (x !== undefined) conjuncts.push(x);
  };
  flatten(guard);
  const lower = conjuncts.some((c) => Array.isArray(c) && c[0] === "<=" && c[1] === "0" && c[2] === index);
  const upper = conjuncts.find((c): c is SExpr[] => Array.isArray(c) && c[0] === "<" && c[1] === index);
  if (!lower || !upper || (e[0] === "forall") !== (Array.isArray(body) && body[0] === "=>")) return undefined;
  return { quantifier: e[0], index, bound: upper[2]!, body };
}

/** The bounds of the bounded quantifiers in `term` that are not numerals (to read from the model). */
export function quantifierBounds(term: string): string[] {
  if (!term.includes("forall") && !term.includes("exists")) return [];
  const out = new Set<string>();
  const visit = (e: SExpr): void => {
    if (!Array.isArray(e)) return;
    const q = boundedQuantifier(e);
    if (q && !(typeof q.bound === "string" && /^\d+$/.test(q.bound))) out.add(printSExpr(q.bound));
    e.forEach(visit);
  };
  parseSExprs(term).forEach(visit);
  return [...out];
}

/**
 * `term` with each quantifier over an index `0 ≤ k < bound` replaced by its instances (a
 * conjunction for `forall`, a disjunction for `exists`), where the bound is a numeral or `valueOf`
 * knows it (the model's value; at most 256): the same formula in that model. A model evaluates
 * it then, where it leaves a quantifier over its functions unevaluated (blame read nothing as
 * active: an element of a Set's iteration, a call under `xs.some(…)`).
 */
export function groundBoundedQuantifiers(term: string, valueOf: (bound: string) => number | undefined = () => undefined): string {
  if (!term.includes("forall") && !term.includes("exists")) return term;
  const ground = (e: SExpr): SExpr => {
    if (!Array.isArray(e)) return e;
    const g = e.map(ground);
    const q = boundedQuantifier(g);
    if (!q) return g;
    const printed = printSExpr(q.bound);
    const n = /^\d+$/.test(printed) ? Number(printed) : valueOf(printed);
    if (n === undefined || n < 0 || n > 256) return g;
    const subst = (x: SExpr, v: string): SExpr => (Array.isArray(x) ? x.map((y) => subst(y, v)) : x === q.index ? v : x);
    const instances = Array.from({ length: n }, (_, k) => subst(q.body, String(k)));
    if (instances.length === 0) return q.quantifier === "forall" ? "true" : "false";
    return [q.quantifier === "forall" ? "and" : "or", ...instances];
  };
  return parseSExprs(term).map((e) => printSExpr(ground(e))).join(" ");
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
