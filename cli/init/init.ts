/**
 * `clauz3 init`: make a folder (empty, or an existing TypeScript project) a clauz3 project.
 * Writes or merges tsconfig.json (the two plugin entries), package.json (the `check` and `build`
 * scripts), `.vscode/settings.json` (the workspace TypeScript), installs `stdlib:filesystem` and
 * writes one sample agent program. Idempotent: what is already there is left as it is; a user's
 * value that differs is kept (and said) unless `force`. Edits keep comments and formatting.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { install, type InstallOutcome } from "../install/install";
import { expectType, InitError, readJson, valueAt, withValue, type JsonDocument } from "./jsonc";
import { LANGUAGE_SERVICE_PLUGIN, SAMPLE, SAMPLE_FILE, SCRIPTS, TRANSFORM_PLUGIN, TSCONFIG, VSCODE_SETTINGS } from "./templates";

export { InitError } from "./jsonc";

export interface InitRequest {
  /** The project folder (created when missing). */
  readonly directory: string;
  readonly force?: boolean;
}

export interface InitOutcome {
  /** One line per file: what was created, updated, kept. */
  readonly actions: readonly string[];
  /** Packages the project lacks (to install before `check` and `build`). */
  readonly missingPackages: { readonly dependencies: readonly string[]; readonly devDependencies: readonly string[] };
  readonly installed: InstallOutcome;
}

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new InitError(file, "the document", `cannot be read (${(error as Error).message})`);
  }
}

/** Where a step puts a file's new text: written at once, or kept until every file was checked. */
type Write = (file: string, text: string) => void;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** The text to write back: the edited document, with the byte-order mark it had. */
function textOf(original: string, doc: JsonDocument): string {
  return original.startsWith("\uFEFF") ? `\uFEFF${doc.text}` : doc.text;
}

/** tsconfig.json: created, or each missing plugin entry appended to `compilerOptions.plugins`. */
function initTsconfig(dir: string, force: boolean, write: Write): string {
  const file = path.join(dir, "tsconfig.json");
  const original = read(file);
  if (original === undefined) {
    write(file, TSCONFIG);
    return "created tsconfig.json (nodenext, the clauz3 plugins)";
  }
  if (force && original.trim() === "") {
    write(file, TSCONFIG);
    return "replaced the empty tsconfig.json";
  }
  let doc = readJson("tsconfig.json", original, true);
  expectType(doc, ["compilerOptions"], "object");
  const hasPlugins = expectType(doc, ["compilerOptions", "plugins"], "array");
  const plugins = hasPlugins ? (valueAt(doc, ["compilerOptions", "plugins"]) as unknown[]) : [];
  plugins.forEach((p, i) => {
    if (typeof p !== "object" || p === null || Array.isArray(p)) throw new InitError("tsconfig.json", `compilerOptions.plugins[${i}]`, "must be a JSON object");
  });
  const has = (key: "transform" | "name", value: string): boolean => plugins.some((p) => (p as Record<string, unknown>)[key] === value);
  const added: string[] = [];
  if (!has("transform", TRANSFORM_PLUGIN.transform)) {
    doc = hasPlugins || added.length > 0 ? withValue(doc, ["compilerOptions", "plugins", -1], TRANSFORM_PLUGIN) : withValue(doc, ["compilerOptions", "plugins"], [TRANSFORM_PLUGIN]);
    added.push(`"${TRANSFORM_PLUGIN.transform}"`);
  }
  if (!has("name", LANGUAGE_SERVICE_PLUGIN.name)) {
    doc = hasPlugins || added.length > 0 ? withValue(doc, ["compilerOptions", "plugins", -1], LANGUAGE_SERVICE_PLUGIN) : withValue(doc, ["compilerOptions", "plugins"], [LANGUAGE_SERVICE_PLUGIN]);
    added.push(`"${LANGUAGE_SERVICE_PLUGIN.name}"`);
  }
  if (added.length === 0) return "kept tsconfig.json (it has the clauz3 plugins)";
  write(file, textOf(original, doc));
  return `updated tsconfig.json: added the plugin ${added.join(" and ")} to compilerOptions.plugins`;
}

/** A package name from a folder name (npm's rules: lower case, URL-safe). */
function packageName(dir: string): string {
  const name = path.basename(path.resolve(dir)).toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[._-]+/, "");
  return name === "" ? "agent-project" : name.slice(0, 214);
}

