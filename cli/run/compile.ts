/**
 * Compiling exactly what was approved (docs/run.md). The program digest is over the agent modules'
 * texts and the layer's lock; the TypeScript program `run` checked, proved and built the request
 * from holds those very texts as source files (the lock is verified against them, the request's
 * digests are computed from them). So `run` emits from those source file objects, in memory, to
 * CommonJS — a second program over the same objects, never a re-read of the disk and never a
 * JavaScript file someone built separately: nothing written after the check can take their place.
 * Trusted modules get the tool metadata a tspc build injects (plugin/index.ts), including whether
 * their library requires approval.
 */
import * as path from "node:path";
import type * as TS from "typescript";
import type { ApprovalRequest } from "../../core/approval/types";
import { sha256Hex } from "../../core/lock/digest";
import { layerMetadataTransformer } from "../../plugin";
import type { Project } from "../project";

/** The emitted modules: absolute source path → CommonJS text. */
export interface CompiledProgram {
  readonly entry: string;
  readonly modules: ReadonlyMap<string, string>;
  /** The agent modules among them (the approved sources). */
  readonly agentModules: ReadonlySet<string>;
}

/** The approved sources cannot be compiled as approved (an internal error: exit 2). */
export class CompileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CompileError";
  }
}

export function compileApproved(project: Project, file: TS.SourceFile, request: ApprovalRequest): CompiledProgram {
  const { ts, program, layer, projectDir } = project;
  // The agent modules: the request's sources, each the program's text for it, byte for byte.
  const agent = new Map<string, TS.SourceFile>();
  for (const source of [request.program, ...request.program.imports]) {
    const full = path.resolve(projectDir, source.path);
    const sf = program.getSourceFile(full) ?? (full === path.resolve(file.fileName) ? file : undefined);
    if (!sf || sf.text !== source.source || sha256Hex(Buffer.from(sf.text, "utf8")) !== source.sha256) {
      throw new CompileError(`${source.path} is not the source the request approves`);
    }
    agent.set(path.resolve(sf.fileName), sf);
  }
  const trusted = program.getSourceFiles().filter((f) => layer.isTrusted(f) && !f.isDeclarationFile);

  const base = program.getCompilerOptions();
  const options: TS.CompilerOptions = {
    ...base,
    noEmit: false,
    emitDeclarationOnly: false,
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    inlineSourceMap: false,
    inlineSources: false,
    composite: false,
    incremental: false,
    tsBuildInfoFile: undefined,
    outDir: undefined,
    outFile: undefined,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    verbatimModuleSyntax: false,
    allowImportingTsExtensions: false,
    rewriteRelativeImportExtensions: false,
    importHelpers: false,
    noEmitHelpers: false,
    noEmitOnError: false,
    esModuleInterop: true,
  };
  // The same source file objects: what was checked is what is emitted.
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, fresh) => program.getSourceFile(fileName) ?? getSourceFile(fileName, languageVersion, onError, fresh);
  host.getCurrentDirectory = () => program.getCurrentDirectory();
  host.writeFile = () => {
    throw new CompileError("the compiler tried to write a file");
  };
  const roots = [...agent.keys(), ...trusted.map((f) => f.fileName)];
  const emitter = ts.createProgram({ rootNames: roots, options, host });

  const failures: string[] = [];
  const metadata = layerMetadataTransformer(ts, layer, (d) => failures.push(ts.flattenDiagnosticMessageText(d.messageText, "\n")));
  const modules = new Map<string, string>();
  for (const sf of [...agent.values(), ...trusted]) {
    const target = emitter.getSourceFile(sf.fileName);
    if (target !== sf) throw new CompileError(`${sf.fileName} changed while it was compiled`);
    let js: string | undefined;
    const result = emitter.emit(target, (name, text) => {
      if (/\.[cm]?js$/.test(name)) js = text;
    }, undefined, false, { before: [metadata] });
    const errors = result.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (result.emitSkipped || errors.length > 0 || failures.length > 0 || js === undefined) {
      const why = [...failures, ...errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))].join("; ") || "nothing was emitted";
      throw new CompileError(`${path.relative(projectDir, sf.fileName)} cannot be compiled: ${why}`);
    }
    modules.set(path.resolve(sf.fileName), js);
  }
  return { entry: path.resolve(file.fileName), modules, agentModules: new Set(agent.keys()) };
}
