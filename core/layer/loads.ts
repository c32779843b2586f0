/**
 * The modules an agent program loads when Node runs it, and whether each may be loaded.
 *
 * TypeScript's view of an import is not what runs: it may read `x.d.ts` where Node loads `x.js`,
 * map `./x` through `paths` or `rootDirs`, or believe an ambient `declare module`. So every import
 * that survives compilation (not `import type`, not an import whose bindings are all types) is
 * resolved again the way Node resolves it (CommonJS `require` and ESM: exact file, added
 * extensions, directory `package.json`/`index`; packages through `node_modules` and self-reference)
 * and must land on the TypeScript source the checker read. What may load:
 *
 * - trusted-layer modules (under the trusted roots) and, through them, whatever they import;
 * - agent modules: TypeScript sources of the project, held to the agent rules (the caller checks
 *   their top level), whose own loads are checked the same way, transitively;
 * - `clauz3`, `clauz3/events`, `clauz3/spec` (the runtime), when Node finds the package TypeScript
 *   read, and the same one the project directory resolves;
 * - Node built-ins in {@link ALLOWED_BUILTINS} (none: agent code acts only through tools).
 *
 * Anything else (another package, a JavaScript, JSON or declaration-only module, a file Node would
 * pick instead of the checked source) is refused on the import's module specifier.
 */
import { isBuiltin } from "node:module";
import * as path from "node:path";
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import { Refusal } from "../refusal";
import { runtimeModuleOf } from "../runtime-symbols";
import { isProjectSource } from "./classify";

/** What Node would find on disk: `ts.sys` for real projects, the in-memory system in tests. */
export interface ModuleHost {
  fileExists(fileName: string): boolean;
  readFile(fileName: string): string | undefined;
  realpath?(fileName: string): string;
}

/**
 * Node built-in modules agent code may load. Empty: every built-in either performs effects
 * (`fs`, `child_process`, `net`, `http`, `worker_threads`, `vm`, …) or can reach one, and agent
 * code must act only through trusted tools, whose events the prover sees.
 */
export const ALLOWED_BUILTINS: ReadonlySet<string> = new Set();

/** The clauz3 package exports agent code may import. */
const CLAUZ3_SPECIFIERS: ReadonlySet<string> = new Set(["clauz3", "clauz3/events", "clauz3/spec"]);

/** Extensions Node loads as code or data for a specifier without one (CommonJS, plus ES module forms). */
const NODE_EXTENSIONS = [".js", ".json", ".node", ".mjs", ".cjs"];
const JS_TO_TS: Readonly<Record<string, readonly string[]>> = { ".js": [".ts", ".tsx"], ".jsx": [".tsx"], ".mjs": [".mts"], ".cjs": [".cts"] };
const TS_SOURCE = /\.(?:ts|tsx|mts|cts)$/;

/** The modules a program loads at run time, and the first load that is refused. */
export interface LoadGraph {
  /** Agent modules that run when the program loads, the program first. */
  readonly agentModules: readonly TS.SourceFile[];
  /** Every module reached through run-time loads (agent and trusted). */
  readonly modules: readonly TS.SourceFile[];
  readonly refusal: Refusal | undefined;
}

/** One top-level statement that loads a module at run time, by its module specifier. */
export interface RuntimeImport {
  readonly specifier: TS.StringLiteral;
  readonly statement: TS.Statement;
}

/**
 * The imports and re-exports of a module that survive compilation. `import type`, `export type`
 * and imports whose bindings are all types are erased (unless `verbatimModuleSyntax` keeps the
 * statement); side-effect imports, namespace imports, `export *` and `import x = require(…)`
 * always load. A value binding used only in types still counts (over-approximation is safe).
 */
