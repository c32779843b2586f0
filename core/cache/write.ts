/**
 * How the cache writes a file: whole or not at all (a temporary file renamed into place), so that a
 * killed process or two runs writing at once leave the old file or a whole new one. A failure
 * (a read-only file system, a file where a directory should be) only loses the write: the cache
 * only ever saves work.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

/** Write `text` to `file` atomically, creating its directory; whether it was written. */
export function writeAtomically(file: string, text: string): boolean {
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, file);
    return true;
  } catch {
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      /* nothing to clean */
    }
    return false;
  }
}
