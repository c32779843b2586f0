/**
 * Descriptions and identity of guarantees (seed 002). For each entry of an agent program's
 * `guarantees`, the identity a person approves: the library title and badge, the library-qualified
 * call with named arguments, the generated sentence (or the first JSDoc paragraph when no sentence
 * can be generated), the resolved symbol, the bound parameters (defaults expanded), the template
 * digest, the renderer version and SHA-256 digests of the source files' bytes. Nothing is executed:
 * arguments are literals read from the syntax, sentences come from the one renderer in
 * `core/template.ts`.
 */
import * as crypto from "node:crypto";
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import { literalText, qualifiedCall, readGuarantees, type BoundArgument, type GuaranteeModel, type LiteralValue } from "../guarantees";
import { defaultReadBytes, displayTitle, librariesOf, libraryOfFile, type Badge, type Library, type ReadBytes } from "../manifest";
import type { ContractModel, LayerModel } from "../model";
import type { Refusal } from "../refusal";
import { escapeControls, RENDERER_VERSION, renderTemplate, type RenderArgument } from "../template";
import { showValueType } from "../types";
import { deprecationsOf, type Deprecation } from "./deprecations";
import { displayPath, symbolOf } from "./symbol";

export { modulePath, displayPath, symbolOf } from "./symbol";
export { DEPRECATED_QUERIES, type Deprecation } from "./deprecations";

/** JSON data (what `describe --json` prints). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Where a displayed sentence comes from. */
export type SentenceSource = "template" | "documentation" | "none";

export interface Sentence {
  /** The sentence shown to the approver; null when there is neither a sentence nor documentation. */
  readonly text: string | null;
  /** `template`: rendered from the description; `documentation`: the first JSDoc paragraph instead. */
  readonly source: SentenceSource;
  /** Why the template was not used (no template, invalid template, unsupported value, type mismatch). */
  readonly problem: string | null;
}

export interface LibraryIdentity {
  readonly id: string;
  readonly domain: string;
  readonly title: string;
  /** Title with the declared badge: `Filesystem [mock]`. */
  readonly display: string;
  readonly badge: Badge | null;
  readonly summary: string | null;
  readonly version: string;
  /** The manifest's path (as displayed), null when the library has none. */
  readonly manifest: string | null;
  readonly manifestSha256: string | null;
}

export interface ParameterIdentity {
  readonly name: string;
  /** The declared type: `string`, `number`, `boolean`, `FilePath`, `DirectoryPath`, `T[]`. */
  readonly type: string;
  /** The value as JSON; numbers JSON cannot hold are strings (`"NaN"`, `"Infinity"`, `"-0"`). */
  readonly value: JsonValue;
  /** The value as source-like text: `"a"`, `3`, `FilePath("x")`, `[...]`. */
  readonly literal: string;
  /** True when the value is the parameter's default, not written at the call. */
  readonly defaulted: boolean;
}

export interface SourceDigest {
  readonly file: string;
  readonly sha256: string;
}

/** The identity of one guarantee. */
export interface GuaranteeIdentity {
  readonly library: LibraryIdentity;
  /** `filesystem.onlyReadsFiles(files=[FilePath("test.md")])` */
  readonly call: string;
  /** The guarantee as written in the program. */
  readonly expression: string;
  readonly location: { readonly file: string; readonly line: number; readonly column: number };
  readonly sentence: string | null;
  readonly sentenceSource: SentenceSource;
  readonly sentenceProblem: string | null;
  /** `<module path>#<export>`: `stdlib/filesystem/trusted/contracts#onlyReadsFiles`. */
  readonly symbol: string;
  readonly qualifiedName: string;
  readonly parameters: readonly ParameterIdentity[];
  /** A contract instance, as validated by `clauz3 catalog --json-schema`. */
  readonly instance: { readonly contract: string; readonly arguments: { readonly [name: string]: JsonValue } };
  readonly template: string | null;
  /** SHA-256 of the template text's UTF-8 bytes. */
  readonly templateSha256: string | null;
  readonly rendererVersion: string;
  /** SHA-256 of the bytes of the contract's file and of every trusted file it imports (transitively). */
  readonly sources: readonly SourceDigest[];
  /** The whole JSDoc of the contract (scope and limitations). */
  readonly documentation: string | null;
}

export interface ProgramDescription {
  readonly program: string;
  readonly guarantees: readonly GuaranteeIdentity[];
  /** Number of `noGuarantees()` entries. */
  readonly noGuarantees: number;
  /** Whether the program declares `guarantees` at all. */
  readonly declared: boolean;
  /** Entries that are not literal calls of trusted contracts (on their exact nodes). */
  readonly refusals: readonly Refusal[];
  /** For each guarantee (same order): the deprecated relation queries its contract uses, with their new names. */
  readonly deprecations: readonly (readonly Deprecation[])[];
}

export function sha256Text(text: string): string {
  return crypto.createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");
}

/**
 * The sentence of a contract call: the rendered template, else the first JSDoc paragraph (with
 * the reason), else nothing. Never interpolates documentation text, never guesses.
 */
export function sentenceOf(contract: Pick<ContractModel, "template" | "summary">, args: readonly RenderArgument[]): Sentence {
  let problem: string;
  if (contract.template) {
    const r = renderTemplate(contract.template.text, args);
    if (r.ok) return { text: r.text, source: "template", problem: null };
    problem = r.reason;
  } else {
    problem = "the contract has no description template";
  }
  return contract.summary ? { text: contract.summary, source: "documentation", problem } : { text: null, source: "none", problem: `${problem}, and no JSDoc` };
}

