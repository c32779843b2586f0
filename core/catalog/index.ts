/**
 * The LinkML catalog of trusted libraries (seed 002), generated from the layer model — that is,
 * from the trusted layers' TypeScript syntax and types, without executing them. One class per
 * contract and per effect (trusted tool), typed slots in signature order, qualified versioned class
 * URIs, symbol annotations, source digests, documentation, templates, and parameter kind/default
 * annotations. Output is byte-for-byte deterministic: the generator fixes the key order, sorts
 * classes, writes UTF-8 JSON with two-space indentation and a final newline, and records no time.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import { displayPath, jsonOf, sha256Text, symbolOf, type JsonValue } from "../describe";
import { readLiteral } from "../guarantees";
import { compareStrings, defaultReadBytes, type Library, type ReadBytes } from "../manifest";
import type { ContractModel, LayerModel, ParameterModel, ToolModel, ValueType } from "../model";
import { RENDERER_VERSION } from "../template";
import { libraryNamespace, URI_BASE } from "./uri";
import { showValueType } from "../types";
import { manifestEventAccess, toolFootprint } from "../footprint/derive";
import { showFootprint } from "../footprint/show";

/** Version of the catalog layout (changes when the generator's output format changes). */
export const CATALOG_FORMAT = "clauz3-catalog/1";

export { URI_BASE, libraryNamespace } from "./uri";

/** LinkML ranges of catalog slots. */
export type SlotRange = "string" | "double" | "boolean" | "FilePath" | "DirectoryPath";

export interface CatalogParameter {
  readonly name: string;
  readonly range: SlotRange;
  readonly multivalued: boolean;
  readonly required: boolean;
  /** `required`, `optional` (`x?: T`) or `default` (`x: T = value`). */
  readonly kind: "required" | "optional" | "default";
  /** Canonical type text: `FilePath[]`. */
  readonly type: string;
  /** Source text of the default value. */
  readonly defaultText: string | undefined;
  /** The default as JSON, when it is a literal. */
  readonly defaultValue: JsonValue | undefined;
}

export interface CatalogEntry {
  readonly kind: "contract" | "effect";
  readonly className: string;
  readonly name: string;
  readonly qualifiedName: string;
  readonly library: Library;
  readonly symbol: string;
  readonly file: string;
  readonly sha256: string;
  readonly summary: string | undefined;
  readonly documentation: string | undefined;
  readonly template: string | undefined;
  readonly parameters: readonly CatalogParameter[];
  /** Effects: the events performed, `Read(path), Write(path=dest)`. */
  readonly performs: string | undefined;
  /** Effects: the fluent writes, `Locked.set(door, true)` (absent when the tool declares no `updates`). */
  readonly updates?: string | undefined;
  /** Effects: the return type. */
  readonly returns: string | undefined;
  /** Effects: the footprint (core/footprint/show.ts), `reads path`. */
  readonly footprint: string | undefined;
  readonly position: number;
}

/** A signature the catalog cannot express, or a name clash; names every symbol concerned. */
export class CatalogError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join("\n"));
    this.name = "CatalogError";
  }
}

const SUPPORTED = "catalog parameters must be string, number, boolean, FilePath, DirectoryPath or an array of one of those";

function scalarRange(t: ValueType): SlotRange | undefined {
  switch (t.kind) {
    case "string": return "string";
    case "number": return "double";
    case "boolean": return "boolean";
    case "FilePath": return "FilePath";
    case "DirectoryPath": return "DirectoryPath";
    default: return undefined;
  }
}

/** `web-search` + `readFile` → `WebSearchReadFile`. */
export function className(domain: string, name: string): string {
  const pascal = (s: string): string =>
    s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  const n = pascal(domain) + pascal(name);
  return /^[A-Za-z_]/.test(n) ? n : `_${n}`;
}

