/**
 * The gate: one pipeline that `clauz3 check`, `clauz3 prove` and the `tspc` transformer share, so
 * that they agree on every verdict and every finding. In order of trust:
 *
 * 1. TypeScript's own diagnostics of every file the program reads (options, global, syntactic,
 *    semantic): what `tsc` reports. `tspc` prints them itself; the CLI takes them from here.
 * 2. Configuration: module settings clauz3 does not support (93092), after which no clauz3 rule
 *    runs; `clauz3` imports that do not resolve (TypeScript's TS2307, or 93092 when it says nothing).
 * 3. Library manifests (93023), as `libraries` and `describe` validate them, and their coverage policies (93043).
 * 4. The trusted-layer rules, except in files affected by an import that does not resolve
 *    (resolution.ts): no clauz3 finding is a consequence of a resolution failure.
 * 5. The lock (93020–93022).
 * 6. Proofs. A program that does not type-check is never proved: it is refused for its first
 *    TypeScript error (program-shape.ts), and the prover does not run on it.
 *
 * Coverage policies (93043, core/coverage/manifest.ts) are checked with the manifests; coverage
 * gaps come with each program's verdict (core/coverage/diagnostics.ts).
 */
import * as path from "node:path";
import type * as TS from "typescript";
import { toDiagnostic, type Clauz3Options, type TypeScript } from "../context";
import { isLayerCandidate, readLayer, type LayerResult } from "../layer/read";
import { verifyLock } from "../lock/verify";
import { librariesOf, type Library } from "../manifest";
import { approvalDeclarationFindings } from "./approval";
import type { ProgramVerdict, ProofResult } from "../prover/api";
import { exportsProgram, proofDiagnostics } from "../prover/diagnostics";
import type { BudgetOptions } from "../prover/limits";
import { typeCheckRefusal } from "../prover/program-shape";
import { cacheFor, lookUp, remember, type Lookup } from "../cache/lookup";
import type { ProofCache } from "../cache/store";
import { longestFirst, type ProofTimings } from "../cache/timings";
import { PROOF_CODES, RULES } from "../rules";
import { spanOf } from "../span";
import { manifestDiagnostics } from "./manifests";
import { coveragePolicyDiagnostics } from "../coverage/manifest";
import { moduleSettingsDiagnostics } from "./module-settings";
import { affectedFiles, silentClauz3Failures, unresolvedImports } from "./resolution";

export interface GateInput {
  readonly ts: TypeScript;
  readonly program: TS.Program;
  readonly options?: Clauz3Options;
  /** The program's layer, when the caller has read it already. */
  readonly layer?: LayerResult;
  /** The layer's libraries, when the caller has them already. */
  readonly libraries?: readonly Library[];
  /** The agent programs to prove; default: every agent source that exports `guarantees` or `main`. */
  readonly programs?: readonly TS.SourceFile[];
}

export interface Gate {
  readonly ts: TypeScript;
  readonly program: TS.Program;
  readonly options: Clauz3Options;
  readonly layer: LayerResult;
  readonly libraries: readonly Library[];
  /** TypeScript's own diagnostics, as `tsc` reports them (step 1). */
  readonly typescript: readonly TS.Diagnostic[];
  /** clauz3's configuration errors (step 2). */
  readonly configuration: readonly TS.Diagnostic[];
  /**
   * Manifest, layer-rule and lock findings (steps 3–5). The rule findings in a program the prover
   * will run on are left out: its verdict repeats each as a refusal with the same code on the same
   * node (prove.ts), so they are shown once.
   */
  readonly findings: readonly TS.Diagnostic[];
  /** Those rule findings in programs: a surface that does not prove (`tspc` with `"prove": false`) reports them itself. */
  readonly programFindings: readonly TS.Diagnostic[];
  /**
   * A usage or configuration problem (exit 2 in the CLI): TypeScript's option errors, unsupported
   * module settings, a `clauz3` import that does not resolve, an invalid lock.
   */
  readonly configurationError: boolean;
  /** The agent programs, in program order. */
  readonly programs: readonly TS.SourceFile[];
  /** Programs refused before the prover runs (they do not type-check, or the configuration stops every check). */
  readonly decided: ReadonlyMap<TS.SourceFile, ProgramVerdict>;
}

/** The error diagnostics of a list. */
function errors(ts: TypeScript, list: readonly TS.Diagnostic[]): TS.Diagnostic[] {
  return list.filter((d) => d.category === ts.DiagnosticCategory.Error);
}

