/**
 * Async trusted filesystem tools over `node:fs/promises`: one per tool of `effects.ts`, named with
 * `Async`, performing the same events under the same `requires` (checked before the implementation
 * starts: a failed one rejects the call's promise). Programs `await` each call where they make it.
 * Like the sync tools, they create no parent directories and never follow symbolic links while
 * walking a tree.
 */
import * as fsp from "node:fs/promises";
import * as nodePath from "node:path";
import { requires, trusted } from "clauz3";
import { performs } from "clauz3/events";
import { Delete, Read, RecursiveRead, RecursiveWrite, Write, WriteText } from "./events.js";

/** Split file contents into lines: `\n` or `\r\n`; a final line terminator does not add an empty line. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Every entry below `root` (not following symbolic links), as sorted `/`-separated relative paths. */
async function walk(root: string): Promise<{ relative: string; full: string; isFile: boolean }[]> {
  const out: { relative: string; full: string; isFile: boolean }[] = [];
  const visit = async (dir: string, prefix: string): Promise<void> => {
    for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
      const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      const full = nodePath.join(dir, entry.name);
      out.push({ relative, full, isFile: entry.isFile() });
      if (entry.isDirectory()) await visit(full, relative);
    }
  };
  await visit(root, "");
  return out.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

/** Read a UTF-8 text file. */
export const readFileAsync = trusted(
  performs((path: string) => new Read(path)),
  requires((path: string) => path.length > 0, "readFileAsync needs a non-empty path"),
  async function readFileAsync(path: string): Promise<string> {
    return fsp.readFile(path, "utf8");
  },
);

/** Read a UTF-8 text file as lines (`\n` or `\r\n`; an empty file has no lines). */
export const readLinesAsync = trusted(
  performs((path: string) => new Read(path)),
  requires((path: string) => path.length > 0, "readLinesAsync needs a non-empty path"),
  async function readLinesAsync(path: string): Promise<string[]> {
    return splitLines(await fsp.readFile(path, "utf8"));
  },
);

/** Create or overwrite a file with `text` (UTF-8). The parent directory must exist. */
export const writeFileAsync = trusted(
  performs((path: string, text: string) => new WriteText(path, text)),
  requires((path: string) => path.length > 0, "writeFileAsync needs a non-empty path"),
  async function writeFileAsync(path: string, text: string): Promise<void> {
    await fsp.writeFile(path, text, "utf8");
  },
);

/** Append `text` (UTF-8) to a file, creating it when it does not exist. */
export const appendFileAsync = trusted(
  performs((path: string, text: string) => new WriteText(path, text)),
  requires((path: string) => path.length > 0, "appendFileAsync needs a non-empty path"),
  async function appendFileAsync(path: string, text: string): Promise<void> {
    await fsp.appendFile(path, text, "utf8");
  },
);

/** Copy the file `src` to `dest`, overwriting `dest`. */
export const copyAsync = trusted(
  performs((src: string, dest: string) => [new Read(src), new Write(dest)]),
  requires((src: string, dest: string) => src.length > 0 && dest.length > 0, "copyAsync needs non-empty paths"),
  requires((src: string, dest: string) => src !== dest, "copyAsync needs different source and destination paths"),
  async function copyAsync(src: string, dest: string): Promise<void> {
    await fsp.copyFile(src, dest);
  },
);

/** Move the file `src` to `dest`: reads and removes `src`, writes `dest`. */
export const moveAsync = trusted(
  performs((src: string, dest: string) => [new Read(src), new Delete(src), new Write(dest)]),
  requires((src: string, dest: string) => src.length > 0 && dest.length > 0, "moveAsync needs non-empty paths"),
  requires((src: string, dest: string) => src !== dest, "moveAsync needs different source and destination paths"),
  async function moveAsync(src: string, dest: string): Promise<void> {
    if (!(await fsp.stat(src)).isFile()) throw new Error(`moveAsync: ${src} is not a file`);
    try {
      await fsp.rename(src, dest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      await fsp.copyFile(src, dest);
      await fsp.unlink(src);
    }
  },
);

/** Remove one file (never a directory). */
export const deleteFileAsync = trusted(
  performs((path: string) => new Delete(path)),
  requires((path: string) => path.length > 0, "deleteFileAsync needs a non-empty path"),
  async function deleteFileAsync(path: string): Promise<void> {
    await fsp.unlink(path);
  },
);

/**
 * List every entry below `dir`, recursively, as sorted `/`-separated paths relative to `dir`;
 * directories are listed and descended into, symbolic links are listed but not followed.
 */
export const listDirAsync = trusted(
  performs((dir: string) => new RecursiveRead(dir)),
  requires((dir: string) => dir.length > 0, "listDirAsync needs a non-empty directory path"),
  async function listDirAsync(dir: string): Promise<string[]> {
    return (await walk(dir)).map((e) => e.relative);
  },
);

/**
 * Search for the literal text `pattern` (not a regular expression) in the file `path`, or in every
 * regular file below the directory `path`. Returns `file:line:text` for each matching line, with
 * `file` relative to `path` (the file name itself when `path` is a file).
 */
export const grepAsync = trusted(
  performs((path: string) => new RecursiveRead(path)),
  requires((pattern: string) => pattern.length > 0, "grepAsync needs a non-empty pattern"),
  requires((path: string) => path.length > 0, "grepAsync needs a non-empty path"),
  async function grepAsync(pattern: string, path: string): Promise<string[]> {
    const files = (await fsp.lstat(path)).isDirectory()
      ? (await walk(path)).filter((e) => e.isFile).map((e) => ({ name: e.relative, full: e.full }))
      : [{ name: nodePath.basename(path), full: path }];
    const out: string[] = [];
    for (const file of files) {
      splitLines(await fsp.readFile(file.full, "utf8")).forEach((line, i) => {
        if (line.includes(pattern)) out.push(`${file.name}:${i + 1}:${line}`);
      });
    }
    return out;
  },
);

/**
 * Remove the directory `dir` and everything below it (a recursive write of the tree). Refuses the
 * empty path and `/`.
 */
export const removeTreeAsync = trusted(
  performs((dir: string) => new RecursiveWrite(dir)),
  requires((dir: string) => dir.length > 0 && dir !== "/", "removeTreeAsync refuses the empty path and /"),
  async function removeTreeAsync(dir: string): Promise<void> {
    if (!(await fsp.lstat(dir)).isDirectory()) throw new Error(`removeTreeAsync: ${dir} is not a directory`);
    await fsp.rm(dir, { recursive: true });
  },
);
