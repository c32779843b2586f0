#!/usr/bin/env node
/**
 * The batch scheduler (docs/footprints.md, issue 16): batches of 100 trusted async filesystem
 * calls, each with a 10 ms simulated latency, run by `runBatch` concurrently against the same
 * batch run sequentially (`{ sequential: true }`), medians of alternating runs.
 *
 * - independent: 50 reads and 50 writes of 100 distinct files (target: ≥ 8× faster than sequential);
 * - conflicts: the same 100 calls over 10 files (each file read and written in turn), so calls on
 *   one file run in submission order and only calls on different files overlap.
 *
 * Not run by tests. `node bench/footprints.mjs [--runs N]` (after `npm run build`), or as a module
 * of bench/run.mjs.
 */
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

export const name = "footprints";
export const description = "`runBatch` over 100 async filesystem calls with 10 ms latency each: concurrent schedule against sequential; medians of alternating runs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LATENCY_MS = 10;

function tools() {
  const require = createRequire(path.join(ROOT, "package.json"));
  const { trusted } = require(path.join(ROOT, "dist/runtime/index.js"));
  const sleep = () => new Promise((r) => setTimeout(r, LATENCY_MS));
  const meta = (tool, parameters, access) => ({
    __clauz3_metadata: { tool, parameters, builderParameters: [], events: [], requires: [], ensures: [], footprint: { selectors: [{ kind: "path", field: "path", access }] } },
  });
  const readF = trusted(meta("bench.read", ["path"], "read"), async function readF(path) {
    await sleep();
    try {
      return await fsp.readFile(path, "utf8");
    } catch {
      return "";
    }
  });
  const writeF = trusted(meta("bench.write", ["path", "text"], "write"), async function writeF(path, text) {
    await sleep();
    await fsp.writeFile(path, text);
  });
  return { trusted, readF, writeF, runBatch: require(path.join(ROOT, "dist/runtime/index.js")).runBatch };
}

function batch(dir, files, t) {
  return Array.from({ length: 100 }, (_, i) => {
    const file = path.join(dir, `f${i % files}`);
    return i % 2 === 0 ? { tool: t.writeF, args: [file, `v${i}`] } : { tool: t.readF, args: [file] };
  });
}

export async function run({ runs, log }) {
  if (!fs.existsSync(path.join(ROOT, "dist/runtime/index.js"))) throw new Error("run `npm run build` first");
  const { alternate, median } = await import(pathToFileURL(path.join(ROOT, "bench/run.mjs")).href);
  const t = tools();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-bench-footprints-"));
  try {
    const rows = [];
    for (const [benchmark, files, target] of [["independent (100 files)", 100, 1 / 8], ["conflicts (10 files)", 10, undefined]]) {
      const calls = batch(dir, files, t);
      const samples = await alternate(
        {
          concurrent: () => t.runBatch(calls),
          sequential: () => t.runBatch(calls, { sequential: true }),
        },
        runs,
      );
      const row = { benchmark, subject: "runBatch", subjectMs: median(samples.concurrent.wall), baseline: "sequential", baselineMs: median(samples.sequential.wall), runs, ...(target ? { target } : {}) };
      log?.(`${benchmark}: concurrent ${row.subjectMs.toFixed(1)} ms, sequential ${row.baselineMs.toFixed(1)} ms, ${(row.baselineMs / row.subjectMs).toFixed(1)}×`);
      rows.push(row);
    }
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const i = process.argv.indexOf("--runs");
  const runs = i > 0 ? Number(process.argv[i + 1]) : 5;
  await run({ runs, log: (line) => console.log(line) });
}