/** package.json: created, or the `check` and `build` scripts added. */
function initPackageJson(dir: string, force: boolean, write: Write): string[] {
  const file = path.join(dir, "package.json");
  const original = read(file);
  if (original === undefined) {
    write(file, `${JSON.stringify({ name: packageName(dir), version: "0.1.0", private: true, scripts: SCRIPTS }, null, 2)}\n`);
    return ["created package.json (scripts: check, build)"];
  }
  let doc = readJson("package.json", original, false);
  const hasScripts = expectType(doc, ["scripts"], "object");
  const lines: string[] = [];
  const added: string[] = [];
  for (const [name, command] of Object.entries(SCRIPTS)) {
    const current = hasScripts || added.length > 0 ? valueAt(doc, ["scripts", name]) : undefined;
    if (current !== undefined && typeof current !== "string") throw new InitError("package.json", `scripts.${name}`, "must be a string");
    if (current === command) continue;
    if (current !== undefined && !force) {
      lines.push(`kept package.json scripts.${name} (${JSON.stringify(current)}); pass --force to make it ${JSON.stringify(command)}`);
      continue;
    }
    doc = withValue(doc, ["scripts", name], command);
    added.push(name);
  }
  if (added.length > 0) {
    write(file, textOf(original, doc));
    lines.unshift(`updated package.json: scripts ${added.join(", ")}`);
  } else if (lines.length === 0) {
    lines.push("kept package.json (it has the scripts check and build)");
  }
  return lines;
}

/** `.vscode/settings.json`: created, or the workspace-TypeScript settings added. */
function initVscode(dir: string, force: boolean, write: Write): string[] {
  const shown = ".vscode/settings.json";
  const file = path.join(dir, ".vscode", "settings.json");
  const original = read(file);
  if (original === undefined) {
    write(file, `${JSON.stringify(VSCODE_SETTINGS, null, 2)}\n`);
    return [`created ${shown} (the editor uses the project's TypeScript, which loads the plugin)`];
  }
  let doc = readJson(shown, original, true);
  const lines: string[] = [];
  const added: string[] = [];
  for (const [key, value] of Object.entries(VSCODE_SETTINGS)) {
    const current = valueAt(doc, [key]);
    if (current === value) continue;
    if (current !== undefined && !force) {
      lines.push(`kept ${shown} "${key}" (${JSON.stringify(current)}); pass --force to make it ${JSON.stringify(value)}`);
      continue;
    }
    doc = withValue(doc, [key], value);
    added.push(`"${key}"`);
  }
  if (added.length > 0) {
    write(file, textOf(original, doc));
    lines.unshift(`updated ${shown}: ${added.join(", ")}`);
  } else if (lines.length === 0) {
    lines.push(`kept ${shown} (it has the settings)`);
  }
  return lines;
}

/** The sample agent program, unless a file of that name is there. */
function initSample(dir: string, force: boolean): string {
  const file = path.join(dir, SAMPLE_FILE);
  const current = read(file);
  if (current === SAMPLE) return `kept ${SAMPLE_FILE} (the sample agent program)`;
  if (current !== undefined && !force) return `kept ${SAMPLE_FILE} (it is yours); pass --force to replace it with the sample`;
  write(file, SAMPLE);
  return `${current === undefined ? "wrote" : "replaced"} ${SAMPLE_FILE}: a sample agent program with three guarantees`;
}

/** Whether `name` resolves from the project. */
function resolvable(dir: string, name: string): boolean {
  try {
    require.resolve(`${name}/package.json`, { paths: [dir] });
    return true;
  } catch {
    return false;
  }
}

export function initProject(request: InitRequest): InitOutcome {
  const dir = path.resolve(request.directory);
  if (fs.existsSync(dir) && !fs.statSync(dir).isDirectory()) throw new InitError(request.directory, "the path", "is not a folder");
  fs.mkdirSync(dir, { recursive: true });
  const force = request.force === true;
  // Every JSON file is read and edited first; nothing is written until all three are good.
  const pending = new Map<string, string>();
  const later: Write = (file, text) => void pending.set(file, text);
  const actions = [initTsconfig(dir, force, later), ...initPackageJson(dir, force, later), ...initVscode(dir, force, later)];
  for (const [file, text] of pending) write(file, text);
  const installed = install({ source: "stdlib:filesystem", cwd: dir, project: path.join(dir, "tsconfig.json"), force });
  for (const l of installed.libraries) {
    actions.push(l.action === "unchanged" ? `kept ${l.directory} (stdlib:filesystem, pinned in clauz3.lock)` : `${l.action} stdlib:filesystem into ${l.directory} and pinned it in clauz3.lock`);
  }
  actions.push(initSample(dir, force));
  return {
    actions,
    installed,
    missingPackages: {
      dependencies: ["clauz3"].filter((n) => !resolvable(dir, n)),
      devDependencies: ["clauz3-tools", "typescript", "ts-patch", "@types/node"].filter((n) => !resolvable(dir, n)),
    },
  };
}
