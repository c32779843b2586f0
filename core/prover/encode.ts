import type { LayerModel } from "../model";
import type { Executor } from "./exec";
import type { Fact, World } from "./facts";
import { and, implies, ite, not, numLit, or, renameSymbols, RM, strLit } from "./smt";
import { compareFloat, compareInt, renameNum, strictEquals, truthy, type Comparison, type RelationIR, type SpecIR, type Sym } from "./values";
import { ARRAY_LENGTH_MAG, boundWithin } from "./exec/integers";
import { ghostCount, ghostSum } from "./loop-invariants";

/** One way a specification can be broken: an indicator term and the fact(s) that would witness it. */
export interface Candidate {
  readonly indicator: string;
  readonly fact: Fact | undefined;
  readonly other?: Fact;
  /** Loop-index renames applied to `other` (its fields are read through them). */
  readonly otherRenames?: ReadonlyMap<string, string>;
}

/** A violation query: declarations beyond the world's, extra assumptions, and candidates. */
export interface ViolationQuery {
  readonly declarations: readonly string[];
  readonly assumptions: readonly string[];
  readonly candidates: readonly Candidate[];
  /** A query over a subset of the runs: unsatisfiable proves nothing by itself (the next query decides). */
  readonly partial?: boolean;
  /** When the query is satisfiable but only an approximation was checked: refuse instead of reporting a violation. */
  readonly inexact?: string;
  /** For aggregates: the facts and their activity terms, to find the call to blame. */
  readonly contributors?: readonly { readonly fact: Fact; readonly active: string }[];
  /**
   * For aggregates: how to blame a call. The call that first takes the running count or sum past
   * the upper bound, in program order; none (the guarantee entry) when too little happens.
   */
  readonly aggregate?: { readonly op: Comparison; readonly bounds: readonly number[]; readonly values: readonly (Sym | undefined)[]; readonly tooFew?: boolean };
}

/** Thrown when a specification cannot be encoded exactly in a sound way. */
export class EncodingRefusal extends Error {}

/** Whether an event class is the relation's class or one of its subclasses (identity by declaration). */
function covers(layer: LayerModel, relEventId: string, eventId: string): boolean {
  for (let id: string | undefined = eventId; id; id = layer.events.get(id)?.baseId) if (id === relEventId) return true;
  return false;
}

/** The facts a relation ranges over (before `where` filters). */
export function matchingFacts(layer: LayerModel, world: World, rel: RelationIR): Fact[] {
  const src = rel.source;
  return world.facts.filter((f) =>
    src.kind === "event" ? f.kind === "event" && f.event !== undefined && covers(layer, src.event.id, f.event.id) : f.kind === "call" && f.tool.id === src.tool.id,
  );
}

/** Whether any tool of the layer performs an event the relation covers. */
export function relationIsPerformed(layer: LayerModel, rel: RelationIR): boolean {
  const src = rel.source;
  if (src.kind === "effect") return true;
  for (const tool of layer.tools.values()) for (const ev of tool.performs?.events ?? []) if (covers(layer, src.event.id, ev.eventId)) return true;
  return false;
}

/** Every relation a specification mentions. */
export function relationsOf(spec: SpecIR): RelationIR[] {
  switch (spec.k) {
    case "allOf": return spec.specs.flatMap(relationsOf);
    case "none": return [];
    case "sharesValueWith": return [spec.rel, spec.other];
    case "finalAll": case "finalAt": return [];
    default: return [spec.rel];
  }
}

export class Encoder {
  private counter = 0;
  constructor(private readonly layer: LayerModel, private readonly world: World, private readonly exec: Executor) {}

  /**
   * Bool term: the run ends normally: no throw that escapes `main` is reached and no `requires`
   * made outside a `try` fails (a failure inside one may be caught, and the run go on: not
   * excluded). A lower bound, and the bound a count must reach, is about such runs: at run time a
   * run that throws ends with IncompleteRunError, not as a broken lower bound (contracts.md), and
   * its throw is a finding of its own. Inside loops over arrays, for every iteration.
   */
  private completes(): string {
    const never = (term: string, loops: readonly string[]): string => {
      if (term === "false") return "true";
      if (loops.length === 0) return not(term);
      const range = and(...loops.map((l) => and(`(<= 0 ${l})`, `(< ${l} ${this.world.loopRanges.get(l)!.len})`)));
      return `(forall (${loops.map((l) => `(${l} Int)`).join(" ")}) ${implies(range, not(term))})`;
    };
    return and(...this.world.throws.map((t) => never(t.guard, t.loops)), ...this.world.obligations.filter((o) => !o.inTry).map((o) => never(and(o.guard, not(o.holds)), o.loops)));
  }

