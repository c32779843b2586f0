#!/usr/bin/env node
/**
 * Editor cost of clauz3/language-service, in real tsserver processes (the client of
 * test/language-service/tsserver-client.mjs; projects in temporary directories linking this
 * checkout). Not a test: it prints numbers, it asserts nothing.
 *
 * 1. Responsiveness: edit → refreshed clauz3 diagnostics of a fixture agent program (the stdlib
 *    filesystem layer and a `neverReadUnder` program). Each edit makes the program violated or
 *    proved in turn, with a fresh comment so no verdict comes from the cache; the time runs from
 *    sending the edit until a `geterr` shows the new verdict, the client asking again on each
 *    `projectsUpdatedInBackground` event as VS Code does. Warm: after warm-up edits.
 *    Median and p95 over EDITS edits (targets: median ≤ 150 ms, p95 ≤ 400 ms).
 * 2. Overhead on a project without agent programs: tsserver's semantic diagnostics of an edited
 *    file (edit + `geterr` until the request completes), with and without the plugin, two
 *    tsservers measured alternately (target ratio ≤ 1.2).
 * 3. Time-to-verdict for a trivial file opened while a slow proof runs (issue 14, docs/editor.md):
 *    the budget loop of test/language-service/slow-programs.mjs is opened and left proving (a
 *    large editor budget), then each sample opens a new trivial program of the same layer and
 *    times it from `updateOpen` until a `geterr` shows its verdict. Median over TRIVIAL_SAMPLES
 *    (target ≤ 1 s).
 *
 *     node bench/tsserver.mjs [--edits 50] [--runs 31] [--trivial 5] [--only-beside-slow] [--log <file>]
 *
 * `--log <file>`: keep the verbose tsserver log of measurement 3 (timestamped plugin lines).
 * `--head-start <ms>` (default 3000): how long the slow proof runs alone before the first trivial
 * file opens; 0 opens it while the slow proof is young (its symbolic execution or first second).
 *
 * Also a module of bench/run.mjs (`name`, `description`, `run`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBuilt, FS_HEADER, makeProject, ours, removeProject, Tsserver } from "../test/language-service/tsserver-client.mjs";
import { BILLING_LAYER, slowProgram, trivialProgram } from "../test/language-service/slow-programs.mjs";
import { median, percentile } from "./run.mjs";

export const name = "tsserver";
export const description =
  "clauz3/language-service in a real tsserver: edit → refreshed clauz3 diagnostics of a fixture agent program (median, p95), and semantic diagnostics of an edited file of a 60-module project without agent programs, with vs without the plugin (medians of alternating runs)";

const EDITS = 50;
const WARMUP_EDITS = 5;

/** The fixture agent program: violated (no guard) or proved (guarded), with a comment that makes each text new. */
function agentProgram(proved, n) {
  return (
    FS_HEADER +
    `export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(paths: string[]): void {
  for (const path of paths) {
    if (path !== ""${proved ? ' && !path.startsWith("/secrets")' : ""}) readFile(path); // edit ${n}
  }
}
`
  );
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Wait until the program's diagnostics show the verdict of its current text, asking again on each refresh. */
async function untilVerdict(server, file, proved) {
  for (;;) {
    const refreshed = server.waitForEvent((e) => e.event === "projectsUpdatedInBackground", 2000).catch(() => undefined);
    const r = await server.geterr([file]);
    const fileName = path.resolve(server.project, file);
    const errors = ours(r.semantic.get(fileName) ?? []);
    const provedShown = ours(r.suggestion.get(fileName) ?? []).some((d) => d.text.startsWith("proved: "));
    if (proved ? errors.length === 0 && provedShown : errors.length > 0) return;
    await refreshed;
  }
}

/** Edit → refreshed clauz3 diagnostics, `edits` times. Returns the samples in milliseconds. */
export async function measureResponsiveness({ edits = EDITS, log = () => undefined } = {}) {
  let text = agentProgram(false, 0);
  const dir = makeProject({ files: { "plan.ts": text }, prefix: "clauz3-bench-ls-" });
  const server = new Tsserver(dir, { verbose: false });
  try {
    await server.configure();
    await server.open("plan.ts");
    await untilVerdict(server, "plan.ts", false);
    const samples = [];
    for (let i = 1; i <= WARMUP_EDITS + edits; i++) {
      const proved = i % 2 === 1;
      const next = agentProgram(proved, i);
      const start = now();
      await server.replace("plan.ts", text, next);
      text = next;
      await untilVerdict(server, "plan.ts", proved);
      if (i > WARMUP_EDITS) samples.push(now() - start);
    }
    log(`tsserver: edit → refreshed clauz3 diagnostics over ${samples.length} edits: median ${median(samples).toFixed(0)} ms, p95 ${percentile(samples, 95).toFixed(0)} ms`);
    return samples;
  } finally {
    await server.close();
    removeProject(dir);
  }
}

const TRIVIAL_SAMPLES = 5;
/** How long the slow proof runs alone before the first trivial file opens (it is old by then: docs/editor.md). */
const SLOW_HEAD_START_MS = 3000;

/** Time-to-verdict of trivial files opened one after another while the slow proof runs. Returns the samples in ms. */
export async function measureTrivialBesideSlow({ samples = TRIVIAL_SAMPLES, log = () => undefined, keepLog, headStartMs = SLOW_HEAD_START_MS } = {}) {
  const files = { ...BILLING_LAYER, "slow.ts": slowProgram() };
  for (let i = 0; i < samples; i++) files[`trivial${i}.ts`] = trivialProgram(i);
  const dir = makeProject({ files, stdlib: [], pluginOptions: { editorBudgetMs: 3_600_000 }, prefix: "clauz3-bench-ls-slow-" });
  // `keepLog`: a verbose tsserver log (timestamped plugin lines), copied to that path at the end.
  const server = new Tsserver(dir, { verbose: keepLog !== undefined });
  try {
    await server.configure();
    await server.open("slow.ts");
    await server.geterr(["slow.ts"]);
    await new Promise((r) => setTimeout(r, headStartMs));
    const out = [];
    for (let i = 0; i < samples; i++) {
      const file = `trivial${i}.ts`;
      const start = now();
      await server.open(file);
      await untilVerdict(server, file, true);
      out.push(now() - start);
    }
    // The slow proof must still have been running: otherwise the samples measured nothing.
    const slow = await server.geterr(["slow.ts"]);
    const slowName = path.resolve(dir, "slow.ts");
    const slowShown = ours(slow.semantic.get(slowName) ?? []).length > 0 || ours(slow.suggestion.get(slowName) ?? []).some((d) => d.text.startsWith("proved: "));
    if (slowShown) throw new Error("the slow program's proof finished during the measurement; make it slower");
    log(`tsserver: time-to-verdict of a trivial file opened ${headStartMs} ms after a slow proof was asked for, over ${out.length} files: median ${median(out).toFixed(0)} ms, max ${Math.max(...out).toFixed(0)} ms (in order: ${out.map((ms) => ms.toFixed(0)).join(", ")} ms)`);
    return out;
  } finally {
    await server.close();
    if (keepLog !== undefined) fs.copyFileSync(server.logFile, keepLog);
    removeProject(dir);
  }
}

/** A plain TypeScript project: `modules` modules of classes, generics and functions importing each other. */
export function plainProject(modules) {
  const files = {};
  for (let i = 0; i < modules; i++) {
    const deps = [i - 1, i - 2, Math.floor(i / 2) - 1].filter((d, k, all) => d >= 0 && all.indexOf(d) === k);
    files[`src/m${i}.ts`] = `${deps.map((d) => `import { Box${d}, combine${d}, type Shape${d} } from "./m${d}";`).join("\n")}
import * as nodePath from "node:path";

export interface Shape${i} { readonly id: number; readonly name: string; readonly tags: readonly string[]; readonly parent?: Shape${i} }
export class Box${i}<T extends { id: number }> {
  private readonly items = new Map<number, T>();
  add(item: T): this { this.items.set(item.id, item); return this; }
  find(predicate: (item: T) => boolean): T | undefined { for (const item of this.items.values()) if (predicate(item)) return item; return undefined; }
  map<U extends { id: number }>(f: (item: T) => U): Box${i}<U> { const out = new Box${i}<U>(); for (const item of this.items.values()) out.add(f(item)); return out; }
  get size(): number { return this.items.size; }
}
export function combine${i}(a: Shape${i}, b: Shape${i}): Shape${i} {
  return { id: a.id + b.id, name: nodePath.join(a.name, b.name), tags: [...new Set([...a.tags, ...b.tags])].sort() };
}
export const registry${i}: Record<string, (s: Shape${i}) => string> = {
  upper: (s) => s.name.toUpperCase(),
  tags: (s) => s.tags.join(","),
  path: (s) => (s.parent ? \`\${registry${i}.path!(s.parent)}/\${s.name}\` : s.name),
};
${deps
  .map(
    (d) => `export function from${d}(s: Shape${d}): Shape${i} { return { id: s.id, name: s.name, tags: s.tags }; }
export const box${d}Size = new Box${d}<Shape${d}>().add({ id: 1, name: "a", tags: [] }).map((s) => combine${d}(s, s)).size;`,
  )
  .join("\n")}
`;
  }
  return files;
}

/** Semantic diagnostics of an edited file, with and without the plugin, alternately. */
export async function measureOverhead({ runs = 31, modules = 60, log = () => undefined } = {}) {
  const files = plainProject(modules);
  const edited = `src/m${modules - 1}.ts`;
  const dirs = { with: makeProject({ files, stdlib: [], plugin: true, prefix: "clauz3-bench-ls-with-" }), without: makeProject({ files, stdlib: [], plugin: false, prefix: "clauz3-bench-ls-without-" }) };
  const servers = { with: new Tsserver(dirs.with, { verbose: false }), without: new Tsserver(dirs.without, { verbose: false }) };
  try {
    const texts = { with: files[edited], without: files[edited] };
    for (const key of ["with", "without"]) {
      await servers[key].configure();
      await servers[key].open(edited);
      await servers[key].geterr([edited]);
    }
    let n = 0;
    const once = async (key) => {
      const next = files[edited].replace("tags: (s) => s.tags.join(\",\")", `tags: (s) => s.tags.join(",${++n}")`);
      const start = now();
      await servers[key].replace(edited, texts[key], next);
      texts[key] = next;
      const r = await servers[key].geterr([edited]);
      const ms = now() - start;
      const diags = r.semantic.get(path.resolve(dirs[key], edited)) ?? [];
      if (diags.length > 0) throw new Error(`unexpected diagnostics in the plain project: ${JSON.stringify(diags)}`);
      return ms;
    };
    const samples = { with: [], without: [] };
    for (let i = 0; i < 5; i++) for (const key of ["with", "without"]) await once(key);
    for (let round = 0; round < runs; round++) {
      const order = round % 2 === 0 ? ["with", "without"] : ["without", "with"];
      for (const key of order) samples[key].push(await once(key));
    }
    log(`tsserver: semantic diagnostics of an edited file (${modules} modules, no agent programs): with the plugin ${median(samples.with).toFixed(1)} ms, without ${median(samples.without).toFixed(1)} ms, ratio ${(median(samples.with) / median(samples.without)).toFixed(2)}`);
    return samples;
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.close()));
    Object.values(dirs).forEach(removeProject);
  }
}

