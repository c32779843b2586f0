/**
 * The `clauz3.lock` document: its types, its one serialisation (sorted keys, two spaces, a final
 * newline: the same layer always gives the same bytes) and its reader, which validates with ajv
 * against `schema/lock.schema.json` and throws a `LockError` naming the field, never a stack trace.
 */
import * as fs from "node:fs";
import type { ErrorObject, ValidateFunction } from "ajv";
import { schemaText, schemaValidator } from "../manifest/validators";

/** The lock's file name; it sits next to the project's tsconfig.json. */
export const LOCK_FILE = "clauz3.lock";
/** The format version this clauz3 writes and reads. */
export const LOCK_VERSION = 1;

/** `stdlib`: clauz3's own standard library; `local`: a directory of the project. */
export type LockOrigin = "stdlib" | "local";

export interface LockedFile {
  /** SHA-256 of the file's bytes, 64 lowercase hex digits. */
  readonly sha256: string;
}

/** Where `clauz3 install` copied a library from (docs/init-install.md). */
export interface InstalledFrom {
  /** The source as given to `clauz3 install`: `stdlib:<name>`, a folder, or a git URL with an optional `@<ref>`. */
  readonly source: string;
  /** `clauz3:<version>` for the standard library, `git:<commit>` for a git source or a clean git folder, else `sha256:<digest>` of the copied files. */
  readonly revision: string;
}

export interface LockedLibrary {
  readonly id: string;
  readonly origin: LockOrigin;
  /** `git:<commit>` or `sha256:<digest>` (see revision.ts). */
  readonly revision: string;
  /** Written by `clauz3 install`; `clauz3 lock` keeps it while the library directory is pinned. */
  readonly installed?: InstalledFrom;
}

/** A lock, with paths relative to the lock's directory (forward slashes). */
export interface Lock {
  readonly version: typeof LOCK_VERSION;
  readonly files: ReadonlyMap<string, LockedFile>;
  /** By library directory (`.` for the lock's own directory). */
  readonly libraries: ReadonlyMap<string, LockedLibrary>;
}

/** A lock that cannot be used: which file, which field, what is wrong, and where (offset in the text, when known). */
export class LockError extends Error {
  constructor(
    readonly file: string,
    /** The field, as `files["tools/a/trusted/x.ts"].sha256`; `the document` for the whole text; a line and column for JSON syntax. */
    readonly field: string,
    readonly problem: string,
    /** JSON pointer segments of the field (for locating it in the text). */
    readonly pointer: readonly string[] = [],
    /** Whether the problem is the key at `pointer` rather than its value. */
    readonly atKey = false,
    /** Offset in the text, for syntax errors. */
    readonly offset?: number,
  ) {
    super(`${file}: ${field} ${problem}`);
    this.name = "LockError";
  }
}

/** The lock as deterministic text: keys sorted at every level, two-space indentation, final newline. */
export function serializeLock(lock: Lock): string {
  const files = Object.fromEntries([...lock.files].sort(([a], [b]) => compare(a, b)).map(([k, v]) => [k, { sha256: v.sha256 }]));
  const libraries = Object.fromEntries(
    [...lock.libraries].sort(([a], [b]) => compare(a, b)).map(([k, v]) => [k, libraryJson(v)]),
  );
  return `${JSON.stringify({ files, libraries, version: lock.version }, null, 2)}\n`;
}

/** A library entry with its keys in sorted order (`installed` only when there is one). */
function libraryJson(v: LockedLibrary): object {
  const installed = v.installed ? { installed: { revision: v.installed.revision, source: v.installed.source } } : {};
  return { id: v.id, ...installed, origin: v.origin, revision: v.revision };
}

/** Code-unit order, independent of locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

let validator: ValidateFunction | undefined;

/** The lock JSON Schema shipped with the package. */
export function lockSchema(): object {
  return JSON.parse(schemaText("lock")) as object;
}

/** Parse and validate a lock's text; throws `LockError` (file, field, problem). */
/** The lock at `lockPath`, or undefined when there is none to read; an invalid one throws LockError. */
export function readLockIfPresent(lockPath: string): Lock | undefined {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, "utf8");
  } catch {
    return undefined;
  }
  return parseLock(lockPath, text);
}

export function parseLock(file: string, text: string): Lock {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const at = /position (\d+)/.exec(message);
    const offset = at ? Number(at[1]) : 0;
    const before = text.slice(0, offset).split("\n");
    const where = `the text at line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
    throw new LockError(file, where, `is not JSON (${message.replace(/ in JSON at position \d+.*$/, "")})`, [], false, offset);
  }
  validator ??= schemaValidator("lock");
  if (!validator(data)) throw schemaError(file, validator.errors ?? []);
  const doc = data as { version: 1; files: Record<string, LockedFile>; libraries: Record<string, LockedLibrary> };
  return {
    version: doc.version,
    files: new Map(Object.entries(doc.files).map(([k, v]) => [k, { sha256: v.sha256 }])),
    libraries: new Map(
      Object.entries(doc.libraries).map(([k, v]) => [
        k,
        { id: v.id, origin: v.origin, revision: v.revision, ...(v.installed ? { installed: { source: v.installed.source, revision: v.installed.revision } } : {}) },
      ]),
    ),
  };
}

/** JSON pointer segments of an ajv instance path. */
function pointerOf(instancePath: string): string[] {
  return instancePath === "" ? [] : instancePath.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** `files["tools/a.ts"].sha256`: identifiers after a dot, other keys quoted. */
export function fieldName(pointer: readonly string[]): string {
  if (pointer.length === 0) return "the document";
  return pointer.map((s, i) => (/^[A-Za-z_$][\w$]*$/.test(s) ? (i === 0 ? s : `.${s}`) : `[${JSON.stringify(s)}]`)).join("");
}

/** The first schema violation, as the field it concerns and a readable problem. */
function schemaError(file: string, errors: readonly ErrorObject[]): LockError {
  // ajv reports a bad key twice (the pattern, then `propertyNames`): the first one says most.
  const e = errors[0];
  if (!e) return new LockError(file, "the document", "does not match schema/lock.schema.json");
  const pointer = pointerOf(e.instancePath);
  const params = e.params as Record<string, unknown>;
  const key = (e as { propertyName?: unknown }).propertyName ?? params.propertyName;
  if (typeof key === "string") {
    const at = [...pointer, key];
    const what = pointer[0] === "libraries" ? "is not a library directory relative to the lock (`.`, or forward slashes without an empty or `.` segment)" : "is not a path relative to the lock (forward slashes, not absolute, without an empty or `.` segment)";
    return new LockError(file, fieldName(at), what, at, true);
  }
  switch (e.keyword) {
    case "required": {
      const at = [...pointer, String(params.missingProperty)];
      return new LockError(file, fieldName(at), "is missing", pointer, false);
    }
    case "additionalProperties": {
      const at = [...pointer, String(params.additionalProperty)];
      return new LockError(file, fieldName(at), "is not a field of the lock format", at, true);
    }
    case "const":
      return new LockError(file, fieldName(pointer), `must be ${JSON.stringify(params.allowedValue)} (this clauz3 reads lock version ${LOCK_VERSION})`, pointer);
    case "enum":
      return new LockError(file, fieldName(pointer), `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`, pointer);
    case "pattern":
      return new LockError(file, fieldName(pointer), pointer[pointer.length - 1] === "sha256" ? "must be 64 lowercase hex digits" : `must match ${String(params.pattern)}`, pointer);
    default:
      return new LockError(file, fieldName(pointer), e.message ?? "is invalid", pointer);
  }
}
