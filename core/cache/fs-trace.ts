/**
 * What a run read from the file system, written down so that a later run can tell, without doing
 * the work, that it would read exactly the same (runs.ts: the whole-run cache of `clauz3 check`).
 *
 * Recording wraps the functions of Node's `fs` module that read synchronously: TypeScript's `sys`,
 * the layer reader, the manifests, the lock and Node's module loader all read through them. Each
 * call is written down with a summary of its answer (a digest of a file's content, whether a path
 * exists, a directory's entries, a resolved path, an error's code), and every `require` resolved
 * during the run with the file it resolved to. Checking makes each call again, in order, and
 * compares: a run is a function of what it reads, so equal answers mean an equal run.
 *
 * What recording cannot follow spoils it (the run is then not stored): an asynchronous or
 * descriptor-level read, a read of a file's times, a write anywhere but the places the run may
 * write (its cache, its report file). Reads under an excluded directory (the cache itself, whose
 * entries are trusted by their keys) are not written down.
 */
import fs = require("node:fs");
import Module from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Hex as sha256 } from "../lock/digest";
import { isWithin } from "../paths";

/** One call and a summary of its answer: `[function, arguments, answer]`. */
export type Observation = readonly [string, readonly unknown[], string];

/** One `require` resolved during the run: `[request, parent file or null, options, answer]`. */
export type Resolution = readonly [string, string | null, unknown, string];

export interface Recording {
  readonly observations: readonly Observation[];
  readonly resolutions: readonly Resolution[];
  /** Why the run cannot be replayed, when it cannot. */
  readonly spoiled?: string;
}

type Fn = (...args: unknown[]) => unknown;
type FsTable = Record<string, Fn>;

/** The synchronous readers recorded, each with how its answer is summarised. */
const READERS: Readonly<Record<string, (answer: unknown) => string>> = {
  readFileSync: (a) => (typeof a === "string" ? `s${sha256(a)}` : Buffer.isBuffer(a) ? `b${sha256(a)}` : "?"),
  existsSync: (a) => (a ? "1" : "0"),
  statSync: statSummary,
  lstatSync: statSummary,
  readdirSync: (a) => JSON.stringify((a as unknown[]).map((e) => (typeof e === "string" ? e : e instanceof fs.Dirent ? `${e.name}\0${direntKind(e)}\0${e.parentPath ?? ""}` : "?"))),
  realpathSync: (a) => String(a),
  accessSync: () => "ok",
};

/** Reads recording cannot follow: any call spoils it. */
const UNFOLLOWED = [
  "opendirSync", "readlinkSync", "statfsSync", "watch", "watchFile", "createReadStream", "openAsBlob",
  "readFile", "stat", "lstat", "readdir", "access", "exists", "realpath", "open", "opendir", "read", "readv", "readlink", "fstat", "statfs",
];
const UNFOLLOWED_PROMISES = ["readFile", "stat", "lstat", "readdir", "access", "realpath", "open", "opendir", "readlink", "statfs", "cp"];

/** Writers, with which of their arguments are paths written. */
const WRITERS: Readonly<Record<string, readonly number[]>> = {
  writeFileSync: [0], appendFileSync: [0], renameSync: [0, 1], mkdirSync: [0], rmSync: [0], rmdirSync: [0], unlinkSync: [0], copyFileSync: [1], cpSync: [1],
  symlinkSync: [1], linkSync: [1], truncateSync: [0], chmodSync: [0], utimesSync: [0], mkdtempSync: [0], createWriteStream: [0],
  writeFile: [0], appendFile: [0], rename: [0, 1], mkdir: [0], rm: [0], rmdir: [0], unlink: [0], copyFile: [1], cp: [1], symlink: [1], link: [1], truncate: [0], chmod: [0], utimes: [0], mkdtemp: [0],
};
const WRITERS_PROMISES = ["writeFile", "appendFile", "rename", "mkdir", "rm", "rmdir", "unlink", "copyFile", "symlink", "link", "truncate", "chmod", "utimes", "mkdtemp"];

const TIMES = ["atimeMs", "mtimeMs", "ctimeMs", "birthtimeMs", "atime", "mtime", "ctime", "birthtime"];

function direntKind(e: fs.Dirent): string {
  return e.isFile() ? "f" : e.isDirectory() ? "d" : e.isSymbolicLink() ? "l" : "o";
}

/** What a path is, and a file's size (a directory's size is the file system's business; its entries are read when they matter). */
function statSummary(answer: unknown): string {
  if (answer === undefined) return "-";
  const s = answer as fs.Stats;
  return s.isDirectory() ? "d" : `${s.isFile() ? "f" : s.isSymbolicLink() ? "l" : "o"}:${s.size}`;
}

