/**
 * `clauz3/plugin`: the ts-patch transformer. A thin adapter from `core` to the build:
 *
 * - runs the gate `clauz3 check` runs (core/gate) once per program: configuration, library
 *   manifests, the trusted layer's rules, `clauz3.lock` (verified, never written) and, unless the
 *   entry says `"prove": false`, the proofs of every agent program; every finding becomes a
 *   diagnostic, so `tspc` prints `file(line,col): error TS93xxx: …` and fails;
 * - rewrites each `trusted(...)` call of a tool of the layer model in trusted-layer files so that
 *   its first argument is `{ __clauz3_metadata: {...} }` (the runtime's `ToolMetadata`, as data).
 *
 * Two ways to configure it in tsconfig.json (`compilerOptions.plugins`):
 *
 *     { "transform": "clauz3/plugin", "trustedRoots": ["agents/tools/**"] }
 *     { "transform": "clauz3/plugin", "transformProgram": true }
 *
 * The first is a program-type source transformer. ts-patch calls its outer factory from the
 * patched `program.emit`, before TypeScript looks at `noEmit`/`emitDeclarationOnly`, and appends
 * the diagnostics added there to the emit result: findings fail `tspc`, `tspc --noEmit` and
 * `tspc --emitDeclarationOnly`. But a build that goes through a builder program (`incremental`,
 * `composite`, `tspc -b`, `--watch`) with `noEmit` never calls `program.emit`, so ts-patch never
 * loads the transformer and nothing is checked: use the second form there.
 *
 * The second is a program transformer (ts-patch calls it from `createProgram`): it adds the
 * findings to the program's semantic diagnostics (`getSemanticDiagnostics`, and
 * `getProgramDiagnostics`, which builder programs read on every build without caching), and adds
 * the metadata transformer to every `emit`. It fails the build under every emit setting.
 *
 * Only the caller's TypeScript (`extras.ts`) is used at run time; this module imports TypeScript
 * for types only.
 */
import type * as TS from "typescript";
import { toDiagnostic, type Clauz3Options } from "../core/context";
import { openGate, proofErrors } from "../core/gate";
import { readLayer, type LayerResult } from "../core/layer/read";
import { libraryAt, libraryRootOf } from "../core/manifest";
import type { ToolModel } from "../core/model";
import { formatMessage, RULES } from "../core/rules";
import type { METADATA_KEY } from "../runtime/brand";
import type { ToolMetadata } from "../runtime/tool";
import { manifestEventAccess, toolFootprint } from "../core/footprint/derive";
import { proveInWorker } from "./prove";

/** The key the runtime reads (`runtime/brand.ts`); typed against it, without loading the runtime. */
const METADATA: typeof METADATA_KEY = "__clauz3_metadata";

/** The plugin's entry in `compilerOptions.plugins`. */
export interface Clauz3PluginConfig {
  readonly transform?: string;
  /** Globs (relative to the project directory) selecting trusted-layer files; default: a `trusted` path segment. */
  readonly trustedRoots?: readonly string[];
  /** `true`: run as a ts-patch program transformer (checks under every emit setting). */
  readonly transformProgram?: boolean;
  /**
   * Prove every agent program during the build (the default): a violated or refused program fails
   * it. `false` opts out, for builds of trusted libraries alone; `clauz3 check` still proves.
   */
  readonly prove?: boolean;
  /**
   * Keep final verdicts in the proof cache, `node_modules/.cache/clauz3/proofs` beside the
   * tsconfig.json (the default), shared with `clauz3 check` and `prove`; `false` proves every
   * program again in every build.
   */
  readonly cache?: boolean;
  /**
   * Wall-clock budget of one program's proof in milliseconds (default 90 000, as `clauz3 check
   * --program-timeout`); a proof that runs out is refused and fails the build.
   */
  readonly programTimeoutMs?: number;
  readonly [option: string]: unknown;
}

/** What ts-patch passes to a program-type source transformer (the subset clauz3 uses). */
export interface TransformerExtras {
  /** The caller's TypeScript: the only instance this plugin uses. */
  readonly ts: typeof TS;
  readonly addDiagnostic: (diagnostic: TS.Diagnostic) => number;
  readonly diagnostics: readonly TS.Diagnostic[];
  readonly library?: string;
}

