#!/usr/bin/env node
/**
 * `npm run bench`: runs every benchmark module of BENCHES and prints one markdown table.
 * Benchmarks are measured side by side in one run (ratios, not absolute times); they are never
 * timed tests.
 *
 *     node bench/run.mjs                 # every module, default number of runs
 *     node bench/run.mjs --runs 9 tspc   # only modules whose name contains "tspc", 9 runs each
 *     node bench/run.mjs --json          # the rows as JSON (for tooling)
 *     node bench/run.mjs --write-readme  # every module; the rows with a target also replace
 *                                        # README.md's between <!-- bench:start --> and <!-- bench:end -->
 *
 * A benchmark module exports:
 *
 *     export const name = "tspc";                       // short, unique
 *     export const description = "…";                   // one line, printed above the table
 *     export async function run({ runs, log }) {        // runs: measured runs per side (≥ 5)
 *       return [{ benchmark, subject, subjectMs, subjectCpuMs?, baseline, baselineMs, baselineCpuMs?, runs, target? }];
 *     }
 *
 * Each row compares a subject with its baseline: medians in milliseconds of wall time and,
 * optionally, CPU time, measured alternately (see `alternate`); `target` is an optional maximum
 * ratio subject/baseline of wall time (for example 1.10).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The benchmark modules, in order. Add new ones here. */
export const BENCHES = ["./tspc.mjs", "./tsserver.mjs", "./prover.mjs", "./cache.mjs", "./jobs.mjs"];

/**
 * The corpus's decided programs (fixtures/programs), relative to `root`, in a stable order: the
 * programs under a directory whose name starts with `_` (`_pending/`: what the prover cannot
 * decide yet; `_support/`) are left out, as in the prover bench's warm rows.
 */
export function decidedPrograms(root) {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith("_")) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts")) out.push(path.relative(root, full));
    }
  };
  walk(path.join(root, "fixtures", "programs"));
  return out;
}

/** Median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The p-th percentile (nearest rank) of a list of numbers. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Measure functions alternately: one unmeasured warm-up each, then `runs` rounds in which every
 * function runs once (the order rotates each round). A function may return `{ cpuMs }` (for
 * example a child process's CPU time). Returns, per key, the wall-clock samples in milliseconds
 * (`wall`) and the CPU samples (`cpu`, empty when the function returned none).
 */
export async function alternate(fns, runs) {
  const keys = Object.keys(fns);
  for (const key of keys) await fns[key]();
  const samples = Object.fromEntries(keys.map((k) => [k, { wall: [], cpu: [] }]));
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < keys.length; i++) {
      const key = keys[(round + i) % keys.length];
      const start = process.hrtime.bigint();
      const result = await fns[key]();
      samples[key].wall.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (typeof result?.cpuMs === "number") samples[key].cpu.push(result.cpuMs);
    }
  }
  return samples;
}

const fmt = (ms) => ms.toFixed(0);

/** The markdown table of all rows (ratios subject/baseline; the target applies to wall time). */
export function table(rows) {
  const lines = [
    "| benchmark | subject | wall ms | CPU ms | baseline | wall ms | CPU ms | ratio (wall) | ratio (CPU) | target | runs |",
    "|---|---|---:|---:|---|---:|---:|---:|---:|---|---:|",
  ];
  const ms = (v) => (v === undefined ? "" : fmt(v));
  for (const r of rows) {
    const ratio = r.subjectMs / r.baselineMs;
    const cpuRatio = r.subjectCpuMs !== undefined && r.baselineCpuMs !== undefined ? `${(r.subjectCpuMs / r.baselineCpuMs).toFixed(2)}×` : "";
    const target = r.target === undefined ? "" : `≤ ${r.target.toFixed(2)}× ${ratio <= r.target ? "✓" : "✗"}`;
    lines.push(
      `| ${r.benchmark} | ${r.subject} | ${ms(r.subjectMs)} | ${ms(r.subjectCpuMs)} | ${r.baseline} | ${ms(r.baselineMs)} | ${ms(r.baselineCpuMs)} | ${ratio.toFixed(2)}× | ${cpuRatio} | ${target} | ${r.runs} |`,
    );
  }
  return lines.join("\n");
}

