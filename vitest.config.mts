import { defineConfig } from "vitest/config";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { LongestFirst } from "./test/sequencer.mts";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    // The package imports itself by name (as trusted layers do); point vitest at the sources.
    alias: [
      { find: /^clauz3$/, replacement: here("./runtime/index.ts") },
      { find: /^clauz3\/events$/, replacement: here("./runtime/events.ts") },
      { find: /^clauz3\/spec$/, replacement: here("./runtime/spec.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    globals: true,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Every core proves (vitest's default keeps one for itself, which is one worker in all on a
    // 2-core CI runner: the suite then ran serially, about an hour). Z3 checks run on their own
    // thread while the worker waits, so a worker uses about one core; the main process is idle.
    maxWorkers: Math.max(2, availableParallelism()),
    // The longest files first (test/durations.json on a fresh clone), so no worker is left alone with a slow file at the end.
    sequence: { sequencer: LongestFirst },
  },
});