/** What ts-patch passes to a program transformer. */
export interface ProgramTransformerExtras {
  readonly ts: typeof TS;
}

/** What the plugin derived from one program. */
interface Analysis {
  /** Every diagnostic of the program, created once (ts-patch de-duplicates by identity). */
  readonly diagnostics: readonly TS.Diagnostic[];
  /** The same diagnostics by file name; those without a file under `""`. */
  readonly byFile: ReadonlyMap<string, readonly TS.Diagnostic[]>;
  /** Metadata to inject, by the original `trusted(...)` call node. */
  readonly metadata: ReadonlyMap<TS.Node, ToolMetadata>;
  /** Files that hold tool calls to rewrite, with how many. */
  readonly filesWithTools: ReadonlyMap<string, number>;
}

/** Analyses by program, then by the options that shape them (one plugin entry usually). */
const analyses = new WeakMap<TS.Program, Map<string, Analysis>>();
/** Programs already extended by the program-transformer form (never twice). */
const extended = new WeakSet<TS.Program>();

/**
 * The transformer. Called by ts-patch as a source transformer `(program, config, extras)` it
 * returns a transformer factory; called as a program transformer `(program, host, config, extras)`
 * (with `"transformProgram": true`) it returns the program, extended.
 */
function clauz3Plugin(program: TS.Program, config: Clauz3PluginConfig | undefined, extras: TransformerExtras): TS.TransformerFactory<TS.SourceFile>;
function clauz3Plugin(program: TS.Program, host: TS.CompilerHost | undefined, config: Clauz3PluginConfig | undefined, extras: ProgramTransformerExtras): TS.Program;
function clauz3Plugin(program: TS.Program, second: unknown, third: unknown, fourth?: unknown): TS.TransformerFactory<TS.SourceFile> | TS.Program {
  if (isSourceExtras(third)) return sourceTransformer(program, (second ?? {}) as Clauz3PluginConfig, third);
  if (isProgramExtras(fourth)) return programTransformer(program, (third ?? {}) as Clauz3PluginConfig, fourth);
  throw new Error(
    'clauz3/plugin: unsupported ts-patch plugin type. Configure it as { "transform": "clauz3/plugin" } (the default "program" type) or with "transformProgram": true; nothing was checked.',
  );
}
export default clauz3Plugin;

function isSourceExtras(value: unknown): value is TransformerExtras {
  const v = value as Partial<TransformerExtras> | undefined;
  return typeof v === "object" && v !== null && typeof v.addDiagnostic === "function" && typeof v.ts === "object";
}

function isProgramExtras(value: unknown): value is ProgramTransformerExtras {
  const v = value as Partial<ProgramTransformerExtras> | undefined;
  return typeof v === "object" && v !== null && typeof v.ts === "object";
}

/** Source-transformer form: diagnostics through `extras.addDiagnostic`, metadata in `before`. */
function sourceTransformer(program: TS.Program, config: Clauz3PluginConfig, extras: TransformerExtras): TS.TransformerFactory<TS.SourceFile> {
  const ts = extras.ts;
  const analysis = analyse(ts, program, config);
  for (const diagnostic of [...analysis.diagnostics, ...builderNotice(ts, program)]) {
    if (!extras.diagnostics.includes(diagnostic)) extras.addDiagnostic(diagnostic);
  }
  return metadataTransformer(ts, analysis, (diagnostic) => {
    if (!extras.diagnostics.includes(diagnostic)) extras.addDiagnostic(diagnostic);
  });
}

/**
 * Program-transformer form: findings join the program's semantic diagnostics; every emit gets the
 * metadata transformer. Each wrapper returns new arrays and objects: TypeScript caches and shares
 * the ones it returns (an empty result may be its one shared empty array).
 */
