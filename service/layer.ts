/**
 * The operator's layer (`--layer <dir>`): the operator's own checkout of the trusted libraries,
 * with its tsconfig.json (optional: clauz3's defaults) and its clauz3.lock. Read once at start,
 * refused unless its lock pins exactly what is there; every verification reads the lock again, so
 * a checkout changed after the start stops verifying instead of verifying against other bytes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import type * as TS from "typescript";
import type { Clauz3Options, TypeScript } from "../core/context";
import { requestLayerOf } from "../core/approval/request";
import { readLayer } from "../core/layer/read";
import { verifyLock } from "../core/lock/verify";
import { clauz3OptionsOf, PluginOptionsError } from "../core/plugin-options";
import { defaultCompilerOptions, defaultRootNames } from "../core/project-defaults";

export interface OperatorLayer {
  /** The checkout's directory (absolute, symbolic links resolved). */
  readonly dir: string;
  readonly ts: TypeScript;
  readonly compilerOptions: TS.CompilerOptions;
  readonly options: Clauz3Options;
  /** The lock's layer fingerprint when the service started. */
  readonly fingerprint: string;
  /** The checkout's source files (its tsconfig's, or every TypeScript file below it): what a policy is bound against. */
  readonly rootNames: readonly string[];
}

/** A `--layer` directory the service cannot verify against: the directory and why. */
export class LayerConfigError extends Error {
  constructor(
    readonly dir: string,
    readonly problem: string,
  ) {
    super(`--layer ${dir}: ${problem}`);
    this.name = "LayerConfigError";
  }
}

/** Read the operator's checkout at `dir` and check that its lock pins exactly its trusted files. */
export function openOperatorLayer(dir: string): OperatorLayer {
  let root: string;
  try {
    root = fs.realpathSync(path.resolve(dir));
    if (!fs.statSync(root).isDirectory()) throw new Error("not a directory");
  } catch {
    throw new LayerConfigError(dir, "is not a directory");
  }
  const configPath = path.join(root, "tsconfig.json");
  let compilerOptions = defaultCompilerOptions(ts);
  let rootNames: readonly string[];
  if (fs.existsSync(configPath)) {
    let fatal: TS.Diagnostic | undefined;
    const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => void (fatal = d) });
    const errors = [...(fatal ? [fatal] : []), ...(parsed ? ts.getConfigFileParsingDiagnostics(parsed) : [])];
    if (!parsed || errors.length > 0) {
      throw new LayerConfigError(dir, `cannot read tsconfig.json: ${ts.flattenDiagnosticMessageText(errors[0]?.messageText ?? "unreadable", " ")}`);
    }
    compilerOptions = parsed.options;
    rootNames = parsed.fileNames;
  } else {
    rootNames = defaultRootNames(ts, root);
  }
  let options: Clauz3Options;
  try {
    options = clauz3OptionsOf(compilerOptions);
  } catch (error) {
    if (error instanceof PluginOptionsError) throw new LayerConfigError(dir, `tsconfig.json: ${error.message}`);
    throw error;
  }
  const host = ts.createCompilerHost(compilerOptions, true);
  host.getCurrentDirectory = () => root;
  const program = ts.createProgram({ rootNames: [...rootNames], options: compilerOptions, host });
  const layer = readLayer(ts, program, options);
  const lock = verifyLock(ts, program, layer.isTrusted);
  if (lock.state !== "ok" || !lock.lock) {
    throw new LayerConfigError(dir, lock.state === "missing" ? `has no lock at ${lock.lockPath} (run \`clauz3 lock\` in it)` : `${lock.lockPath} is not valid${lock.error ? ` (${lock.error.field} ${lock.error.problem})` : ""}`);
  }
  const first = lock.findings[0];
  if (first) throw new LayerConfigError(dir, `does not match its lock: ${first.message}`);
  return { dir: root, ts, compilerOptions, options, fingerprint: requestLayerOf(lock.lock).fingerprint, rootNames };
}