/** bench/run.mjs entry. */
export async function run({ runs, log }) {
  ensureBuilt(log);
  const latency = await measureResponsiveness({ log });
  const overhead = await measureOverhead({ runs: Math.max(runs, 31), log });
  const besideSlow = await measureTrivialBesideSlow({ log });
  const plain = median(overhead.without);
  return [
    {
      benchmark: "tsserver time-to-verdict beside a slow proof (median)",
      subject: "time-to-verdict for a trivial file opened while a slow proof runs",
      subjectMs: median(besideSlow),
      baseline: "target 1000 ms",
      baselineMs: 1000,
      runs: besideSlow.length,
      target: 1,
    },
    {
      benchmark: "tsserver overhead",
      subject: "semantic diagnostics with clauz3/language-service",
      subjectMs: median(overhead.with),
      baseline: "without the plugin",
      baselineMs: plain,
      runs: overhead.with.length,
      target: 1.2,
    },
    {
      benchmark: "tsserver responsiveness (median)",
      subject: "edit → refreshed clauz3 diagnostics",
      subjectMs: median(latency),
      baseline: "target 150 ms",
      baselineMs: 150,
      runs: latency.length,
      target: 1,
    },
    {
      benchmark: "tsserver responsiveness (p95)",
      subject: "edit → refreshed clauz3 diagnostics",
      subjectMs: percentile(latency, 95),
      baseline: "target 400 ms",
      baselineMs: 400,
      runs: latency.length,
      target: 1,
    },
  ];
}