function programTransformer(program: TS.Program, config: Clauz3PluginConfig, extras: ProgramTransformerExtras): TS.Program {
  if (extended.has(program)) return program;
  extended.add(program);
  const ts = extras.ts;
  // The gate asks this program for TypeScript's own diagnostics: while it does, the wrappers below
  // answer with TypeScript's alone (no re-entry into the analysis).
  let analysing = false;
  const analysis = (): Analysis => {
    if (analysing) return NOTHING;
    analysing = true;
    try {
      return analyse(ts, program, config);
    } finally {
      analysing = false;
    }
  };
  const withFindings = (base: readonly TS.Diagnostic[], sourceFile: TS.SourceFile | undefined): readonly TS.Diagnostic[] => {
    const a = analysis();
    const ours = sourceFile ? (a.byFile.get(sourceFile.fileName) ?? []) : a.diagnostics.filter((d) => d.file);
    return ours.length === 0 ? base : [...base, ...ours];
  };
  type Internal = (sourceFile: TS.SourceFile, cancellationToken?: TS.CancellationToken) => readonly TS.Diagnostic[];
  const target = program as TS.Program & { getProgramDiagnostics?: Internal; getBindAndCheckDiagnostics?: Internal };

  const getSemanticDiagnostics = program.getSemanticDiagnostics;
  target.getSemanticDiagnostics = (sourceFile, cancellationToken) =>
    withFindings(getSemanticDiagnostics.call(program, sourceFile, cancellationToken), sourceFile);

  // Builder programs (incremental, composite, -b, watch) cache bind-and-check diagnostics in the
  // build info but read these on every build: the findings are never served stale from a cache.
  const getProgramDiagnostics = target.getProgramDiagnostics;
  if (typeof getProgramDiagnostics === "function") {
    target.getProgramDiagnostics = (sourceFile) => withFindings(getProgramDiagnostics.call(program, sourceFile), sourceFile);
  } else {
    // A TypeScript without it: builders then see the findings with the (cached) check results.
    const getBindAndCheckDiagnostics = target.getBindAndCheckDiagnostics;
    if (typeof getBindAndCheckDiagnostics === "function") {
      target.getBindAndCheckDiagnostics = (sourceFile, cancellationToken) =>
        withFindings(getBindAndCheckDiagnostics.call(program, sourceFile, cancellationToken), sourceFile);
    }
  }

  const getGlobalDiagnostics = program.getGlobalDiagnostics;
  target.getGlobalDiagnostics = (cancellationToken) => {
    const base = getGlobalDiagnostics.call(program, cancellationToken);
    // Findings in files that are not sources of the program (clauz3.json, clauz3.lock,
    // tsconfig.json) are never asked for by file: they are global (tsc de-duplicates them).
    const a = analysis();
    const global = [...(a.byFile.get("") ?? []), ...a.diagnostics.filter((d) => d.file && !program.getSourceFile(d.file.fileName))];
    return global.length === 0 ? base : [...base, ...global];
  };

  const emit = program.emit;
  target.emit = (targetSourceFile, writeFile, cancellationToken, emitOnlyDts, customTransformers, ...rest: unknown[]) => {
    const failures: TS.Diagnostic[] = [];
    const before = metadataTransformer(ts, analysis(), (d) => failures.push(d));
    const transformers: TS.CustomTransformers = { ...customTransformers, before: [before, ...(customTransformers?.before ?? [])] };
    const result = (emit as (...args: unknown[]) => TS.EmitResult).call(program, targetSourceFile, writeFile, cancellationToken, emitOnlyDts, transformers, ...rest);
    return failures.length === 0 ? result : { ...result, diagnostics: [...result.diagnostics, ...failures] };
  };
  return program;
}

/**
 * The metadata transformer of a layer read elsewhere: `clauz3 run` emits the approved sources with
 * it (the injection a tspc build makes); a failure is reported to `fail`, never thrown.
 */
export function layerMetadataTransformer(ts: typeof TS, layer: LayerResult, fail: (diagnostic: TS.Diagnostic) => void): TS.TransformerFactory<TS.SourceFile> {
  return metadataTransformer(ts, withDiagnostics([], metadataOf(layer)), fail);
}

/** What the wrappers add while the analysis itself asks the program for diagnostics. */
const NOTHING: Analysis = { diagnostics: [], byFile: new Map(), metadata: new Map(), filesWithTools: new Map() };

const notices = new WeakMap<TS.Program, readonly TS.Diagnostic[]>();