/** Steps 1–5 and the programs' pre-proof refusals; synchronous (the build calls it). */
export function openGate(input: GateInput): Gate {
  const { ts, program } = input;
  const options = input.options ?? {};
  const layer = input.layer ?? readLayer(ts, program, options);
  const libraries = input.libraries ?? librariesOf(layer.model);
  // Computed when asked: `tspc` prints TypeScript's diagnostics itself.
  let typescript: readonly TS.Diagnostic[] | undefined;
  const gate = (rest: Omit<Gate, "typescript" | "ts" | "program" | "options" | "layer" | "libraries" | "programs" | "decided">): Gate => ({
    ts, program, options, layer, libraries, programs, decided, ...rest,
    get typescript() {
      return (typescript ??= ts.getPreEmitDiagnostics(program));
    },
  });
  const optionErrors = errors(ts, program.getOptionsDiagnostics());
  const checker = program.getTypeChecker();
  const programs = input.programs ?? layer.agentFiles.filter((f) => exportsProgram(ts, checker, f));
  const decided = new Map<TS.SourceFile, ProgramVerdict>();

  const settings = moduleSettingsDiagnostics(ts, program);
  if (settings.length > 0) {
    // clauz3 cannot resolve under these settings: no rule of it would mean anything.
    const at = settings[0]!.file && settings[0]!.start !== undefined ? ` (${placeOf(program, settings[0]!.file, settings[0]!.start)})` : "";
    for (const file of programs) decided.set(file, refusedVerdict(program, file, file, `the project's module settings are not supported${at}, so nothing clauz3 reads means anything. Set a supported \`module\`/\`moduleResolution\` (error TS${RULES.moduleSettings.code}; docs/module-settings.md).`));
    return gate({ configuration: settings, findings: [], programFindings: [], configurationError: true });
  }

  const sources = program.getSourceFiles().filter(isLayerCandidate);
  const semantic = new Map<TS.SourceFile, readonly TS.Diagnostic[]>();
  const errorsOf = (f: TS.SourceFile): readonly TS.Diagnostic[] => {
    let list = semantic.get(f);
    if (!list) semantic.set(f, (list = errors(ts, [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)])));
    return list;
  };
  const unresolved = unresolvedImports(ts, program, sources, errorsOf);
  const affected = affectedFiles(ts, program, sources, unresolved);
  const configuration = silentClauz3Failures(ts, unresolved);

  for (const file of programs) {
    const refusal = typeCheckRefusal(ts, program, file);
    if (refusal) decided.set(file, refusedVerdict(program, file, refusal.node, `${refusal.reason} ${refusal.instead}`));
  }
  const proved = new Set(programs.filter((f) => !decided.has(f)));
  const rules = layer.findings.filter((f) => !affected.has(f.file));
  const lock = verifyLock(ts, program, layer.isTrusted);
  const findings = [
    ...manifestDiagnostics(ts, libraries),
    ...approvalDeclarationFindings(ts, program, layer.model, libraries).filter((f) => !affected.has(f.file)).map((f) => toDiagnostic(ts, f)),
    ...coveragePolicyDiagnostics(ts, layer.model, libraries),
    ...rules.filter((f) => !proved.has(f.file)).map((f) => toDiagnostic(ts, f)),
    ...lock.findings.map((f) => toDiagnostic(ts, f)),
  ];
  const programFindings = rules.filter((f) => proved.has(f.file)).map((f) => toDiagnostic(ts, f));
  const configurationError = optionErrors.length > 0 || configuration.length > 0 || unresolved.some((u) => u.clauz3) || lock.state === "invalid";
  return gate({ configuration, findings, programFindings, configurationError });
}

/** `tsconfig.json:12:5`: a place in a file, relative to the program's directory. */
function placeOf(program: TS.Program, file: TS.SourceFile, start: number): string {
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  return `${path.relative(program.getCurrentDirectory(), file.fileName).replace(/\\/g, "/") || file.fileName}:${line + 1}:${character + 1}`;
}

/**
 * A program refused before proof: one refused result on `node`, or on the program's first
 * statement when the node is not in a source file of the program (an option in tsconfig.json:
 * the message names the place).
 */
function refusedVerdict(program: TS.Program, file: TS.SourceFile, node: TS.Node, why: string): ProgramVerdict {
  // Nodes of a JSON file parsed without parents (tsconfig.json) have no source file to find.
  const source = node.getSourceFile() as TS.SourceFile | undefined;
  const inProgram = source !== undefined && isSourceOf(program, source);
  const result: ProofResult = { kind: "guarantee", verdict: "refused", code: PROOF_CODES.refused, location: spanOf(inProgram ? node : (file.statements[0] ?? file)), message: `refused: ${why}`.trim() };
  return { file: file.fileName, verdict: "refused", results: [result] };
}