function parameterOf(ts: TypeScript, checker: TS.TypeChecker, p: ParameterModel, symbol: string, problems: string[]): CatalogParameter | undefined {
  if (p.rest) {
    problems.push(`Unsupported signature of ${symbol}: parameter "${p.name}" is variadic; ${SUPPORTED} (take an array instead).`);
    return undefined;
  }
  if (!ts.isIdentifier(p.node.name)) {
    problems.push(`Unsupported signature of ${symbol}: parameter \`${p.name}\` is destructured; ${SUPPORTED}.`);
    return undefined;
  }
  const multivalued = p.type.kind === "array";
  const range = scalarRange(p.type.kind === "array" ? p.type.element : p.type);
  if (!range) {
    problems.push(`Unsupported signature of ${symbol}: parameter "${p.name}" has type ${p.typeText}; ${SUPPORTED}.`);
    return undefined;
  }
  let defaultValue: JsonValue | undefined;
  if (p.node.initializer) {
    try {
      defaultValue = jsonOf(readLiteral(ts, checker, p.node.initializer));
    } catch {
      defaultValue = undefined; // a computed default: described by its text only
    }
  }
  return {
    name: p.name,
    range,
    multivalued,
    required: !p.optional && p.defaultText === undefined,
    kind: p.defaultText !== undefined ? "default" : p.optional ? "optional" : "required",
    type: showValueType(p.type),
    defaultText: p.defaultText,
    defaultValue,
  };
}

function performsText(layer: LayerModel, tool: ToolModel): string | undefined {
  if (!tool.performs) return undefined;
  return tool.performs.events
    .map((e) => {
      const event = layer.events.get(e.eventId);
      const fields = Object.entries(e.fields).map(([field, param]) => (field === param ? field : `${field}=${param}`));
      return `${event?.name ?? e.eventId}(${fields.join(", ")})`;
    })
    .join(", ");
}

function updatesText(layer: LayerModel, tool: ToolModel): string | undefined {
  if (!tool.updates) return undefined;
  const arg = (a: { kind: "parameter"; name: string } | { kind: "literal"; value: string | number | boolean }): string => (a.kind === "parameter" ? a.name : JSON.stringify(a.value));
  return tool.updates.writes.map((w) => `${layer.fluents?.get(w.fluentId)?.name ?? w.fluentId}.set(${arg(w.key)}, ${arg(w.value)})`).join(", ");
}

/** What a catalog is generated from: the selected libraries, their entries and source files. */
export interface Catalog {
  /** Sorted by identifier, then directory. */
  readonly libraries: readonly Library[];
  /** Every contract and effect, in a fixed order (library, file, position). */
  readonly entries: readonly CatalogEntry[];
  /** Every trusted file of the selected libraries (as displayed) with the SHA-256 of its bytes, sorted. */
  readonly files: readonly { readonly file: string; readonly sha256: string }[];
}

/**
 * Collect the catalog of the selected libraries from the layer model. Throws a
 * {@link CatalogError} naming each unsupported symbol (and each class name clash).
 */
