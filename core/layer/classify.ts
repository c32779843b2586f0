import * as path from "node:path";
import picomatch from "picomatch";
import type { Clauz3Options } from "../context";

const matchers = new Map<string, (p: string) => boolean>();

function matcherFor(globs: readonly string[]): (p: string) => boolean {
  const key = globs.join("\0");
  let m = matchers.get(key);
  if (!m) {
    m = picomatch(globs as string[], { dot: true });
    matchers.set(key, m);
  }
  return m;
}

/** The path of a file relative to the project directory, with forward slashes. */
export function projectRelative(fileName: string, projectDir: string): string {
  return path.relative(projectDir, fileName).replace(/\\/g, "/");
}

/**
 * Whether a source file belongs to the trusted layer. Default: its path (relative to the project
 * directory) has a directory segment named `trusted`. `trustedRoots` globs replace the default.
 */
export function isTrustedFile(fileName: string, projectDir: string, options: Clauz3Options): boolean {
  const rel = projectRelative(fileName, projectDir);
  if (options.trustedRoots && options.trustedRoots.length > 0) {
    return matcherFor(options.trustedRoots)(rel) || matcherFor(options.trustedRoots)(rel.replace(/^(\.\.\/)+/, ""));
  }
  return rel.split("/").slice(0, -1).includes("trusted");
}

/** Whether clauz3 should look at a source file at all (not a declaration file, not a dependency). */
export function isProjectSource(fileName: string, isDeclarationFile: boolean): boolean {
  return !isDeclarationFile && !/(^|[\\/])node_modules[\\/]/.test(fileName);
}

/** The library (domain) a trusted file belongs to: the directory above its `trusted` segment. */
export function domainOf(fileName: string): string {
  const parts = fileName.replace(/\\/g, "/").split("/");
  const i = parts.lastIndexOf("trusted");
  if (i > 0) return parts[i - 1]!;
  return parts[parts.length - 2] ?? "layer";
}
