/**
 * Before symbolic execution: is the program the prover would read the program that will run?
 *
 * The proof is about the `main` the module exports and the types TypeScript checked, so a program
 * is refused (never proved) when: the project is not compiled with `strictNullChecks`; TypeScript
 * reports any error in it or in a module it imports; a comment silences the checker; `main` is not
 * exactly one function declared in the program and exported by name; the program has a default
 * export; the program uses its own `guarantees`; a module it loads at run time is neither
 * trusted-layer code nor a TypeScript agent module
 * (see `layer/loads.ts`); an agent module it loads runs code at the top level; or agent code holds
 * a value of type `any`. The first problem is the refusal, on its exact node.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import { anyRefusal, exportedBinding, innermostAt, isPlainConst, silencerRefusal, topLevelRefusal } from "../layer/agent-module";
import { importClosure } from "../layer/imports";
import { isWithin, projectDirectory, runtimeLoads, type ModuleHost } from "../layer/loads";
import type { LayerResult } from "../layer/read";
import { isProjectSource } from "../layer/classify";
import { Refusal } from "../refusal";
import { runtimeModuleOf } from "../runtime-symbols";

export type FunctionLike = TS.FunctionDeclaration | TS.ArrowFunction | TS.FunctionExpression;

/** The shape of a program: its `main` when it has one the prover can follow, and the first refusal. */
export interface ProgramShape {
  readonly main: FunctionLike | undefined;
  readonly refusal: Refusal | undefined;
}

const WRITE_MAIN = "Write `export function main(...): void { ... }` (or `export const main = (...) => { ... }`).";

/**
 * The function the runner calls: the binding exported as `main`, followed through
 * `export { run as main }`, declared once in this file as a function declaration with a body or a
 * `const` initialised with a function expression. Throws a `Refusal` on the exact node otherwise.
 */
export function findMain(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile): FunctionLike {
  const binding = exportedBinding(ts, checker, file, "main");
  if (binding.kind === "refused") throw binding.refusal;
  if (binding.kind === "none") {
    const local = file.statements.find((s) => ts.isFunctionDeclaration(s) && s.name?.text === "main");
    throw new Refusal(local ?? file.statements[0] ?? file, local ? "`main` is declared but not exported; the runner calls the exported `main`." : "The program has no `main`.", WRITE_MAIN);
  }
  const decl = binding.declaration;
  if (ts.isFunctionDeclaration(decl)) {
    if (!decl.body) throw new Refusal(decl, "`main` has no body here.", WRITE_MAIN);
    return decl;
  }
  if (ts.isVariableDeclaration(decl)) {
    const list = decl.parent;
    if (!ts.isVariableDeclarationList(list) || !isPlainConst(ts, list)) {
      throw new Refusal(list, "`main` is not a `const`: it can be reassigned after the proof, before the runner calls it.", WRITE_MAIN);
    }
    let init = decl.initializer;
    while (init && ts.isParenthesizedExpression(init)) init = init.expression;
    if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) return init;
    const instead = init && ts.isIdentifier(init) ? `Export the function under the name: \`export { ${init.text} as main }\`.` : WRITE_MAIN;
    throw new Refusal(decl.initializer ?? decl, "`main` must be the function itself, so the prover reads what runs (not an alias, a call result or a type assertion).", instead);
  }
  throw new Refusal(decl, "`main` is not a function declared in this program.", WRITE_MAIN);
}

/**
 * Every check that must pass before `main` is executed symbolically. `guarantees` is the
 * program's exported guarantees declaration (its initializer is read by `readGuarantees`, not run
 * as top-level code here).
 */
