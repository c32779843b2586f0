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
import type { Counterexample, ProgramVerdict, ProofResult, ProveInput, ShownValue, Verdict } from "./api";
import { EncodingRefusal, Encoder, relationIsPerformed, relationsOf, type ViolationQuery } from "./encode";
import { Executor } from "./exec";
import { checkProgramShape } from "./program-shape";
import { World, type Fact } from "./facts";
import { decodeFloat, decodeInt, decodeString, type SExpr } from "./sexpr";
import { or, renameSymbols } from "./smt";
import { bool, num, str, type Sym } from "./values";
import { SolverError, Z3Session, type ValueSort } from "./z3";
import { checkProgramLimits, failedProof, ProgramBudget } from "./limits";

/** Loops over arrays longer than this in a model are blamed without looking at each iteration. */
const BLAME_ITERATIONS = 64;
/** Array length bound of the counterexample search that backs up undecided guarantees. */
const BOUNDED_SEARCH = 3;
/** How many elements of an array a counterexample shows. */
const SHOWN_ELEMENTS = 8;

/** The sentence of a guarantee: the one renderer's sentence (or the first JSDoc paragraph). */
export function guaranteeSentence(g: GuaranteeModel): string | undefined {
  return sentenceOf(g.contract, g.args).text ?? undefined;
}

function showNumber(n: number): ShownValue {
  return Number.isNaN(n) ? "NaN" : Object.is(n, -0) ? "-0" : n === Infinity ? "Infinity" : n === -Infinity ? "-Infinity" : n;
}

function showText(v: ShownValue): string {
  return typeof v === "string" ? JSON.stringify(v) : Array.isArray(v) ? `[${v.map(showText).join(", ")}]` : typeof v === "object" && v !== null ? `{ ${Object.entries(v).map(([k, x]) => `${k}: ${showText(x)}`).join(", ")} }` : String(v);
}

function where(span: Span, base: string): string {
  const rel = span.fileName.startsWith(base) ? span.fileName.slice(base.length).replace(/^[\\/]/, "") : span.fileName;
  return `${rel}:${span.line}:${span.column}`;
}

/** Reads values out of a satisfying model, in as few round trips as possible. */
class ModelReader {
  private readonly terms = new Map<string, ValueSort>();
  private readonly values = new Map<string, SExpr>();
  constructor(private readonly get: (terms: readonly { term: string; sort: ValueSort }[]) => Promise<SExpr[]>) {}

  want(sym: Sym): void {
    for (const [t, sort] of this.scalarTerms(sym)) if (!this.values.has(t)) this.terms.set(t, sort);
  }
  wantTerm(term: string, sort: ValueSort = "Bool"): void {
    if (!this.values.has(term)) this.terms.set(term, sort);
  }
  async fetch(): Promise<void> {
    const terms = [...this.terms].filter(([t]) => !this.values.has(t)).map(([term, sort]) => ({ term, sort }));
    this.terms.clear();
    if (terms.length === 0) return;
    const vs = await this.get(terms);
    terms.forEach((t, i) => this.values.set(t.term, vs[i]!));
  }
  private scalarTerms(sym: Sym): [string, ValueSort][] {
    switch (sym.k) {
      case "str": return sym.c === undefined ? [[sym.t, "String"]] : [];
      case "bool": return sym.c === undefined ? [[sym.t, "Bool"]] : [];
      case "num": return sym.c === undefined ? [[sym.t, "Float64"]] : [];
      case "arr": return sym.items.flatMap((i) => this.scalarTerms(i));
      case "rec": return [...sym.fields.values()].flatMap((i) => this.scalarTerms(i));
      case "sarr": return [[sym.len, "Int"]];
      default: return [];
    }
  }
  bool(term: string): boolean {
    return this.values.get(term) === "true";
  }
  /** An Int term's value, when it was fetched. */
  int(term: string): number | undefined {
    const v = this.values.get(term);
    return v === undefined ? undefined : decodeInt(v);
  }
  /** Ask for the elements of symbolic arrays whose length is known. */
  wantElements(sym: Sym): void {
    if (sym.k === "sarr") {
      const len = this.values.get(sym.len);
      const n = len === undefined ? 0 : Math.min(decodeInt(len), SHOWN_ELEMENTS);
      for (let i = 0; i < n; i++) this.want(sym.at(String(i)));
    } else if (sym.k === "rec") for (const v of sym.fields.values()) this.wantElements(v);
  }
  show(sym: Sym): ShownValue {
    switch (sym.k) {
      case "str": return sym.c ?? (this.values.has(sym.t) ? decodeString(String(this.values.get(sym.t))) : "?");
      case "bool": return sym.c ?? (this.values.has(sym.t) ? this.values.get(sym.t) === "true" : "?");
      case "num": {
        if (sym.c !== undefined) return showNumber(sym.c);
        const v = this.values.get(sym.t);
        return v === undefined ? "?" : showNumber(decodeFloat(v));
      }
      case "undef": return null;
      case "arr": return sym.items.map((i) => this.show(i));
      case "rec": return Object.fromEntries([...sym.fields].map(([k, v]) => [k, this.show(v)]));
      case "sarr": {
        const len = this.values.get(sym.len);
        if (len === undefined) return "?";
        const n = decodeInt(len);
        const shown = Array.from({ length: Math.min(n, SHOWN_ELEMENTS) }, (_, i) => this.show(sym.at(String(i))));
        if (n > SHOWN_ELEMENTS) shown.push(`… ${n - SHOWN_ELEMENTS} more`);
        return shown;
      }
      default: return "?";
    }
  }
}

