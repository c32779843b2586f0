/**
 * Trusted libraries and their manifests. A library is the directory above a `trusted/` directory
 * (`tools/<domain>/`); its manifest `tools/<domain>/clauz3.json` declares the title, summary,
 * optional version and mock/mixed badge, dependencies and setup requirements. Manifests are
 * validated with ajv against `schema/manifest.schema.json`, which the package ships.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { LayerFileModel, LayerModel } from "../model";
import { schemaText, schemaValidator } from "./validators";

export { createAjv, packageRoot } from "./validators";

export type Badge = "mock" | "mixed";

export interface Requirement {
  readonly kind: "env" | "command" | "file" | "service" | "other";
  readonly name: string;
  readonly description?: string;
}

/** A library's coverage policy (docs/coverage.md): tool and contract export names of the library. */
export interface CoverageDeclaration {
  /** Tools whose reachable call makes a program use the library; default every tool of it. */
  readonly whenUsed?: readonly string[];
  /** Contracts (no arguments) a program that uses the library must state; proved with its guarantees. */
  readonly required?: readonly string[];
  /** Contracts a program that uses the library should state. */
  readonly recommended?: readonly string[];
}

/** The contents of a valid `clauz3.json`. */
export interface LibraryManifest {
  readonly title: string;
  readonly summary: string;
  readonly version?: string;
  readonly badge?: Badge;
  /** The tools run only inside `clauz3 run` holding a redeemed receipt for the program (docs/run.md). */
  readonly requiresApproval?: boolean;
  readonly dependencies?: readonly string[];
  readonly requirements?: readonly Requirement[];
  readonly coverage?: CoverageDeclaration;
  /** Per event class name: the access its events have, and the field holding a path or tree root (docs/footprints.md). */
  readonly eventAccess?: Readonly<Record<string, EventAccess>>;
}

/** How the events of one class touch state: `read`/`write` alone keys the state by the event's fields. */
export type EventAccess = "read" | "write" | { readonly access: "read" | "write"; readonly path?: string; readonly tree?: string };

/** A library of the project's trusted layer. */
export interface Library {
  /** `stdlib:<domain>` for clauz3's own standard library, else the domain name. */
  readonly id: string;
  /** The directory name above `trusted/`: the prefix of qualified calls (`filesystem.readFile`). */
  readonly domain: string;
  /** Whether this is clauz3's standard library (`<clauz3 package>/stdlib/<domain>/`). */
  readonly stdlib: boolean;
  /** Absolute directory of the library (the parent of `trusted/`). */
  readonly root: string;
  /** Absolute path of the manifest, whether or not it exists. */
  readonly manifestPath: string;
  /** The manifest, when it exists and is valid. */
  readonly manifest: LibraryManifest | undefined;
  /** SHA-256 of the manifest's bytes, when it exists. */
  readonly manifestSha256: string | undefined;
  /** Why the manifest is unusable (unreadable, not JSON, or invalid against the schema). */
  readonly manifestProblems: readonly string[];
  /** The title to show: the manifest's, or the domain name when there is no valid manifest. */
  readonly title: string;
  /** Vocabulary version: the manifest's, else the clauz3 version for stdlib, else `0.0.0`. */
  readonly version: string;
  /** The trusted files of the library, sorted by file name. */
  readonly files: readonly LayerFileModel[];
}

/** Reads a file's bytes; undefined when it does not exist. Injected by tests. */
export type ReadBytes = (fileName: string) => Buffer | undefined;

export const defaultReadBytes: ReadBytes = (fileName) => {
  try {
    return fs.readFileSync(fileName);
  } catch {
    return undefined;
  }
};

const MANIFEST_FILE = "clauz3.json";

/** The manifest JSON Schema shipped with the package. */
export function manifestSchema(): object {
  return JSON.parse(schemaText("manifest")) as object;
}

let manifestValidator: ValidateFunction | undefined;

