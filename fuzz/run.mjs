#!/usr/bin/env node
/**
 * `npm run fuzz -- [options]` (see fuzz/cli.ts). The repository is TypeScript run by vitest, with
 * no TypeScript loader for plain Node: this compiles fuzz/ and what it imports (core/, runtime/)
 * with tsc into fuzz/.build (again only when a source changed since), then runs the CLI.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const require = createRequire(import.meta.url);
/** Written after each successful build: the build is current while no source is newer. */
const stamp = path.join(here, ".build/.stamp");

/** The newest modification time of the TypeScript sources the build reads. */
function newestSource() {
  let newest = 0;
  const walk = (dir, deep) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (deep) walk(full, true);
      } else if (entry.name.endsWith(".ts")) newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  walk(here, false);
  walk(path.join(root, "core"), true);
  walk(path.join(root, "runtime"), true);
  return Math.max(newest, fs.statSync(path.join(here, "tsconfig.json")).mtimeMs);
}

// A build takes seconds even when nothing changed; skip it then.
if (!fs.existsSync(stamp) || fs.statSync(stamp).mtimeMs < newestSource()) {
  try {
    execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", path.join(here, "tsconfig.json")], { stdio: "inherit" });
    fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
  } catch {
    process.stderr.write("fuzz: the TypeScript build of fuzz/ failed (see above)\n");
    process.exit(2);
  }
}
const { main } = require(path.join(here, ".build/fuzz/cli.js"));
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`fuzz: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