type Outcome =
  | { readonly status: "unsat" }
  | { readonly status: "unknown"; readonly reason: string }
  | { readonly status: "sat"; readonly index: number; readonly cex: Counterexample; readonly activeSites: readonly Fact[] };

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
  const shape = checkProgramShape(ts, program, file, layer, list.declaration, input.host ?? ts.sys);
  const main = shape.main;
  const world = new World();
  const exec = new Executor(ts, program, checker, layer.model, world, layer.isTrusted);
  let programRefusal: Refusal | undefined;
  try {
    if (shape.refusal) throw shape.refusal;
    exec.runMain(main!);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    programRefusal = error;
  }

  const session = await Z3Session.get();
  let boundedRun: { world: World; exec: Executor } | null | undefined;
  const boundedSearch = async (): Promise<{ world: World; exec: Executor } | null> => {
    if (boundedRun === undefined) {
      const w = new World();
      const e = new Executor(ts, program, checker, layer.model, w, layer.isTrusted, BOUNDED_SEARCH);
      try {
        e.runMain(main!);
        boundedRun = { world: w, exec: e };
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        boundedRun = null;
      }
    }
    return boundedRun;
  };
  const runQuery = (q: ViolationQuery, describe: Describe): Promise<Outcome> => runViolation(session, world, q, budget, describe);

  for (const g of guarantees) {
    const contract = qualifiedCall(g);
    const sentence = guaranteeSentence(g);
    const common = { kind: "guarantee" as const, contract, contractName: g.contract.name, sentence, guarantee: g.span };
    if (layerProblem) {
      const { line, character } = layerProblem.file.getLineAndCharacterOfPosition(layerProblem.start);
      const at = `${where({ fileName: layerProblem.file.fileName, start: layerProblem.start, length: layerProblem.length, line: line + 1, column: character + 1 }, base)}`;
      results.push({ ...common, verdict: "refused", code: PROOF_CODES.refused, location: g.span, message: `refused: the trusted layer breaks ${layerProblemCount} layer rule(s) (first at ${at}: ${layerProblem.message}); a proof over it would not mean anything. Fix the layer first.` });
      continue;
    }
    if (programRefusal) {
      results.push(refused(programRefusal.node, programRefusal.reason, programRefusal.instead, common));
      continue;
    }
    let result: ProofResult;
    try {
      result = await decide(g, common, world, exec, runQuery, base);
    } catch (error) {
      if (error instanceof Refusal) result = refused(error.node, error.reason, error.instead, common);
      else if (error instanceof EncodingRefusal) result = refused(g.node, `${contract}: ${error.message}.`, "", common);
      else if (error instanceof SolverError) result = { ...refused(g.node, `the solver rejected the query for ${contract} (${error.message}).`, "This is a bug in clauz3; the guarantee is not proved.", common), code: PROOF_CODES.unknown };
      else throw error;
    }
    // Where the general encoding cannot decide, look for a genuine counterexample among runs whose
    // arrays have at most BOUNDED_SEARCH elements (exact there). Finding none proves nothing.
    const hasArrays = world.loopRanges.size > 0 || [...world.inputs, ...world.toolResults].some((v) => v.sym.k === "sarr");
    if (result.verdict === "refused" && main && hasArrays) {
      const bounded = await boundedSearch();
      if (bounded) {
        try {
          const found = await decide(g, common, bounded.world, bounded.exec, (q, d) => runViolation(session, bounded.world, q, budget, d), base);
          if (found.verdict === "violated") result = { ...found, message: `${found.message} (Found among runs whose arrays have at most ${BOUNDED_SEARCH} elements.)` };
        } catch (error) {
          if (!(error instanceof Refusal || error instanceof EncodingRefusal || error instanceof SolverError)) throw error;
        }
      }
    }
    results.push(result);
  }

  if (!programRefusal && !layerProblem) {
    results.push(...(await checkObligations(session, world, budget, base)));
    results.push(...(await checkThrows(session, world, budget, base)));
  } else if (guarantees.length === 0 && programRefusal) {
    results.push(refused(programRefusal.node, programRefusal.reason, programRefusal.instead));
  }
  const verdict: Verdict = results.some((r) => r.verdict === "violated") ? "violated" : results.some((r) => r.verdict === "refused") ? "refused" : "proved";
  return { file: file.fileName, verdict, results, ...(budget.wallClock ? { provisional: budget.wallClock } : {}) };
}