/**
 * In the source-transformer form, a build through a builder program (`incremental`, `composite`,
 * `tspc -b`, `--watch`) can skip the plugin: with `noEmit` ts-patch never loads it, and an
 * up-to-date check may skip the program altogether. When such a build does load it, it fails
 * with 93091 (cannot-check) and says to switch to the program-transformer form, which those
 * builds always run: never a silent pass waiting for the next `--noEmit` run.
 */
function builderNotice(ts: typeof TS, program: TS.Program): readonly TS.Diagnostic[] {
  const known = notices.get(program);
  if (known) return known;
  const options = program.getCompilerOptions() as TS.CompilerOptions & { watch?: boolean; tscBuild?: boolean };
  const why = options.tscBuild ? "`tspc --build`" : options.composite ? "`composite`" : options.incremental ? "`incremental`" : options.watch ? "`--watch`" : undefined;
  const list: TS.Diagnostic[] = [];
  if (why) {
    list.push({
      category: ts.DiagnosticCategory.Error,
      code: RULES.cannotCheck.code,
      file: undefined,
      start: undefined,
      length: undefined,
      messageText:
        `clauz3/plugin cannot check every ${why} build as a source transformer: with \`noEmit\` ts-patch never runs it, and an up-to-date build skips it. ` +
        `Add "transformProgram": true to its entry in compilerOptions.plugins ({ "transform": "clauz3/plugin", "transformProgram": true }); that form checks every build.`,
      source: "clauz3",
    });
  }
  notices.set(program, list);
  return list;
}

/** The `before` transformer that injects tool metadata; failures are reported, never thrown. */
function metadataTransformer(ts: typeof TS, analysis: Analysis, fail: (diagnostic: TS.Diagnostic) => void): TS.TransformerFactory<TS.SourceFile> {
  return (context) => (sourceFile) => {
    const expected = analysis.filesWithTools.get(sourceFile.fileName);
    if (expected === undefined) return sourceFile;
    try {
      return injectMetadata(ts, context, sourceFile, analysis.metadata, expected);
    } catch (error) {
      // Emit the file unchanged but fail the build: a tool without its metadata is not a silent pass.
      fail(internalError(ts, sourceFile, `injecting tool metadata failed: ${describe(error)}`));
      return sourceFile;
    }
  };
}

/** Read the layer once per program; any failure becomes an internal-error diagnostic. */
function analyse(ts: typeof TS, program: TS.Program, config: Clauz3PluginConfig): Analysis {
  const key = JSON.stringify([config.trustedRoots, config.after, config.afterDeclarations, config.prove, config.cache, config.programTimeoutMs]);
  let byConfig = analyses.get(program);
  if (!byConfig) analyses.set(program, (byConfig = new Map()));
  const known = byConfig.get(key);
  if (known) return known;
  let analysis: Analysis;
  try {
    const options = optionsOf(config);
    if ("problem" in options) {
      analysis = withDiagnostics([globalError(ts, options.problem)], { metadata: new Map(), filesWithTools: new Map() });
    } else {
      const layer = readLayer(ts, program, options);
      // The gate `clauz3 check` runs (core/gate), less TypeScript's own diagnostics, which tspc
      // prints itself: configuration, manifests, layer rules, the lock (verified, never written),
      // then the proofs of every agent program unless the entry opts out with "prove": false.
      const gate = openGate({ ts, program, options, layer });
      const proofs = config.prove === false ? gate.programFindings : proofErrors(gate, proveInWorker(gate, options.trustedRoots, config.cache !== false, options.programTimeoutMs));
      analysis = withDiagnostics([...gate.configuration, ...gate.findings, ...proofs], metadataOf(layer));
    }
  } catch (error) {
    const where = program.getCompilerOptions().configFilePath;
    const file = typeof where === "string" ? where : program.getCurrentDirectory();
    analysis = withDiagnostics([globalError(ts, formatMessage(RULES.internalError, { file, detail: describe(error) }))], {
      metadata: new Map(),
      filesWithTools: new Map(),
    });
  }
  byConfig.set(key, analysis);
  return analysis;
}

function withDiagnostics(diagnostics: readonly TS.Diagnostic[], rest: Pick<Analysis, "metadata" | "filesWithTools">): Analysis {
  const byFile = new Map<string, TS.Diagnostic[]>();
  for (const d of diagnostics) {
    const key = d.file?.fileName ?? "";
    let list = byFile.get(key);
    if (!list) byFile.set(key, (list = []));
    list.push(d);
  }
  return { diagnostics, byFile, ...rest };
}

