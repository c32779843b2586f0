import fc from "fast-check";
import ts from "typescript";
import type { Counterexample, ProgramVerdict, ProofResult, ShownValue, Verdict } from "../core/prover/api";
import { proveProgram } from "../core/prover/prove";
import { readLayer } from "../core/layer/read";
import { check, isPrefixClosed } from "../runtime/check";
import { RequiresError } from "../runtime/errors";
import { Event } from "../runtime/event";
import { ToolCall, type Occurrence } from "../runtime/occurrence";
import type { Guarantee } from "../runtime/spec-data";
import { loadLayer, loadPlan, OracleFailure, runMain, type LoadedLayer, type LoadedPlan, type Run, type ToolRuntime } from "./execute";
import { Project, typeErrors } from "./project";
import { shapeOf, type Shape } from "./shapes";
import { fromShown, keepElementPromises, poolsOf, show, UNSPECIFIED, valueArb, type Pools } from "./values";

/**
 * Tools added to the layer after the others (those with element promises): they get a stream of
 * results only in programs that call them, so the runs of every other program draw what they drew
 * before (a stream per tool shifts the random draws of every later run).
 */
const ON_DEMAND_TOOLS: ReadonlySet<string> = new Set(["prefixed", "positives", "credits", "wholes", "tally", "invoices"]);

/**
 * The oracle: prove a program, then run it for real and compare.
 *
 * - proved ⇒ no concrete run violates: `main` runs many times with inputs and tool results drawn
 *   from the program's literals, their neighbours and corner cases (each tool result allowed by
 *   the tool's `ensures`); no proved guarantee may be broken on a trace, no proved precondition may
 *   fail, no proved-unreachable `throw` may run, and nothing else may throw.
 * - violated ⇒ the counterexample replays: `main` runs with exactly the counterexample's inputs
 *   and tool results (values it leaves out are drawn, a few times) and the named violation is
 *   observed at the named call site.
 * - refused: counted by the refusal's reason.
 */

/** One way the prover and a real run disagree. */
export interface Disagreement {
  readonly kind:
    | "proved guarantee broken"
    | "proved precondition fails"
    | "proved-unreachable throw runs"
    | "unexpected throw"
    | "counterexample does not replay"
    | "counterexample incomplete"
    | "counterexample passes a reported failure"
    | "oracle error";
  /** The result concerned: the contract call, `tool@line:column` or `throw@line:column`. */
  readonly subject: string;
  readonly detail: string;
}

/** What the oracle concluded about one program. */
export interface Judgement {
  readonly verdict: Verdict;
  readonly results: readonly { readonly kind: ProofResult["kind"]; readonly verdict: Verdict; readonly subject: string; readonly message: string }[];
  /** The reason of each refused result, normalised (see `refusalKey`). */
  readonly refusals: readonly string[];
  readonly disagreements: readonly Disagreement[];
  /** Violations that did not replay although the counterexample leaves out values the run needed (not disagreements; counted). */
  readonly notes: readonly Disagreement[];
  /** TypeScript's errors in the program (generated programs are meant to be well typed, except deliberate conversions). */
  readonly typeErrors: readonly string[];
  /** Concrete runs made (random runs and replays). */
  readonly runs: number;
}

export interface JudgeOptions {
  /** Random runs of `main` when something is proved. */
  readonly runs: number;
  /** Seed of the runs' inputs and tool results. */
  readonly seed: number;
  /** Attempts to replay one counterexample (values it leaves out are drawn anew each time). */
  readonly replays?: number;
  /** Solver limits (see ProveOptions): Z3 resource units per query, and the wall-clock budget of one program. */
  readonly rlimit?: number;
  readonly programTimeoutMs?: number;
}

/** A result's location as `line:column`. */
const at = (r: { readonly location: { readonly line: number; readonly column: number } }): string => `${r.location.line}:${r.location.column}`;

/**
 * A refusal's reason without what is particular to the program (code in backticks, contract
 * arguments, solver details), so that refusals can be counted by construct.
 */