  /**
   * Bool term: `compare(op, bounds)` fails for a value, where falling below a lower bound counts
   * only for runs that end normally (`completes`); going above an upper bound counts for every run.
   */
  private outside(op: Comparison, bounds: readonly number[], compare: (op: Comparison, bounds: readonly number[]) => string): string {
    switch (op) {
      case "atMost": case "lessThan": return not(compare(op, bounds));
      case "atLeast": case "greaterThan": return and(not(compare(op, bounds)), this.completes());
      case "equals": return or(not(compare("atMost", bounds)), and(not(compare("atLeast", bounds)), this.completes()));
      case "between": return or(not(compare("atMost", [bounds[1]!])), and(not(compare("atLeast", [bounds[0]!])), this.completes()));
    }
  }

  private item(fact: Fact, renames?: ReadonlyMap<string, string>): Sym {
    if (!renames || renames.size === 0) return { k: "rec", fields: fact.fields };
    const fields = new Map<string, Sym>();
    for (const [k, v] of fact.fields) fields.set(k, renameSym(v, renames));
    return { k: "rec", fields };
  }

  /** `guard ∧ filters` for a fact, optionally as another iteration (renamed loop indices). */
  active(rel: RelationIR, fact: Fact, renames?: ReadonlyMap<string, string>): string {
    const item = this.item(fact, renames);
    const guard = renames ? renameSymbols(fact.guard, renames) : fact.guard;
    return and(guard, ...rel.filters.map((f) => truthy(this.exec.applyLambda(f, item))));
  }

  private contributors(rel: RelationIR, facts: readonly Fact[]): { fact: Fact; active: string }[] {
    return facts.map((fact) => ({ fact, active: this.active(rel, fact) }));
  }

  /** Fresh copies of a fact's loop indices, with their declarations and renamed assumptions. */
  private copyLoops(fact: Fact, decls: string[], assumptions: string[]): Map<string, string> {
    const renames = new Map<string, string>();
    for (const q of fact.loops) {
      const copy = `${q}.${this.counter++}`;
      renames.set(q, copy);
      decls.push(`(declare-const ${copy} Int)`);
    }
    for (const a of this.world.assumptions) if (a.loops.some((l) => renames.has(l))) assumptions.push(renameSymbols(a.term, renames));
    return renames;
  }

  /** The violation queries of one specification (several for `allOf` and two-sided aggregates). */
  queries(spec: SpecIR): ViolationQuery[] {
    switch (spec.k) {
      case "none": return [];
      case "allOf": return spec.specs.flatMap((s) => this.queries(s));
      case "all": {
        const facts = matchingFacts(this.layer, this.world, spec.rel);
        return [{ declarations: [], assumptions: [], candidates: facts.map((f) => ({ indicator: and(this.active(spec.rel, f), not(truthy(this.exec.applyLambda(spec.pred, this.item(f))))), fact: f })) }];
      }
      case "empty": {
        const facts = matchingFacts(this.layer, this.world, spec.rel);
        return [{ declarations: [], assumptions: [], candidates: facts.map((f) => ({ indicator: this.active(spec.rel, f), fact: f })) }];
      }
      case "sharesValueWith": return [this.joinQuery(spec)];
      case "finalAll": case "finalAt": return [this.finalQuery(spec)];
      case "distinct": case "allSameValue": {
        const facts = matchingFacts(this.layer, this.world, spec.rel);
        const decls: string[] = [];
        const assumptions: string[] = [];
        const candidates: Candidate[] = [];
        for (let a = 0; a < facts.length; a++) {
          for (let b = a; b < facts.length; b++) {
            const f = facts[a]!, g = facts[b]!;
            if (a === b && f.loops.length === 0) continue; // one unrolled fact is one event
            const shared = g.loops.some((l) => f.loops.includes(l));
            const renames = a === b || shared ? this.copyLoops(g, decls, assumptions) : new Map<string, string>();
            const kf = this.exec.applyLambda(spec.key, this.item(f));
            const kg = this.exec.applyLambda(spec.key, this.item(g, renames));
            const same = strictEquals(kf, kg);
            if (same === undefined) throw new EncodingRefusal("keys must be strings, numbers or booleans");
            const differentIteration = a === b ? or(...f.loops.map((q) => `(not (= ${q} ${renames.get(q)}))`)) : "true";
            const conflict = spec.k === "distinct" ? same : not(same);
            candidates.push({ indicator: and(this.active(spec.rel, f), this.active(spec.rel, g, renames), differentIteration, conflict), fact: f, other: g, otherRenames: renames });
          }
        }
        return [{ declarations: decls, assumptions, candidates }];
      }
      case "compare": return this.compareQueries(spec);
    }
  }

