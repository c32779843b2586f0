/**
 * Trusted filesystem tools. Each tool declares the events it performs; the implementation uses
 * `node:fs` synchronously and touches nothing it does not declare (no parent directories are
 * created, symbolic links are never followed while walking a tree).
 */
import * as fs from "node:fs";
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
function walk(root: string): { relative: string; full: string; isFile: boolean }[] {
  const out: { relative: string; full: string; isFile: boolean }[] = [];
  const visit = (dir: string, prefix: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      const full = nodePath.join(dir, entry.name);
      out.push({ relative, full, isFile: entry.isFile() });
      if (entry.isDirectory()) visit(full, relative);
    }
  };
  visit(root, "");
  return out.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

/** Read a UTF-8 text file. */
export const readFile = trusted(
  performs((path: string) => new Read(path)),
  requires((path: string) => path.length > 0, "readFile needs a non-empty path"),
  function readFile(path: string): string {
    return fs.readFileSync(path, "utf8");
  },
);

/** Read a UTF-8 text file as lines (`\n` or `\r\n`; an empty file has no lines). */
export const readLines = trusted(
  performs((path: string) => new Read(path)),
  requires((path: string) => path.length > 0, "readLines needs a non-empty path"),
  function readLines(path: string): string[] {
    return splitLines(fs.readFileSync(path, "utf8"));
  },
);

/** Create or overwrite a file with `text` (UTF-8). The parent directory must exist. */
export const writeFile = trusted(
  performs((path: string, text: string) => new WriteText(path, text)),
  requires((path: string) => path.length > 0, "writeFile needs a non-empty path"),
  function writeFile(path: string, text: string): void {
    fs.writeFileSync(path, text, "utf8");
  },
);

/** Append `text` (UTF-8) to a file, creating it when it does not exist. */
export const appendFile = trusted(
  performs((path: string, text: string) => new WriteText(path, text)),
  requires((path: string) => path.length > 0, "appendFile needs a non-empty path"),
  function appendFile(path: string, text: string): void {
    fs.appendFileSync(path, text, "utf8");
  },
);

/** Copy the file `src` to `dest`, overwriting `dest`. */
export const copy = trusted(
  performs((src: string, dest: string) => [new Read(src), new Write(dest)]),
  requires((src: string, dest: string) => src.length > 0 && dest.length > 0, "copy needs non-empty paths"),
  requires((src: string, dest: string) => src !== dest, "copy needs different source and destination paths"),
  function copy(src: string, dest: string): void {
    fs.copyFileSync(src, dest);
  },
);

/** Move the file `src` to `dest`: reads and removes `src`, writes `dest`. */
export const move = trusted(
  performs((src: string, dest: string) => [new Read(src), new Delete(src), new Write(dest)]),
  requires((src: string, dest: string) => src.length > 0 && dest.length > 0, "move needs non-empty paths"),
  requires((src: string, dest: string) => src !== dest, "move needs different source and destination paths"),
  function move(src: string, dest: string): void {
    if (!fs.statSync(src).isFile()) throw new Error(`move: ${src} is not a file`);
    try {
      fs.renameSync(src, dest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      fs.copyFileSync(src, dest);
      fs.unlinkSync(src);
    }
  },
);

/** Remove one file (never a directory). */
export const deleteFile = trusted(
  performs((path: string) => new Delete(path)),
  requires((path: string) => path.length > 0, "deleteFile needs a non-empty path"),
  function deleteFile(path: string): void {
    fs.unlinkSync(path);
  },
);

/**
 * List every entry below `dir`, recursively, as sorted `/`-separated paths relative to `dir`;
 * directories are listed and descended into, symbolic links are listed but not followed.
 */
export const listDir = trusted(
  performs((dir: string) => new RecursiveRead(dir)),
  requires((dir: string) => dir.length > 0, "listDir needs a non-empty directory path"),
  function listDir(dir: string): string[] {
    return walk(dir).map((e) => e.relative);
  },
);

/**
 * Search for the literal text `pattern` (not a regular expression) in the file `path`, or in every
 * regular file below the directory `path`. Returns `file:line:text` for each matching line, with
 * `file` relative to `path` (the file name itself when `path` is a file).
 */
export const grep = trusted(
  performs((path: string) => new RecursiveRead(path)),
  requires((pattern: string) => pattern.length > 0, "grep needs a non-empty pattern"),
  requires((path: string) => path.length > 0, "grep needs a non-empty path"),
  function grep(pattern: string, path: string): string[] {
    const files = fs.lstatSync(path).isDirectory()
      ? walk(path).filter((e) => e.isFile).map((e) => ({ name: e.relative, full: e.full }))
      : [{ name: nodePath.basename(path), full: path }];
    const out: string[] = [];
    for (const file of files) {
      splitLines(fs.readFileSync(file.full, "utf8")).forEach((line, i) => {
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
export const removeTree = trusted(
  performs((dir: string) => new RecursiveWrite(dir)),
  requires((dir: string) => dir.length > 0 && dir !== "/", "removeTree refuses the empty path and /"),
  function removeTree(dir: string): void {
    if (!fs.lstatSync(dir).isDirectory()) throw new Error(`removeTree: ${dir} is not a directory`);
    fs.rmSync(dir, { recursive: true });
  },
);
