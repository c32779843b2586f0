/**
 * Where a program's lock is and how it is read: `clauz3.lock` in the directory of the program's
 * tsconfig.json (else in the program's current directory), read through the program's own host,
 * the one that read its sources (the disk for `tspc` and the CLI, tsserver's host in the editor,
 * a virtual file system in tests).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as TS from "typescript";
import { LOCK_FILE } from "./format";

/** What TypeScript's programs offer beyond their public type: their host's `readFile` and `fileExists`. */
interface ProgramHostAccess {
  readonly readFile?: (fileName: string) => string | undefined;
  readonly fileExists?: (fileName: string) => boolean;
}

/** The directory the lock's paths are relative to: the tsconfig's directory, else the program's current directory. */
export function lockDirectoryOf(program: TS.Program): string {
  return lockDirectoryFor(program.getCompilerOptions(), program.getCurrentDirectory());
}

/** `lockDirectoryOf` from a project's compiler options and current directory (before it has a program). */
export function lockDirectoryFor(options: TS.CompilerOptions, currentDirectory: string): string {
  const config = options.configFilePath;
  return typeof config === "string" && config !== "" ? path.posix.dirname(config.replace(/\\/g, "/")) : currentDirectory.replace(/\\/g, "/");
}

/** The lock's absolute path for a program. */
export function lockPathOf(program: TS.Program): string {
  return path.posix.join(lockDirectoryOf(program), LOCK_FILE);
}

/** A file's path relative to the lock's directory, with forward slashes (`.` for the directory itself). */
export function lockRelative(lockDir: string, fileName: string): string {
  return path.posix.relative(lockDir, fileName.replace(/\\/g, "/")) || ".";
}

/** The text of a file as the program's host reads it (undefined when it does not exist). */
export function readThroughProgram(program: TS.Program, fileName: string): string | undefined {
  const host = program as TS.Program & ProgramHostAccess;
  if (typeof host.readFile === "function") return host.readFile(fileName) ?? undefined;
  try {
    return fs.readFileSync(fileName, "utf8");
  } catch {
    return undefined;
  }
}

/** Whether a file exists for the program's host. */
export function existsForProgram(program: TS.Program, fileName: string): boolean {
  const host = program as TS.Program & ProgramHostAccess;
  return typeof host.fileExists === "function" ? host.fileExists(fileName) : fs.existsSync(fileName);
}
