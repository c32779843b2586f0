#!/usr/bin/env node
/**
 * `npm run demo`: clauz3 end to end, with the real binaries, on the fixture projects.
 *
 * Each section is an exported async function `(io) => boolean` (true when it behaved as expected)
 * listed in SECTIONS; `main` runs them in order and exits non-zero if any did not. To add a
 * section (for example proving the sample programs of fixtures/programs), write another function
 * with the same signature and append it to SECTIONS.
 *
 * Colour only when stdout is a TTY (and NO_COLOR is unset); TypeScript's own `--pretty` output
 * follows the same rule.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import pc from "picocolors";
import { ensureBuilt, errorLocations, prepareProject, removeProject, ROOT, TSPC, runCompiler } from "../fixtures/projects/project.mjs";

/** What every section gets: where to write, colours, and a place to register temporary dirs. */
export function makeIo({ stdout = process.stdout, color = Boolean(process.stdout.isTTY) && !("NO_COLOR" in process.env) } = {}) {
  const temporary = [];
  return {
    color,
    c: pc.createColors(color),
    write: (text = "") => stdout.write(`${text}\n`),
    /** A fixture project copied to a temporary directory, removed when the demo ends. */
    project(name) {
      const dir = prepareProject(name, { prefix: "clauz3-demo-" });
      temporary.push(dir);
      return dir;
    },
    cleanup: () => temporary.splice(0).forEach(removeProject),
  };
}

/** `tspc -p tsconfig.json` in `dir`, `--pretty` only with colour. */
function tspc(io, dir) {
  return runCompiler(TSPC, dir, ["-p", "tsconfig.json", "--pretty", String(io.color)]);
}

function heading(io, text) {
  io.write();
  io.write(io.c.bold(text));
  io.write(io.c.dim("─".repeat(Math.min(text.length, 78))));
}

/** Section: a good trusted layer (stdlib:filesystem + email, notes, calendar) builds clean with the plugin. */
export async function buildGoodLayer(io) {
  heading(io, "1. A good trusted layer builds with tspc + clauz3/plugin");
  const dir = io.project("good-layer");
  io.write(`$ tspc -p tsconfig.json   ${io.c.dim(`(fixtures/projects/good-layer, plugins: [{ "transform": "clauz3/plugin" }])`)}`);
  const r = tspc(io, dir);
  if (r.status !== 0) {
    io.write(r.stdout + r.stderr);
    io.write(io.c.red(`✗ tspc exited with ${r.status}; the good layer should build clean.`));
    return false;
  }
  const emitted = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith(".js")) emitted.push(full);
    }
  };
  walk(path.join(dir, "out"));
  const tools = emitted.flatMap((f) => [...fs.readFileSync(f, "utf8").matchAll(/__clauz3_metadata: \{ tool: "([^"]+)"/g)].map((m) => m[1]));
  io.write(io.c.green(`✓ built clean: ${emitted.length} JavaScript files, no diagnostics.`));
  io.write(`  ${tools.length} trusted tools carry their event metadata in the emitted JavaScript:`);
  io.write(`  ${io.c.cyan(tools.join(", "))}`);
  const sample = fs.readFileSync(path.join(dir, "out/tools/email/trusted/effects.js"), "utf8").match(/exports\.sendEmail = .*?\} \}/)?.[0];
  if (sample) io.write(`  for example: ${io.c.dim(sample)}`);
  return tools.length > 0;
}

/** Section: a broken trusted layer fails the build with TypeScript's formatted diagnostics. */
export async function buildBrokenLayer(io) {
  heading(io, "2. A broken trusted layer fails the build");
  const dir = io.project("broken-layer");
  io.write(`$ tspc -p tsconfig.json   ${io.c.dim("(fixtures/projects/broken-layer)")}`);
  io.write();
  const r = tspc(io, dir);
  io.write((r.stdout + r.stderr).trimEnd());
  io.write();
  const plain = runCompiler(TSPC, dir, ["-p", "tsconfig.json", "--pretty", "false", "--noEmit"]);
  const found = errorLocations(plain.stdout).filter((l) => /TS93\d{3}$/.test(l));
  if (r.status === 0 || found.length === 0) {
    io.write(io.c.red(`✗ tspc exited with ${r.status} and ${found.length} clauz3 errors; the broken layer must fail the build.`));
    return false;
  }
  io.write(io.c.green(`✓ as expected: tspc exited with ${r.status}, ${found.length} clauz3 errors (${[...new Set(found.map((l) => l.slice(-7)))].join(", ")}).`));
  return true;
}