/** The core options from the plugin's entry, or what is wrong with the entry. */
function optionsOf(config: Clauz3PluginConfig): (Clauz3Options & { readonly programTimeoutMs?: number }) | { problem: string } {
  const placement = config.after ? "after" : config.afterDeclarations ? "afterDeclarations" : undefined;
  if (placement !== undefined) {
    // Those would run the rewrite on TypeScript's output instead of the source.
    return {
      problem: `clauz3/plugin could not start: it must run before TypeScript's own transforms, but its entry in compilerOptions.plugins sets "${placement}". Nothing was checked. Remove "${placement}" from { "transform": "clauz3/plugin", ... }.`,
    };
  }
  if (config.prove !== undefined && typeof config.prove !== "boolean") {
    return { problem: `clauz3/plugin could not start: option "prove" must be true or false, got ${JSON.stringify(config.prove)}. Nothing was checked. Leave "prove" out (agent programs are proved during the build) or write "prove": false to build trusted libraries without proving.` };
  }
  if (config.cache !== undefined && typeof config.cache !== "boolean") {
    return { problem: `clauz3/plugin could not start: option "cache" must be true or false, got ${JSON.stringify(config.cache)}. Nothing was checked. Leave "cache" out (final verdicts are kept in node_modules/.cache/clauz3/proofs) or write "cache": false to prove every program in every build.` };
  }
  const budget = config.programTimeoutMs;
  if (budget !== undefined && !(typeof budget === "number" && Number.isSafeInteger(budget) && budget > 0)) {
    return { problem: `clauz3/plugin could not start: option "programTimeoutMs" must be a positive whole number of milliseconds, got ${JSON.stringify(budget)}. Nothing was checked. Leave it out (90000: one program's proof may take 90 s) or write a larger budget, e.g. "programTimeoutMs": 300000.` };
  }
  const timeout = budget === undefined ? {} : { programTimeoutMs: budget };
  const roots = config.trustedRoots;
  if (roots === undefined) return timeout;
  if (Array.isArray(roots) && roots.every((r) => typeof r === "string" && r.length > 0)) return { trustedRoots: roots as string[], ...timeout };
  return {
    problem: `clauz3/plugin could not start: option "trustedRoots" must be an array of non-empty glob strings relative to the project directory (for example ["tools/**/trusted/**"]), got ${JSON.stringify(roots)}. Nothing was checked. Fix the option in compilerOptions.plugins.`,
  };
}

/** The metadata of every tool of the layer, keyed by its `trusted(...)` call. */
function metadataOf(layer: LayerResult): Pick<Analysis, "metadata" | "filesWithTools"> {
  const metadata = new Map<TS.Node, ToolMetadata>();
  const filesWithTools = new Map<string, number>();
  for (const tool of layer.model.tools.values()) {
    metadata.set(tool.call, toolMetadata(layer, tool));
    const fileName = tool.call.getSourceFile().fileName;
    filesWithTools.set(fileName, (filesWithTools.get(fileName) ?? 0) + 1);
  }
  return { metadata, filesWithTools };
}

/** A tool's `ToolMetadata`: plain data read from the layer model. */
export function toolMetadata(layer: LayerResult, tool: ToolModel): ToolMetadata {
  return {
    tool: tool.qualifiedName,
    parameters: tool.parameters.map((p) => p.name),
    ...(tool.objectParameter ? { objectParameter: tool.objectParameter.name } : {}),
    builderParameters: tool.performs ? [...tool.performs.builderParameters] : [],
    ...(tool.updates ? { updatesParameters: [...tool.updates.builderParameters] } : {}),
    events: (tool.performs?.events ?? []).map((e) => ({
      event: layer.model.events.get(e.eventId)?.name ?? e.eventId.slice(e.eventId.lastIndexOf("#") + 1),
      fields: { ...e.fields },
    })),
    requires: tool.requires.map((r) => [...r.parameters]),
    ensures: tool.ensures.map((e) => [...e.parameters]),
    // The runtime refuses the tool outside an approved `clauz3 run` when its manifest says so (runtime/approval.ts).
    ...approvalOf(tool.call.getSourceFile().fileName),
    // What the batch scheduler resolves the tool's calls with (core/footprint, runtime/scheduler.ts).
    footprint: toolFootprint(layer.model, tool, manifestEventAccess()),
  };
}