export function refusalKey(message: string): string {
  let m = message.replace(/^refused:\s*/, "");
  m = m.replace(/^[\w.]+\([^)]*\)(: |\s)/, "");
  if (/^the solver could not decide/.test(m)) return "the solver could not decide (unknown or timeout)";
  m = m.replace(/`[^`]*`/g, (code) => (/^`[A-Za-z.…]+`$/.test(code) && !/^`[vphikrm]\d/.test(code) ? code : "`…`"));
  const sentence = /^(.*?[.:])(\s|$)/.exec(m);
  return (sentence ? sentence[1]! : m).replace(/\bplan\d*\.ts\b/g, "plan.ts").replace(/"[^"]*"/g, '"…"').replace(/\d+/g, "N").slice(0, 140);
}

/** The oracle over one layer: a project to prove in, the layer loaded for runs, the shapes of the tools' results. */
/**
 * What a tool call throws when the oracle makes it fail (its events already recorded): one the
 * counterexample names in `failedCalls` in a replay, or one drawn to fail in a random run.
 */
class InjectedFailure extends Error {
  constructor(readonly label: string) {
    super(`${label} failed (injected by the oracle: a tool's implementation may fail after its events)`);
  }
}

export class Oracle {
  readonly project: Project;
  readonly layer: LoadedLayer;
  private readonly toolShapes = new Map<string, Shape>();

  constructor(layerText: string) {
    this.project = new Project(layerText);
    this.layer = loadLayer(layerText);
  }

  async judge(text: string, options: JudgeOptions): Promise<Judgement> {
    return (await this.judgeAll([{ text, options }]))[0]!;
  }

  /** Judge several programs, type-checked together in one TypeScript program (each proved on its own). */
  async judgeAll(cases: readonly { readonly text: string; readonly options: JudgeOptions }[]): Promise<Judgement[]> {
    const { program, files } = this.project.programs(cases.map((c) => c.text));
    const layer = readLayer(ts, program);
    const checker = program.getTypeChecker();
    if (this.toolShapes.size === 0) {
      for (const tool of layer.model.tools.values()) {
        const sig = checker.getSignatureFromDeclaration(tool.implementation);
        if (sig) this.toolShapes.set(tool.name, shapeOf(checker, checker.getReturnTypeOfSignature(sig)));
      }
    }
    const out: Judgement[] = [];
    for (const [i, file] of files.entries()) {
      const options = cases[i]!.options;
      const errors = typeErrors(program, file);
      const limits = { ...(options.rlimit !== undefined ? { rlimit: options.rlimit } : {}), ...(options.programTimeoutMs !== undefined ? { programTimeoutMs: options.programTimeoutMs } : {}) };
      const verdict = await proveProgram({ ts, program, file, options: limits, host: this.project.system }, layer);
      out.push(await new Judging(this, verdict, file, checker, options).judge(errors));
    }
    return out;
  }

  shapeOfTool(name: string): Shape {
    const s = this.toolShapes.get(name);
    if (!s) throw new Error(`fuzz: no shape for tool ${name}`);
    return s;
  }
}

/** What a run must not show, for each proved result; returns a disagreement or undefined. */
type RunCheck = (run: Run) => Disagreement | undefined;

class Judging {
  private readonly pools: Pools;
  private readonly params: { readonly name: string; readonly shape: Shape }[] = [];
  private readonly disagreements: Disagreement[] = [];
  private readonly notes: Disagreement[] = [];
  private runs = 0;
  private plan: LoadedPlan | undefined;

