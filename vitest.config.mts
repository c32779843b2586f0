import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

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
  },
});
