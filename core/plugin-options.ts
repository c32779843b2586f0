/**
 * clauz3's options as a project's tsconfig states them: `trustedRoots` from a clauz3 entry of
 * `compilerOptions.plugins` (the transformer or the language-service plugin). The CLI and the
 * approval service read a project's options here, so they agree on which files are trusted.
 */
import type * as TS from "typescript";
import type { Clauz3Options } from "./context";

/** A clauz3 plugin entry that does not say what it must: the entry's id and what is wrong. */
export class PluginOptionsError extends Error {
  constructor(
    readonly entry: string,
    readonly problem: string,
  ) {
    super(`"trustedRoots" of the ${entry} plugin entry ${problem}`);
    this.name = "PluginOptionsError";
  }
}

/** The options of the first clauz3 plugin entry that sets `trustedRoots` (none: the defaults). */
export function clauz3OptionsOf(compilerOptions: TS.CompilerOptions): Clauz3Options {
  const plugins = (compilerOptions.plugins ?? []) as unknown as readonly Record<string, unknown>[];
  for (const p of plugins) {
    const id = typeof p.transform === "string" ? p.transform : typeof p.name === "string" ? p.name : "";
    if (!id.startsWith("clauz3")) continue;
    const roots = p.trustedRoots;
    if (roots !== undefined) {
      if (!Array.isArray(roots) || !roots.every((r) => typeof r === "string")) throw new PluginOptionsError(id, "must be an array of glob strings");
      return { trustedRoots: roots as string[] };
    }
  }
  return {};
}