export function checkProgramShape(
  ts: TypeScript,
  program: TS.Program,
  file: TS.SourceFile,
  layer: LayerResult,
  guarantees: TS.Node | undefined,
  host: ModuleHost,
): ProgramShape {
  const checker = program.getTypeChecker();
  let main: FunctionLike | undefined;
  const refusal = ((): Refusal | undefined => {
    if (file.isDeclarationFile || !/\.(?:ts|tsx|mts|cts)$/.test(file.fileName)) {
      return new Refusal(file.statements[0] ?? file, `${baseName(file.fileName)} is not a TypeScript source; the proof relies on the types TypeScript checks.`, "Write the agent program in TypeScript (`.ts`).");
    }
    const strict = strictRefusal(ts, program, file);
    if (strict) return strict;
    const checked = checkedFiles(ts, program, file);
    const typeError = typeScriptRefusal(ts, program, file, checked);
    if (typeError) return typeError;
    for (const f of checked) {
      if (layer.isTrusted(f)) continue;
      const silenced = silencerRefusal(ts, f);
      if (silenced) return silenced;
    }
    const global = globalDeclarationRefusal(ts, program, layer);
    if (global) return global;
    const defaultExport = defaultExportRefusal(ts, file);
    if (defaultExport) return defaultExport;
    try {
      main = findMain(ts, checker, file);
    } catch (error) {
      if (error instanceof Refusal) return error;
      throw error;
    }
    const used = guaranteesUseRefusal(ts, checker, file, guarantees);
    if (used) return used;
    const loads = runtimeLoads(ts, program, file, layer.isTrusted, host);
    if (loads.refusal) return loads.refusal;
    for (const m of loads.agentModules) {
      const effect = topLevelRefusal(ts, m, m === file && guarantees ? new Set([guarantees]) : new Set(), program, checker);
      if (effect && m !== file) return new Refusal(effect.node, `${effect.reason} (${baseName(m.fileName)} is loaded when the program runs.)`, effect.instead);
      if (effect) return effect;
    }
    for (const m of loads.agentModules) {
      // Modules loaded only at run time (not through the import closure above) are checked here.
      const silenced = checked.includes(m) ? undefined : silencerRefusal(ts, m);
      if (silenced) return silenced;
      const any = anyRefusal(ts, checker, m);
      if (any) return any;
    }
    return undefined;
  })();
  return { main, refusal };
}

/** The project files a program's proof relies on: it and what it imports (not dependencies, not clauz3's runtime). */
function checkedFiles(ts: TypeScript, program: TS.Program, file: TS.SourceFile): TS.SourceFile[] {
  const projectDir = projectDirectory(program);
  return [...importClosure(ts, program.getTypeChecker(), file)].filter((f) => isProjectSource(f.fileName, false) && (!program.isSourceFileDefaultLibrary(f) || isWithin(f.fileName, projectDir)) && runtimeModuleOf(f.fileName) === undefined);
}

/**
 * The refusal of a program that does not type-check (the first TypeScript error of the
 * compilation or of the files it reaches), else undefined. The gate (core/gate) asks this before
 * anything else about a program, so such a program is refused for its TypeScript error alone.
 */
export function typeCheckRefusal(ts: TypeScript, program: TS.Program, file: TS.SourceFile): Refusal | undefined {
  return typeScriptRefusal(ts, program, file, checkedFiles(ts, program, file));
}

/** Without `strictNullChecks`, `null` and `undefined` inhabit every type and the prover's types lie. */
function strictRefusal(ts: TypeScript, program: TS.Program, file: TS.SourceFile): Refusal | undefined {
  const options = program.getCompilerOptions();
  if (options.strictNullChecks ?? options.strict ?? false) return undefined;
  return new Refusal(file.statements[0] ?? file, "The project is compiled without `strictNullChecks`, so any value may be `null` or `undefined` whatever its declared type, and the proof relies on the declared types.", 'Enable `"strict": true` (or at least `"strictNullChecks": true`) in the project\'s tsconfig.json.');
}

/**
 * The first TypeScript error of the compilation (options, global) or of the files the program
 * reaches, syntactic before semantic: a program that does not type-check is never proved.
 */
function typeScriptRefusal(ts: TypeScript, program: TS.Program, file: TS.SourceFile, files: readonly TS.SourceFile[]): Refusal | undefined {
  const errors = (ds: readonly TS.Diagnostic[]): TS.Diagnostic | undefined => ds.find((d) => d.category === ts.DiagnosticCategory.Error);
  let first = errors(program.getOptionsDiagnostics()) ?? errors(program.getGlobalDiagnostics());
  const ordered = [file, ...files.filter((f) => f !== file)];
  for (const f of ordered) {
    if (first) break;
    first = errors(program.getSyntacticDiagnostics(f));
  }
  for (const f of ordered) {
    if (first) break;
    first = errors(program.getSemanticDiagnostics(f));
  }
  if (!first) return undefined;
  const text = ts.flattenDiagnosticMessageText(first.messageText, "\n").split("\n")[0]!;
  const where = first.file && first.start !== undefined ? first.file : undefined;
  let node: TS.Node = file.statements[0] ?? file;
  let at = "";
  if (where && first.start !== undefined) {
    node = nodeAt(ts, where, first.start, first.length ?? 0);
    const { line, character } = where.getLineAndCharacterOfPosition(first.start);
    at = ` at ${baseName(where.fileName)}:${line + 1}:${character + 1}`;
  }
  return new Refusal(node, `TypeScript reports error TS${first.code}${at}: ${text}`, "A program (or a module it imports) that does not type-check is never proved; fix the error.");
}

/** The node a diagnostic points at: the innermost node starting at `start` and no longer than the span, else the innermost containing it. */
function nodeAt(ts: TypeScript, file: TS.SourceFile, start: number, length: number): TS.Node {
  let node: TS.Node = innermostAt(ts, file, start);
  for (let n: TS.Node | undefined = node; n && !ts.isSourceFile(n); n = n.parent) {
    if (n.getStart(file) === start && n.getEnd() - start >= length) return n;
  }
  return node;
}

