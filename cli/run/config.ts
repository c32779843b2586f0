/**
 * Where `clauz3 run` submits and whose keys it trusts (docs/run.md): the approval service's URL from
 * `CLAUZ3_APPROVAL_SERVICE`, else `.clauz3/config.json` in the project directory
 * (schema/run-config.schema.json, validated with ajv); the operator's public key set from
 * `CLAUZ3_APPROVAL_KEYS`, else the config's `publicKeys`. The key file must be one the operator
 * owns: outside the agent's project directory, a regular file, not writable by group or others.
 * Every problem is a `RunConfigError` naming the file (or variable) and the field.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ValidateFunction } from "ajv";
import { KeySetError, readKeySetFile, type PublicKeySet } from "../../core/approval/keyset";
import { ajvProblems, createAjv, packageRoot } from "../../core/manifest";
import { isWithin } from "../../core/paths";

export const CONFIG_FILE = ".clauz3/config.json";
export const SERVICE_ENV = "CLAUZ3_APPROVAL_SERVICE";
export const KEYS_ENV = "CLAUZ3_APPROVAL_KEYS";

export interface RunConfig {
  /** The service's base URL, without a trailing slash. */
  readonly service: string;
  /** The operator's public key set and where it was read. */
  readonly keys: PublicKeySet;
  readonly keysFile: string;
}

/** A configuration `run` cannot use: where (a file or an environment variable), the field, what is wrong. */
export class RunConfigError extends Error {
  constructor(
    readonly where: string,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${where}: ${field} ${problem}`);
    this.name = "RunConfigError";
  }
}

interface ConfigFile {
  readonly version: 1;
  readonly service?: string;
  readonly publicKeys?: string;
}

let validator: ValidateFunction | undefined;

function readConfigFile(file: string): ConfigFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new RunConfigError(file, "the file", `cannot be read (${(error as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new RunConfigError(file, "the file", `is not JSON (${(error as Error).message})`);
  }
  validator ??= createAjv().compile(JSON.parse(fs.readFileSync(path.join(packageRoot(), "schema", "run-config.schema.json"), "utf8")) as object);
  if (!validator(data)) {
    const problem = ajvProblems(validator.errors, "config")[0] ?? "config is invalid";
    const m = /^config(\S*) (.*)$/.exec(problem);
    const field = m?.[1] ? m[1].replace(/^\./, "") : "the document";
    throw new RunConfigError(file, field, `${m?.[2] ?? problem} (schema: clauz3/schema/run-config.schema.json)`);
  }
  return data as ConfigFile;
}

function serviceUrl(value: string, where: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RunConfigError(where, field, `is not a URL: ${JSON.stringify(value)}`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.pathname !== "/" || url.search !== "" || url.hash !== "") {
    throw new RunConfigError(where, field, `must be the service's base URL, http or https without a path (like http://127.0.0.1:7411), not ${JSON.stringify(value)}`);
  }
  return url.origin;
}

/** The operator's key file: outside the project (after following links), a regular file, not writable by group or others. */
function operatorKeys(file: string, where: string, field: string, projectDir: string): { keys: PublicKeySet; file: string } {
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    throw new RunConfigError(where, field, `names ${file}, which does not exist (the operator writes it: the approval service's public key set)`);
  }
  const realProject = fs.realpathSync(projectDir);
  if (isWithin(realProject, real) || isWithin(projectDir, file)) {
    throw new RunConfigError(where, field, `names ${file}, inside the project directory: the operator's public keys must live outside the agent's project (a path the operator owns)`);
  }
  const stat = fs.statSync(real);
  if (!stat.isFile()) throw new RunConfigError(where, field, `names ${file}, which is not a regular file`);
  if ((stat.mode & 0o022) !== 0) throw new RunConfigError(where, field, `names ${file}, which group or others may write (mode ${(stat.mode & 0o777).toString(8)}); the operator must make it writable by its owner alone`);
  try {
    return { keys: readKeySetFile(real), file: real };
  } catch (error) {
    if (error instanceof KeySetError) throw new RunConfigError(file, error.field, error.problem);
    throw error;
  }
}

/** Read the configuration for a project; `env` is the process environment. */
export function readRunConfig(projectDir: string, env: Readonly<Record<string, string | undefined>>): RunConfig {
  const configFile = path.join(projectDir, CONFIG_FILE);
  const config = readConfigFile(configFile);
  const envService = env[SERVICE_ENV];
  let service: string;
  if (envService !== undefined && envService !== "") service = serviceUrl(envService, SERVICE_ENV, "the value");
  else if (config?.service !== undefined) service = serviceUrl(config.service, configFile, "service");
  else throw new RunConfigError(config ? configFile : SERVICE_ENV, config ? "service" : "the variable", `is missing: set ${SERVICE_ENV} or "service" in ${CONFIG_FILE} to the approval service's URL`);

  const envKeys = env[KEYS_ENV];
  let keys: { keys: PublicKeySet; file: string };
  if (envKeys !== undefined && envKeys !== "") {
    if (!path.isAbsolute(envKeys)) throw new RunConfigError(KEYS_ENV, "the value", `must be an absolute path, not ${JSON.stringify(envKeys)}`);
    keys = operatorKeys(envKeys, KEYS_ENV, "the value", projectDir);
  } else if (config?.publicKeys !== undefined) {
    keys = operatorKeys(path.resolve(path.dirname(configFile), config.publicKeys), configFile, "publicKeys", projectDir);
  } else {
    throw new RunConfigError(config ? configFile : KEYS_ENV, config ? "publicKeys" : "the variable", `is missing: set ${KEYS_ENV} or "publicKeys" in ${CONFIG_FILE} to the operator's public key set (outside the project)`);
  }
  return { service, keys: keys.keys, keysFile: keys.file };
}