async function main(argv) {
  let edits = EDITS;
  let runs = 31;
  let trivial = TRIVIAL_SAMPLES;
  let only;
  let keepLog;
  let headStartMs = SLOW_HEAD_START_MS;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--edits") edits = Number(argv[++i]);
    else if (argv[i] === "--runs") runs = Number(argv[++i]);
    else if (argv[i] === "--trivial") trivial = Number(argv[++i]);
    else if (argv[i] === "--only-beside-slow") only = "beside-slow";
    else if (argv[i] === "--log") keepLog = path.resolve(argv[++i]);
    else if (argv[i] === "--head-start") headStartMs = Number(argv[++i]);
  }
  const log = (line) => process.stderr.write(`${line}\n`);
  ensureBuilt(log);
  const besideSlow = await measureTrivialBesideSlow({ samples: trivial, log, keepLog, headStartMs });
  const besideSlowResult = { headStartMs, files: besideSlow.length, medianMs: Math.round(median(besideSlow)), maxMs: Math.round(Math.max(...besideSlow)), targetMs: 1000 };
  if (only === "beside-slow") {
    process.stdout.write(`${JSON.stringify({ trivialBesideSlow: besideSlowResult, node: process.version }, null, 2)}\n`);
    return;
  }
  const latency = await measureResponsiveness({ edits, log });
  const overhead = await measureOverhead({ runs, log });
  const result = {
    trivialBesideSlow: besideSlowResult,
    responsiveness: { edits: latency.length, medianMs: Math.round(median(latency)), p95Ms: Math.round(percentile(latency, 95)), targets: { medianMs: 150, p95Ms: 400 } },
    overhead: { runs: overhead.with.length, withPluginMs: +median(overhead.with).toFixed(1), withoutPluginMs: +median(overhead.without).toFixed(1), ratio: +(median(overhead.with) / median(overhead.without)).toFixed(2), target: 1.2 },
    node: process.version,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`bench failed: ${error?.stack ?? error}\n`);
    process.exit(1);
  });
}
