/**
 * Proving a clause list for one program: the program's own source with the clauses added to its
 * `guarantees` (and an `import * as` of each contract's module appended at its end, so no line
 * of the program moves), served from memory over the caller's compiler host and proved through the
 * gate and the one prover, as `clauz3 prove` proves a program. The list is entailed only when the
 * whole program is proved: the clauses, the program's own guarantees, every precondition and
 * every throw. The layer's trusted files are roots of the program, so a clause over a library the
 * program does not use holds vacuously instead of being refused for it.
 */
import * as path from "node:path";
import type * as TS from "typescript";
import type { Clauz3Options, TypeScript } from "../context";
import { openGate } from "../gate";
import { readGuarantees, type LiteralValue } from "../guarantees";
import type { ModuleHost } from "../layer/loads";
import { readLayer, type LayerResult } from "../layer/read";
import type { ProgramVerdict, ProofResult } from "../prover/api";
import type { BudgetOptions } from "../prover/limits";
import { proveProgram } from "../prover/prove";
import type { Entailment, ResolvedCall } from "./types";

export interface ClauseProofInput {
  readonly ts: TypeScript;
  /** The program as it is, type-checked (its layer read as `layer`). */
  readonly program: TS.Program;
  readonly file: TS.SourceFile;
  readonly layer: LayerResult;
  /** The compiler host `program` was built with (the augmented file is served over it). */
  readonly host: TS.CompilerHost;
  /** Where Node would find modules (default the compiler host's view). */
  readonly moduleHost?: ModuleHost;
  readonly options: Clauz3Options;
  readonly solver?: BudgetOptions;
}

/** Why the clauses cannot be added to a program (its verdict is then unknown). */
export class AugmentError extends Error {}

export interface Augmented {
  readonly text: string;
  /** Where each call stands in `text`, `[start, end)`, in the order of the calls. */
  readonly regions: readonly (readonly [number, number])[];
}

/** The array literal of `export const guarantees = [...]` (through parentheses, `as const` and `satisfies`). */
function guaranteesArray(ts: TypeScript, declaration: TS.Node | undefined): TS.ArrayLiteralExpression | undefined {
  if (!declaration || !ts.isVariableDeclaration(declaration)) return undefined;
  let e = declaration.initializer;
  while (e && (ts.isParenthesizedExpression(e) || ts.isSatisfiesExpression(e) || ts.isAsExpression(e))) e = e.expression;
  return e && ts.isArrayLiteralExpression(e) ? e : undefined;
}

/** A module specifier of `target` from `file` that TypeScript resolves to it: one the program already uses, else a relative one. */
function specifierFor(ts: TypeScript, program: TS.Program, file: TS.SourceFile, target: string, host: TS.ModuleResolutionHost): string {
  const options = program.getCompilerOptions();
  const resolvesTo = (spec: string): boolean => {
    const r = ts.resolveModuleName(spec, file.fileName, options, host).resolvedModule;
    return !!r && path.resolve(r.resolvedFileName) === path.resolve(target);
  };
  for (const s of file.statements) {
    if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && resolvesTo(s.moduleSpecifier.text)) return s.moduleSpecifier.text;
  }
  let rel = path.relative(path.dirname(file.fileName), target).replace(/\\/g, "/");
  if (!rel.startsWith("../")) rel = `./${rel}`;
  const stem = rel.replace(/\.(?:ts|tsx|mts|cts)$/, "");
  const js = rel.endsWith(".mts") ? ".mjs" : rel.endsWith(".cts") ? ".cjs" : ".js";
  const found = [stem, stem + js].find(resolvesTo);
  if (!found) throw new AugmentError(`${rel} cannot be imported from the program under its module settings`);
  return found;
}

/** The program's text with `calls` appended to its `guarantees` and their modules imported at its end. */
export function augmentProgram(ts: TypeScript, program: TS.Program, file: TS.SourceFile, layer: LayerResult, calls: readonly ResolvedCall[], host: TS.ModuleResolutionHost): Augmented {
  const list = readGuarantees(ts, program.getTypeChecker(), layer.model, file);
  const array = guaranteesArray(ts, list.declaration);
  if (!array) throw new AugmentError("the program has no `export const guarantees = [...]` the clauses can be added to");
  let prefix = "__clauz3_policy";
  while (file.text.includes(prefix)) prefix += "_";
  const modules = new Map<string, string>();
  let paths = false;
  const show = (v: LiteralValue): string => {
    switch (v.kind) {
      case "string": return JSON.stringify(v.value);
      case "number": return Object.is(v.value, -0) ? "-0" : String(v.value);
      case "boolean": return String(v.value);
      case "FilePath": case "DirectoryPath": paths = true; return `${prefix}_${v.kind}(${JSON.stringify(v.value)})`;
      case "array": return `[${v.items.map(show).join(", ")}]`;
    }
  };
  const texts = calls.map((c) => {
    let alias = modules.get(c.contractFile);
    if (!alias) modules.set(c.contractFile, (alias = `${prefix}${modules.size}`));
    return `${alias}.${c.contractName}(${c.args.map(show).join(", ")})`;
  });
  // Before the closing bracket: after a trailing comma, a comment or the last element alike.
  const at = array.getEnd() - 1;
  const lead = array.elements.length > 0 && !array.elements.hasTrailingComma ? ", " : array.elements.length > 0 ? " " : "";
  let inserted = lead;
  const regions: [number, number][] = [];
  texts.forEach((t, i) => {
    if (i > 0) inserted += ", ";
    regions.push([at + inserted.length, at + inserted.length + t.length]);
    inserted += t;
  });
  let tail = "\n";
  for (const [target, alias] of modules) tail += `import * as ${alias} from ${JSON.stringify(specifierFor(ts, program, file, target, host))};\n`;
  if (paths) tail += `import { FilePath as ${prefix}_FilePath, DirectoryPath as ${prefix}_DirectoryPath } from "clauz3";\n`;
  return { text: file.text.slice(0, at) + inserted + file.text.slice(at) + tail, regions };
}

