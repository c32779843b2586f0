import * as path from "node:path";

/** Whether `file` is `dir` itself or below it (both absolute). */
export function isWithin(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
