/**
 * A submitted program laid over the operator's layer in memory: `program.path` and each
 * `program.imports[].path` are served from the request, everything else from the checkout, and
 * nothing is ever written into it. A path that could make the request's text stand for something
 * of the operator's is refused before anything is read: an absolute path, one that is not in
 * normal form or leaves the checkout, one that names an existing file or directory of the checkout
 * (or lies below a symbolic link in it), one under a trusted root or `node_modules`, one that is
 * not a TypeScript source, and a path given twice.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as TS from "typescript";
import { ApprovalRequestError, type ApprovalRequest } from "../core/approval/types";
import { isTrustedFile } from "../core/layer/classify";
import type { ModuleHost } from "../core/layer/loads";
import type { OperatorLayer } from "./layer";

const TS_SOURCE = /\.(?:ts|tsx|mts|cts)$/;
const DECLARATION = /\.d\.(?:ts|mts|cts)$|\.d\.[^/]*\.ts$/;

/** Why `rel` may not be laid over the checkout at `dir`, or undefined when it may. */
function pathProblem(rel: string, layer: OperatorLayer): string | undefined {
  if (rel.includes("\\")) return "must use forward slashes";
  if (path.posix.isAbsolute(rel) || /^[A-Za-z]:/.test(rel)) return "must be relative to the project directory, not absolute";
  const segments = rel.split("/");
  if (segments.some((s) => s === "..")) return "must not leave the project directory (`..`)";
  if (segments.some((s) => s === "" || s === ".") || path.posix.normalize(rel) !== rel) return "must be a normalized relative path (no empty or `.` segments)";
  if (!TS_SOURCE.test(rel) || DECLARATION.test(rel)) return "must name a TypeScript source file (.ts, .tsx, .mts or .cts, not a declaration file)";
  if (segments.includes("node_modules")) return "must not lie under node_modules";
  const full = path.join(layer.dir, ...segments);
  if (isTrustedFile(full, layer.dir, layer.options)) return "lies under a trusted root of the operator's layer: a request cannot supply trusted code";
  // Every existing ancestor must be a plain directory of the checkout; the file itself must not exist.
  let at = layer.dir;
  for (let i = 0; i < segments.length; i++) {
    at = path.join(at, segments[i]!);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(at);
    } catch {
      return undefined;
    }
    if (i === segments.length - 1) return "names an existing file of the operator's layer: a request cannot replace it";
    if (stat.isSymbolicLink()) return `lies below ${segments.slice(0, i + 1).join("/")}, a symbolic link in the operator's layer`;
    if (!stat.isDirectory()) return `lies below ${segments.slice(0, i + 1).join("/")}, which is a file of the operator's layer`;
  }
  return undefined;
}

/** The request's sources by absolute path in the checkout; throws `ApprovalRequestError` naming the first path refused. */
export function overlayOf(request: ApprovalRequest, layer: OperatorLayer): ReadonlyMap<string, string> {
  const files = new Map<string, string>();
  const entries = [{ field: "program.path", source: request.program }, ...request.program.imports.map((m, i) => ({ field: `program.imports[${i}].path`, source: m }))];
  for (const { field, source } of entries) {
    const problem = pathProblem(source.path, layer);
    if (problem) throw new ApprovalRequestError(field, problem);
    const full = path.join(layer.dir, ...source.path.split("/"));
    if (files.has(full)) throw new ApprovalRequestError(field, `repeats ${source.path}`);
    files.set(full, source.source);
  }
  return files;
}

/** Whether `dir` holds an overlaid file (so module resolution sees directories only the request has). */
function holdsOverlay(files: ReadonlyMap<string, string>, dir: string): boolean {
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  for (const f of files.keys()) if (f.startsWith(prefix)) return true;
  return false;
}

/** A compiler host over the checkout with the overlay's files served from memory. */
export function overlayCompilerHost(layer: OperatorLayer, files: ReadonlyMap<string, string>): TS.CompilerHost {
  const { ts } = layer;
  const host = ts.createCompilerHost(layer.compilerOptions, true);
  const { fileExists, readFile, directoryExists, getSourceFile, realpath } = host;
  host.getCurrentDirectory = () => layer.dir;
  host.fileExists = (f) => files.has(path.resolve(f)) || fileExists.call(host, f);
  host.readFile = (f) => files.get(path.resolve(f)) ?? readFile.call(host, f);
  host.directoryExists = (d) => holdsOverlay(files, path.resolve(d)) || (directoryExists ? directoryExists.call(host, d) : ts.sys.directoryExists(d));
  host.realpath = (f) => (files.has(path.resolve(f)) || holdsOverlay(files, path.resolve(f)) ? f : realpath ? realpath.call(host, f) : f);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = files.get(path.resolve(fileName));
    return text !== undefined ? ts.createSourceFile(fileName, text, languageVersion, true) : getSourceFile.call(host, fileName, languageVersion, onError, shouldCreate);
  };
  return host;
}

/** Where Node would find modules, with the overlay's files there too (the request builder and the prover follow loads through it). */
export function overlayModuleHost(layer: OperatorLayer, files: ReadonlyMap<string, string>): ModuleHost {
  const sys = layer.ts.sys;
  return {
    fileExists: (f) => files.has(path.resolve(f)) || sys.fileExists(f),
    readFile: (f) => files.get(path.resolve(f)) ?? sys.readFile(f),
    realpath: (f) => (files.has(path.resolve(f)) ? f : sys.realpath ? sys.realpath(f) : f),
  };
}