/** `{ requiresApproval: <library id> }` when the manifest of the tool's library requires approval. */
function approvalOf(fileName: string): { requiresApproval?: string } {
  const library = libraryAt(libraryRootOf(fileName), []);
  return library.manifest?.requiresApproval === true ? { requiresApproval: library.id } : {};
}

/**
 * Rewrite `export const name = trusted(a, b, impl)` into
 * `export const name = trusted({ __clauz3_metadata: {...} }, a, b, impl)`. Tools are top-level
 * `const` initialisers (a rule of the layer), so only top-level variable statements are visited;
 * a tool of the model that is not found there fails the build (internal error), never silently.
 */
function injectMetadata(
  ts: typeof TS,
  context: TS.TransformationContext,
  sourceFile: TS.SourceFile,
  metadata: ReadonlyMap<TS.Node, ToolMetadata>,
  expected: number,
): TS.SourceFile {
  const { factory } = context;
  let injected = 0;
  const statements = sourceFile.statements.map((statement) => {
    if (!ts.isVariableStatement(statement)) return statement;
    let touched = false;
    const declarations = statement.declarationList.declarations.map((declaration) => {
      const call = declaration.initializer;
      const meta = call && ts.isCallExpression(call) ? metadata.get(ts.getOriginalNode(call)) : undefined;
      if (!call || !ts.isCallExpression(call) || !meta) return declaration;
      touched = true;
      injected++;
      const argument = factory.createObjectLiteralExpression([factory.createPropertyAssignment(METADATA, dataExpression(factory, meta))], false);
      const rewritten = factory.updateCallExpression(call, call.expression, call.typeArguments, [argument, ...call.arguments]);
      return factory.updateVariableDeclaration(declaration, declaration.name, declaration.exclamationToken, declaration.type, rewritten);
    });
    if (!touched) return statement;
    return factory.updateVariableStatement(statement, statement.modifiers, factory.updateVariableDeclarationList(statement.declarationList, declarations));
  });
  if (injected !== expected) {
    throw new Error(`found ${injected} of the ${expected} trusted(...) tool declarations of the layer model at the top level of the file`);
  }
  return factory.updateSourceFile(sourceFile, statements);
}

type Data = string | number | boolean | readonly Data[] | { readonly [key: string]: Data };

/** A JSON-like value as an expression: literals, array and object literals only. */
function dataExpression(factory: TS.NodeFactory, value: unknown): TS.Expression {
  if (typeof value === "string") return factory.createStringLiteral(value);
  if (typeof value === "number") return factory.createNumericLiteral(value);
  if (typeof value === "boolean") return value ? factory.createTrue() : factory.createFalse();
  if (Array.isArray(value)) return factory.createArrayLiteralExpression(value.map((v: Data) => dataExpression(factory, v)), false);
  if (typeof value === "object" && value !== null) {
    return factory.createObjectLiteralExpression(
      Object.entries(value).map(([key, v]) =>
        factory.createPropertyAssignment(/^[A-Za-z_$][\w$]*$/.test(key) ? factory.createIdentifier(key) : factory.createStringLiteral(key), dataExpression(factory, v)),
      ),
      false,
    );
  }
  throw new TypeError(`cannot emit ${typeof value} as metadata`);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An internal-error diagnostic on a file (93090). */
function internalError(ts: typeof TS, file: TS.SourceFile, detail: string): TS.Diagnostic {
  return toDiagnostic(ts, {
    rule: "internalError",
    file,
    start: 0,
    length: 0,
    message: formatMessage(RULES.internalError, { file: file.fileName, detail }),
  });
}

/** An internal-error diagnostic that belongs to no file (93090). */
function globalError(ts: typeof TS, message: string): TS.Diagnostic {
  return {
    category: ts.DiagnosticCategory.Error,
    code: RULES.internalError.code,
    file: undefined,
    start: undefined,
    length: undefined,
    messageText: message,
    source: "clauz3",
  };
}