/** A path argument as a string; undefined for a descriptor or a buffer (not followed). */
function pathOf(arg: unknown): string | undefined {
  if (typeof arg === "string") return arg;
  if (arg instanceof URL) return arg.protocol === "file:" ? fileURLToPath(arg) : undefined;
  return undefined;
}

/** Arguments as JSON, or undefined when they do not survive it (a function, a buffer). */
function jsonArgs(args: readonly unknown[]): unknown[] | undefined {
  const out: unknown[] = [];
  for (const a of args) {
    if (a === undefined || typeof a === "string" || typeof a === "number" || typeof a === "boolean" || a === null) out.push(a ?? null);
    else if (typeof a === "object" && !Buffer.isBuffer(a) && !(a instanceof URL) && Object.values(a).every((v) => v === undefined || ["string", "number", "boolean"].includes(typeof v))) out.push({ ...a });
    else return undefined;
  }
  return out;
}

function errorAnswer(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return `!${typeof code === "string" ? code : "error"}`;
}

export interface RecordOptions {
  /** Directories whose reads are not written down, and where the run may write. */
  readonly excluded: () => readonly string[];
  /** Files the run may write besides (its report): not written down when read either. */
  readonly writable: () => readonly string[];
}

export interface RecordingHandle {
  /** Run `fn` without writing down its reads (checking a stored run while this one records). */
  aside<T>(fn: () => T): T;
  stop(): Recording;
}

/**
 * Start recording this thread's reads. `stop()` puts every function back and returns what was
 * read. Recordings do not nest: one started while another runs records nothing and is spoiled.
 */