export function runtimeImports(ts: TypeScript, checker: TS.TypeChecker, options: TS.CompilerOptions, file: TS.SourceFile): RuntimeImport[] {
  const verbatim =
    !!options.verbatimModuleSyntax ||
    !!options.preserveValueImports ||
    options.importsNotUsedAsValues === ts.ImportsNotUsedAsValues.Preserve ||
    options.importsNotUsedAsValues === ts.ImportsNotUsedAsValues.Error;
  const isValue = (name: TS.Node): boolean => {
    const symbol = checker.getSymbolAtLocation(name);
    if (!symbol) return true;
    let target = symbol;
    if (target.flags & ts.SymbolFlags.Alias) {
      try {
        target = checker.getAliasedSymbol(target);
      } catch {
        return true;
      }
    }
    // Only a symbol that is certainly no value (an interface, a type alias, an uninstantiated namespace) is erased.
    return (target.flags & ts.SymbolFlags.Value) !== 0 || (target.flags & (ts.SymbolFlags.Type | ts.SymbolFlags.Namespace)) === 0;
  };
  const out: RuntimeImport[] = [];
  for (const s of file.statements) {
    if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier)) {
      const clause = s.importClause;
      let loads: boolean;
      if (!clause) loads = true;
      else if (clause.isTypeOnly) loads = false;
      else if (verbatim) loads = true;
      else {
        const b = clause.namedBindings;
        loads =
          (!!clause.name && isValue(clause.name)) ||
          (!!b && ts.isNamespaceImport(b)) ||
          (!!b && ts.isNamedImports(b) && (b.elements.length === 0 || b.elements.some((el) => !el.isTypeOnly && isValue(el.name))));
      }
      if (loads) out.push({ specifier: s.moduleSpecifier, statement: s });
    } else if (ts.isExportDeclaration(s) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)) {
      if (s.isTypeOnly) continue;
      const c = s.exportClause;
      const loads = verbatim || !c || ts.isNamespaceExport(c) || c.elements.length === 0 || c.elements.some((el) => !el.isTypeOnly && isValue(el.name));
      if (loads) out.push({ specifier: s.moduleSpecifier, statement: s });
    } else if (ts.isImportEqualsDeclaration(s) && !s.isTypeOnly && ts.isExternalModuleReference(s.moduleReference) && ts.isStringLiteral(s.moduleReference.expression)) {
      out.push({ specifier: s.moduleReference.expression, statement: s });
    }
  }
  return out;
}

/**
 * Walk the modules `program` loads when `file` runs, from `file` (an agent module), and judge every
 * load an agent module makes. Trusted modules are followed only to find agent modules they load;
 * their own imports are the operator's (the lock file pins them).
 */
