/**
 * Loading the compiled program (compile.ts) from memory. Each module is a CommonJS `Module` whose
 * `require` serves, in this order: `clauz3`, `clauz3/events` and `clauz3/spec` as this clauz3's
 * own runtime (the one holding the approval binding and the backstop); a relative import as another
 * module of the compiled program (nothing else: a module that is not part of what was approved is
 * refused); and, for trusted modules only, Node built-ins and packages as Node resolves them from
 * the module's directory. Agent modules may load nothing else (the layer rules already refuse it;
 * this refuses it again at run time).
 */
import Module, { createRequire, isBuiltin } from "node:module";
import * as path from "node:path";
import * as runtime from "../../runtime";
import * as events from "../../runtime/events";
import * as spec from "../../runtime/spec";
import type { CompiledProgram } from "./compile";

/** The runtime entry points a program may import: the very modules `run` binds the receipt and enforces with. */
function runtimeModule(specifier: string): unknown {
  switch (specifier) {
    case "clauz3":
      return runtime;
    case "clauz3/events":
      return events;
    case "clauz3/spec":
      return spec;
    default:
      return undefined;
  }
}

export class LoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LoadError";
  }
}

const EXTENSIONS = [".ts", ".tsx", ".mts", ".cts"];

/** The compiled module a relative specifier names, as Node (with TypeScript's extension mapping) would find its source. */
function resolveRelative(compiled: CompiledProgram, from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  const js = /\.([cm]?)js$/.exec(base);
  if (js) candidates.push(base.slice(0, -js[0].length) + (js[1] === "m" ? ".mts" : js[1] === "c" ? ".cts" : ".ts"), base.slice(0, -js[0].length) + ".tsx");
  return candidates.find((c) => compiled.modules.has(c));
}

/** Load the program's entry module (and, through it, what it imports); returns its exports. */
export function loadCompiled(compiled: CompiledProgram): Record<string, unknown> {
  const cache = new Map<string, Module>();
  const load = (file: string, parent: Module | undefined): unknown => {
    const known = cache.get(file);
    if (known) return known.exports;
    const code = compiled.modules.get(file)!;
    const m = new Module(file, parent);
    m.filename = file;
    m.paths = [];
    cache.set(file, m);
    const trusted = !compiled.agentModules.has(file);
    const outside = trusted ? createRequire(file) : undefined;
    m.require = ((specifier: string): unknown => {
      const runtime = runtimeModule(specifier);
      if (runtime !== undefined) return runtime;
      if (specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === "..") {
        const target = resolveRelative(compiled, file, specifier);
        if (target === undefined) throw new LoadError(`${path.basename(file)} imports ${specifier}, which is not part of the approved program`);
        return load(target, m);
      }
      if (outside && (isBuiltin(specifier) || !path.isAbsolute(specifier))) return outside(specifier);
      throw new LoadError(`${path.basename(file)} imports ${specifier}: an agent module of an approved program loads only the clauz3 runtime, trusted modules and its own modules`);
    }) as NodeJS.Require;
    (m as unknown as { _compile(code: string, file: string): void })._compile(code, file);
    m.loaded = true;
    return m.exports;
  };
  return load(compiled.entry, undefined) as Record<string, unknown>;
}