  /** Bound copies of a fact's loop indices. */
  private boundLoops(fact: Fact): Map<string, string> {
    const renames = new Map<string, string>();
    for (const q of fact.loops) renames.set(q, `${q}.x${this.counter++}`);
    return renames;
  }

  /**
   * The world's assumptions about the iterations of the given loops, for every iteration: each
   * holds at an arbitrary index (a result's ensures, an element promise), so it holds at all.
   */
  private everyIteration(loops: ReadonlySet<string>): string[] {
    const out: string[] = [];
    for (const a of this.world.assumptions) {
      const own = a.loops.filter((l) => this.world.loopRanges.has(l));
      if (!own.some((l) => loops.has(l))) continue;
      const renames = new Map(own.map((l) => [l, `${l}.all${this.counter++}`] as const));
      out.push(`(forall (${[...renames.values()].map((b) => `(${b} Int)`).join(" ")}) ${renameSymbols(a.term, renames)})`);
    }
    return out;
  }

  /**
   * `L.sharesValueWith(R, key)` is violated when no pair exists: for every left fact f and right
   * fact g, there are no iterations of their loops (each fact's own, so two iterations of one loop
   * may pair) in which both happen, pass their filters and have equal keys. What the world assumes
   * about an arbitrary iteration (ensures of results read there, element promises) is assumed for
   * every iteration: a counterexample may not break a tool's promise to avoid a pair.
   */
  private joinQuery(spec: Extract<SpecIR, { k: "sharesValueWith" }>): ViolationQuery {
    const left = matchingFacts(this.layer, this.world, spec.rel);
    const right = matchingFacts(this.layer, this.world, spec.other);
    const pairs: string[] = [];
    const loops = new Set<string>();
    for (const f of left) {
      for (const g of right) {
        const rf = this.boundLoops(f), rg = this.boundLoops(g);
        for (const l of [...f.loops, ...g.loops]) loops.add(l);
        const kf = this.exec.applyLambda(spec.key, this.item(f, rf));
        const kg = this.exec.applyLambda(spec.key, this.item(g, rg));
        const same = strictEquals(kf, kg);
        if (same === undefined) throw new EncodingRefusal("sharesValueWith keys must be strings, numbers or booleans");
        const body = and(this.active(spec.rel, f, rf), this.active(spec.other, g, rg), same);
        const bound = [...rf.values(), ...rg.values()];
        pairs.push(bound.length === 0 ? body : `(exists (${bound.map((b) => `(${b} Int)`).join(" ")}) ${body})`);
      }
    }
    return { declarations: [], assumptions: this.everyIteration(loops), candidates: [{ indicator: and(...pairs.map(not)), fact: undefined }] };
  }

  /**
   * A fluent's final value at the key term `key`: its writes folded in program order from
   * `initial`, each `ite(it happens ∧ its key === key, its value, before)`. A write inside a loop over
   * an array of unknown length happens at `key` when some iteration writes there (every iteration
   * writes the same value: exec/fluents.ts refuses the rest).
   */
  private finalAt(writes: readonly Fact[], key: Sym, initial: Sym): Sym {
    let value = initial;
    for (const w of writes) {
      const renames = this.boundLoops(w);
      const k = renameSym(w.fields.get("key")!, renames);
      const same = strictEquals(k, key);
      if (same === undefined) throw new EncodingRefusal("fluent keys must be strings, numbers or booleans");
      const body = and(renames.size > 0 ? renameSymbols(w.guard, renames) : w.guard, same);
      const bound = [...renames.values()];
      const written = bound.length === 0 ? body : `(exists (${bound.map((b) => `(${b} Int)`).join(" ")}) ${body})`;
      const v = w.fields.get("value")!;
      if (!(v.k === "str" || v.k === "num" || v.k === "bool") || v.k !== value.k) throw new EncodingRefusal("fluent values must be strings, numbers or booleans of the fluent's type");
      value = { k: v.k, t: ite(written, v.t, (value as { t: string }).t) } as Sym;
    }
    return value;
  }

