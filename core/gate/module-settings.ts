/**
 * The module settings clauz3 supports (docs/module-settings.md): those under which TypeScript
 * resolves `clauz3`, `clauz3/events` and `clauz3/spec` to clauz3's declarations and emits code
 * Node can load. Anything else is a configuration error (93092) on the option in tsconfig.json,
 * reported once, before any clauz3 rule runs.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import { jsonSpan } from "../lock/json-span";
import { formatMessage, RULES } from "../rules";

/**
 * TypeScript's effective `module` and `moduleResolution` (its own defaults when they are not set:
 * `module` from `target`, `moduleResolution` from `module`), as TypeScript 5.x computes them.
 */
export function effectiveModuleSettings(ts: TypeScript, options: TS.CompilerOptions): { module: TS.ModuleKind; resolution: TS.ModuleResolutionKind } {
  const { ModuleKind: M, ModuleResolutionKind: R } = ts;
  const target = options.target === ts.ScriptTarget.ES3 ? undefined : options.target;
  const module =
    options.module ??
    ((target ?? ts.ScriptTarget.ES5) >= ts.ScriptTarget.ES2015 ? M.ES2015 : M.CommonJS);
  let resolution = options.moduleResolution;
  if (resolution === undefined) {
    resolution =
      module === M.CommonJS ? R.Node10
      : module === M.Node16 || module === M.Node18 || module === (M as { Node20?: number }).Node20 ? R.Node16
      : module === M.NodeNext ? R.NodeNext
      : module === M.Preserve ? R.Bundler
      : R.Classic;
  }
  return { module, resolution };
}

/** What is unsupported about the settings, or undefined when they are supported. */
function problemOf(ts: TypeScript, options: TS.CompilerOptions): { problem: string; option: "module" | "moduleResolution" } | undefined {
  const { module, resolution } = effectiveModuleSettings(ts, options);
  const moduleName = ts.ModuleKind[module] ?? String(module);
  if (module === ts.ModuleKind.None || module === ts.ModuleKind.AMD || module === ts.ModuleKind.UMD || module === ts.ModuleKind.System) {
    return { option: "module", problem: `\`"module": "${moduleName.toLowerCase()}"\` emits code Node cannot load as the tools and programs clauz3 checks.` };
  }
  if (resolution === ts.ModuleResolutionKind.Classic) {
    const why = options.moduleResolution === undefined ? ` (TypeScript's default for \`"module": "${moduleName.toLowerCase()}"\` when \`moduleResolution\` is not set)` : "";
    return {
      option: options.moduleResolution === undefined ? "module" : "moduleResolution",
      problem: `Module resolution is \`classic\`${why}: it never looks in node_modules, so \`clauz3\`, \`clauz3/events\` and \`clauz3/spec\` cannot resolve.`,
    };
  }
  return undefined;
}

/** The 93092 configuration error of a program's module settings, on the option in its tsconfig.json; none when they are supported. */
export function moduleSettingsDiagnostics(ts: TypeScript, program: TS.Program): TS.Diagnostic[] {
  const options = program.getCompilerOptions();
  const found = problemOf(ts, options);
  if (!found) return [];
  return [configurationError(ts, options, found.option, formatMessage(RULES.moduleSettings, { problem: found.problem }))];
}

/** A 93092 diagnostic on `compilerOptions.<option>` of the program's tsconfig.json (no file when it has none). */
export function configurationError(ts: TypeScript, options: TS.CompilerOptions, option: string, message: string): TS.Diagnostic {
  const config = options.configFile as TS.TsConfigSourceFile | undefined;
  const span = config ? jsonSpan(ts, config, ["compilerOptions", option], true) : undefined;
  return {
    category: ts.DiagnosticCategory.Error,
    code: RULES.moduleSettings.code,
    file: config,
    start: span?.start,
    length: span?.length,
    messageText: message,
    source: "clauz3",
  };
}
