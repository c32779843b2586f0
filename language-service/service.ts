/**
 * What the tsserver plugin adds to a project's language service, independent of tsserver itself
 * (so tests can drive it with an in-memory language service):
 *
 * - in every file, the trusted-layer rule findings (the transformer's engine, `core/layer`), and
 *   in trusted files those of `clauz3.lock` (`core/lock`: read and verified, never written);
 * - in agent programs (non-trusted project sources exporting `guarantees` or `main`), the verdicts
 *   of `proveProgram`, proved in the background (see scheduler.ts) and shown through
 *   `core/prover/diagnostics.ts` (the one boundary from proof results to diagnostics);
 * - quick info on the contract calls of `guarantees` (hover.ts).
 *
 * tsserver makes a new program on every edit and asks for one file at a time, so the work per
 * program is done lazily, per file, and the trusted layer is read again only when it changed
 * (`readLayerIncrementally`). Only the TypeScript module given by the host is used at run time.
 */
import * as crypto from "node:crypto";
import type * as TS from "typescript";
import { toDiagnostic } from "../core/context";
import { isProjectSource } from "../core/layer/classify";
import { importedSourceFiles } from "../core/layer/imports";
import { readLayerIncrementally, type IncrementalLayer } from "../core/layer/incremental";
import { verifyLock, type LockVerification } from "../core/lock/verify";
import { cacheFor, proveCached, ProofCache, type CacheUse } from "../core/cache";
import type { LayerResult } from "../core/layer/read";
import type { ProveOptions } from "../core/prover/api";
import { Z3Session } from "../core/prover/z3";
import { configurationDiagnostic, exportsProgram, failureDiagnostic, proofDiagnostics } from "../core/prover/diagnostics";
import { budgetVerdict, DEFAULT_EDITOR_BUDGET_MS, EDITOR_HOST_STEPS, editorBudgetProblem } from "./budget";
import { guaranteeAt, guaranteeHover, withGuaranteeInfo, type ProofState } from "./hover";
import { ProofScheduler } from "./scheduler";

type TypeScript = typeof TS;

/** The plugin's entry in `compilerOptions.plugins`. */
export interface Clauz3LanguageServiceConfig {
  readonly name?: string;
  /** Globs (relative to the project directory) selecting trusted-layer files; default: a `trusted` path segment. */
  readonly trustedRoots?: readonly string[];
  /** `false`: never read or write the proof cache (node_modules/.cache/clauz3/proofs). */
  readonly cache?: boolean;
  /**
   * Solver time (ms) one program's proof may use in the editor; then it is stopped and refused
   * with code 93085 on `main` ("run `clauz3 check`"). Default 10 000 (docs/editor.md).
   */
  readonly editorBudgetMs?: number;
  readonly [option: string]: unknown;
}

/** What the service needs from its surroundings. */
export interface ServiceHost {
  /** The TypeScript instance of the language service (tsserver's), never a second copy. */
  readonly ts: TypeScript;
  /** The current program of the project (`languageService.getProgram()`). */
  readonly getProgram: () => TS.Program | undefined;
  /** Ask the client to fetch diagnostics again (`project.refreshDiagnostics()`). */
  readonly refresh: () => void;
  /** Whether a file is open in the editor (only open programs are re-proved in the background). */
  readonly isOpen: (fileName: string) => boolean;
  readonly log: (message: string) => void;
  /** Verbose log (tsserver's info level): timings. */
  readonly trace?: (message: string) => void;
  /** Distinguishes projects sharing the process's scheduler. */
  readonly id: string;
  /** The editor's current version of a file (tsserver's script version), when it knows the file. */
  readonly scriptVersion?: (fileName: string) => string | undefined;
}

/** What the plugin derives from one program, each part when first needed. */
class Analysis {
  private readonly diagnostics = new Map<TS.SourceFile, readonly TS.Diagnostic[]>();
  private readonly isProgramMemo = new Map<TS.SourceFile, boolean>();
  private readonly keys = new Map<TS.SourceFile, string>();
  /** The files each program's key covers: what its proof reads of the project. */
  private readonly reads = new Map<TS.SourceFile, readonly TS.SourceFile[]>();
  private trusted: readonly TS.SourceFile[] = [];
  private base: string | undefined;
  private lockMemo: LockVerification | undefined;

