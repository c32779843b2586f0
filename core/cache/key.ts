/**
 * The key of a cached verdict: a digest of everything the verdict is a function of (issue 14).
 * Two parts, so that a change invalidates exactly the entries that read it:
 *
 * - The base, shared by every program of one TypeScript program: clauz3's own engine (its code,
 *   not only its version: a checkout's edits change verdicts without a version bump), the
 *   TypeScript and z3-solver versions, the compiler options, the proof options that decide a
 *   verdict, every trusted file's text, the manifests, the lock's findings, and the global context
 *   of type checking — every declaration file (`lib`, `@types`, packages), every script (a file
 *   that is not a module declares globals), and every module that augments the global scope or
 *   another module.
 * - Per program: its own text and the text of every agent module it reaches through imports,
 *   re-exports, `import type`, `import("…")` types and dynamic imports, transitively.
 *
 * A module outside that closure and without augmentations cannot change what the checker says
 * about the program, nor what the prover reads: editing it keeps the entry.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import type { LayerResult } from "../layer/read";
import { verifyLock } from "../lock/verify";
import { librariesOf } from "../manifest";
import type { ProveOptions } from "../prover/api";

/** The cache's format: entries of another format are ignored. */
export const CACHE_FORMAT = "clauz3-proof-cache/1";

/** What the key of a program's verdict depends on besides its sources. */
export interface KeyInput {
  readonly ts: TypeScript;
  readonly program: TS.Program;
  readonly layer: LayerResult;
  readonly options: ProveOptions;
}

let engineMemo: string | undefined;

/**
 * clauz3's engine: the digest of its own code (`core/` and `runtime/`, compiled or source,
 * whichever this process runs) and its version, computed once per process.
 */
export function engineDigest(): string {
  if (engineMemo !== undefined) return engineMemo;
  const digest = crypto.createHash("sha256");
  const packageRoot = path.resolve(__dirname, "..", "..");
  for (const dir of ["core", "runtime"]) {
    const root = path.join(__dirname, "..", "..", dir);
    for (const file of filesUnder(root)) digest.update(`\0${path.relative(packageRoot, file)}\0`).update(fs.readFileSync(file));
  }
  digest.update(`\0${versionOf(path.join(__dirname, "..", "..", "package.json")) ?? versionOf(path.join(__dirname, "..", "..", "..", "package.json")) ?? "unknown"}`);
  return (engineMemo = digest.digest("hex"));
}

function filesUnder(dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(full));
    else if (/\.(c|m)?(j|t)s$/.test(e.name) && !/\.d\.(c|m)?ts$/.test(e.name)) out.push(full);
  }
  return out;
}

function versionOf(packageJson: string): string | undefined {
  try {
    const version = (JSON.parse(fs.readFileSync(packageJson, "utf8")) as { version?: unknown }).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

let z3Memo: string | undefined;
/** The installed z3-solver's version (its answers, and so verdicts, may change with it). */
function z3Version(): string {
  if (z3Memo !== undefined) return z3Memo;
  try {
    const entry = require.resolve("z3-solver");
    for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const candidate = path.join(dir, "package.json");
      if (fs.existsSync(candidate)) {
        const json = JSON.parse(fs.readFileSync(candidate, "utf8")) as { name?: unknown; version?: unknown };
        if (json.name === "z3-solver" && typeof json.version === "string") return (z3Memo = json.version);
      }
    }
  } catch {
    /* not installed: the prover will fail on its own */
  }
  return (z3Memo = "unknown");
}

/** Whether a source file can change the global context of type checking for every program. */
function isGlobalContext(ts: TypeScript, file: TS.SourceFile): boolean {
  if (file.isDeclarationFile || !ts.isExternalModule(file)) return true;
  // `declare global { … }` and `declare module "x" { … }` inside a module (an augmentation).
  return file.statements.some((s) => ts.isModuleDeclaration(s) && (s.flags & ts.NodeFlags.GlobalAugmentation || ts.isStringLiteral(s.name)));
}

/** The proof options a verdict depends on (a time-out does not: a verdict it cut short is never stored). */
export function decisiveOptions(options: ProveOptions): { trustedRoots: ProveOptions["trustedRoots"] | null; rlimit: number | null } {
  return { trustedRoots: options.trustedRoots ?? null, rlimit: options.rlimit ?? null };
}

const byName = (a: TS.SourceFile, b: TS.SourceFile): number => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0);