type Describe = (index: number, reader: ModelReader) => { fact?: Fact; other?: Fact; otherRenames?: ReadonlyMap<string, string> };

/** Decide one guarantee over one symbolic execution: proved, violated (with counterexample) or refused. */
async function decide(
  g: GuaranteeModel,
  common: { kind: "guarantee"; contract: string; contractName: string; sentence: string | undefined; guarantee: Span },
  world: World,
  exec: Executor,
  runQuery: (q: ViolationQuery, describe: Describe) => Promise<Outcome>,
  base: string,
): Promise<ProofResult> {
  const { contract, sentence } = common;
  const spec = exec.buildSpec(g.contract, g.args.map((a) => literalSym(a.value)), g.node);
  const unperformed = relationsOf(spec).find((r) => !relationIsPerformed(exec.layerModel, r));
  if (unperformed) {
    const name = unperformed.source.kind === "event" ? unperformed.source.event.name : unperformed.source.tool.name;
    const span = spanOf(g.node);
    return { ...common, verdict: "refused", code: PROOF_CODES.refused, location: span, message: `refused: \`${contract}\` constrains ${name} events, but no tool of this program's layer performs them, so it would hold vacuously. Declare \`performs(...)\` on the tools that perform ${name}, or select the library that does.` };
  }
  const encoder = new Encoder(exec.layerModel, world, exec);
  for (const q of encoder.queries(spec)) {
    const o = await runQuery(q, (index) => {
      const c = q.candidates[index]!;
      return { fact: c.fact, other: c.other, otherRenames: c.otherRenames };
    });
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
  return { ...common, verdict: "proved", code: PROOF_CODES.proved, location: g.span, message: `proved: ${sentence ?? contract}` };
}

function literalSym(v: LiteralValue): Sym {
  switch (v.kind) {
    case "string": case "FilePath": case "DirectoryPath": return str(v.value);
    case "number": return num(v.value);
    case "boolean": return bool(v.value);
    case "array": return { k: "arr", items: v.items.map(literalSym) };
  }
}

function violationMessage(contract: string, sentence: string | undefined, cex: Counterexample, base: string): string {
  const inputs = Object.entries(cex.inputs).map(([k, v]) => `${k}=${showText(v)}`).join(", ");
  const parts = [`${contract} is violated${sentence ? ` (${sentence})` : ""}.`, `Counterexample: main(${inputs})`];
  if (cex.callSite && cex.event) {
    const fields = Object.entries(cex.event.fields).map(([k, v]) => `${k}=${showText(v)}`).join(", ");
    parts.push(`reaches the call at ${where(cex.callSite, base)}, performing ${cex.event.name}(${fields})`);
  }
  if (cex.otherEvent) {
    const fields = Object.entries(cex.otherEvent.fields).map(([k, v]) => `${k}=${showText(v)}`).join(", ");
    parts.push(`and ${cex.otherEvent.callSite ? `at ${where(cex.otherEvent.callSite, base)} ` : ""}${cex.otherEvent.name}(${fields})`);
  }
  const tools = Object.entries(cex.toolResults);
  if (tools.length > 0) parts.push(`with tool results ${tools.map(([k, v]) => `${k} → ${showText(v)}`).join(", ")}`);
  return `${parts.join(" ")}.`;
}

async function runViolation(
  session: Z3Session,
  world: World,
  q: ViolationQuery,
  budget: ProgramBudget,
  describe: (index: number, reader: ModelReader) => { fact?: Fact; other?: Fact; otherRenames?: ReadonlyMap<string, string> },
): Promise<Outcome> {
  const live = q.candidates.map((c, i) => ({ c, i })).filter(({ c }) => c.indicator !== "false");
  if (live.length === 0) return { status: "unsat" };
  const names = live.map(({ i }) => `violation!${i}`);
  const decls = [...world.declarations, ...q.declarations, ...live.map(({ c }, k) => `(define-fun ${names[k]} () Bool ${c.indicator})`)].join("\n");
  const assertions = [...world.assumptions.map((a) => a.term), ...q.assumptions, names.length === 1 ? names[0]! : `(or ${names.join(" ")})`];
  const limits = budget.next();
  if (!limits) return { status: "unknown", reason: budget.programReason };
  const answer = await session.query(decls, assertions, limits, async (get) => {
    const reader = new ModelReader(get);
    names.forEach((n) => reader.wantTerm(n));
    for (const input of world.inputs) reader.want(input.sym);
    for (const r of world.toolResults) if (r.loops.length === 0) { reader.want(r.sym); reader.wantTerm(r.guard); }
    for (const c of q.contributors ?? []) reader.wantTerm(c.active);
    await reader.fetch();
    const k = names.findIndex((n) => reader.bool(n));
    const index = live[Math.max(0, k)]!.i;
    const described = describe(index, reader);
    // For pairs, the later call is the one that breaks the guarantee; the earlier one is shown beside it.
    const chosen = described.other
      ? { fact: described.other, factRenames: described.otherRenames, other: described.fact, otherRenames: undefined }
      : { fact: described.fact, factRenames: undefined, other: undefined, otherRenames: undefined };
    let fact = chosen.fact;
    const activeSites = (q.contributors ?? []).filter((c) => reader.bool(c.active)).map((c) => c.fact);
    if (!fact && q.aggregate && !q.aggregate.tooFew) fact = await blameAggregate(q, reader, world);
    for (const input of world.inputs) reader.wantElements(input.sym);
    for (const r of world.toolResults) if (r.loops.length === 0) reader.wantElements(r.sym);
    const otherFields = chosen.other ? renamedFields(chosen.other, chosen.otherRenames) : undefined;
    const factFields = fact ? renamedFields(fact, chosen.factRenames) : undefined;
    if (factFields) for (const v of factFields.values()) reader.want(v);
    if (otherFields) for (const v of otherFields.values()) reader.want(v);
    await reader.fetch();
    const inputs: Record<string, ShownValue> = {};
    for (const input of world.inputs) inputs[input.name] = reader.show(input.sym);
    const toolResults: Record<string, ShownValue> = {};
    // Only results the run had seen before the breaking call explain it: the executions of each
    // call site that this run reaches, in program order (`tool@3:5`, then `tool@3:5#2`, …).
    const executions = new Map<string, number>();
    for (const r of [...world.toolResults].sort((a, b) => a.order - b.order)) {
      if (r.loops.length > 0 || (fact && r.order >= fact.order) || !reader.bool(r.guard)) continue;
      const n = (executions.get(r.label) ?? 0) + 1;
      executions.set(r.label, n);
      toolResults[n === 1 ? r.label : `${r.label}#${n}`] = reader.show(r.sym);
    }
    const eventOf = (f: Fact, fields: ReadonlyMap<string, Sym>) => ({
      name: f.kind === "event" ? f.event!.name : f.tool.name,
      fields: Object.fromEntries([...fields].map(([k, v]) => [k, reader.show(v)])),
    });
    const cex: Counterexample = {
      inputs,
      toolResults,
      callSite: fact ? spanOf(fact.site) : undefined,
      event: fact && factFields ? eventOf(fact, factFields) : undefined,
      ...(chosen.other && otherFields ? { otherEvent: { ...eventOf(chosen.other, otherFields), callSite: spanOf(chosen.other.site) } } : {}),
    };
    return { index, cex, activeSites };
  });
  budget.note(answer);
  if (answer.status !== "sat") return answer;
  return { status: "sat", ...answer.result };
}

/** The call that first takes the running count or sum past the upper bound, in program order. */
async function blameAggregate(q: ViolationQuery, reader: ModelReader, world: World): Promise<Fact | undefined> {
  const agg = q.aggregate!;
  const contributors = q.contributors ?? [];
  for (const v of agg.values) if (v) reader.want(v);
  const loopLength = (f: Fact): string | undefined => (f.loops.length > 0 ? world.loopRanges.get(f.loops[0]!)?.len : undefined);
  for (const c of contributors) {
    const len = loopLength(c.fact);
    if (len) reader.wantTerm(len, "Int");
  }
  await reader.fetch();
  // Whether a call in a loop over an array happens in some iteration of the model's array.
  const iterations = (c: { fact: Fact; active: string }): string[] | undefined => {
    const len = loopLength(c.fact);
    const n = len === undefined ? undefined : reader.int(len);
    if (c.fact.loops.length !== 1 || n === undefined || n > BLAME_ITERATIONS) return undefined;
    return Array.from({ length: n }, (_, i) => renameSymbols(c.active, new Map([[c.fact.loops[0]!, String(i)]])));
  };
  for (const c of contributors) for (const t of iterations(c) ?? []) reader.wantTerm(t);
  await reader.fetch();
  const upper = agg.op === "atMost" || agg.op === "equals" ? (x: number) => x > agg.bounds[0]!
    : agg.op === "lessThan" ? (x: number) => x >= agg.bounds[0]!
    : agg.op === "between" ? (x: number) => x > agg.bounds[1]!
    : undefined;
  const order = contributors.map((c, i) => ({ c, i })).sort((a, b) => a.c.fact.order - b.c.fact.order);
  let running = 0;
  for (const { c, i } of order) {
    if (c.fact.loops.length > 0) {
      // A loop whose call happens in no iteration of the model's array (an empty array, a guard
      // false for every element) makes no call: the fuzzer found the blame on such a loop, with
      // the call that did break the bound after it. Otherwise its calls take the count past it.
      const its = iterations(c);
      if (its && !its.some((t) => reader.bool(t))) continue;
      return c.fact;
    }
    if (!reader.bool(c.active)) continue;
    const v = agg.values[i];
    const shown = v ? reader.show(v) : 1;
    running += typeof shown === "number" ? shown : Number(shown);
    if (upper?.(running)) return c.fact;
  }
  return undefined;
}

function renamedFields(f: Fact, renames: ReadonlyMap<string, string> | undefined): ReadonlyMap<string, Sym> {
  if (!renames || renames.size === 0) return f.fields;
  const out = new Map<string, Sym>();
  for (const [k, v] of f.fields) {
    out.set(k, v.k === "str" && v.c === undefined ? { k: "str", t: renameSymbols(v.t, renames) } : v.k === "num" && v.c === undefined ? { k: "num", t: renameSymbols(v.t, renames) } : v.k === "bool" && v.c === undefined ? { k: "bool", t: renameSymbols(v.t, renames) } : v);
  }
  return out;
}

/** A solver failure (a rejected query, a lost session) leaves a precondition or throw undecided: refused. */
async function undecidedOnSolverError(outcome: Promise<Outcome>): Promise<Outcome> {
  try {
    return await outcome;
  } catch (error) {
    if (error instanceof SolverError) return { status: "unknown", reason: `the solver failed: ${error.message}` };
    throw error;
  }
}

/** Preconditions: one query for all, then narrowing to report each failing call with its own counterexample. */
async function checkObligations(session: Z3Session, world: World, budget: ProgramBudget, base: string): Promise<ProofResult[]> {
  const results: ProofResult[] = [];
  let pending = world.obligations.map((o, i) => ({ o, i }));
  while (pending.length > 0) {
    const q: ViolationQuery = { declarations: [], assumptions: [], candidates: pending.map(({ o }) => ({ indicator: `(and ${o.guard} (not ${o.holds}))`, fact: undefined })) };
    const outcome = await undecidedOnSolverError(runViolation(session, world, q, budget, () => ({})));
    if (outcome.status === "unsat") break;
    const picked = pending[outcome.status === "sat" ? outcome.index : 0]!;
    const { o } = picked;
    const location = spanOf(o.site);
    if (outcome.status === "unknown") {
      results.push({ kind: "precondition", tool: o.tool.qualifiedName, verdict: "refused", code: PROOF_CODES.unknown, location, message: `refused: the solver could not decide the precondition of ${o.tool.name} (${outcome.reason}).` });
      pending = [];
      break;
    }
    const inputs = Object.entries(outcome.cex.inputs).map(([k, v]) => `${k}=${showText(v)}`).join(", ");
    results.push({
      kind: "precondition",
      tool: o.tool.qualifiedName,
      verdict: "violated",
      code: PROOF_CODES.precondition,
      location,
      counterexample: { ...outcome.cex, callSite: location, event: undefined },
      message: `${o.tool.qualifiedName} may be called with arguments that fail its precondition "${o.message}". Counterexample: main(${inputs}) reaches the call at ${where(location, base)}.`,
    });
    // One report per call site: the other unrolled iterations of this call are the same finding.
    pending = pending.filter((p) => p !== picked && p.o.site !== o.site);
  }
  for (const { o } of pending) {
    if (results.some((r) => r.location.start === o.site.getStart() && r.location.fileName === o.site.getSourceFile().fileName)) continue;
    results.push({ kind: "precondition", tool: o.tool.qualifiedName, verdict: "proved", code: PROOF_CODES.proved, location: spanOf(o.site), message: `proved: the precondition "${o.message}" of ${o.tool.qualifiedName} holds at this call.` });
  }
  return results;
}

async function checkThrows(session: Z3Session, world: World, budget: ProgramBudget, base: string): Promise<ProofResult[]> {
  const results: ProofResult[] = [];
  // One query per site: an unrolled loop repeats a throw once per iteration, and the site is
  // reachable when any of them is.
  const bySite = new Map<TS.Node, World["throws"][number][]>();
  for (const t of world.throws) bySite.set(t.site, [...(bySite.get(t.site) ?? []), t]);
  for (const group of bySite.values()) {
    const t = group[0]!;
    const location = spanOf(t.site);
    const outcome = await undecidedOnSolverError(runViolation(session, world, { declarations: [], assumptions: [], candidates: [{ indicator: or(...group.map((x) => x.guard)), fact: undefined }] }, budget, () => ({})));
    if (outcome.status === "unsat") results.push({ kind: "throw", verdict: "proved", code: PROOF_CODES.proved, location, message: t.message ? `proved: ${t.message.replace("may be", "is never")}.` : "proved: this throw is unreachable." });
    else if (outcome.status === "unknown") results.push({ kind: "throw", verdict: "refused", code: PROOF_CODES.unknown, location, message: `refused: the solver could not decide whether this throw is reachable (${outcome.reason}).` });
    else {
      const inputs = Object.entries(outcome.cex.inputs).map(([k, v]) => `${k}=${showText(v)}`).join(", ");
      const what = t.message ? `${t.message}: the run would go on with undefined` : "A throw is reachable";
      results.push({ kind: "throw", verdict: "violated", code: PROOF_CODES.throw, location, counterexample: { ...outcome.cex, callSite: location, event: undefined }, message: `${what} at ${where(location, base)}: main(${inputs}).` });
    }
  }
  return results;
}