  constructor(
    private readonly oracle: Oracle,
    private readonly verdict: ProgramVerdict,
    private readonly file: ts.SourceFile,
    private readonly checker: ts.TypeChecker,
    private readonly options: JudgeOptions,
  ) {
    this.pools = poolsOf(file);
    const main = file.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === "main");
    for (const p of main?.parameters ?? []) this.params.push({ name: p.name.getText(file), shape: shapeOf(checker, checker.getTypeAtLocation(p)) });
  }

  async judge(typeErrors: string[]): Promise<Judgement> {
    const results = this.verdict.results.map((r) => ({ kind: r.kind, verdict: r.verdict, subject: this.subject(r), message: r.message }));
    const refusals = this.verdict.results.filter((r) => r.verdict === "refused").map((r) => refusalKey(r.message));
    try {
      this.plan = loadPlan(this.file.text, this.oracle.layer);
    } catch (error) {
      this.disagreements.push({ kind: "oracle error", subject: "load", detail: `the program does not load: ${String(error)}` });
    }
    if (this.plan) {
      this.checkProved(this.plan);
      for (const r of this.verdict.results) if (r.verdict === "violated") this.replay(this.plan, r);
    }
    return { verdict: this.verdict.verdict, results, refusals, disagreements: this.disagreements, notes: this.notes, typeErrors, runs: this.runs };
  }

  private subject(r: ProofResult): string {
    if (r.kind === "guarantee") return r.contract ?? r.contractName ?? "guarantee";
    if (r.kind === "precondition") return `${r.tool}@${at(r)}`;
    return `throw@${at(r)}`;
  }

  /** The guarantee object (from the loaded program) a result is about, by the position of its entry in `guarantees`. */
  private guaranteeOf(plan: LoadedPlan, r: ProofResult): Guarantee | undefined {
    const decl = this.file.statements.flatMap((s) => (ts.isVariableStatement(s) ? [...s.declarationList.declarations] : [])).find((d) => d.name.getText(this.file) === "guarantees");
    const init = decl?.initializer;
    if (!init || !ts.isArrayLiteralExpression(init) || !r.guarantee) return undefined;
    const index = init.elements.findIndex((e) => e.getStart(this.file) === r.guarantee!.start);
    return index < 0 ? undefined : plan.guarantees[index];
  }

  // ───────────── proved ⇒ no run violates ─────────────

  private checkProved(plan: LoadedPlan): void {
    const checks: RunCheck[] = [];
    const results = this.verdict.results;
    for (const r of results.filter((x) => x.verdict === "proved")) {
      const subject = this.subject(r);
      if (r.kind === "guarantee") {
        const g = this.guaranteeOf(plan, r);
        if (!g) {
          this.disagreements.push({ kind: "oracle error", subject, detail: "no guarantee entry at the result's position" });
          continue;
        }
        // A run that throws stops early: only guarantees that hold on every prefix can be judged then.
        const prefixClosed = isPrefixClosed(g);
        checks.push((run) => {
          if (run.error && !prefixClosed) return undefined;
          const [v] = check(g, run.trace);
          return v && { kind: "proved guarantee broken", subject, detail: `${v.message}${run.error ? " (the run threw before it ended)" : ""}` };
        });
      } else if (r.kind === "precondition") {
        const where = at(r);
        // Caught by the program or not: a `try` around the call does not make a proved precondition hold.
        checks.push((run) => {
          const failed = run.failedPreconditions.find((label) => label.endsWith(`@${where}`));
          return failed !== undefined ? { kind: "proved precondition fails", subject, detail: `${failed}: its requires failed${run.error?.value instanceof RequiresError && run.error.callSite === failed ? `: ${String((run.error.value as Error).message)}` : " (the program caught the error)"}` } : undefined;
        });
      } else {
        const where = at(r);
        checks.push((run) => (run.error?.throwSite === where ? { kind: "proved-unreachable throw runs", subject, detail: String(run.error.value) } : undefined));
      }
    }
    // Whatever else throws must be explained by a result that is not proved.
    const wholeProgramRefused = !results.some((r) => r.kind !== "guarantee") && results.every((r) => r.verdict === "refused");
    const unproved = results.filter((r) => r.verdict !== "proved" && r.kind !== "guarantee");
    const mayBeUndefined = unproved.some((r) => r.kind === "throw" && !this.isThrowStatement(r) && !isUriThrow(this.file, r));
    const uriThrows = unproved.some((r) => isUriThrow(this.file, r));
    if (!wholeProgramRefused) {
      checks.push((run) => {
        const e = run.error;
        if (!e) return undefined;
        if (e.value instanceof OracleFailure) return { kind: "oracle error", subject: "run", detail: e.value.message };
        // A tool's implementation may always fail: not a throw the prover reports.
        if (e.value instanceof InjectedFailure) return undefined;
        if (e.value instanceof RequiresError && unproved.some((r) => r.kind === "precondition" && e.callSite?.endsWith(`@${at(r)}`))) return undefined;
        // An undecided precondition query leaves the others unreported (prove.ts stops there): the prover vouched for none.
        if (e.value instanceof RequiresError && unproved.some((r) => r.kind === "precondition" && r.verdict === "refused")) return undefined;
        if (e.throwSite && unproved.some((r) => r.kind === "throw" && at(r) === e.throwSite)) return undefined;
        if (mayBeUndefined && e.value instanceof TypeError) return undefined;
        if (uriThrows && isUriError(e.value)) return undefined;
        const where = e.throwSite ? `throw@${e.throwSite}` : e.callSite ?? "main";
        const explained = results.some((r) => r.kind !== "guarantee" && (at(r) === e.throwSite || (e.callSite?.endsWith(`@${at(r)}`) ?? false)));
        return explained ? undefined : { kind: "unexpected throw", subject: where, detail: `main threw ${errorText(e.value)}, which no result of the prover accounts for` };
      });
    }
    if (checks.length === 0) return;
    const first = (run: Run): Disagreement | undefined => {
      for (const c of checks) {
        const d = c(run);
        if (d) return d;
      }
      return undefined;
    };
    const arbs = this.runArbitraries();
    // Where the program has a `try`, some runs make tool implementations fail (after their
    // events, as the prover assumes any may): the paths through its `catch` and `finally` are run too.
    // (A fixed array, read in turn, so that the failing run replays exactly.)
    const failures = this.file.text.includes("try {") ? fc.option(fc.array(fc.nat(3), { minLength: 1, maxLength: 24 }), { nil: undefined, freq: 2 }) : fc.constant(undefined);
    const outcome = fc.check(
      fc.property(arbs.inputs, arbs.streams, failures, (inputs, streams, fails) => {
        this.runs++;
        return first(runMain(plan, inputs, this.chooser(streams, new Map(), undefined, undefined, fails))) === undefined;
      }),
      { seed: this.options.seed, numRuns: this.options.runs },
    );
    if (outcome.failed && outcome.counterexample) {
      const [inputs, streams, fails] = outcome.counterexample;
      const injected: string[] = [];
      const run = runMain(plan, inputs, this.chooser(streams, new Map(), undefined, undefined, fails, injected));
      const d = first(run);
      if (d) this.disagreements.push({ ...d, detail: `${d.detail}; ${this.describeRun(inputs, run)}${injected.length > 0 ? `; calls made to fail: ${injected.join(", ")}` : ""}` });
    } else if (outcome.failed) {
      this.disagreements.push({ kind: "oracle error", subject: "runs", detail: String(outcome.errorInstance ?? "the runs failed") });
    }
  }

  // ───────────── violated ⇒ the counterexample replays ─────────────

  private replay(plan: LoadedPlan, r: ProofResult): void {
    const subject = this.subject(r);
    const cex = r.counterexample;
    if (!cex) {
      this.disagreements.push({ kind: "counterexample does not replay", subject, detail: "the violation has no counterexample" });
      return;
    }
    let confirm: ((run: Run) => boolean) | undefined;
    if (r.kind === "guarantee") {
      const g = this.guaranteeOf(plan, r);
      if (!g) {
        this.disagreements.push({ kind: "oracle error", subject, detail: "no guarantee entry at the result's position" });
        return;
      }
      confirm = (run) => check(g, run.trace).some((v) => !cex.callSite || v.witnesses.some((o) => this.named(o, run, cex)));
    } else if (r.kind === "precondition") {
      const where = at(r);
      confirm = (run) => run.failedPreconditions.some((label) => label.endsWith(`@${where}`));
    } else if (this.isThrowStatement(r)) {
      const where = at(r);
      confirm = (run) => run.error?.throwSite === where;
    } else if (isUriThrow(this.file, r)) {
      confirm = (run) => run.error !== undefined && isUriError(run.error.value);
    }
    // "`x` may be undefined here" is not a throw in JavaScript (the run goes on with undefined): nothing to observe.
    if (!confirm) return;
    const attempts = this.options.replays ?? 8;
    // Values the counterexample leaves out (results of calls in loops, elements past the shown ones)
    // are drawn: half of the attempts from the values the counterexample shows, half from all pools.
    const shown = shownPools(cex);
    // The shown values, and the simplest others (a tool's `ensures` may allow none of the shown ones).
    const narrow: Pools = { strings: [...shown.strings, "", "a"], numbers: [...shown.numbers, 0, 1, -1] };
    const wide: Pools = { strings: [...narrow.strings, ...this.pools.strings], numbers: [...narrow.numbers, ...this.pools.numbers] };
    let first: { inputs: unknown[]; run: Run } | undefined;
    let incomplete = false;
    let stoppedEarly = false;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const pools = attempt % 2 === 0 ? narrow : wide;
      const seed = this.options.seed + 7919 * (attempt + 1);
      const fill = (shape: Shape): unknown => {
        incomplete = true;
        return fc.sample(valueArb(shape, pools), { seed: seed + this.runs, numRuns: 1 })[0];
      };
      const inputs = this.params.map((p) => {
        const v = fromShown(p.shape, cex.inputs[p.name], fill);
        return v !== UNSPECIFIED ? v : fill(p.shape);
      });
      const forced = new Map<string, unknown>();
      for (const [label, value] of Object.entries(cex.toolResults)) {
        const v = fromShown(this.oracle.shapeOfTool(label.slice(0, label.indexOf("@"))), value, fill);
        if (v !== UNSPECIFIED) forced.set(label, v);
      }
      const [streams] = fc.sample(this.runArbitraries(pools).streams, { seed, numRuns: 1 });
      const drawn = { count: 0 };
      this.runs++;
      const run = runMain(plan, inputs, this.chooser(streams!, forced, drawn, new Set(cex.failedCalls ?? [])));
      if (confirm(run)) return;
      // A failing tool may throw an Error of any text (caught.ts); the counterexample does not say
      // which, and the replay's failure has one text: where a `catch` binds the error, a value it left out.
      if ((cex.failedCalls ?? []).length > 0 && /\bcatch \(/.test(this.file.text)) incomplete = true;
      if (this.stopsAtReportedFailure(run, r)) stoppedEarly = true;
      if (drawn.count > 0) incomplete = true;
      first ??= { inputs, run };
    }
    const seen = first ? this.describeRun(first.inputs, first.run) : "";
    const detail = `${r.message} — replayed ${attempts} times, never observed; first replay: ${seen}`;
    // A counterexample that leaves out values the run needed may be right about another choice of them: not a disagreement, but counted.
    if (incomplete) this.notes.push({ kind: "counterexample incomplete", subject, detail });
    // A counterexample may run past a call whose precondition fails, or a throw, in an earlier
    // iteration of a loop over an array (the prover does not carry "the iteration stopped" into
    // later ones, docs/fuzzing.md); that failure is reported too, so the program is violated there: counted.
    else if (stoppedEarly) this.notes.push({ kind: "counterexample passes a reported failure", subject, detail });
    else this.disagreements.push({ kind: "counterexample does not replay", subject, detail });
  }

  /**
   * Whether the run stopped early, before the violation `r` names, at another failure the prover
   * reports violated: a call whose precondition fails, or a reachable `throw`.
   */
  private stopsAtReportedFailure(run: Run, r: ProofResult): boolean {
    const error = run.error;
    if (!error) return false;
    return this.verdict.results.some((x) => {
      if (x === r || x.verdict !== "violated") return false;
      if (x.kind === "precondition") return error.value instanceof RequiresError && (error.callSite?.endsWith(`@${at(x)}`) ?? false);
      return x.kind === "throw" && error.throwSite === at(x);
    });
  }

  /** Whether an occurrence is the counterexample's: at its call site, of its event (or tool). */
  private named(o: Occurrence, run: Run, cex: Counterexample): boolean {
    const site = run.siteOf.get(o);
    if (!cex.callSite || !site?.endsWith(`@${cex.callSite.line}:${cex.callSite.column}`)) return false;
    if (!cex.event) return true;
    return o instanceof Event ? o.constructor.name === cex.event.name : o instanceof ToolCall && o.toolName === cex.event.name;
  }

  private isThrowStatement(r: ProofResult): boolean {
    const node = findNodeAt(this.file, r.location.start);
    return node !== undefined && ts.isThrowStatement(node);
  }

  // ───────────── values ─────────────

  private runArbitraries(pools: Pools = this.pools) {
    const inputs = fc.tuple(...this.params.map((p) => valueArb(p.shape, pools)));
    const names = [...this.oracle.layer.toolNames].filter((n) => this.oracle.shapeOfTool(n).k !== "undefined" && (!ON_DEMAND_TOOLS.has(n) || new RegExp(`\\b${n}\\(`).test(this.file.text)));
    const streams = fc.record(Object.fromEntries(names.map((n) => [n, fc.infiniteStream(valueArb(this.oracle.shapeOfTool(n), pools))])) as Record<string, fc.Arbitrary<fc.Stream<unknown>>>);
    return { inputs, streams };
  }

  /**
   * Tool results: the forced value of this execution of the call site (a counterexample names the
   * n-th execution of `tool@line:column` as `tool@line:column#n`), else the next value of the
   * tool's stream that its `ensures` allows (counted in `drawn`), its elements first brought within
   * the tool's element promises (see `keepElementPromises`). A forced array whose elements break a
   * promise (a counterexample may show elements the program never reads breaking it) is brought
   * within it the same way, and counted in `drawn`: the replay then differs from what it shows.
   */
  private chooser(streams: Readonly<Record<string, fc.Stream<unknown>>>, forced: ReadonlyMap<string, unknown>, drawn = { count: 0 }, failing: ReadonlySet<string> = new Set(), fails?: readonly number[], injected?: string[]) {
    const executions = new Map<string, number>();
    let calls = 0;
    return (tool: ToolRuntime, label: string, args: readonly unknown[]): unknown => {
      const n = (executions.get(label) ?? 0) + 1;
      executions.set(label, n);
      const key = n === 1 ? label : `${label}#${n}`;
      // A call the counterexample says throws, or (in a random run that makes some fail) one in
      // four: its implementation fails after its events.
      if (failing.has(key) || (fails !== undefined && fails[calls++ % fails.length] === 0)) {
        injected?.push(key);
        throw new InjectedFailure(key);
      }
      const elementOk = (x: unknown): boolean => tool.ensures.every((e) => e([x], args));
      if (forced.has(key)) {
        const v = forced.get(key);
        const kept = keepElementPromises(v, elementOk, args);
        if (kept !== v) drawn.count++;
        return kept;
      }
      const stream = streams[tool.name];
      if (!stream) return undefined;
      drawn.count++;
      for (let i = 0; i < 200; i++) {
        const v = keepElementPromises(stream.next().value, elementOk, args);
        if (tool.ensures.every((e) => e(v, args))) return v;
      }
      throw new OracleFailure(`no value drawn for ${tool.name} satisfies its ensures`);
    };
  }

  private describeRun(inputs: readonly unknown[], run: Run): string {
    const ins = this.params.map((p, i) => `${p.name}=${show(inputs[i])}`).join(", ");
    const results = run.results.filter(([l]) => this.oracle.shapeOfTool(l.slice(0, l.indexOf("@"))).k !== "undefined").map(([l, v]) => `${l} → ${show(v)}`).join(", ");
    const trace = run.trace.filter((o) => o instanceof Event).map((o) => `${String(o)}@${run.siteOf.get(o)?.replace(/^.*@/, "") ?? "?"}`).join(", ");
    return `main(${ins})${results ? ` with ${results}` : ""} performed [${trace}]${run.error ? ` and threw ${errorText(run.error.value)}` : ""}`;
  }
}

