/**
 * `-o, --output-file`: the report is written to a temporary file beside the target and renamed
 * over it, so a reader (or a crash half-way) never sees half a report; a failure removes the
 * temporary file and is a configuration error naming the path.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CliError, EXIT } from "../io";

export function writeAtomically(target: string, text: string): void {
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    fs.writeFileSync(temp, text, { flag: "wx" });
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    const why = error instanceof Error && "code" in error ? String((error as NodeJS.ErrnoException).code) : String(error);
    throw new CliError(`clauz3: cannot write --output-file ${target}: ${why}.`, EXIT.usage);
  }
}