/** Readable ajv errors: `title: must NOT have fewer than 1 characters`. */
export function ajvProblems(errors: readonly ErrorObject[] | null | undefined, root = "manifest"): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath ? `${root}${e.instancePath.replace(/\//g, ".").replace(/\.(\d+)(?=\.|$)/g, "[$1]")}` : root;
    const extra =
      e.keyword === "additionalProperties" ? ` ("${(e.params as { additionalProperty: string }).additionalProperty}")`
      : e.keyword === "enum" ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(", ")})`
      : "";
    return `${where} ${e.message ?? "is invalid"}${extra}`;
  });
}

/** The schema errors of parsed manifest JSON (empty when it is valid), for callers that locate each one. */
export function manifestErrors(data: unknown): ErrorObject[] {
  manifestValidator ??= schemaValidator("manifest");
  return manifestValidator(data) ? [] : [...(manifestValidator.errors ?? [])];
}

/** Validate parsed manifest JSON against the shipped schema. */
export function validateManifest(data: unknown): { ok: true; manifest: LibraryManifest } | { ok: false; problems: string[] } {
  const errors = manifestErrors(data);
  if (errors.length === 0) return { ok: true, manifest: data as LibraryManifest };
  return { ok: false, problems: ajvProblems(errors) };
}

/** Read and validate a manifest file; `missing` when it does not exist. */
export function readManifest(fileName: string, readBytes: ReadBytes = defaultReadBytes):
  | { status: "missing" }
  | { status: "invalid"; problems: string[]; sha256: string }
  | { status: "ok"; manifest: LibraryManifest; sha256: string } {
  const bytes = readBytes(fileName);
  if (!bytes) return { status: "missing" };
  const sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString("utf8"));
  } catch (e) {
    return { status: "invalid", problems: [`not valid JSON: ${(e as Error).message}`], sha256 };
  }
  const r = validateManifest(data);
  return r.ok ? { status: "ok", manifest: r.manifest, sha256 } : { status: "invalid", problems: r.problems, sha256 };
}

/** The library directory of a trusted file: the parent of its last `trusted` segment, else its own directory. */
export function libraryRootOf(fileName: string): string {
  const normalized = fileName.replace(/\\/g, "/");
  const parts = normalized.split("/");
  const i = parts.lastIndexOf("trusted");
  if (i > 0 && i < parts.length - 1) return parts.slice(0, i).join("/") || "/";
  return path.posix.dirname(normalized);
}

function packageJsonOf(dir: string, readBytes: ReadBytes): { name?: string; version?: string } | undefined {
  const bytes = readBytes(path.posix.join(dir, "package.json"));
  if (!bytes) return undefined;
  try {
    return JSON.parse(bytes.toString("utf8")) as { name?: string; version?: string };
  } catch {
    return undefined;
  }
}

/** For `<pkg>/stdlib/<domain>` of the clauz3 package: the package's version; else undefined. */
function stdlibVersion(root: string, readBytes: ReadBytes): string | undefined {
  const parent = path.posix.dirname(root);
  if (path.posix.basename(parent) !== "stdlib") return undefined;
  const pkgDir = path.posix.dirname(parent);
  const pkg = packageJsonOf(pkgDir, readBytes);
  if (pkg?.name === "clauz3") return typeof pkg.version === "string" ? pkg.version : "0.0.0";
  if (/(^|\/)node_modules\/clauz3$/.test(pkgDir)) return "0.0.0";
  return undefined;
}

/** The library of one root directory (domain = the root's name). */
export function libraryAt(root: string, files: readonly LayerFileModel[], readBytes: ReadBytes = defaultReadBytes): Library {
  const domain = path.posix.basename(root) || "layer";
  const stdVersion = stdlibVersion(root, readBytes);
  const manifestPath = path.posix.join(root, MANIFEST_FILE);
  const read = readManifest(manifestPath, readBytes);
  const manifest = read.status === "ok" ? read.manifest : undefined;
  return {
    id: stdVersion !== undefined ? `stdlib:${domain}` : domain,
    domain,
    stdlib: stdVersion !== undefined,
    root,
    manifestPath,
    manifest,
    manifestSha256: read.status === "missing" ? undefined : read.sha256,
    manifestProblems: read.status === "invalid" ? read.problems : [],
    title: manifest?.title ?? domain,
    version: manifest?.version ?? stdVersion ?? "0.0.0",
    files: [...files].sort((a, b) => compareStrings(a.fileName, b.fileName)),
  };
}

/** Code-unit order, independent of locale (deterministic output). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The libraries of a layer, one per library directory, sorted by identifier then directory. */
export function librariesOf(layer: Pick<LayerModel, "files">, readBytes: ReadBytes = defaultReadBytes): Library[] {
  const byRoot = new Map<string, LayerFileModel[]>();
  for (const file of layer.files.values()) {
    const root = libraryRootOf(file.fileName);
    let list = byRoot.get(root);
    if (!list) byRoot.set(root, (list = []));
    list.push(file);
  }
  return [...byRoot.entries()]
    .map(([root, files]) => libraryAt(root, files, readBytes))
    .sort((a, b) => compareStrings(a.id, b.id) || compareStrings(a.root, b.root));
}

/** Look up the library of a trusted file among `libraries`. */
export function libraryOfFile(libraries: readonly Library[], fileName: string): Library | undefined {
  const root = libraryRootOf(fileName);
  return libraries.find((l) => l.root === root);
}

/** `Filesystem [mock]`: the title with its declared badge. */
export function displayTitle(library: Library): string {
  return library.manifest?.badge ? `${library.title} [${library.manifest.badge}]` : library.title;
}
