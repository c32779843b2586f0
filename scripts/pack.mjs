#!/usr/bin/env node
/**
 * `node scripts/pack.mjs <out-dir>`: the two published packages, packed with `npm pack` from the
 * built `dist/` (run `npm run build` first). docs/packaging.md explains the shape:
 *
 * - `clauz3`: the runtime an agent program imports at run time (`clauz3`, `clauz3/events`,
 *   `clauz3/spec`). No dependency at all; `clauz3/plugin` and `clauz3/language-service` are
 *   two-line forwarders to the tooling, so tsconfig files name the plugins as before.
 * - `clauz3-tools`: the prover, the CLI (`clauz3`), the `tspc` transformer, the tsserver plugin,
 *   the schemas and the standard library; depends on z3-solver and on `clauz3` (this very version).
 *
 * Prints the two tarballs' absolute paths, one a line. Nothing is read outside the repository.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const RUNTIME = "clauz3";
export const TOOLS = "clauz3-tools";

function fail(message) {
  process.stderr.write(`scripts/pack.mjs: ${message}\n`);
  process.exit(2);
}

function copy(from, to, keep = () => true) {
  const source = path.join(root, from);
  if (!fs.existsSync(source)) fail(`${from} does not exist (run \`npm run build\` first)`);
  fs.cpSync(source, to, { recursive: true, filter: (f) => fs.statSync(f).isDirectory() || keep(f) });
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** A forwarder: loads the tooling's module, or says which package to install. */
function forwarder(target) {
  return `"use strict";
// clauz3's runtime package holds no tooling: this entry forwards to ${TOOLS}.
let tools;
try {
  tools = require.resolve("${TOOLS}/${target}");
} catch {
  throw new Error("clauz3/${target} is part of the tooling: install it next to the runtime with \`npm install --save-dev ${TOOLS}\`.");
}
module.exports = require(tools);
`;
}