const README = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "README.md");
const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";

/** README.md's text up to and including the start marker, and from the end marker on (undefined without both). */
function readmeBlock(text) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return undefined;
  return [text.slice(0, start + START.length), text.slice(end)];
}

async function main(argv) {
  let runs = 7;
  let json = false;
  let writeReadme = false;
  const filters = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--runs") runs = Number(argv[++i]);
    else if (a === "--json") json = true;
    else if (a === "--write-readme") writeReadme = true;
    else if (a === "--help" || a === "-h") {
      process.stdout.write("usage: node bench/run.mjs [--runs N (≥ 5)] [--json] [--write-readme] [name-filter ...]\n");
      return 0;
    } else filters.push(a);
  }
  if (!Number.isInteger(runs) || runs < 5) {
    process.stderr.write("bench: --runs must be an integer ≥ 5\n");
    return 2;
  }
  if (writeReadme && filters.length > 0) {
    process.stderr.write("bench: --write-readme writes the whole run into README.md; leave out the name filters\n");
    return 2;
  }
  const log = (line) => process.stderr.write(`${line}\n`);
  // Checked before the run (it takes an hour): the markers must be there to write into.
  if (writeReadme && !readmeBlock(fs.readFileSync(README, "utf8"))) {
    process.stderr.write(`bench: README.md has no ${START} … ${END} block to write the table into\n`);
    return 2;
  }
  const started = new Date();
  const load = os.loadavg()[0];
  if (load > os.cpus().length) log(`bench: load average ${load.toFixed(1)} on ${os.cpus().length} threads; wall times will be noisy (CPU times less so)`);
  const rows = [];
  const descriptions = [];
  for (const spec of BENCHES) {
    const mod = await import(new URL(spec, import.meta.url).href);
    if (filters.length > 0 && !filters.some((f) => mod.name.includes(f))) continue;
    log(`bench ${mod.name}: ${mod.description}`);
    descriptions.push(`- **${mod.name}**: ${mod.description}`);
    rows.push(...(await mod.run({ runs, log })));
  }
  if (json) {
    process.stdout.write(JSON.stringify(rows, null, 2) + "\n");
  } else {
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    const machine = `Node ${process.version}, ${os.platform()} ${os.arch()}, ${cpu} (${os.cpus().length} threads), load average ${os.loadavg()[0].toFixed(1)} at the end.`;
    process.stdout.write(`${descriptions.join("\n")}\n\n${table(rows)}\n\n${machine}\n`);
  }
  if (writeReadme) {
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    const when = `Measured ${started.toISOString().slice(0, 16).replace("T", " ")} UTC by \`npm run bench -- --runs ${runs} --write-readme\` (one run, every module), Node ${process.version}, ${os.platform()} ${os.arch()}, ${cpu} (${os.cpus().length} threads), load average ${load.toFixed(1)} at the start and ${os.loadavg()[0].toFixed(1)} at the end.`;
    const text = fs.readFileSync(README, "utf8");
    const block = readmeBlock(text);
    if (!block) {
      log(`bench: README.md lost its ${START} … ${END} block during the run; the table above is not written`);
      return 2;
    }
    // The README keeps the rows with a target (it stays short); the whole table is printed above.
    fs.writeFileSync(README, `${block[0]}\n${table(rows.filter((r) => r.target !== undefined))}\n\n${when}\n${block[1]}`);
    log("bench: README.md's table written");
  }
  const failed = rows.filter((r) => r.target !== undefined && r.subjectMs / r.baselineMs > r.target);
  if (failed.length > 0) log(`bench: ${failed.length} row(s) above target: ${failed.map((r) => r.benchmark).join(", ")}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`bench failed: ${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