/** `node dist/cli/main.js <args>` in `dir`. */
function clauz3(dir, args) {
  return runCompiler(path.join(ROOT, "dist/cli/main.js"), dir, args, { env: { NO_COLOR: "1" } });
}

/** Section: the prover proves one program and finds counterexamples for two others. */
export async function provePrograms(io) {
  heading(io, "3. The prover: a proof and two counterexamples");
  const dir = io.project("prove");
  for (const f of ["plans/archive.ts", "samples/leak.ts", "samples/tricky.ts"]) {
    io.write(io.c.dim(`── ${f}`));
    io.write(fs.readFileSync(path.join(dir, f), "utf8").split("\n").filter((l) => l && !l.startsWith("import")).map((l) => `   ${l}`).join("\n"));
  }
  io.write();
  // --pretty: the demo is read by a person (piped, prove prints tsc's plain lines; docs/cli.md).
  io.write("$ clauz3 prove --pretty plans/archive.ts samples/leak.ts samples/tricky.ts");
  const r = clauz3(dir, ["prove", "--pretty", "plans/archive.ts", "samples/leak.ts", "samples/tricky.ts"]);
  io.write((r.stderr + r.stdout).trimEnd());
  const verdicts = [...r.stdout.matchAll(/^(\S+): (proved|violated|refused)$/gm)].map((m) => `${m[1]}=${m[2]}`);
  const expected = ["plans/archive.ts=proved", "samples/leak.ts=violated", "samples/tricky.ts=violated"];
  const ok = r.status === 1 && JSON.stringify(verdicts) === JSON.stringify(expected);
  io.write(ok ? io.c.green("✓ as expected: one proof, two counterexamples (exit code 1).") : io.c.red(`✗ unexpected verdicts ${verdicts.join(", ")} (exit ${r.status})`));
  return ok;
}

/** Section: `prove: true` in the transformer makes tspc fail on a violated guarantee. */
export async function proveInBuild(io) {
  heading(io, "4. tspc with { \"transform\": \"clauz3/plugin\", \"prove\": true }");
  const dir = io.project("prove");
  io.write("$ tspc -p tsconfig.json   " + io.c.dim("(plans/archive.ts: proved)"));
  const good = tspc(io, dir);
  io.write(good.status === 0 ? io.c.green("✓ built clean: every agent program is proved.") : (good.stdout + good.stderr).trimEnd());
  fs.copyFileSync(path.join(dir, "samples/leak.ts"), path.join(dir, "plans/leak.ts"));
  io.write("$ tspc -p tsconfig.json   " + io.c.dim("(after adding plans/leak.ts)"));
  const bad = tspc(io, dir);
  io.write((bad.stdout + bad.stderr).trimEnd());
  const ok = good.status === 0 && bad.status !== 0 && /TS93101/.test(bad.stdout);
  io.write(ok ? io.c.green(`✓ as expected: the build fails (exit ${bad.status}) on the violating call.`) : io.c.red("✗ the build did not behave as expected."));
  return ok;
}

/** The demo's sections, in order. Append new sections here. */
export const SECTIONS = [buildGoodLayer, buildBrokenLayer, provePrograms, proveInBuild];

export async function main(sections = SECTIONS) {
  const io = makeIo();
  io.write(io.c.bold("clauz3 demo: static contracts for agent-authored TypeScript"));
  ensureBuilt((line) => io.write(io.c.dim(line)));
  let ok = true;
  try {
    for (const section of sections) ok = (await section(io)) && ok;
  } finally {
    io.cleanup();
  }
  io.write();
  io.write(ok ? io.c.green("demo finished: every section behaved as expected.") : io.c.red("demo finished: some section did not behave as expected."));
  return ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`demo failed: ${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