  /**
   * `final.at(k).equals(v)`: violated when the folded value at k is not `=== v`. `final.all(p)`:
   * violated when some write happens (one iteration of its loop, a fresh copy) and p fails for its
   * key with the key's folded value. What the world assumes about an arbitrary iteration is assumed
   * for every iteration, as for joins.
   */
  private finalQuery(spec: Extract<SpecIR, { k: "finalAll" | "finalAt" }>): ViolationQuery {
    const f = spec.fluent;
    const writes = this.world.facts.filter((x) => x.kind === "update" && x.fluent === f).sort((a, b) => a.order - b.order);
    const initial: Sym = typeof f.initial === "string" ? { k: "str", t: strLit(f.initial), c: f.initial } : typeof f.initial === "number" ? { k: "num", t: numLit(f.initial), c: f.initial } : { k: "bool", t: String(f.initial), c: f.initial };
    const loops = new Set(writes.flatMap((w) => w.loops));
    const assumptions = this.everyIteration(loops);
    if (spec.k === "finalAt") {
      const same = strictEquals(this.finalAt(writes, spec.key, initial), spec.value);
      if (same === undefined) throw new EncodingRefusal("final.at(k).equals(v) compares strings, numbers or booleans");
      return { declarations: [], assumptions, candidates: [{ indicator: not(same), fact: undefined }] };
    }
    const decls: string[] = [];
    const candidates: Candidate[] = [];
    for (const w of writes) {
      const renames = this.copyLoops(w, decls, assumptions);
      const key = renameSym(w.fields.get("key")!, renames);
      const entry: Sym = { k: "rec", fields: new Map([["key", key], ["value", this.finalAt(writes, key, initial)]]) };
      const guard = renames.size > 0 ? renameSymbols(w.guard, renames) : w.guard;
      candidates.push({ indicator: and(guard, not(truthy(this.exec.applyLambda(spec.pred, entry)))), fact: undefined });
    }
    return { declarations: decls, assumptions, candidates };
  }

