/**
 * The order vitest starts test files in: the longest first, so the workers finish together instead
 * of one waiting on a slow file started last. vitest already does this from its own results cache,
 * but CI runs a fresh clone with no cache, where vitest falls back to file size (the corpus shares
 * are tiny files that run for minutes). `durations.json` holds the seconds each file took in a
 * full run (`node scripts/test-durations.mjs <vitest json report>` writes it); a file missing from
 * it (a new one) runs first, as vitest runs unknown files first. The order changes no result.
 */
import * as path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import durations from "./durations.json" with { type: "json" };

const RECORDED: Readonly<Record<string, number>> = durations;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (f: TestSpecification): number => {
      const relative = path.relative(root, f.moduleId).split(path.sep).join("/");
      const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${relative}`);
      return cached ? cached.duration / 1000 : (RECORDED[relative] ?? Number.POSITIVE_INFINITY);
    };
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}