function isSourceOf(program: TS.Program, source: TS.SourceFile): boolean {
  return program.getSourceFile(source.fileName) === source;
}

/** Told as the proofs of a batch start and end (the CLI's progress line). */
export interface ProofProgress {
  /** First: how many programs, and how many of them are decided already (refused before proof, or cached). */
  begin(total: number, decided: number): void;
  started(fileName: string): void;
  finished(fileName: string): void;
}

/** How the proofs the cache does not answer are run. */
export interface ProofSchedule {
  /**
   * A prover for `misses` programs that runs elsewhere (the CLI's worker pool, cli/jobs/), called
   * for all of them at once (it calls `started` when a program's proof begins); undefined to
   * prove them here, one at a time.
   */
  readonly parallel?: (misses: number) => ((file: TS.SourceFile, started: () => void) => Promise<ProgramVerdict>) | undefined;
  readonly progress?: ProofProgress;
  /**
   * How long each program took last time (core/cache/timings.ts): with `parallel`, the slowest are
   * handed out first; every program proved here or elsewhere records its time.
   */
  readonly timings?: Pick<ProofTimings, "estimate" | "record">;
}

/**
 * Step 6: the verdict of each of `files` (default: the gate's programs), in the order of `files`.
 * `before` may decide a program first (the CLI refuses files TypeScript could not parse). With a
 * `cache`, a program whose inputs are unchanged gets its stored verdict (core/cache); the others
 * are proved in this warm process, or where `schedule.parallel` says.
 */
export async function proveGate(
  gate: Gate,
  solver: BudgetOptions = {},
  files: readonly TS.SourceFile[] = gate.programs,
  before: (file: TS.SourceFile) => ProgramVerdict | undefined = () => undefined,
  cache?: ProofCache,
  schedule: ProofSchedule = {},
): Promise<ProgramVerdict[]> {
  const options = { ...gate.options, ...solver };
  const use = cacheFor(cache, gate.ts, gate.program, gate.layer, options);
  const lookups = files.map((file): Lookup => {
    const known = before(file) ?? gate.decided.get(file);
    return known ? { known } : lookUp(file, use);
  });
  const out = lookups.map((l) => l.known);
  const missing = files.flatMap((file, i) => (out[i] ? [] : [i]));
  const { progress } = schedule;
  progress?.begin(files.length, files.length - missing.length);
  const elsewhere = missing.length > 0 ? schedule.parallel?.(missing.length) : undefined;
  // Loaded when a program is proved here: a build that proves nothing never loads the prover.
  const { proveProgram } = missing.length > 0 && !elsewhere ? await import("../prover/prove") : { proveProgram: undefined };
  const { timings } = schedule;
  const prove = async (i: number): Promise<void> => {
    const file = files[i]!;
    let since: number | undefined;
    const started = (): void => {
      since = performance.now();
      progress?.started(file.fileName);
    };
    let verdict: ProgramVerdict;
    if (elsewhere) verdict = await elsewhere(file, started);
    else {
      started();
      verdict = await proveProgram!({ ts: gate.ts, program: gate.program, file, options }, gate.layer);
    }
    if (since !== undefined) timings?.record(file.fileName, performance.now() - since);
    remember(use, lookups[i]!, verdict);
    out[i] = verdict;
    progress?.finished(file.fileName);
  };
  // The workers take programs in the order they are asked for: the slowest first, so that none
  // runs on alone at the end. Verdicts still come back in the order of `files`.
  if (elsewhere) await Promise.all((timings ? longestFirst(missing, (i) => timings.estimate(files[i]!.fileName)) : missing).map(prove));
  else for (const i of missing) await prove(i);
  return out as ProgramVerdict[];
}

/**
 * The proof diagnostics of each verdict, as the build reports them (the CLI's report computes the
 * same from the verdicts). Nothing is shown twice: the gate's findings leave out the rule findings
 * of the programs the prover runs on.
 */
export function proofErrors(gate: Gate, verdicts: readonly ProgramVerdict[]): TS.Diagnostic[] {
  const out: TS.Diagnostic[] = [];
  for (const v of verdicts) {
    const file = gate.program.getSourceFile(v.file);
    if (file) out.push(...proofDiagnostics(gate.ts, gate.program, file, v).errors);
  }
  return out;
}