export function startRecording(options: RecordOptions): RecordingHandle {
  const table = fs as unknown as FsTable;
  if (table.__clauz3Recording) return { aside: (fn) => fn(), stop: () => ({ observations: [], resolutions: [], spoiled: "two recordings at once" }) };
  const promises = fs.promises as unknown as FsTable;
  const saved: [FsTable, string, Fn][] = [];
  const observations: Observation[] = [];
  const resolutions: Resolution[] = [];
  let spoiled: string | undefined;
  let depth = 0;
  const spoil = (why: string): void => void (spoiled ??= why);
  // The report file is output: what the run read of it (whether it exists, what it is) decides nothing but where to write.
  const excluded = (file: string): boolean => options.excluded().some((d) => isWithin(d, path.resolve(file))) || options.writable().includes(path.resolve(file));
  const mayWrite = (file: string): boolean => {
    const full = path.resolve(file);
    return excluded(full) || options.writable().some((w) => full === w || (path.dirname(full) === path.dirname(w) && path.basename(full).startsWith(`.${path.basename(w)}.`) && full.endsWith(".tmp")));
  };
  const replace = (on: FsTable, name: string, make: (original: Fn) => Fn): void => {
    const original = on[name];
    if (typeof original !== "function") return;
    saved.push([on, name, original]);
    const wrapped = make(original);
    Object.assign(wrapped, original);
    on[name] = wrapped;
  };
  // Call `original` on `file` and write down `[name, args, answer]` (an error as its code) unless the file is excluded.
  const observed = (name: string, args: unknown[], summarise: (answer: unknown) => string, call: () => unknown): unknown => {
    const record = !excluded(args[0] as string);
    try {
      const answer = call();
      if (record) observations.push([name, args, summarise(answer)]);
      return answer;
    } catch (error) {
      if (record) observations.push([name, args, errorAnswer(error)]);
      throw error;
    }
  };
  // Only the outermost call is written down: `readFileSync` opening its file is not a read of its own.
  const outermost = (original: Fn, body: (self: unknown, args: unknown[]) => unknown): Fn =>
    function (this: unknown, ...args: unknown[]) {
      if (depth > 0) return original.apply(this, args);
      depth++;
      try {
        return body(this, args);
      } finally {
        depth--;
      }
    };

  for (const [name, summarise] of Object.entries(READERS)) {
    const read = (original: Fn): Fn =>
      outermost(original, (self, args) => {
        const file = pathOf(args[0]);
        const rest = jsonArgs(args.slice(1));
        if (file === undefined || rest === undefined) {
          spoil(`fs.${name} of a descriptor or with options recording does not follow`);
          return original.apply(self, args);
        }
        if ((name === "statSync" || name === "lstatSync") && (args[1] as { bigint?: boolean } | undefined)?.bigint) spoil(`fs.${name} with bigint`);
        const answer = observed(name, [file, ...rest], summarise, () => original.apply(self, [file, ...args.slice(1)]));
        if (answer instanceof fs.Stats && !excluded(file)) guardTimes(answer, () => spoil(`a file's times were read (${file})`));
        return answer;
      });
    replace(table, name, read);
    if (name === "realpathSync") replace(table.realpathSync as unknown as FsTable, "native", (original) => outermost(original, (self, args) => {
      const file = pathOf(args[0]);
      if (file === undefined) {
        spoil("fs.realpathSync.native of a buffer");
        return original.apply(self, args);
      }
      return observed("realpathSync.native", [file], summarise, () => original.apply(self, [file]));
    }));
  }
  // Reads of excluded files (the cache's, the solver's) need not be followed, whatever the function.
  const unfollowed = (label: string, args: readonly unknown[]): void => {
    const file = pathOf(args[0]);
    if (file === undefined || !excluded(file)) spoil(`${label} (a read recording does not follow)`);
  };
  for (const name of UNFOLLOWED) replace(table, name, (original) => outermost(original, (self, args) => {
    unfollowed(`fs.${name}`, args);
    return original.apply(self, args);
  }));
  for (const name of UNFOLLOWED_PROMISES) replace(promises, name, (original) => function (this: unknown, ...args: unknown[]) {
    if (depth === 0) unfollowed(`fs.promises.${name}`, args);
    return original.apply(this, args);
  });
  // A file opened to be read (Node's ES module loader reads so) is a read of its whole content;
  // its descriptor may then be read and closed.
  const readable = new Set<unknown>();
  replace(table, "openSync", (original) => outermost(original, (self, args) => {
    const file = pathOf(args[0]);
    const flags = args[1];
    if (file === undefined) spoil("fs.openSync of a descriptor");
    else if (flags === undefined || flags === "r" || flags === fs.constants.O_RDONLY) {
      // Written down as a read by its path (the descriptor's position is the caller's): what checking will read.
      const content = (): string => {
        try {
          return READERS.readFileSync!(fs.readFileSync(file));
        } catch (error) {
          return errorAnswer(error);
        }
      };
      const fd = observed("readFileSync", [file], content, () => original.apply(self, args));
      readable.add(fd);
      return fd;
    } else if (!mayWrite(file)) spoil(`fs.openSync of ${file} to write, outside the cache and the report`);
    return original.apply(self, args);
  }));
  for (const name of ["readSync", "readvSync", "fstatSync"]) replace(table, name, (original) => outermost(original, (self, args) => {
    if (!readable.has(args[0])) spoil(`fs.${name} of a descriptor recording did not see opened`);
    const answer = original.apply(self, args);
    if (answer instanceof fs.Stats) guardTimes(answer, () => spoil("a file's times were read (fs.fstatSync)"));
    return answer;
  }));
  replace(table, "closeSync", (original) => outermost(original, (self, args) => {
    readable.delete(args[0]);
    return original.apply(self, args);
  }));
  const writer = (label: string, positions: readonly number[]) => (original: Fn): Fn =>
    outermost(original, (self, args) => {
      for (const i of positions) {
        const file = pathOf(args[i]);
        if (file === undefined || !mayWrite(file)) spoil(`${label} of ${file ?? "a descriptor"}, outside the cache and the report`);
      }
      return original.apply(self, args);
    });
  for (const [name, positions] of Object.entries(WRITERS)) replace(table, name, writer(`fs.${name}`, positions));
  for (const name of WRITERS_PROMISES) replace(promises, name, writer(`fs.promises.${name}`, WRITERS[name] ?? [0]));
  // Writes to descriptors: only stdout and stderr (the report the caller captures).
  for (const name of ["writeSync", "writevSync", "write", "writev"]) replace(table, name, (original) => outermost(original, (self, args) => {
    if (args[0] !== 1 && args[0] !== 2) spoil(`fs.${name} to a descriptor other than stdout and stderr`);
    return original.apply(self, args);
  }));

  const loader = Module as unknown as { _resolveFilename: Fn; isBuiltin(name: string): boolean };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (this: unknown, ...args: unknown[]) {
    const [request, parent, , resolveOptions] = args as [string, { filename?: string | null } | undefined, unknown, unknown];
    if (depth > 0 || typeof request !== "string" || loader.isBuiltin(request)) return resolve.apply(this, args);
    const from = typeof parent?.filename === "string" ? parent.filename : null;
    const opts = jsonArgs([resolveOptions ?? null]);
    const paths = (resolveOptions as { paths?: unknown } | undefined)?.paths;
    if (!opts && !(Array.isArray(paths) && paths.every((p) => typeof p === "string"))) spoil("a require with options recording does not follow");
    const stored = paths !== undefined ? { paths } : null;
    try {
      const answer = resolve.apply(this, args) as string;
      resolutions.push([request, from, stored, answer]);
      return answer;
    } catch (error) {
      resolutions.push([request, from, stored, errorAnswer(error)]);
      throw error;
    }
  };
  table.__clauz3Recording = (() => undefined) as Fn;
  // ES modules that imported `node:fs` by name see the wrappers too.
  Module.syncBuiltinESMExports();

  let stopped = false;
  return {
    aside<T>(fn: () => T): T {
      depth++;
      try {
        return fn();
      } finally {
        depth--;
      }
    },
    stop(): Recording {
      if (!stopped) {
        stopped = true;
        for (const [on, name, original] of saved.reverse()) on[name] = original;
        loader._resolveFilename = resolve;
        delete table.__clauz3Recording;
        Module.syncBuiltinESMExports();
      }
      // What is excluded may be known only after the first reads (the cache's place is in the project's tsconfig).
      const kept = observations.filter((o) => !excluded(o[1][0] as string));
      return { observations: kept, resolutions, ...(spoiled !== undefined ? { spoiled } : {}) };
    },
  };
}