/** The strings and numbers a counterexample shows (inputs, tool results, event fields). */
function shownPools(cex: Counterexample): Pools {
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const visit = (v: ShownValue | undefined): void => {
    if (typeof v === "number") numbers.add(v);
    else if (typeof v === "string") {
      if (v === "NaN" || v === "-0" || v === "Infinity" || v === "-Infinity") numbers.add(Number(v));
      if (!/^… \d+ more$/.test(v)) strings.add(v);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") Object.values(v).forEach(visit);
  };
  Object.values(cex.inputs).forEach(visit);
  Object.values(cex.toolResults).forEach(visit);
  for (const e of [cex.event, cex.otherEvent]) if (e) Object.values(e.fields).forEach(visit);
  return { strings: [...strings], numbers: [...numbers] };
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : show(e);
}

/** The innermost node that starts exactly at `pos` and is a statement, else the outermost node starting there. */
function findNodeAt(file: ts.SourceFile, pos: number): ts.Node | undefined {
  let found: ts.Node | undefined;
  const visit = (n: ts.Node): void => {
    if (n.getStart(file) === pos && (!found || ts.isStatement(n))) found = n;
    if (n.pos <= pos && pos < n.end) ts.forEachChild(n, visit);
  };
  visit(file);
  return found;
}

/**
 * A throw result (proved or not, refused included: its message is then the refusal's) at a call
 * of `encodeURIComponent` (exec/uri.ts), which throws a URIError in JavaScript.
 */
function isUriThrow(file: ts.SourceFile, r: ProofResult): boolean {
  return r.kind === "throw" && file.text.startsWith("encodeURIComponent(", r.location.start);
}

function isUriError(v: unknown): boolean {
  return typeof v === "object" && v !== null && (v as { name?: unknown }).name === "URIError";
}