/** `host` with `fileName` read as `text`. */
function serving(ts: TypeScript, host: TS.CompilerHost, fileName: string, text: string): TS.CompilerHost {
  const target = path.resolve(fileName);
  const is = (f: string): boolean => path.resolve(f) === target;
  return {
    ...host,
    fileExists: (f) => is(f) || host.fileExists(f),
    readFile: (f) => (is(f) ? text : host.readFile(f)),
    getSourceFile: (f, languageVersion, onError, shouldCreate) => (is(f) ? ts.createSourceFile(f, text, languageVersion, true) : host.getSourceFile(f, languageVersion, onError, shouldCreate)),
  };
}

/** Which call a result belongs to (by where its guarantee entry stands), or undefined for the program's own. */
function callOf(r: ProofResult, fileName: string, regions: Augmented["regions"]): number | undefined {
  const at = r.guarantee ?? r.location;
  if (r.kind !== "guarantee" || path.resolve(at.fileName) !== path.resolve(fileName)) return undefined;
  const i = regions.findIndex(([s, e]) => at.start >= s && at.start < e);
  return i < 0 ? undefined : i;
}

/** The entailment a verdict of the augmented program says. */
export function entailmentOf(verdict: ProgramVerdict, calls: readonly ResolvedCall[], fileName: string, regions: Augmented["regions"]): Entailment {
  if (verdict.verdict === "proved" && verdict.provisional === undefined) return { status: "entailed", detail: null };
  const what = (r: ProofResult): string => {
    const i = callOf(r, fileName, regions);
    if (i !== undefined) return `\`${calls[i]!.call}\``;
    const subject = r.contract ? ` ${r.contract}` : r.tool ? ` of ${r.tool}` : "";
    return `the program's own ${r.kind}${subject} at ${path.basename(r.location.fileName)}:${r.location.line}:${r.location.column}`;
  };
  const violated = verdict.results.find((r) => r.verdict === "violated");
  if (violated) return { status: "not_entailed", detail: `${what(violated)} is violated: ${violated.message}` };
  const refused = verdict.results.find((r) => r.verdict !== "proved");
  if (refused) return { status: "unknown", detail: `${what(refused)} could not be proved: ${refused.message}` };
  return { status: "unknown", detail: `the proof is not final: ${verdict.provisional ?? "no result"}` };
}

/** Prove `calls` together with the program's own guarantees and preconditions. */
export async function proveWithClauses(input: ClauseProofInput, calls: readonly ResolvedCall[]): Promise<Entailment> {
  const { ts, program, file, layer } = input;
  let augmented: Augmented;
  try {
    augmented = augmentProgram(ts, program, file, layer, calls, input.host);
  } catch (error) {
    if (error instanceof AugmentError) return { status: "unknown", detail: `the clauses cannot be added to the program: ${error.message}` };
    throw error;
  }
  const host = serving(ts, input.host, file.fileName, augmented.text);
  const base = input.moduleHost ?? { fileExists: (f: string) => input.host.fileExists(f), readFile: (f: string) => input.host.readFile(f), realpath: input.host.realpath ? (f: string) => input.host.realpath!(f) : undefined };
  const target = path.resolve(file.fileName);
  const moduleHost: ModuleHost = {
    fileExists: (f) => path.resolve(f) === target || base.fileExists(f),
    readFile: (f) => (path.resolve(f) === target ? augmented.text : base.readFile(f)),
    ...(base.realpath ? { realpath: (f: string) => (path.resolve(f) === target ? f : base.realpath!(f)) } : {}),
  };
  // Every trusted file of the layer is a root: the clauses are proved against the whole layer.
  const roots = [file.fileName, ...[...layer.model.files.keys()].filter((f) => path.resolve(f) !== target)];
  const augmentedProgram = ts.createProgram({ rootNames: roots, options: program.getCompilerOptions(), host, oldProgram: program });
  const augmentedFile = augmentedProgram.getSourceFile(file.fileName);
  if (!augmentedFile) return { status: "unknown", detail: "the program with the clauses added could not be read" };
  const augmentedLayer = readLayer(ts, augmentedProgram, input.options);
  const gate = openGate({ ts, program: augmentedProgram, options: input.options, layer: augmentedLayer, programs: [augmentedFile] });
  if (gate.configurationError) return { status: "unknown", detail: "the project's configuration has an error, so nothing can be proved (run `clauz3 check`)" };
  const verdict = gate.decided.get(augmentedFile) ?? (await proveProgram({ ts, program: augmentedProgram, file: augmentedFile, options: { ...input.options, ...input.solver }, host: moduleHost }, augmentedLayer));
  return entailmentOf(verdict, calls, file.fileName, augmented.regions);
}