/** Relative specifiers a compiled module or declaration file loads (require, import, export from, import("…")). */
function specifiers(text) {
  return [...text.matchAll(/(?:require\(|from |import\()"([^"]+)"/g)].map((m) => m[1]);
}

/**
 * The runtime's files: what its three entry points load, transitively, with their declaration
 * files. Anything outside `dist/runtime/` or any package is an error: the runtime loads only Node.
 */
export function runtimeFiles() {
  const base = path.join(root, "dist", "runtime");
  const files = new Set();
  const visit = (file) => {
    if (files.has(file)) return;
    if (!fs.existsSync(file)) fail(`${path.relative(root, file)} does not exist (run \`npm run build\` first)`);
    files.add(file);
    for (const s of specifiers(fs.readFileSync(file, "utf8"))) {
      if (s.startsWith("node:")) continue;
      if (!s.startsWith(".")) fail(`${path.relative(root, file)} loads the package ${s}: the runtime may load only Node built-ins`);
      const target = path.resolve(path.dirname(file), s);
      if (path.relative(base, target).startsWith("..")) fail(`${path.relative(root, file)} loads ${s}, outside dist/runtime`);
      visit(`${target}${file.endsWith(".d.ts") ? ".d.ts" : ".js"}`);
    }
  };
  for (const entry of ["index", "events", "spec"]) {
    visit(path.join(base, `${entry}.js`));
    visit(path.join(base, `${entry}.d.ts`));
  }
  return [...files].sort();
}

function stageRuntime(pkg, dir) {
  for (const file of runtimeFiles()) {
    const to = path.join(dir, path.relative(root, file));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(file, to);
  }
  for (const target of ["plugin", "language-service"]) {
    fs.mkdirSync(path.join(dir, "dist", "forward"), { recursive: true });
    fs.writeFileSync(path.join(dir, "dist", "forward", `${target}.js`), forwarder(target));
  }
  // tsserver resolves plugins with node10 resolution, which ignores "exports".
  writeJson(path.join(dir, "language-service", "package.json"), {
    name: "clauz3-language-service-entry",
    private: true,
    main: "../dist/forward/language-service.js",
  });
  fs.copyFileSync(path.join(root, "LICENSE"), path.join(dir, "LICENSE"));
  fs.writeFileSync(
    path.join(dir, "README.md"),
    `# clauz3 (runtime)\n\nWhat an agent program and its trusted tools import at run time: \`clauz3\`, \`clauz3/events\`,\n\`clauz3/spec\`. No dependencies. The prover, the CLI and the compiler plugins are in\n[\`${TOOLS}\`](https://www.npmjs.com/package/${TOOLS}), a development dependency:\n\n\`\`\`sh\nnpm install clauz3\nnpm install --save-dev ${TOOLS} typescript ts-patch\nnpx clauz3 init\n\`\`\`\n`,
  );
  const entry = (name) => ({ types: `./dist/runtime/${name}.d.ts`, default: `./dist/runtime/${name}.js` });
  writeJson(path.join(dir, "package.json"), {
    name: RUNTIME,
    version: pkg.version,
    description: "clauz3 runtime: what agent programs and trusted tools import at run time (no dependencies).",
    license: pkg.license,
    type: "commonjs",
    main: "./dist/runtime/index.js",
    types: "./dist/runtime/index.d.ts",
    typesVersions: { "*": { events: ["./dist/runtime/events.d.ts"], spec: ["./dist/runtime/spec.d.ts"] } },
    exports: {
      ".": entry("index"),
      "./events": entry("events"),
      "./spec": entry("spec"),
      "./plugin": "./dist/forward/plugin.js",
      "./language-service": "./dist/forward/language-service.js",
      "./package.json": "./package.json",
    },
    files: ["dist", "language-service/package.json"],
    engines: pkg.engines,
    peerDependencies: { [TOOLS]: pkg.version },
    peerDependenciesMeta: { [TOOLS]: { optional: true } },
  });
}

function stageTools(pkg, dir) {
  copy("dist", path.join(dir, "dist"));
  copy("schema", path.join(dir, "schema"));
  copy("stdlib", path.join(dir, "stdlib"));
  writeJson(path.join(dir, "language-service", "package.json"), JSON.parse(fs.readFileSync(path.join(root, "language-service", "package.json"), "utf8")));
  fs.copyFileSync(path.join(root, "LICENSE"), path.join(dir, "LICENSE"));
  fs.copyFileSync(path.join(root, "README.md"), path.join(dir, "README.md"));
  const tooling = Object.fromEntries(Object.entries(pkg.exports).filter(([k]) => k === "./plugin" || k === "./language-service" || k === "./package.json"));
  writeJson(path.join(dir, "package.json"), {
    name: TOOLS,
    version: pkg.version,
    description: `${pkg.description} The tooling: prover, CLI, tspc and tsserver plugins, standard library.`,
    license: pkg.license,
    type: "commonjs",
    typesVersions: { "*": { plugin: pkg.typesVersions["*"].plugin } },
    exports: tooling,
    bin: pkg.bin,
    files: ["dist", "schema", "stdlib", "language-service/package.json"],
    engines: pkg.engines,
    peerDependencies: pkg.peerDependencies,
    dependencies: { ...pkg.dependencies, [RUNTIME]: pkg.version },
  });
}

const out = process.argv[2];
if (!out) fail("usage: node scripts/pack.mjs <out-dir>");
const outDir = path.resolve(out);
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
fs.mkdirSync(outDir, { recursive: true });
const stage = fs.mkdtempSync(path.join(outDir, ".stage-"));
try {
  const tarballs = [];
  for (const [name, build] of [[RUNTIME, stageRuntime], [TOOLS, stageTools]]) {
    const dir = path.join(stage, name);
    fs.mkdirSync(dir, { recursive: true });
    build(pkg, dir);
    const json = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", outDir], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    tarballs.push(path.join(outDir, JSON.parse(json)[0].filename));
  }
  process.stdout.write(`${tarballs.join("\n")}\n`);
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}
