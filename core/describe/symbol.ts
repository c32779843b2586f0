import * as path from "node:path";
import { defaultReadBytes, type ReadBytes } from "../manifest";

const EXTENSION = /\.(?:d\.)?[cm]?[tj]sx?$/;

/**
 * The module path of a source file, as used in symbols: relative to the project directory, with
 * `/` separators and without extension (`stdlib/filesystem/trusted/contracts`). A file outside the
 * project directory is named by its package instead (`clauz3/stdlib/filesystem/trusted/contracts`:
 * the nearest `package.json` with a name), or by its absolute path when it has none.
 */
export function modulePath(fileName: string, projectDir: string, readBytes: ReadBytes = defaultReadBytes): string {
  const file = fileName.replace(/\\/g, "/");
  const rel = path.posix.relative(projectDir.replace(/\\/g, "/"), file);
  if (!rel.startsWith("../") && rel !== ".." && !path.posix.isAbsolute(rel)) return rel.replace(EXTENSION, "");
  let dir = path.posix.dirname(file);
  for (;;) {
    const bytes = readBytes(path.posix.join(dir, "package.json"));
    if (bytes) {
      try {
        const name = (JSON.parse(bytes.toString("utf8")) as { name?: unknown }).name;
        if (typeof name === "string" && name) return `${name}/${path.posix.relative(dir, file)}`.replace(EXTENSION, "");
      } catch {
        // not a package root; keep looking
      }
    }
    const up = path.posix.dirname(dir);
    if (up === dir) return file.replace(EXTENSION, "");
    dir = up;
  }
}

/** A source file's path for display and digests: project-relative with `/`, or as {@link modulePath} names it outside. */
export function displayPath(fileName: string, projectDir: string, readBytes: ReadBytes = defaultReadBytes): string {
  const file = fileName.replace(/\\/g, "/");
  const rel = path.posix.relative(projectDir.replace(/\\/g, "/"), file);
  if (!rel.startsWith("../") && rel !== ".." && !path.posix.isAbsolute(rel)) return rel;
  const ext = EXTENSION.exec(file)?.[0] ?? "";
  return modulePath(fileName, projectDir, readBytes) + ext;
}

/** The symbol of an export: `<module path>#<export name>`. */
export function symbolOf(fileName: string, exportName: string, projectDir: string, readBytes: ReadBytes = defaultReadBytes): string {
  return `${modulePath(fileName, projectDir, readBytes)}#${exportName}`;
}