export function buildCatalog(
  ts: TypeScript,
  program: TS.Program,
  layer: LayerModel,
  selectedLibraries: readonly Library[],
  readBytes: ReadBytes = defaultReadBytes,
): Catalog {
  const libraries = [...selectedLibraries].sort((a, b) => compareStrings(a.id, b.id) || compareStrings(a.root, b.root));
  const checker = program.getTypeChecker();
  const projectDir = program.getCurrentDirectory();
  const libraryOf = new Map<string, Library>();
  for (const lib of libraries) for (const f of lib.files) libraryOf.set(f.fileName, lib);
  const problems: string[] = [];
  const entries: CatalogEntry[] = [];
  const accessOf = manifestEventAccess(readBytes);
  const add = (kind: "contract" | "effect", m: ContractModel | ToolModel): void => {
    const library = libraryOf.get(m.fileName);
    if (!library) return;
    const symbol = symbolOf(m.fileName, m.name, projectDir, readBytes);
    const parameters = m.parameters.map((p) => parameterOf(ts, checker, p, symbol, problems));
    const tool = kind === "effect" ? (m as ToolModel) : undefined;
    const contract = kind === "contract" ? (m as ContractModel) : undefined;
    entries.push({
      kind,
      className: className(library.domain, m.name),
      name: m.name,
      qualifiedName: m.qualifiedName,
      library,
      symbol,
      file: displayPath(m.fileName, projectDir, readBytes),
      sha256: layer.files.get(m.fileName)?.sha256 ?? "",
      summary: m.summary,
      documentation: m.documentation,
      template: contract?.template?.text,
      parameters: parameters.filter((p): p is CatalogParameter => p !== undefined),
      performs: tool ? performsText(layer, tool) ?? "" : undefined,
      updates: tool ? updatesText(layer, tool) : undefined,
      returns: tool ? showValueType(tool.returnType) : undefined,
      footprint: tool ? showFootprint(toolFootprint(layer, tool, accessOf)) : undefined,
      position: m.declaration.getStart(),
    });
  };
  for (const c of layer.contracts.values()) add("contract", c);
  for (const t of layer.tools.values()) add("effect", t);
  entries.sort((a, b) =>
    compareStrings(a.library.id, b.library.id) || compareStrings(a.library.root, b.library.root) || compareStrings(a.file, b.file) || a.position - b.position,
  );
  const byClass = new Map<string, CatalogEntry>();
  const byUri = new Map<string, CatalogEntry>();
  for (const e of entries) {
    const clash = byClass.get(e.className);
    if (clash || RESERVED_CLASSES.has(e.className)) {
      problems.push(`Class name ${e.className} is used twice: by ${clash ? clash.symbol : "the catalog itself"} and by ${e.symbol}. Rename one of the exports.`);
    }
    byClass.set(e.className, e);
    const uriKey = `${e.library.root}\0${e.name}`;
    const uriClash = byUri.get(uriKey);
    if (uriClash) problems.push(`Library ${e.library.id} exports two contracts or effects named ${e.name}: ${uriClash.symbol} and ${e.symbol}. Rename one of them.`);
    byUri.set(uriKey, e);
  }
  if (problems.length > 0) throw new CatalogError(problems);
  const files = libraries
    .flatMap((l) => l.files.map((f) => ({ file: displayPath(f.fileName, projectDir, readBytes), sha256: f.sha256 })))
    .sort((a, b) => compareStrings(a.file, b.file));
  return { libraries, entries, files };
}

const RESERVED_CLASSES = new Set(["Contract", "Effect"]);

function sanitizeName(s: string): string {
  const n = s.replace(/[^\w.-]/g, "_");
  return /^[A-Za-z_]/.test(n) ? n : `_${n}`;
}

/**
 * CURIE prefixes of the selected libraries: the domain; the id (`stdlib_filesystem`) where two
 * selected libraries share a domain; `lib_<domain>` where the domain is `linkml` or `clauz3`.
 */
function prefixesOf(libraries: readonly Library[]): Map<Library, string> {
  const count = new Map<string, number>();
  for (const l of libraries) count.set(l.domain, (count.get(l.domain) ?? 0) + 1);
  const out = new Map<Library, string>();
  for (const l of libraries) {
    const name = sanitizeName(count.get(l.domain)! > 1 ? l.id.replace(":", "_") : l.domain);
    out.set(l, name === "linkml" || name === "clauz3" ? `lib_${name}` : name);
  }
  return out;
}