function baseName(fileName: string): string {
  return fileName.replace(/\\/g, "/").split("/").pop() ?? fileName;
}

const globalDeclarations = new WeakMap<TS.Program, WeakMap<LayerResult, { readonly refusal: Refusal | undefined }>>();

/**
 * Agent-side declarations that change what other modules look like to the checker: `declare
 * global`, `declare module "…"` (an ambient module or an augmentation of a module, trusted ones
 * included) and the global declarations of script files. They are refused wherever they are in
 * the project's agent-side files (trusted roots excluded), since they reach every program.
 */
function globalDeclarationRefusal(ts: TypeScript, program: TS.Program, layer: LayerResult): Refusal | undefined {
  // The scan reads every file of the compilation and depends on nothing else: once per program and layer, not per agent program.
  let byLayer = globalDeclarations.get(program);
  if (!byLayer) globalDeclarations.set(program, (byLayer = new WeakMap()));
  let found = byLayer.get(layer);
  if (!found) byLayer.set(layer, (found = { refusal: scanGlobalDeclarations(ts, program, layer) }));
  return found.refusal;
}

function scanGlobalDeclarations(ts: TypeScript, program: TS.Program, layer: LayerResult): Refusal | undefined {
  const projectDir = projectDirectory(program);
  for (const f of program.getSourceFiles()) {
    if (!isProjectSource(f.fileName, false) || runtimeModuleOf(f.fileName) !== undefined) continue;
    // TypeScript's own libraries; a project file that calls itself one (`no-default-lib`) is not.
    if (program.isSourceFileDefaultLibrary(f) && !isWithin(f.fileName, projectDir)) continue;
    if ((!f.isDeclarationFile && layer.isTrusted(f)) || f.fileName.endsWith(".json")) continue;
    const script = !ts.isExternalModule(f);
    for (const s of f.statements) {
      if (ts.isModuleDeclaration(s) && (ts.isStringLiteral(s.name) || s.flags & ts.NodeFlags.GlobalAugmentation)) {
        return new Refusal(s, "Agent-side `declare module` and `declare global` change what TypeScript believes other modules and built-ins are, which is not what runs.", "Remove the declaration; import values from TypeScript modules.");
      }
      if (script && !ts.isEmptyStatement(s)) {
        return new Refusal(s, `${baseName(f.fileName)} is a script (no \`import\` or \`export\`): its declarations are global and change what TypeScript believes every program sees.`, "Make it a module (add `export {}`) or remove it.");
      }
    }
  }
  return undefined;
}

/**
 * The runner reads the exported `guarantees` when `main` returns (the backstop checks them): code
 * that reads or changes the list (`guarantees.length = 0`, `guarantees.pop()`, an alias) could
 * make the run check less than was proved. Only its declaration and export clauses may name it.
 */
function guaranteesUseRefusal(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile, guarantees: TS.Node | undefined): Refusal | undefined {
  if (!guarantees || !ts.isVariableDeclaration(guarantees) || !ts.isIdentifier(guarantees.name)) return undefined;
  const target = checker.getSymbolAtLocation(guarantees.name);
  if (!target) return undefined;
  const name = guarantees.name.text;
  let found: TS.Identifier | undefined;
  const visit = (node: TS.Node): void => {
    if (found) return;
    if (ts.isIdentifier(node) && node.text === name && node !== guarantees.name && !ts.isExportSpecifier(node.parent)) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (symbol === target) {
        found = node;
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  if (!found) return undefined;
  return new Refusal(found, "`guarantees` is read by the runner after the proof; code that reads or changes the list could make the run check less than was proved.", "Leave `guarantees` alone in the program; compute with other values.");
}

/** The runner calls `main` by name; a default export (or `export =`) is a second entry point the proof does not cover. */
function defaultExportRefusal(ts: TypeScript, file: TS.SourceFile): Refusal | undefined {
  for (const s of file.statements) {
    if (ts.isExportAssignment(s)) return new Refusal(s, "An agent program exports `main` and `guarantees` by name; a default export (`export default`, `export =`) is an entry point the proof does not cover.", "Remove the default export.");
    if (ts.canHaveModifiers(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) {
      return new Refusal(s, "An agent program exports `main` and `guarantees` by name; `export default` is an entry point the proof does not cover.", "Remove `default` and export the function by name.");
    }
    if (ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)) {
      const d = s.exportClause.elements.find((el) => el.name.text === "default");
      if (d) return new Refusal(d, "An agent program exports `main` and `guarantees` by name; a `default` export is an entry point the proof does not cover.", "Remove the default export.");
    }
  }
  return undefined;
}