  private compareQueries(spec: Extract<SpecIR, { k: "compare" }>): ViolationQuery[] {
    const facts = matchingFacts(this.layer, this.world, spec.rel);
    const quantified = facts.filter((f) => f.loops.length > 0);
    const ghosts = this.carriedAggregate(spec, facts, quantified);
    if (ghosts) return ghosts;
    if (spec.agg.k === "sum") {
      if (quantified.length > 0) throw new EncodingRefusal("a sum over a loop over an array input or an unbounded tool result cannot be computed exactly; bound the array with an `ensures((r) => r.length <= N)` on the tool, or loop over a literal array");
      const sel = spec.agg.sel;
      // JavaScript's sum, in program order: ((0 + a) + b) + …, each term only when its call happens.
      // Starting from the first term instead of +0 only differs for -0, which no comparison can tell from +0.
      let acc: string | undefined;
      const values: Sym[] = [];
      for (const f of facts) {
        const v = this.exec.applyLambda(sel, this.item(f));
        if (v.k !== "num") throw new EncodingRefusal("sum(selector) must select a number");
        values.push(v);
        const term = `(ite ${this.active(spec.rel, f)} ${v.t} ${numLit(0)})`;
        acc = acc === undefined ? term : `(fp.add ${RM} ${acc} ${term})`;
      }
      acc ??= numLit(0);
      // Integers (integers.ts: constants, lengths, results an `ensures` declares integral) whose
      // magnitude bounds add up to at most 2^53: every partial Float64 sum is exact, so the sum is
      // the integer sum. Integer arithmetic keeps the query free of floating point (a budget of
      // fixed amounts over ten guarded downloads: 11 s as floats; a budget loop over twelve
      // invoices: undecided in 90 s as floats).
      const ints = values.map((v) => (v.k === "num" && v.int !== undefined ? v : undefined));
      const exact = ints.every((v) => v !== undefined) && boundWithin(ints.map((v) => v!.mag)) !== undefined;
      if (exact && values.length > 0) {
        const terms = facts.map((f, i) => `(ite ${this.active(spec.rel, f)} ${ints[i]!.int} 0)`);
        const sum = terms.length === 1 ? terms[0]! : `(+ ${terms.join(" ")})`;
        return [{ declarations: [], assumptions: [], candidates: [{ indicator: this.outside(spec.op, spec.bounds, (op, b) => compareInt(sum, op, b)), fact: undefined }], contributors: this.contributors(spec.rel, facts), aggregate: { op: spec.op, bounds: spec.bounds, values } }];
      }
      // Float64 addition is not associative: over calls that may interleave, program order is one
      // order among many (facts.ts `unordered`).
      if (facts.some((f) => f.unordered)) throw new EncodingRefusal("a sum of numbers that may not be integers over calls made in callbacks of `Promise.all` that do more than make one call depends on the order the calls settle in (Float64 addition is not associative); sum integers (amounts a tool's `ensures` declares integral), or await the calls in turn");
      const total = acc;
      return [{ declarations: [], assumptions: [], candidates: [{ indicator: this.outside(spec.op, spec.bounds, (op, b) => compareFloat(total, op, b)), fact: undefined }], contributors: this.contributors(spec.rel, facts), aggregate: { op: spec.op, bounds: spec.bounds, values } }];
    }
    const exactTerms = facts.filter((f) => f.loops.length === 0).map((f) => `(ite ${this.active(spec.rel, f)} 1 0)`);
    if (quantified.length === 0) {
      const count = exactTerms.length === 0 ? "0" : exactTerms.length === 1 ? exactTerms[0]! : `(+ ${exactTerms.join(" ")})`;
      return [{ declarations: [], assumptions: [], candidates: [{ indicator: this.outside(spec.op, spec.bounds, (op, b) => compareInt(count, op, b)), fact: undefined }], contributors: this.contributors(spec.rel, facts), aggregate: { op: spec.op, bounds: spec.bounds, values: [] } }];
    }
    for (const f of quantified) if (f.loops.length > 1) throw new EncodingRefusal("a count over nested loops over arrays cannot be computed exactly; loop over one array at a time");
    // Upper bound of the count: a quantified call counts the whole array when it happens for some element
    // (the adversary can make every element like that one). Lower bound: the whole array only when it
    // happens for every element, else nothing.
    const decls: string[] = [];
    const assumptions: string[] = [];
    const upperTerms = [...exactTerms];
    const lowerTerms = [...exactTerms];
    for (const f of quantified) {
      const q = f.loops[0]!;
      const len = this.world.loopRanges.get(q)!.len;
      const renames = this.copyLoops(f, decls, assumptions);
      upperTerms.push(`(ite ${this.active(spec.rel, f, renames)} ${len} 0)`);
      const bound = `${q}.all${this.counter++}`;
      const all = `(forall ((${bound} Int)) ${implies(`(and (<= 0 ${bound}) (< ${bound} ${len}))`, this.active(spec.rel, f, new Map([[q, bound]])))})`;
      lowerTerms.push(`(ite ${all} ${len} 0)`);
    }
    const sum = (ts: string[]) => (ts.length === 1 ? ts[0]! : `(+ ${ts.join(" ")})`);
    const upper = sum(upperTerms);
    const lower = sum(lowerTerms);
    const b = spec.bounds;
    const out: ViolationQuery[] = [];
    const tooMany = spec.op === "atMost" || spec.op === "lessThan" ? not(compareInt(upper, spec.op, b))
      : spec.op === "equals" ? not(compareInt(upper, "atMost", b))
      : spec.op === "between" ? not(compareInt(upper, "atMost", [b[1]!]))
      : undefined;
    const below = spec.op === "atLeast" || spec.op === "greaterThan" ? not(compareInt(lower, spec.op, b))
      : spec.op === "equals" ? not(compareInt(lower, "atLeast", b))
      : spec.op === "between" ? not(compareInt(lower, "atLeast", [b[0]!]))
      : undefined;
    // Too few is about runs that end normally (`completes`).
    const tooFew = below === undefined ? undefined : and(below, this.completes());
    const contributors = this.contributors(spec.rel, facts);
    if (tooMany) {
      // The upper bound is exact only when every element can be made like the one that counts,
      // which a guard comparing elements (`x !== xs[0]`) or a promise about the whole array can
      // prevent. So a violation is reported only from a run the count is computed for exactly:
      // every iteration unrolled, for arrays short enough to exceed the bound.
      const exact = this.unrolledCount(spec.rel, exactTerms, quantified, b);
      if (exact) {
        const indicator = spec.op === "atMost" || spec.op === "lessThan" ? not(compareInt(exact.count, spec.op, b))
          : spec.op === "equals" ? not(compareInt(exact.count, "atMost", b))
          : not(compareInt(exact.count, "atMost", [b[1]!]));
        out.push({ declarations: [], assumptions: exact.assumptions, candidates: [{ indicator, fact: undefined }], contributors, aggregate: { op: spec.op, bounds: b, values: [] }, partial: true });
      }
      out.push({ declarations: decls, assumptions, candidates: [{ indicator: tooMany, fact: undefined }], contributors, aggregate: { op: spec.op, bounds: b, values: [] }, inexact: `the count over a loop over an array of unknown length may exceed the bound, ${exact ? `but no run with arrays of at most ${exact.iterations} elements does, and longer ones are not computed exactly` : "and it is not computed exactly for any length (what the loop's iterations assume ties them to another loop over an array of unknown length)"}; bound the array with an \`ensures((r) => r.length <= N)\` on the tool, or loop over a literal array` });
    }
    if (tooFew) {
      // Exact when every array the quantified calls loop over is empty: try that counterexample first.
      const empty = quantified.map((f) => `(= ${this.world.loopRanges.get(f.loops[0]!)!.len} 0)`);
      out.push({ declarations: decls, assumptions: [...assumptions, ...empty], candidates: [{ indicator: tooFew, fact: undefined }], contributors, aggregate: { op: spec.op, bounds: b, values: [], tooFew: true }, partial: true });
    }
    if (tooFew) out.push({ declarations: decls, assumptions, candidates: [{ indicator: tooFew, fact: undefined }], contributors, aggregate: { op: spec.op, bounds: b, values: [], tooFew: true }, inexact: "the count over a loop may fall below the bound for some inputs, but the encoding cannot decide it exactly; bound the array with an `ensures((r) => r.length <= N)` on the tool, or loop over a literal array" });
    return out;
  }