function schemaIdentity(libraries: readonly Library[]): { id: string; name: string; title: string; description: string; version: string | undefined } {
  if (libraries.length === 1) {
    const l = libraries[0]!;
    return {
      id: libraryNamespace(l).slice(0, -1),
      name: sanitizeName(`clauz3_${l.id.replace(":", "_")}`),
      title: l.title,
      description: l.manifest?.summary ?? `Contracts and effects of the ${l.id} library.`,
      version: l.version,
    };
  }
  const ids = libraries.map((l) => l.id);
  return {
    id: `${URI_BASE}catalog/${ids.map(encodeURIComponent).join("+") || "empty"}`,
    name: sanitizeName(`clauz3_catalog_${ids.map((i) => i.replace(":", "_")).join("_")}`.replace(/_$/, "")),
    title: "clauz3 catalog",
    description: `Contracts and effects of the libraries ${ids.join(", ") || "(none)"}.`,
    version: undefined,
  };
}

type Json = { [key: string]: JsonValue };

/** Drop undefined properties, keeping the construction order. */
function compact(obj: Record<string, JsonValue | undefined>): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v;
  return out;
}

/** The LinkML schema (as JSON data) of the entries of the selected libraries. */
export function linkmlSchema(catalog: Catalog): Json {
  const { entries, libraries: selected } = catalog;
  const prefix = prefixesOf(selected);
  const who = schemaIdentity(selected);
  const prefixes: Json = { linkml: "https://w3id.org/linkml/", clauz3: URI_BASE };
  for (const l of selected) prefixes[prefix.get(l)!] = libraryNamespace(l);
  const fileLines = catalog.files.map((f) => `${f.sha256}  ${f.file}`);
  const classes: Json = {
    Contract: {
      abstract: true,
      class_uri: "clauz3:Contract",
      description: "A clauz3 contract. An instance is a guarantee: the contract called with literal arguments, one slot per parameter.",
    },
    Effect: {
      abstract: true,
      class_uri: "clauz3:Effect",
      description: "A trusted tool (effect). An instance is a call: one slot per parameter.",
    },
  };
  for (const e of entries) {
    const attributes: Json = {};
    e.parameters.forEach((p, i) => {
      attributes[p.name] = compact({
        range: p.range,
        multivalued: p.multivalued ? true : undefined,
        required: p.required,
        rank: i + 1,
        annotations: compact({
          parameter_kind: p.kind,
          typescript_type: p.type,
          typescript_default: p.defaultText,
        }),
      });
    });
    classes[e.className] = compact({
      is_a: e.kind === "contract" ? "Contract" : "Effect",
      class_uri: `${prefix.get(e.library)!}:${e.name}`,
      title: e.qualifiedName,
      description: e.summary,
      attributes: e.parameters.length > 0 ? attributes : undefined,
      annotations: compact({
        clauz3_kind: e.kind,
        qualified_name: e.qualifiedName,
        library: e.library.id,
        symbol: e.symbol,
        source_file: e.file,
        source_sha256: e.sha256,
        template: e.template,
        template_sha256: e.template !== undefined ? sha256Text(e.template) : undefined,
        performs: e.performs,
        updates: e.updates,
        returns: e.returns,
        footprint: e.footprint,
        documentation: e.documentation,
      }),
    });
  }
  return compact({
    id: who.id,
    name: who.name,
    title: who.title,
    description: who.description,
    version: who.version,
    prefixes,
    default_prefix: selected.length === 1 ? prefix.get(selected[0]!)! : "clauz3",
    default_range: "string",
    imports: ["linkml:types"],
    annotations: compact({
      generator: CATALOG_FORMAT,
      renderer_version: RENDERER_VERSION,
      libraries: selected.map((l) => l.id).join(", "),
      source_files: fileLines.join("\n"),
    }),
    types: {
      FilePath: {
        typeof: "string",
        uri: "clauz3:FilePath",
        description: "A path naming one file (clauz3 `FilePath`: a branded string). Rendered in sentences as a quoted path.",
      },
      DirectoryPath: {
        typeof: "string",
        uri: "clauz3:DirectoryPath",
        description: "A path naming a directory (clauz3 `DirectoryPath`: a branded string); contracts over it use resolved containment.",
      },
    },
    classes,
  });
}

export { instanceSchema } from "./json-schema";
export { stableStringify, catalogDifferences } from "./serialize";