/** A literal as JSON (typed paths as their string; numbers JSON cannot hold as strings). */
export function jsonOf(v: LiteralValue): JsonValue {
  switch (v.kind) {
    case "array":
      return v.items.map(jsonOf);
    case "number":
      return Number.isFinite(v.value) && !Object.is(v.value, -0) ? v.value : Object.is(v.value, -0) ? "-0" : String(v.value);
    default:
      return v.value;
  }
}

/** The trusted files a file imports or re-exports from, transitively (itself first, then sorted). */
export function sourceClosure(ts: TypeScript, checker: TS.TypeChecker, layer: Pick<LayerModel, "files">, file: TS.SourceFile, program: TS.Program): string[] {
  const seen = new Set<string>([file.fileName]);
  const queue: TS.SourceFile[] = [file];
  while (queue.length > 0) {
    const current = queue.pop()!;
    const specifiers: TS.Expression[] = [];
    for (const stmt of current.statements) {
      if ((ts.isImportDeclaration(stmt) || ts.isExportDeclaration(stmt)) && stmt.moduleSpecifier) specifiers.push(stmt.moduleSpecifier);
      else if (ts.isImportEqualsDeclaration(stmt) && ts.isExternalModuleReference(stmt.moduleReference)) specifiers.push(stmt.moduleReference.expression);
    }
    for (const spec of specifiers) {
      const decl = checker.getSymbolAtLocation(spec)?.valueDeclaration;
      const target = decl && ts.isSourceFile(decl) ? decl : undefined;
      if (!target || seen.has(target.fileName) || !layer.files.has(target.fileName)) continue;
      seen.add(target.fileName);
      const sf = program.getSourceFile(target.fileName);
      if (sf) queue.push(sf);
    }
  }
  const [first, ...rest] = [...seen];
  return [first!, ...rest.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))];
}

export interface DescribeInput {
  readonly ts: TypeScript;
  readonly program: TS.Program;
  readonly layer: LayerModel;
  readonly file: TS.SourceFile;
  /** The libraries of the layer (default: read from disk with {@link librariesOf}). */
  readonly libraries?: readonly Library[];
  readonly readBytes?: ReadBytes;
}

export function libraryIdentity(library: Library | undefined, domain: string, projectDir: string, readBytes: ReadBytes): LibraryIdentity {
  if (!library) {
    return { id: domain, domain, title: domain, display: domain, badge: null, summary: null, version: "0.0.0", manifest: null, manifestSha256: null };
  }
  return {
    id: library.id,
    domain: library.domain,
    title: library.title,
    display: displayTitle(library),
    badge: library.manifest?.badge ?? null,
    summary: library.manifest?.summary ?? null,
    version: library.version,
    manifest: library.manifestSha256 !== undefined ? displayPath(library.manifestPath, projectDir, readBytes) : null,
    manifestSha256: library.manifestSha256 ?? null,
  };
}

/** The identity of one guarantee of a program. */
export function identityOf(input: DescribeInput & { readonly libraries: readonly Library[] }, g: GuaranteeModel): GuaranteeIdentity {
  const { ts, program, layer } = input;
  const readBytes = input.readBytes ?? defaultReadBytes;
  const projectDir = program.getCurrentDirectory();
  const c = g.contract;
  const sentence = sentenceOf(c, g.args);
  const contractFile = program.getSourceFile(c.fileName) ?? c.declaration.getSourceFile();
  const sources = sourceClosure(ts, program.getTypeChecker(), layer, contractFile, program).map((f) => ({
    file: displayPath(f, projectDir, readBytes),
    sha256: layer.files.get(f)!.sha256,
  }));
  const args: Record<string, JsonValue> = {};
  for (const a of g.args) args[a.parameter.name] = jsonOf(a.value);
  return {
    library: libraryIdentity(libraryOfFile(input.libraries, c.fileName), c.domain, projectDir, readBytes),
    call: escapeControls(qualifiedCall(g)),
    expression: g.node.getText(),
    location: { file: displayPath(g.span.fileName, projectDir, readBytes), line: g.span.line, column: g.span.column },
    sentence: sentence.text,
    sentenceSource: sentence.source,
    sentenceProblem: sentence.problem,
    symbol: symbolOf(c.fileName, c.name, projectDir, readBytes),
    qualifiedName: c.qualifiedName,
    parameters: g.args.map(parameterIdentity),
    instance: { contract: c.qualifiedName, arguments: args },
    template: c.template?.text ?? null,
    templateSha256: c.template ? sha256Text(c.template.text) : null,
    rendererVersion: RENDERER_VERSION,
    sources,
    documentation: c.documentation ?? null,
  };
}

function parameterIdentity(a: BoundArgument): ParameterIdentity {
  return { name: a.parameter.name, type: showValueType(a.parameter.type), value: jsonOf(a.value), literal: escapeControls(literalText(a.value)), defaulted: a.defaulted };
}

/** Describe every guarantee of an agent program (refusals for entries that are not literal contract calls). */
export function describeProgram(input: DescribeInput): ProgramDescription {
  const { ts, program, layer, file } = input;
  const readBytes = input.readBytes ?? defaultReadBytes;
  const libraries = input.libraries ?? librariesOf(layer, readBytes);
  const list = readGuarantees(ts, program.getTypeChecker(), layer, file);
  return {
    program: displayPath(file.fileName, program.getCurrentDirectory(), readBytes),
    guarantees: list.guarantees.map((g) => identityOf({ ...input, libraries }, g)),
    noGuarantees: list.none.length,
    declared: list.declaration !== undefined,
    refusals: list.refusals,
    deprecations: list.guarantees.map((g) => deprecationsOf(ts, program.getTypeChecker(), layer, g.contract)),
  };
}