/** Make reading a file's times spoil the recording: a run that reads them is not a function of contents. */
function guardTimes(stats: fs.Stats, onRead: () => void): void {
  for (const name of TIMES) {
    const descriptor = Object.getOwnPropertyDescriptor(stats, name) ?? findDescriptor(stats, name);
    if (!descriptor) continue;
    Object.defineProperty(stats, name, {
      configurable: true,
      enumerable: descriptor.enumerable ?? true,
      get() {
        onRead();
        return descriptor.get ? descriptor.get.call(stats) : descriptor.value;
      },
    });
  }
}

function findDescriptor(object: object, name: string): PropertyDescriptor | undefined {
  for (let o = Object.getPrototypeOf(object) as object | null; o; o = Object.getPrototypeOf(o) as object | null) {
    const d = Object.getOwnPropertyDescriptor(o, name);
    if (d) return d;
  }
  return undefined;
}

/** Whether every recorded call answers the same now; the first that does not is returned. */
export function firstChange(recording: Pick<Recording, "observations" | "resolutions">): string | undefined {
  for (const [name, args, answer] of recording.observations) {
    const native = name === "realpathSync.native";
    const summarise = READERS[native ? "realpathSync" : name];
    if (!summarise) return `${name}: not a recorded reader`;
    const fn = (native ? fs.realpathSync.native : (fs as unknown as FsTable)[name]) as Fn;
    let now: string;
    try {
      now = summarise(fn(...args.map((a) => (a === null ? undefined : a))));
    } catch (error) {
      now = errorAnswer(error);
    }
    if (now !== answer) return `${name}(${JSON.stringify(args[0])})`;
  }
  const loader = Module as unknown as { _resolveFilename: Fn; _nodeModulePaths(dir: string): string[]; _pathCache: object };
  // Resolved afresh: the loader's cache of earlier resolutions may predate a change.
  const cached = loader._pathCache;
  loader._pathCache = Object.create(null) as object;
  try {
    return changedResolution(recording.resolutions, loader);
  } finally {
    loader._pathCache = cached;
  }
}

function changedResolution(resolutions: readonly Resolution[], loader: { _resolveFilename: Fn; _nodeModulePaths(dir: string): string[] }): string | undefined {
  for (const [request, from, options, answer] of resolutions) {
    const parent = from === null ? undefined : { id: from, filename: from, paths: loader._nodeModulePaths(path.dirname(from)) };
    let now: string;
    try {
      now = String(loader._resolveFilename(request, parent, false, options ?? undefined));
    } catch (error) {
      now = errorAnswer(error);
    }
    if (now !== answer) return `require(${JSON.stringify(request)}) from ${from ?? "(none)"}`;
  }
  return undefined;
}

/** The modules this process has loaded (CommonJS and JSON files), by file name. */
export function moduleFiles(): string[] {
  return Object.keys(require.cache).sort();
}

/** Each of `files` with a digest of its content now. */
export function loadedModules(files: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (const file of files) {
    try {
      out.push([file, sha256(fs.readFileSync(file))]);
    } catch (error) {
      out.push([file, errorAnswer(error)]);
    }
  }
  return out;
}

