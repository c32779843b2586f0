/**
 * What clauz3 assumes for a folder without a tsconfig.json (an agent project the CLI reads, the
 * operator's `--layer` checkout): one definition, so the CLI and the approval service prove a
 * program under the same options.
 */
import type * as TS from "typescript";
import type { TypeScript } from "./context";

/** The compiler options of a folder without a tsconfig.json. */
export function defaultCompilerOptions(ts: TypeScript): TS.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  };
}

/** The sources of a folder without a tsconfig.json: every TypeScript file but declarations, outside node_modules and dist. */
export function defaultRootNames(ts: TypeScript, dir: string): string[] {
  return ts.sys
    .readDirectory(dir, [".ts", ".tsx", ".mts", ".cts"], ["**/node_modules", "**/dist"], ["**/*"])
    .filter((f) => !/\.d\.[cm]?ts$/.test(f))
    .sort();
}
