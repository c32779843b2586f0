/**
 * TypeScript's own incremental state for `clauz3 check` (its "build info": each file's version,
 * what it references, and its diagnostics), kept in the proof cache's directory. With it a warm
 * `check` takes the diagnostics of every file nothing changed from TypeScript's builder, which
 * decides what a change affects exactly as `tsc --incremental` does, instead of type-checking the
 * whole project again (docs/cache.md).
 *
 * The state is wrapped with the cache's format and a digest of its text, and believed only when
 * both match: a truncated or edited file is ignored (the project is type-checked from scratch) and
 * overwritten. TypeScript itself ignores a state written by another version or for other options.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { writeAtomically } from "./write";

export const TYPE_CHECK_STATE_FORMAT = "clauz3-type-check-state/1";

interface Envelope {
  readonly format: string;
  readonly digest: string;
  readonly state: string;
}

const sha256 = (text: string): string => crypto.createHash("sha256").update(text).digest("hex");

export class TypeCheckState {
  /** `file` holds the state (created on the first write). */
  constructor(readonly file: string) {}

  /** The state of the project of `configPath` (or of a directory without one) in the cache directory `cacheDir`. */
  static in(cacheDir: string, project: string): TypeCheckState {
    return new TypeCheckState(path.join(cacheDir, "typescript", `${sha256(path.resolve(project)).slice(0, 32)}.json`));
  }

  /** TypeScript's build info as last written, when the file is whole and ours; else undefined. */
  read(): string | undefined {
    try {
      const envelope = JSON.parse(fs.readFileSync(this.file, "utf8")) as Partial<Envelope> | null;
      if (envelope?.format !== TYPE_CHECK_STATE_FORMAT || typeof envelope.state !== "string" || envelope.digest !== sha256(envelope.state)) return undefined;
      return envelope.state;
    } catch {
      return undefined;
    }
  }

  /** Write the build info atomically (a temporary file renamed into place); a failure only loses the state. */
  write(state: string): void {
    const envelope: Envelope = { format: TYPE_CHECK_STATE_FORMAT, digest: sha256(state), state };
    writeAtomically(this.file, JSON.stringify(envelope));
  }
}