  constructor(
    private readonly ts: TypeScript,
    readonly program: TS.Program,
    readonly layer: IncrementalLayer,
  ) {}

  private cacheMemo: CacheUse | undefined;

  /** The disk cache and the keys of this program's agent programs (the base digest is computed once per program). */
  cacheUse(layer: LayerResult, options: ProveOptions): CacheUse | undefined {
    return (this.cacheMemo ??= cacheFor(ProofCache.forProgram(this.program), this.ts, this.program, layer, options));
  }

  /** The program's trusted files verified against clauz3.lock (never written here), once per program. */
  lock(): LockVerification {
    return (this.lockMemo ??= verifyLock(this.ts, this.program, this.layer.isTrusted));
  }

  /** The rule and lock findings of a file, as diagnostics (`toDiagnostic`, like the transformer's). */
  findings(file: TS.SourceFile): readonly TS.Diagnostic[] {
    let d = this.diagnostics.get(file);
    if (!d) {
      const pinning = this.layer.isTrusted(file) ? this.lock().findings.filter((f) => f.file === file) : [];
      d = [...this.layer.findingsOf(file), ...pinning].map((f) => toDiagnostic(this.ts, f));
      this.diagnostics.set(file, d);
    }
    return d;
  }

  /** Whether a file is an agent program: agent source exporting `guarantees` or `main`. */
  isProgram(file: TS.SourceFile): boolean {
    let p = this.isProgramMemo.get(file);
    if (p === undefined) {
      p = isProjectSource(file.fileName, file.isDeclarationFile) && !this.layer.isTrusted(file) && exportsProgram(this.ts, this.program.getTypeChecker(), file);
      this.isProgramMemo.set(file, p);
    }
    return p;
  }

  /**
   * The content key of a program: its text, the texts of the agent modules it imports
   * (transitively), every trusted file's text and the options.
   */
  keyOf(file: TS.SourceFile, roots: readonly string[] | undefined): string {
    const known = this.keys.get(file);
    if (known) return known;
    const { ts } = this;
    if (this.base === undefined) {
      const digest = crypto.createHash("sha256").update(JSON.stringify({ roots: roots ?? null, options: this.program.getCompilerOptions() }));
      const trusted = this.program.getSourceFiles().filter((f) => this.layer.isTrusted(f)).sort((x, y) => (x.fileName < y.fileName ? -1 : x.fileName > y.fileName ? 1 : 0));
      this.trusted = trusted;
      for (const f of trusted) digest.update(`\0${f.fileName}\0${f.text.length}\0`).update(f.text);
      // Which trusted files the lock pins decides which programs are refused.
      digest.update(`\0${JSON.stringify(this.lock().findings.map((f) => [f.file.fileName, f.message]))}`);
      this.base = digest.digest("hex");
    }
    const checker = this.program.getTypeChecker();
    const digest = crypto.createHash("sha256").update(this.base);
    const seen = new Set<string>([file.fileName]);
    const queue = [file];
    const read: TS.SourceFile[] = [...this.trusted];
    while (queue.length > 0) {
      const current = queue.pop()!;
      read.push(current);
      digest.update(`\0${current.fileName}\0${current.text.length}\0`).update(current.text);
      for (const target of importedSourceFiles(ts, checker, current)) {
        if (seen.has(target.fileName)) continue;
        seen.add(target.fileName);
        if (isProjectSource(target.fileName, target.isDeclarationFile) && !this.layer.isTrusted(target)) queue.push(target);
      }
    }
    const key = `${file.fileName}\0${digest.digest("hex")}`;
    this.keys.set(file, key);
    this.reads.set(file, read);
    return key;
  }

  /** The project files a program's proof reads (those its key covers; after `keyOf`). */
  readsOf(file: TS.SourceFile): readonly TS.SourceFile[] {
    return this.reads.get(file) ?? [file];
  }
}

/** The process's proof scheduler, shared by every project (one Z3, one query at a time). */
let sharedScheduler: ProofScheduler | undefined;
export function processScheduler(log: (message: string) => void, trace?: (message: string) => void): ProofScheduler {
  return (sharedScheduler ??= new ProofScheduler(log, trace));
}

/**
 * The program's wall-clock budget in the editor: the editor budget (solver time, counted by the
 * scheduler) takes its place, since a proof's wall clock also runs while other proofs have the solver.
 */
const EDITOR_PROGRAM_TIMEOUT_MS = 24 * 60 * 60 * 1000;