  /**
   * A count or sum whose quantified facts all lie in loops that carry state (loop-invariants.ts):
   * each loop's part is its ghost at the loop's length, which the loop's invariant constrains (the
   * world assumes it at the length). Exact where the invariant pins it, an over-approximation
   * elsewhere: a satisfiable query is only a candidate (prove.ts marks it inexact and searches
   * short runs). Undefined (the general encoding decides) when a fact has a filter or lies in
   * another loop, or a sum's value is not one integer field of the event.
   */
  private carriedAggregate(spec: Extract<SpecIR, { k: "compare" }>, facts: readonly Fact[], quantified: readonly Fact[]): ViolationQuery[] | undefined {
    if (quantified.length === 0 || quantified.some((f) => f.loops.length > 1)) return undefined;
    const terms: string[] = [];
    const mags: number[] = [];
    const values: Sym[] = [];
    for (const f of facts) {
      // A `where` the fact's own fields decide (`Booking.where((b) => b.clinicianId === "dr-lee")`
      // over calls that pass "dr-lee"): the ghosts count the fact whole, or not at all. A filter
      // that depends on the iteration would need ghosts of its own: not modelled.
      if (f.loops.length > 0 && spec.rel.filters.length > 0) {
        const item = this.item(f);
        const kept = and(...spec.rel.filters.map((fl) => truthy(this.exec.applyLambda(fl, item))));
        if (kept === "false") continue;
        if (kept !== "true") return undefined;
      }
      if (spec.agg.k === "count") {
        const g = f.loops.length > 0 ? ghostCount(this.world, f) : "";
        if (g === undefined) return undefined;
        terms.push(f.loops.length > 0 ? g : `(ite ${this.active(spec.rel, f)} 1 0)`);
        continue;
      }
      const v = this.exec.applyLambda(spec.agg.sel, this.item(f));
      if (v.k !== "num" || v.int === undefined) return undefined;
      values.push(v);
      if (f.loops.length === 0) {
        terms.push(`(ite ${this.active(spec.rel, f)} ${v.int} 0)`);
        mags.push(v.mag);
        continue;
      }
      const field = [...f.fields].find(([, x]) => x.k === "num" && x.int === v.int)?.[0];
      const g = field === undefined ? undefined : ghostSum(this.world, f, field);
      if (g === undefined) return undefined;
      terms.push(g.term);
      // Every partial sum stays within the invariant's bound on it, or that of 2^32 - 1 such
      // amounts: exact in Float64 when the bounds together stay within 2^53.
      mags.push(g.bound ?? v.mag * ARRAY_LENGTH_MAG);
    }
    if (spec.agg.k === "sum" && boundWithin(mags) === undefined) return undefined;
    // (No term at all where every call's fields rule the filter out: the count or sum is 0.)
    const total = terms.length === 0 ? "0" : terms.length === 1 ? terms[0]! : `(+ ${terms.join(" ")})`;
    return [{ declarations: [], assumptions: [], candidates: [{ indicator: not(compareInt(total, spec.op, spec.bounds)), fact: undefined }], contributors: this.contributors(spec.rel, facts), aggregate: { op: spec.op, bounds: spec.bounds, values } }];
  }

