/**
 * Build-time cost of clauz3/plugin: one fixture project (fixtures/projects/good-layer:
 * stdlib:filesystem, email, notes and calendar layers, plain TypeScript helpers and an agent
 * program) built by the real binaries from a fresh process each time, alternately:
 *
 * - `tsc`: plain TypeScript, the same tsconfig minus the plugin (the baseline);
 * - `tspc` (ts-patch's live-patched compiler) without and with `{ "transform": "clauz3/plugin",
 *   "cache": false }` (which proves the agent program in every build: proving is the default
 *   since the gate, docs/gate.md), with the default entry over a warm proof cache (docs/cache.md:
 *   the warm-up build fills it), with the same
 *   entry opting out (`"prove": false`, so the proofs' share shows), and with the
 *   program-transformer form (`"transformProgram": true`, proving);
 * - `tsc` of a copy of TypeScript patched on disk with `ts-patch install` (ts-patch's "persistent
 *   patch"), without and with the plugin (proving, and `"prove": false`: what a build of trusted
 *   libraries costs without ts-patch's live patching, docs/build.md). The copy lives in the
 *   temporary project, never in this checkout's node_modules.
 *
 * ts-patch's live patching costs a fixed startup time per process whatever the plugin does; the
 * rows separate that from the plugin's own share.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { alternate, median } from "./run.mjs";
import { editTsconfig, ensureBuilt, prepareProject, removeProject, ROOT, runCompiler, TSC, TSPC } from "../fixtures/projects/project.mjs";

export const name = "tspc";
export const description =
  "full build of fixtures/projects/good-layer (stdlib:filesystem + email, notes, calendar layers + plain TypeScript helpers + an agent program), one fresh process per build; medians of alternating runs";

const PROJECT = "good-layer";
const CPU_TIME = fileURLToPath(new URL("./cpu-time.cjs", import.meta.url));

/** Replace the project's `typescript` link with a copy patched by `ts-patch install`; returns its tsc. */
function installPatchedTypeScript(dir) {
  const target = path.join(dir, "node_modules/typescript");
  fs.unlinkSync(target);
  fs.cpSync(path.join(ROOT, "node_modules/typescript"), target, { recursive: true });
  const r = runCompiler(path.join(ROOT, "node_modules/ts-patch/bin/ts-patch.js"), dir, ["install", "-s", "-d", target]);
  if (r.status !== 0) throw new Error(`ts-patch install -d ${target} failed:\n${r.stdout}${r.stderr}`);
  return path.join(target, "bin/tsc");
}

export async function run({ runs, log }) {
  ensureBuilt(log);
  const dir = prepareProject(PROJECT, { prefix: "clauz3-bench-" });
  try {
    const variant = (to, update) => editTsconfig(dir, update, { to });
    variant("tsconfig.plain.json", (c) => {
      delete c.compilerOptions.plugins;
      c.compilerOptions.outDir = "out-plain";
    });
    // Proving without the proof cache: every build proves the program again.
    variant("tsconfig.plugin.json", (c) => {
      c.compilerOptions.plugins = [{ transform: "clauz3/plugin", cache: false }];
      c.compilerOptions.outDir = "out-plugin";
    });
    // The default entry: the warm-up build fills the proof cache, the measured builds read it.
    variant("tsconfig.cached.json", (c) => {
      c.compilerOptions.plugins = [{ transform: "clauz3/plugin" }];
      c.compilerOptions.outDir = "out-cached";
    });
    variant("tsconfig.layer.json", (c) => {
      c.compilerOptions.plugins = [{ transform: "clauz3/plugin", prove: false }];
      c.compilerOptions.outDir = "out-layer";
    });
    variant("tsconfig.program.json", (c) => {
      c.compilerOptions.plugins = [{ transform: "clauz3/plugin", transformProgram: true, cache: false }];
      c.compilerOptions.outDir = "out-program";
    });
    const patchedTsc = installPatchedTypeScript(dir);

    const build = (binary, config) => () => {
      const r = spawnSync(process.execPath, ["--require", CPU_TIME, binary, "-p", config, "--pretty", "false"], {
        cwd: dir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe", "pipe"],
      });
      if (r.status !== 0) throw new Error(`${binary} -p ${config} exited with ${r.status}:\n${r.stdout}${r.stderr}`);
      return JSON.parse(r.output[3]);
    };
    const fns = {
      tsc: build(TSC, "tsconfig.plain.json"),
      tspcPlain: build(TSPC, "tsconfig.plain.json"),
      tspcPlugin: build(TSPC, "tsconfig.plugin.json"),
      tspcCached: build(TSPC, "tsconfig.cached.json"),
      tspcLayer: build(TSPC, "tsconfig.layer.json"),
      tspcProgram: build(TSPC, "tsconfig.program.json"),
      installedPlain: build(patchedTsc, "tsconfig.plain.json"),
      installedPlugin: build(patchedTsc, "tsconfig.plugin.json"),
      installedLayer: build(patchedTsc, "tsconfig.layer.json"),
    };
    log(`bench tspc: ${Object.keys(fns).length} builds × (1 warm-up + ${runs} runs) in ${dir}`);
    const samples = await alternate(fns, runs);
    const wall = (k) => median(samples[k].wall);
    const cpu = (k) => median(samples[k].cpu);
    const row = (subject, s, baseline, b, target) => ({
      benchmark: "tspc build",
      subject,
      subjectMs: wall(s),
      subjectCpuMs: cpu(s),
      baseline,
      baselineMs: wall(b),
      baselineCpuMs: cpu(b),
      runs,
      target,
    });
    return [
      // The plain entry proves the agent program (the default): its cost is the build's.
      row("tspc + clauz3/plugin (proving)", "tspcPlugin", "tsc", "tsc"),
      row("tspc + clauz3/plugin, \"prove\": false", "tspcLayer", "tsc", "tsc", 1.1),
      row("tspc + clauz3/plugin (proving)", "tspcPlugin", "tspc + clauz3/plugin, \"prove\": false", "tspcLayer"),
      row("tspc + clauz3/plugin (proving, warm proof cache)", "tspcCached", "tsc", "tsc"),
      row("tspc + clauz3/plugin (transformProgram, proving)", "tspcProgram", "tsc", "tsc"),
      row("tspc + clauz3/plugin (proving)", "tspcPlugin", "tspc, no plugin", "tspcPlain"),
      row("ts-patch install'd tsc + clauz3/plugin (proving)", "installedPlugin", "tsc", "tsc"),
      row("ts-patch install'd tsc + clauz3/plugin (proving)", "installedPlugin", "ts-patch install'd tsc, no plugin", "installedPlain"),
      row("ts-patch install'd tsc + clauz3/plugin, \"prove\": false", "installedLayer", "tsc", "tsc", 1.1),
      row("ts-patch install'd tsc, no plugin", "installedPlain", "tsc", "tsc"),
      row("tspc, no plugin", "tspcPlain", "tsc", "tsc"),
    ];
  } finally {
    removeProject(dir);
  }
}