const CONFIG_ERROR = (roots: unknown) =>
  `clauz3/language-service could not start: option "trustedRoots" must be an array of non-empty glob strings relative to the project directory (for example ["tools/**/trusted/**"]), got ${JSON.stringify(roots)}. Nothing was checked. Fix the option in compilerOptions.plugins.`;

export class Clauz3Service {
  private analyses = new WeakMap<TS.Program, Analysis>();
  /** Agent programs shown by this project, and the key of the content they show now. */
  private readonly current = new Map<string, string>();
  private warmed = false;
  /** The last layer read, reused while only agent files change. */
  private lastLayer: IncrementalLayer | undefined;
  private config: Clauz3LanguageServiceConfig;

  constructor(
    private readonly host: ServiceHost,
    config: Clauz3LanguageServiceConfig | undefined,
    readonly scheduler: ProofScheduler = processScheduler(host.log, host.trace),
  ) {
    this.config = config ?? {};
  }

  /** New plugin configuration (tsserver's `configurePlugin`): everything is derived again. */
  setConfig(config: Clauz3LanguageServiceConfig | undefined): void {
    this.config = config ?? {};
    this.analyses = new WeakMap();
    this.lastLayer = undefined;
    this.current.clear();
    this.host.refresh();
  }

  /** clauz3.lock changed (the plugin watches it): verify the trusted files again and refresh. */
  lockChanged(): void {
    this.analyses = new WeakMap();
    this.host.refresh();
  }

  private configError(): string | undefined {
    const roots = this.config.trustedRoots;
    if (roots === undefined || (Array.isArray(roots) && roots.every((r) => typeof r === "string" && r.length > 0))) return editorBudgetProblem(this.config.editorBudgetMs);
    return CONFIG_ERROR(roots);
  }

  /** TypeScript's semantic diagnostics of a file plus clauz3's errors. */
  semanticDiagnostics(fileName: string, base: readonly TS.Diagnostic[]): TS.Diagnostic[] {
    const { ts } = this.host;
    const program = this.host.getProgram();
    const file = program?.getSourceFile(fileName);
    if (!program || !file) return [...base];
    const configError = this.configError();
    if (configError) return isProjectSource(file.fileName, file.isDeclarationFile) ? [...base, configurationDiagnostic(ts, file, configError)] : [...base];
    const a = this.analysis(program);
    const findings = a.findings(file);
    const extra: TS.Diagnostic[] = [...findings];
    if (a.isProgram(file)) {
      const proof = this.proofState(a, file);
      if (proof.state === "done") extra.push(...proofDiagnostics(ts, a.program, file, proof.verdict, findings).errors);
      else if (proof.state === "failed") extra.push(failureDiagnostic(ts, file, proof.detail));
    }
    return extra.length === 0 ? [...base] : [...base, ...extra];
  }

  /** TypeScript's suggestion diagnostics of a file plus clauz3's proved guarantees. */
  suggestionDiagnostics(fileName: string, base: readonly TS.DiagnosticWithLocation[]): TS.DiagnosticWithLocation[] {
    const found = this.programFile(fileName);
    if (!found) return [...base];
    const proof = this.proofState(found.a, found.file);
    if (proof.state !== "done") return [...base];
    const ours = proofDiagnostics(this.host.ts, found.a.program, found.file, proof.verdict, found.a.findings(found.file)).suggestions;
    return ours.length === 0 ? [...base] : [...base, ...ours];
  }

  /** TypeScript's quick info, with the guarantee's sentence and verdict on a contract call of `guarantees`. */
  quickInfo(fileName: string, position: number, base: TS.QuickInfo | undefined): TS.QuickInfo | undefined {
    const found = this.programFile(fileName);
    if (!found) return base;
    const { a, file } = found;
    const g = guaranteeAt(this.host.ts, a.program, a.layer.model, file, position);
    if (!g) return base;
    const text = guaranteeHover(g, a.program.getCurrentDirectory(), this.proofState(a, file));
    return withGuaranteeInfo(this.host.ts, base, g, file, text);
  }

  /** The analysis and source file of `fileName` when it is an agent program of the current program. */
  private programFile(fileName: string): { a: Analysis; file: TS.SourceFile } | undefined {
    const program = this.host.getProgram();
    const file = program?.getSourceFile(fileName);
    if (!program || !file || this.configError()) return undefined;
    const a = this.analysis(program);
    return a.isProgram(file) ? { a, file } : undefined;
  }