export function runtimeLoads(
  ts: TypeScript,
  program: TS.Program,
  file: TS.SourceFile,
  isTrusted: (file: TS.SourceFile) => boolean,
  host: ModuleHost,
): LoadGraph {
  const checker = program.getTypeChecker();
  const options = program.getCompilerOptions();
  const judge = new LoadJudge(ts, program, checker, host);
  const agentModules: TS.SourceFile[] = [];
  const seen = new Set<TS.SourceFile>([file]);
  const queue = [file];
  for (let i = 0; i < queue.length; i++) {
    const module = queue[i]!;
    const agent = module === file || !isTrusted(module);
    if (agent) agentModules.push(module);
    for (const { specifier } of runtimeImports(ts, checker, options, module)) {
      const target = sourceFileOf(ts, checker, specifier);
      const isAgentTarget = !!target && isAgentSource(target, isTrusted);
      let next: TS.SourceFile | undefined;
      if (agent || isAgentTarget) {
        const verdict = judge.judge(specifier, module);
        if (verdict instanceof Refusal) return { agentModules, modules: queue, refusal: verdict };
        next = verdict;
      } else if (target && isTrusted(target)) {
        next = target;
      }
      if (next && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return { agentModules, modules: queue, refusal: undefined };
}

function isAgentSource(file: TS.SourceFile, isTrusted: (file: TS.SourceFile) => boolean): boolean {
  return isProjectSource(file.fileName, file.isDeclarationFile) && !isTrusted(file) && runtimeModuleOf(file.fileName) === undefined;
}

/** The source file TypeScript resolved a module specifier to (not an ambient module), if any. */
function sourceFileOf(ts: TypeScript, checker: TS.TypeChecker, specifier: TS.StringLiteral): TS.SourceFile | undefined {
  const symbol = checker.getSymbolAtLocation(specifier);
  return symbol?.declarations?.find((d): d is TS.SourceFile => ts.isSourceFile(d));
}

/** Judges one load: the module Node would load (a project module to follow, or none), or a refusal. */
class LoadJudge {
  private readonly ignoreCase: boolean;
  /** The project's directory: its tsconfig's, else the program's current directory. */
  private readonly projectDir: string;
  constructor(
    private readonly ts: TypeScript,
    private readonly program: TS.Program,
    private readonly checker: TS.TypeChecker,
    private readonly host: ModuleHost,
  ) {
    this.ignoreCase = !ts.sys.useCaseSensitiveFileNames;
    this.projectDir = projectDirectory(program);
  }

  judge(specifier: TS.StringLiteral, importer: TS.SourceFile): TS.SourceFile | undefined | Refusal {
    const text = specifier.text;
    const refuse = (reason: string, instead: string): Refusal => new Refusal(specifier, reason, instead);
    if (text.startsWith("node:") || isBuiltin(text)) {
      const name = text.replace(/^node:/, "");
      if (ALLOWED_BUILTINS.has(name)) return undefined;
      return refuse(`\`${text}\` is a Node built-in module; agent code acts only through trusted tools, whose events the prover sees.`, "Call a tool of a trusted library instead (or ask the operator for one).");
    }
    if (text.startsWith(".") || path.isAbsolute(text)) return this.judgeFile(specifier, importer);
    if (CLAUZ3_SPECIFIERS.has(text)) return this.judgeRuntime(specifier, importer);
    return refuse(
      `\`${text}\` is not a module of this project: Node resolves it as a package under \`node_modules\` (or a subpath import), which is neither trusted-layer code nor agent code the prover checks.`,
      "Import trusted libraries and agent modules by relative path (`./tools/<domain>/trusted/...`), and only `clauz3`, `clauz3/events` or `clauz3/spec` by package name.",
    );
  }

  /** `clauz3`: TypeScript must have read the runtime, and Node must find the same package. */
  private judgeRuntime(specifier: TS.StringLiteral, importer: TS.SourceFile): undefined | Refusal {
    const ts = this.ts;
    const refuse = (reason: string, instead: string): Refusal => new Refusal(specifier, reason, instead);
    const target = sourceFileOf(ts, this.checker, specifier);
    const root = target ? runtimeRootOf(target.fileName) : undefined;
    if (!target || !root) {
      return refuse(`TypeScript does not read \`${specifier.text}\` from the clauz3 runtime (an ambient \`declare module\` or a \`paths\` entry stands in for it).`, "Remove the declaration or mapping that replaces the clauz3 package.");
    }
    const nodeRoot = nodePackageDir(this.host, path.dirname(importer.fileName), "clauz3");
    if (nodeRoot && !this.same(nodeRoot, root)) {
      return refuse(`Node would load \`${specifier.text}\` from ${nodeRoot}, not from ${root} where TypeScript read it.`, "Remove the other copy of the clauz3 package; agent programs use the operator's installation.");
    }
    // The operator's installation is the one the project itself resolves; a copy nearer the
    // program (a `node_modules/clauz3` in a subdirectory) is one somebody else put there.
    const projectRoot = nodePackageDir(this.host, this.projectDir, "clauz3");
    if (nodeRoot && projectRoot && !this.same(nodeRoot, projectRoot)) {
      return refuse(`Node would load \`${specifier.text}\` from ${nodeRoot}, not from ${projectRoot}, the installation the project resolves.`, "Remove the other copy of the clauz3 package; agent programs use the operator's installation.");
    }
    // Every name imported from clauz3 must be the runtime's own (not added by a module augmentation).
    const stmt = specifier.parent;
    if (ts.isImportDeclaration(stmt) && stmt.importClause && !stmt.importClause.isTypeOnly) {
      const names: TS.Identifier[] = [];
      if (stmt.importClause.name) names.push(stmt.importClause.name);
      const b = stmt.importClause.namedBindings;
      if (b && ts.isNamedImports(b)) for (const el of b.elements) if (!el.isTypeOnly) names.push(el.name);
      for (const name of names) {
        const symbol = this.checker.getSymbolAtLocation(name);
        let target = symbol;
        if (target && target.flags & ts.SymbolFlags.Alias) {
          try {
            target = this.checker.getAliasedSymbol(target);
          } catch {
            target = undefined;
          }
        }
        const outside = (target?.declarations ?? []).find((d) => runtimeModuleOf(d.getSourceFile().fileName) === undefined);
        if (!target || outside) {
          return new Refusal(name, `\`${name.text}\` is not declared by the clauz3 runtime${outside ? ` (a declaration in ${outside.getSourceFile().fileName} adds it)` : ""}.`, "Import only what clauz3 exports.");
        }
      }
    }
    return undefined;
  }

  /** A relative or absolute specifier: the TypeScript source Node would load, or a refusal. */
  private judgeFile(specifier: TS.StringLiteral, importer: TS.SourceFile): TS.SourceFile | Refusal {
    const ts = this.ts;
    const text = specifier.text;
    const refuse = (reason: string, instead: string): Refusal => new Refusal(specifier, reason, instead);
    const target = sourceFileOf(ts, this.checker, specifier);
    if (!target) {
      return refuse(`TypeScript has no source for \`${text}\` (a JavaScript file it cannot type, or an ambient \`declare module\`), so nothing about the code Node loads here is checked.`, "Write the module in TypeScript (`.ts`) in this project.");
    }
    const shown = target.fileName;
    if (/(^|[\\/])node_modules[\\/]/.test(shown)) {
      return refuse(`\`${text}\` loads ${shown}, inside \`node_modules\`: package code is neither trusted-layer code nor agent code the prover checks.`, "Import the trusted library from the project (`./tools/<domain>/trusted/...`) or `clauz3` by its package name.");
    }
    if (runtimeModuleOf(shown) !== undefined) {
      return refuse(`\`${text}\` loads a clauz3 runtime module by path.`, "Import it by package name: `clauz3`, `clauz3/events` or `clauz3/spec`.");
    }
    if (target.isDeclarationFile) {
      return refuse(`TypeScript reads only the declarations ${baseName(shown)} for \`${text}\`; Node loads the JavaScript implementation beside them, which the prover cannot check.`, "Write the module in TypeScript (`.ts`), or use `import type` if only its types are needed.");
    }
    if (!TS_SOURCE.test(shown)) {
      return refuse(`\`${text}\` loads ${baseName(shown)}, which is not TypeScript; agent modules are held to the agent rules, which are checked on TypeScript sources.`, "Write the module in TypeScript (`.ts`).");
    }
    const wanted = path.resolve(path.dirname(importer.fileName), text);
    if (!this.counterparts(wanted).some((c) => this.same(c, shown))) {
      return refuse(`TypeScript resolved \`${text}\` to ${shown} (through \`paths\`, \`baseUrl\` or \`rootDirs\`), but Node looks for ${wanted}.`, "Import the module by its relative path from this file.");
    }
    let emitted: readonly string[] | undefined;
    for (const candidate of this.nodeCandidates(wanted)) {
      // Only a file that exists can be loaded instead; asking first spares the real paths of the
      // dozen names that usually do not (about a millisecond a program).
      if (!this.host.fileExists(candidate)) continue;
      if (this.same(candidate, shown)) continue;
      emitted ??= this.emittedJavaScript(target);
      if (emitted.some((e) => this.same(e, candidate))) continue;
      return refuse(`Node would load ${candidate} for \`${text}\`, not ${baseName(shown)} that TypeScript checked.`, `Remove ${baseName(candidate)} (or rename the module) so the checked source is the one that runs.`);
    }
    return target;
  }

  /** TypeScript sources that stand for `wanted` (`./x.js` is `./x.ts` under a TypeScript loader or after compilation). */
  private counterparts(wanted: string): string[] {
    const ext = path.extname(wanted);
    if (TS_SOURCE.test(wanted) && !wanted.endsWith(".d.ts")) return [wanted];
    const ts = JS_TO_TS[ext];
    if (ts) return ts.map((e) => wanted.slice(0, -ext.length) + e);
    return [".ts", ".tsx", ".mts", ".cts"].flatMap((e) => [wanted + e, path.join(wanted, `index${e}`)]);
  }

  /** Files Node may load for `wanted`: the exact file, added extensions, a directory's package.json or index. */
  private nodeCandidates(wanted: string): string[] {
    return [
      wanted,
      ...NODE_EXTENSIONS.map((e) => wanted + e),
      path.join(wanted, "package.json"),
      ...NODE_EXTENSIONS.map((e) => path.join(wanted, `index${e}`)),
    ];
  }

  /** The JavaScript a build writes for `file` (beside it when there is no `outDir`): it is the checked source, compiled. */
  private emittedJavaScript(file: TS.SourceFile): readonly string[] {
    const options = this.program.getCompilerOptions();
    if (options.noEmit || options.emitDeclarationOnly) return [];
    try {
      const names = this.ts.getOutputFileNames({ options, fileNames: [...this.program.getRootFileNames()], errors: [] }, file.fileName, this.ignoreCase);
      return names.filter((n) => /\.(?:js|jsx|mjs|cjs)$/.test(n));
    } catch {
      return [];
    }
  }

  private same(a: string, b: string): boolean {
    const norm = (p: string): string => {
      const n = path.resolve(p).replace(/\\/g, "/");
      return this.ignoreCase ? n.toLowerCase() : n;
    };
    if (norm(a) === norm(b)) return true;
    const real = (p: string): string => {
      try {
        return this.host.realpath?.(p) ?? p;
      } catch {
        return p;
      }
    };
    return norm(real(a)) === norm(real(b));
  }
}

/** The project's directory: its tsconfig's, else the program's current directory. */
export function projectDirectory(program: TS.Program): string {
  const config = program.getCompilerOptions().configFilePath;
  return typeof config === "string" ? path.dirname(config) : program.getCurrentDirectory();
}

/** Whether `fileName` lies inside `dir`. */
export function isWithin(fileName: string, dir: string): boolean {
  const rel = path.relative(dir, fileName);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

function baseName(fileName: string): string {
  return path.basename(fileName);
}

/** The package directory of a clauz3 runtime module (`<root>/runtime/x.ts`, `<root>/dist/runtime/x.d.ts`). */
function runtimeRootOf(fileName: string): string | undefined {
  if (runtimeModuleOf(fileName) === undefined) return undefined;
  return /^(.*?)\/(?:dist\/)?runtime\/[a-z-]+\.(?:d\.ts|ts|js)$/.exec(fileName.replace(/\\/g, "/"))?.[1];
}

/**
 * Where Node finds package `name` from `fromDir`: the enclosing package itself when its
 * package.json has that name and `exports` (self-reference), else the nearest
 * `node_modules/<name>` walking up. Undefined when Node would not find it (then loading fails
 * before anything runs).
 */
export function nodePackageDir(host: ModuleHost, fromDir: string, name: string): string | undefined {
  for (let dir = fromDir; ; ) {
    if (path.basename(dir) === "node_modules") break;
    const manifest = path.join(dir, "package.json");
    if (host.fileExists(manifest)) {
      try {
        const json = JSON.parse(host.readFile(manifest) ?? "") as { name?: unknown; exports?: unknown };
        if (json.name === name && json.exports !== undefined && json.exports !== null) return dir;
      } catch {
        // an unreadable package.json is no package scope for self-reference
      }
      break;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (let dir = fromDir; ; ) {
    if (path.basename(dir) !== "node_modules") {
      const candidate = path.join(dir, "node_modules", name);
      if (host.fileExists(path.join(candidate, "package.json"))) return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