  /**
   * The count with every quantified loop unrolled up to `iterations` elements, and the world's
   * per-iteration assumptions instantiated at each unrolled index that exists: exact for runs whose
   * arrays are no longer than that. Undefined when an assumption ties the loop to another quantified
   * index (nested loops), which the unrolling cannot instantiate.
   */
  private unrolledCount(rel: RelationIR, exactTerms: readonly string[], quantified: readonly Fact[], bounds: readonly number[]): { count: string; assumptions: string[]; iterations: number } | undefined {
    const iterations = Math.min(UNROLLED_COUNT, Math.floor(Math.max(...bounds)) + 1);
    const loops = new Set(quantified.map((f) => f.loops[0]!));
    const assumptions: string[] = [];
    for (const a of this.world.assumptions) {
      const own = a.loops.filter((l) => loops.has(l));
      if (own.length === 0) continue;
      if (own.length > 1 || a.loops.some((l) => l !== own[0] && this.world.loopRanges.has(l))) return undefined;
      const q = own[0]!;
      const len = this.world.loopRanges.get(q)!.len;
      for (let i = 0; i < iterations; i++) assumptions.push(implies(`(< ${i} ${len})`, renameSymbols(a.term, new Map([[q, String(i)]]))));
    }
    const terms = [...exactTerms];
    for (const f of quantified) {
      const q = f.loops[0]!;
      const len = this.world.loopRanges.get(q)!.len;
      assumptions.push(`(<= ${len} ${iterations})`);
      for (let i = 0; i < iterations; i++) terms.push(`(ite ${and(`(< ${i} ${len})`, this.active(rel, f, new Map([[q, String(i)]])))} 1 0)`);
    }
    const count = terms.length === 0 ? "0" : terms.length === 1 ? terms[0]! : `(+ ${terms.join(" ")})`;
    return { count, assumptions: [...new Set(assumptions)], iterations };
  }
}

/** The most iterations of a loop a count is unrolled to, to find a run that breaks its upper bound. */
const UNROLLED_COUNT = 64;

function renameSym(v: Sym, renames: ReadonlyMap<string, string>): Sym {
  switch (v.k) {
    case "str": return v.c !== undefined ? v : { k: "str", t: renameSymbols(v.t, renames) };
    case "num": return renameNum(v, (t) => renameSymbols(t, renames));
    case "bool": return v.c !== undefined ? v : { k: "bool", t: renameSymbols(v.t, renames) };
    case "arr": return { k: "arr", items: v.items.map((i) => renameSym(i, renames)) };
    case "rec": return { k: "rec", fields: new Map([...v.fields].map(([k, x]) => [k, renameSym(x, renames)])) };
    case "coll": throw new Error("a collection cannot be renamed");
    default: return v;
  }
}