  /** The proof state of the program file's current content (queues its proof when unknown). */
  private proofState(a: Analysis, file: TS.SourceFile): ProofState {
    const trustedRoots = this.config.trustedRoots;
    const key = a.keyOf(file, trustedRoots);
    const fileName = file.fileName;
    this.current.set(fileName, key);
    this.warm();
    const { program, layer } = a;
    const { ts } = this.host;
    const settled = this.scheduler.request({
      key,
      slot: `${this.host.id}\0${fileName}`,
      prove: async (share) => {
        const started = performance.now();
        // Reading the cache key hashes the program's files: a more urgent proof's steps go first (scheduler.ts).
        await share.pause?.();
        // The disk cache (core/cache) is shared with `clauz3 check` and tspc: a program they proved opens proved.
        const forProgram = layer.forProgram(file);
        const options = trustedRoots ? { trustedRoots } : {};
        const cache = this.config.cache === false ? undefined : a.cacheUse(forProgram, options);
        // `share` and the program timeout are not proof inputs (no cache key reads them): the same verdict, or none.
        const verdict = await proveCached({ ts, program, file, options: { ...options, share, programTimeoutMs: EDITOR_PROGRAM_TIMEOUT_MS } }, forProgram, cache);
        this.host.trace?.(`proved ${fileName} in ${(performance.now() - started).toFixed(1)} ms: ${verdict.verdict}`);
        return verdict;
      },
      isCurrent: () => this.current.get(fileName) === key,
      unchanged: () => this.unchanged(a.readsOf(file)),
      onSettled: () => this.host.refresh(),
      budgetMs: this.config.editorBudgetMs ?? DEFAULT_EDITOR_BUDGET_MS,
      hostSteps: EDITOR_HOST_STEPS,
      budgetVerdict: (spent) => budgetVerdict(ts, file, spent),
    });
    if (!settled) return { state: "pending" };
    return "verdict" in settled ? { state: "done", verdict: settled.verdict } : { state: "failed", detail: settled.error };
  }

  /**
   * Whether the editor still has the versions of `files` that the proof's program was built from.
   * tsserver re-parses an edited file by moving the nodes of the old tree, so a proof that goes on
   * reading an edited file's old tree could read wrong text: it is abandoned instead.
   */
  private unchanged(files: readonly TS.SourceFile[]): boolean {
    const versionOf = this.host.scriptVersion;
    if (!versionOf) return true;
    return files.every((f) => {
      const built = (f as { version?: string }).version;
      const now = versionOf(f.fileName);
      return built === undefined || now === undefined || built === now;
    });
  }

  /** Start the process's Z3 once there is something to prove, so later proofs find it warm. */
  private warm(): void {
    if (this.warmed) return;
    this.warmed = true;
    Z3Session.get().catch((error: unknown) => this.host.log(`starting Z3 failed: ${String(error)}`));
  }

  private analysis(program: TS.Program): Analysis {
    const known = this.analyses.get(program);
    if (known) return known;
    const started = performance.now();
    const roots = this.config.trustedRoots;
    const layer = readLayerIncrementally(this.host.ts, program, roots ? { trustedRoots: roots } : {}, this.lastLayer);
    this.lastLayer = layer;
    const a = new Analysis(this.host.ts, program, layer);
    this.analyses.set(program, a);
    this.host.trace?.(`${layer.reused ? "reused" : "read"} the layer of ${program.getCurrentDirectory()} in ${(performance.now() - started).toFixed(1)} ms`);
    // A project with a trusted layer will want proofs: start Z3 now, while the editor settles.
    if (layer.model.tools.size > 0 || layer.model.contracts.size > 0) this.warm();
    this.reproveOpenPrograms(a);
    return a;
  }

  /** A new program (an edit anywhere): prove again the open programs whose content changed (a layer edit). */
  private reproveOpenPrograms(a: Analysis): void {
    for (const fileName of [...this.current.keys()]) {
      try {
        const file = a.program.getSourceFile(fileName);
        if (!file || !this.host.isOpen(fileName) || !a.isProgram(file)) {
          this.current.delete(fileName);
          continue;
        }
        this.proofState(a, file);
      } catch (error) {
        this.host.log(`re-proving ${fileName} failed: ${String(error)}`);
      }
    }
  }
}