/** The keys of the programs of one TypeScript program. */
export class CacheKeys {
  private base: string | undefined;
  private readonly keys = new Map<TS.SourceFile, string>();

  constructor(private readonly input: KeyInput) {}

  /** The key of `file`'s verdict. */
  keyOf(file: TS.SourceFile): string {
    const known = this.keys.get(file);
    if (known) return known;
    const { ts, program, layer } = this.input;
    const checker = program.getTypeChecker();
    const digest = crypto.createHash("sha256").update(this.baseDigest()).update(`\0${file.fileName}`);
    const seen = new Set<TS.SourceFile>([file]);
    const queue = [file];
    const closure: TS.SourceFile[] = [];
    for (let next = queue.pop(); next; next = queue.pop()) {
      closure.push(next);
      for (const target of referencedFiles(ts, program, checker, next)) {
        // Declaration files, scripts and trusted files are in the base already.
        if (seen.has(target) || isGlobalContext(ts, target) || layer.isTrusted(target)) continue;
        seen.add(target);
        queue.push(target);
      }
    }
    for (const f of closure.sort(byName)) digest.update(`\0${f.fileName}\0${f.text.length}\0`).update(f.text);
    const key = digest.digest("hex");
    this.keys.set(file, key);
    return key;
  }

  private baseDigest(): string {
    if (this.base !== undefined) return this.base;
    const { ts, program, layer, options } = this.input;
    const digest = crypto.createHash("sha256");
    digest.update(JSON.stringify({ format: CACHE_FORMAT, engine: engineDigest(), typescript: ts.version, z3: z3Version(), directory: program.getCurrentDirectory(), compilerOptions: program.getCompilerOptions(), options: decisiveOptions(options) }));
    const files = program.getSourceFiles().filter((f) => layer.isTrusted(f) || isGlobalContext(ts, f)).sort(byName);
    for (const f of files) digest.update(`\0${f.fileName}\0${f.text.length}\0`).update(f.text);
    const manifests = librariesOf(layer.model).map((l) => [l.manifestPath, l.manifestSha256 ?? null]);
    digest.update(`\0${JSON.stringify(manifests)}`);
    // Which trusted files the lock pins decides which programs are refused.
    digest.update(`\0${JSON.stringify(verifyLock(ts, program, layer.isTrusted).findings.map((f) => [f.file.fileName, f.start, f.message]))}`);
    return (this.base = digest.digest("hex"));
  }
}

/**
 * The source files a file refers to by module specifier: imports, re-exports, `import x =
 * require(…)`, `import("…")` types, dynamic `import(…)` and `require(…)` calls.
 */
function referencedFiles(ts: TypeScript, program: TS.Program, checker: TS.TypeChecker, file: TS.SourceFile): TS.SourceFile[] {
  const out: TS.SourceFile[] = [];
  const add = (specifier: TS.Node | undefined): void => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const symbol = checker.getSymbolAtLocation(specifier);
    const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
    if (declaration && ts.isSourceFile(declaration)) {
      out.push(declaration);
      return;
    }
    // Not resolved by the checker (an untyped `require`): resolve the name as the compiler does.
    const resolved = ts.resolveModuleName(specifier.text, file.fileName, program.getCompilerOptions(), ts.sys).resolvedModule;
    const target = resolved && program.getSourceFile(resolved.resolvedFileName);
    if (target) out.push(target);
  };
  const visit = (node: TS.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require"))) add(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}
