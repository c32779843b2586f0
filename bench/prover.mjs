#!/usr/bin/env node
/**
 * Prover cost, from the built `dist/` (rebuilt first when older than the sources):
 *
 * 1. Warm proof time per program of the corpus (fixtures/programs): one TypeScript program and one
 *    layer for the whole corpus (as an editor or `clauz3 prove` with many files has), Z3 warmed
 *    up, then every program proved `passes` times; per program the median, over programs the
 *    median and p90 (all programs, and those whose `main` makes at most 10 calls). The time is
 *    split into Z3 (everything inside `Z3Session.query`: solving and reading models) and the
 *    rest (symbolic execution, encoding, guarantees).
 * 2. Stability: the corpus proved again under other seed bases (every Z3 seed shifted); the
 *    slowest query and any verdict that changed.
 * 3. Cold `node dist/cli/main.js prove -p fixtures/tsconfig.json <program>`: a fresh process per
 *    run (TypeScript program creation, layer reading, Z3 start-up, proof), next to the bare
 *    start-up of node loading TypeScript.
 * 4. Growth with size: generated programs over a small generated layer in a temporary directory —
 *    10/100/1000 straight-line calls under an `all` and a `count` guarantee, 10/20 nested
 *    branches, `distinct` over 10/50/100 calls — each proved `runs` times (median).
 *
 *     node bench/prover.mjs [--runs 7] [--passes 3] [--corpus-only | --growth-only] [--only dir,dir] [--rows file.json]
 *
 * The async corpus (issue 10: the directories in ASYNC_CORPUS) gets its own warm median beside the
 * rest of the corpus, and its files-async programs beside the same programs written synchronously; `--corpus-only` stops after the warm rows (no stability, cold or growth runs),
 * `--growth-only` runs only the generated programs (growth and issue 14's budget loop);
 * `--only` limits the warm corpus to the named directories of fixtures/programs; `--rows` writes
 * the per-program warm rows (file, calls, ms, z3, verdict) as JSON, for finding where time goes.
 *
 * Also a module of bench/run.mjs (`name`, `description`, `run`). Not a test: it prints numbers,
 * it asserts nothing.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBuilt, lockProject, ROOT } from "../fixtures/projects/project.mjs";
import { median, percentile } from "./run.mjs";

export const name = "prover";
export const description =
  "warm proof time per corpus program (median, p90; Z3 vs the rest), cold `clauz3 prove` of one program, growth with program size (generated straight-line, nested and distinct programs) and a budget loop over integral tool results; medians";

const require = createRequire(import.meta.url);
const FIXTURES = path.join(ROOT, "fixtures");
const CLI = path.join(ROOT, "dist/cli/main.js");
/** Directories of fixtures/programs holding the async corpus (issue 10), measured beside the rest. */
const ASYNC_CORPUS = ["ops", "net", "files-async"];
const inAsyncCorpus = (file) => ASYNC_CORPUS.some((d) => file.startsWith(`programs/${d}/`));
/** The async corpus's directory whose layer has synchronous twins of every tool (stdlib:filesystem). */
const TWIN_DIR = "files-async";
/** A typical small corpus program for the cold run. */
const COLD_PROGRAM = "fixtures/programs/email/and_guard_pass.ts";

const now = () => Number(process.hrtime.bigint()) / 1e6;

/** The built prover, with Z3Session.query wrapped to measure the time spent in Z3. */
function loadProver() {
  const ts = require(path.join(ROOT, "node_modules/typescript"));
  const { readLayer } = require(path.join(ROOT, "dist/core/layer/read.js"));
  const { proveProgram } = require(path.join(ROOT, "dist/core/prover/prove.js"));
  const { Z3Session } = require(path.join(ROOT, "dist/core/prover/z3.js"));
  const clock = { z3: 0, queries: 0, slowest: 0 };
  if (!Z3Session.prototype.query.__benchWrapped) {
    const query = Z3Session.prototype.query;
    Z3Session.prototype.query = async function (...args) {
      const start = now();
      try {
        return await query.apply(this, args);
      } finally {
        const ms = now() - start;
        clock.z3 += ms;
        clock.queries++;
        clock.slowest = Math.max(clock.slowest, ms);
      }
    };
    Z3Session.prototype.query.__benchWrapped = clock;
  }
  return { ts, readLayer, proveProgram, Z3Session, clock: Z3Session.prototype.query.__benchWrapped };
}

function createProgram(ts, configFile) {
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  });
  return { program: ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options }), fileNames: parsed.fileNames };
}

/** Call expressions inside the program's `main` (tool calls and method calls alike). */
function callsInMain(ts, file) {
  let count = 0;
  let main;
  for (const s of file.statements) {
    if (ts.isFunctionDeclaration(s) && s.name?.text === "main") main = s;
    if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name) && d.name.text === "main") main = d;
  }
  const visit = (n) => {
    if (ts.isCallExpression(n)) count++;
    ts.forEachChild(n, visit);
  };
  if (main) visit(main);
  return count;
}

/** Prove `file` `times` times; per run the wall time and the share spent in Z3. */
async function proveTimes(prover, program, layer, file, times) {
  const { ts, proveProgram, clock } = prover;
  const wall = [];
  const z3 = [];
  let verdict;
  for (let i = 0; i < times; i++) {
    const z3Before = clock.z3;
    const start = now();
    const v = await proveProgram({ ts, program, file }, layer);
    wall.push(now() - start);
    z3.push(clock.z3 - z3Before);
    verdict = v.verdict;
  }
  return { wall, z3, verdict };
}

async function warmCorpus(prover, passes, log, only) {
  const { ts, readLayer, Z3Session } = prover;
  const t0 = now();
  const { program, fileNames } = createProgram(ts, path.join(FIXTURES, "tsconfig.json"));
  const t1 = now();
  const layer = readLayer(ts, program);
  const t2 = now();
  await Z3Session.get();
  const t3 = now();
  log(`bench prover: corpus TypeScript program ${(t1 - t0).toFixed(0)} ms, layer ${(t2 - t1).toFixed(0)} ms, Z3 start-up ${(t3 - t2).toFixed(0)} ms (once per process)`);
  const corpusDir = path.join(FIXTURES, "programs");
  const programs = fileNames.filter((f) => {
    const rel = path.relative(corpusDir, f);
    return !rel.startsWith("..") && !rel.split(/[\\/]/).some((segment) => segment.startsWith("_")) && (!only || only.includes(rel.split(/[\\/]/)[0]));
  });
  // One unmeasured pass warms the JIT, Z3 and the checker's caches.
  const rows = [];
  for (const f of programs) await proveTimes(prover, program, layer, program.getSourceFile(f), 1);
  for (const f of programs) {
    const file = program.getSourceFile(f);
    const r = await proveTimes(prover, program, layer, file, passes);
    rows.push({ file: path.relative(FIXTURES, f), calls: callsInMain(ts, file), ms: median(r.wall), z3: median(r.z3), verdict: r.verdict });
  }
  const small = rows.filter((r) => r.calls <= 10);
  const slowest = [...rows].sort((a, b) => b.ms - a.ms).slice(0, 5);
  log(`bench prover: ${rows.length} programs (${small.length} with ≤ 10 calls in main), ${passes} passes; slowest: ${slowest.map((r) => `${r.file} ${r.ms.toFixed(0)} ms (Z3 ${r.z3.toFixed(0)})`).join(", ")}`);
  log(`bench prover: whole corpus once ${rows.reduce((s, r) => s + r.ms, 0).toFixed(0)} ms; median Z3 ${median(rows.map((r) => r.z3)).toFixed(1)} ms, rest ${median(rows.map((r) => r.ms - r.z3)).toFixed(1)} ms per program`);
  return { rows, small, program, layer, files: programs };
}

/**
 * A files-async program written synchronously: the same task over stdlib:filesystem's synchronous
 * tools (the same events and contracts), no `async`, no `await`. Undefined when the program uses
 * anything else asynchronous (`Promise.all`, `for await`, an async helper).
 */
export function syncTwin(text) {
  const twin = text
    .replace('/trusted/async"', '/trusted/effects"')
    .replace(/\b([a-zA-Z]+)Async\b/g, "$1")
    .replace(/\bawait /g, "")
    .replace(/export async function main\(([^)]*)\): Promise<void>/, "export function main($1): void");
  return /Promise|async|for await/.test(twin.replace(/^\/\/.*$/gm, "")) ? undefined : twin;
}

/**
 * Issue 10's question behind its ratio: does `async`/`await` itself cost? The async corpus's tasks
 * are larger than the rest of the corpus's (tool results iterated, records of several fields), so
 * its median is set beside that of the same programs written synchronously (`syncTwin`, files in
 * memory beside the corpus, in one TypeScript program). Pairs whose verdicts differ are left out.
 */
async function twins(prover, passes, log) {
  const { ts, readLayer, proveProgram } = prover;
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(FIXTURES, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n")); } });
  const sources = new Map();
  for (const f of parsed.fileNames.filter((n) => n.includes(`/programs/${TWIN_DIR}/`) && !n.includes("/_"))) {
    const twin = syncTwin(fs.readFileSync(f, "utf8"));
    if (twin !== undefined) sources.set(f.replace(`/programs/${TWIN_DIR}/`, "/programs/_twins/"), twin);
  }
  const host = ts.createCompilerHost(parsed.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) => (sources.has(name) ? ts.createSourceFile(name, sources.get(name), language) : getSourceFile.call(host, name, language, ...rest));
  host.fileExists = (name) => sources.has(name) || fileExists.call(host, name);
  host.readFile = (name) => sources.get(name) ?? readFile.call(host, name);
  const program = ts.createProgram({ rootNames: [...parsed.fileNames, ...sources.keys()], options: parsed.options, host });
  const layer = readLayer(ts, program);
  const pairs = [...sources.keys()].map((twin) => [program.getSourceFile(twin.replace("/programs/_twins/", `/programs/${TWIN_DIR}/`)), program.getSourceFile(twin)]);
  for (const [a, b] of pairs) for (const file of [a, b]) await proveProgram({ ts, program, file }, layer);
  const kept = { async: [], sync: [] };
  for (const [a, b] of pairs) {
    const [ra, rb] = [await proveTimes(prover, program, layer, a, passes), await proveTimes(prover, program, layer, b, passes)];
    if (ra.verdict !== rb.verdict) continue;
    kept.async.push(median(ra.wall));
    kept.sync.push(median(rb.wall));
  }
  log(`bench prover: ${pairs.length} files-async programs with a synchronous twin, ${kept.async.length} with the same verdict`);
  return { benchmark: "prover warm (median)", subject: `${TWIN_DIR} programs (${kept.async.length})`, subjectMs: median(kept.async), baseline: `the same written synchronously (${kept.sync.length})`, baselineMs: median(kept.sync), runs: passes };
}

/**
 * Solver stability: prove the corpus once more under other seed bases (every Z3 seed shifted).
 * Solving times are heavy-tailed; a verdict that changes with the seed, or a query that comes
 * near the timeout under some seed, would fail somewhere else. Reports, per base, the slowest
 * query and the programs whose verdict differs from base 0.
 */
async function stability(prover, corpus, bases, log) {
  const { ts, proveProgram, Z3Session, clock } = prover;
  const reference = new Map(corpus.rows.map((r) => [r.file, r.verdict]));
  const slowest = [];
  for (const base of bases) {
    Z3Session.seedBase = base;
    clock.slowest = 0;
    const changed = [];
    try {
      for (const f of corpus.files) {
        const v = await proveProgram({ ts, program: corpus.program, file: corpus.program.getSourceFile(f) }, corpus.layer);
        const rel = path.relative(FIXTURES, f);
        if (v.verdict !== reference.get(rel)) changed.push(`${rel} (${reference.get(rel)} → ${v.verdict})`);
      }
    } finally {
      Z3Session.seedBase = 0;
    }
    slowest.push(clock.slowest);
    log(`bench prover: seed base ${base}: slowest query ${clock.slowest.toFixed(0)} ms; verdicts that differ from base 0: ${changed.length === 0 ? "none" : changed.join(", ")}`);
  }
  return Math.max(...slowest);
}

function coldCli(runs, log) {
  if (!fs.existsSync(path.join(ROOT, "dist/cli/commands/prove.js"))) {
    log("bench prover: dist/cli has no `prove` command; the cold row is skipped");
    return [];
  }
  const run = (args) => {
    const start = now();
    const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
    const ms = now() - start;
    return { ms, status: r.status, out: `${r.stdout}${r.stderr}` };
  };
  const prove = [CLI, "prove", "--no-cache", "-p", "fixtures/tsconfig.json", COLD_PROGRAM];
  const first = run(prove);
  if (first.status !== 0) {
    log(`bench prover: \`clauz3 prove ${COLD_PROGRAM}\` exited with ${first.status}; the cold row is skipped:\n${first.out}`);
    return [];
  }
  const bare = [`-e`, `require(${JSON.stringify(path.join(ROOT, "node_modules/typescript"))})`];
  const proveMs = [];
  const bareMs = [];
  for (let i = 0; i < runs; i++) {
    proveMs.push(run(prove).ms);
    bareMs.push(run(bare).ms);
  }
  return [{ benchmark: "prover cold", subject: `clauz3 prove ${path.basename(COLD_PROGRAM)} (fresh process)`, subjectMs: median(proveMs), baseline: "node loading typescript", baselineMs: median(bareMs), runs }];
}

// ───────────────────────────── generated programs ─────────────────────────────

const LAYER = {
  "layer/trusted/events.ts": `import { Event } from "clauz3/events";
/** A message is sent to \`to\`. */
export class Sent extends Event {
  constructor(readonly to: string) { super(); }
}
/** \`amount\` is paid to \`payee\`. */
export class Payment extends Event {
  constructor(readonly payee: string, readonly amount: number) { super(); }
}
`,
  "layer/trusted/effects.ts": `import { ensures, trusted } from "clauz3";
import { performs } from "clauz3/events";
import { Payment, Sent } from "./events";
const log: string[] = [];
/** Send a message to \`to\`. */
export const send = trusted(
  performs((to: string) => new Sent(to)),
  function send(to: string): void {
    log.push(to);
  },
);
/** One open invoice. */
export interface Invoice {
  readonly payee: string;
  readonly amount: number;
}
/** The open invoices of customer c: at most 12, each a whole amount from 1 to 1000. */
export const openInvoices = trusted(
  ensures((r: Invoice[]) => r.length <= 12, "at most 12 invoices"),
  ensures((r: Invoice[]) => r.every((inv) => Number.isInteger(inv.amount) && inv.amount > 0 && inv.amount <= 1000), "every amount is a whole number in [1, 1000]"),
  function openInvoices(c: string): Invoice[] {
    return c === "" ? [] : [{ payee: "acme", amount: 120 }];
  },
);
/** Pay amount to payee. */
export const pay = trusted(
  performs((payee: string, amount: number) => new Payment(payee, amount)),
  function pay(payee: string, amount: number): void {
    log.push(payee + amount);
  },
);
`,
  "layer/trusted/contracts.ts": `import { contract, type ContractSpec } from "clauz3/spec";
import { Payment, Sent } from "./events";
/** Nothing is sent to address. */
export const neverTo = contract({ description: "Nothing is sent to {address}." }, (address: string): ContractSpec => Sent.all((m) => m.to !== address));
/** At most n messages are sent. */
export const sendsAtMost = contract({ description: "At most {n} messages are sent." }, (n: number): ContractSpec => Sent.count().atMost(n));
/** The payments add up to at most limit. */
export const spendAtMost = contract({ description: "Payments add up to at most {limit}." }, (limit: number): ContractSpec => Payment.sum((p) => p.amount).atMost(limit));
/** Nobody gets two messages. */
export const nobodyTwice = contract({ description: "Nobody gets two messages." }, (): ContractSpec => Sent.distinct((m) => m.to));
`,
};

const HEADER = `import { send } from "../layer/trusted/effects";
import * as c from "../layer/trusted/contracts";
`;

/** The generated programs: name → source. All are proved. */
function generatedPrograms() {
  const lines = (n, f) => Array.from({ length: n }, (_, i) => f(i)).join("\n");
  const out = {};
  // Issue 14's budget loop: a running total over up to 12 tool results with integral amounts.
  out.budget_loop = `import { openInvoices, pay } from "../layer/trusted/effects";
import * as c from "../layer/trusted/contracts";
export const guarantees = [c.spendAtMost(2000)];
export function main(customer: string): void {
  let total = 0;
  for (const inv of openInvoices(customer)) {
    if (total + inv.amount <= 2000) {
      pay(inv.payee, inv.amount);
      total += inv.amount;
    }
  }
}
`;
  for (const n of [10, 100, 1000]) {
    out[`all_${n}`] = `${HEADER}export const guarantees = [c.neverTo("admin")];
export function main(user: string): void {
${lines(n, (i) => `  send(user + "/${i}");`)}
}
`;
    out[`count_${n}`] = `${HEADER}export const guarantees = [c.sendsAtMost(${n})];
export function main(user: string): void {
${lines(n, (i) => `  if (user.length > ${i % 7}) send(user + "/${i}");`)}
}
`;
  }
  for (const depth of [10, 20]) {
    let body = "";
    for (let i = depth - 1; i >= 0; i--) body = `if (b${i}) {\n    send(user + "/${i}");\n    ${body}\n  }`;
    const params = Array.from({ length: depth }, (_, i) => `b${i}: boolean`).join(", ");
    out[`nested_${depth}`] = `${HEADER}export const guarantees = [c.sendsAtMost(${depth}), c.neverTo("admin")];
export function main(user: string, ${params}): void {
  ${body}
}
`;
  }
  for (const n of [10, 50, 100]) {
    out[`distinct_${n}`] = `${HEADER}export const guarantees = [c.nobodyTwice()];
export function main(user: string): void {
${lines(n, (i) => `  send(user + "/${i}");`)}
}
`;
  }
  return out;
}

async function growth(prover, runs, log) {
  const { ts, readLayer, Z3Session } = prover;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-bench-prover-"));
  try {
    const programs = generatedPrograms();
    for (const [rel, text] of Object.entries(LAYER)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    fs.mkdirSync(path.join(dir, "programs"));
    for (const [name, text] of Object.entries(programs)) fs.writeFileSync(path.join(dir, "programs", `${name}.ts`), text);
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022", lib: ["ES2022"], module: "preserve", moduleResolution: "bundler", strict: true, noEmit: true, skipLibCheck: true, types: [],
          paths: { clauz3: [path.join(ROOT, "runtime/index.ts")], "clauz3/events": [path.join(ROOT, "runtime/events.ts")], "clauz3/spec": [path.join(ROOT, "runtime/spec.ts")] },
        },
        include: ["layer", "programs"],
      }),
    );
    // The generated layer is the operator's: pin it, or every program is refused.
    lockProject(dir);
    const { program } = createProgram(ts, path.join(dir, "tsconfig.json"));
    const layer = readLayer(ts, program);
    if (layer.findings.length > 0) throw new Error(`the generated layer has findings: ${layer.findings.map((f) => f.message).join("; ")}`);
    await Z3Session.get();
    const results = {};
    for (const name of Object.keys(programs)) {
      const file = program.getSourceFile(path.join(dir, "programs", `${name}.ts`));
      await proveTimes(prover, program, layer, file, 1); // warm-up
      const r = await proveTimes(prover, program, layer, file, runs);
      if (r.verdict !== "proved") log(`bench prover: generated ${name} is ${r.verdict}, expected proved`);
      results[name] = { ms: median(r.wall), z3: median(r.z3) };
      log(`bench prover: ${name}: ${results[name].ms.toFixed(1)} ms (Z3 ${results[name].z3.toFixed(1)} ms), ${r.verdict}`);
    }
    const row = (subject, baseline) => ({
      benchmark: "prover growth",
      subject: subject.replace("_", " ×"),
      subjectMs: results[subject].ms,
      baseline: baseline.replace("_", " ×"),
      baselineMs: results[baseline].ms,
      runs,
    });
    return [
      { benchmark: "prover budget loop", subject: "running total over ≤ 12 integral tool results (warm)", subjectMs: results.budget_loop.ms, baseline: "target 2000 ms", baselineMs: 2000, runs, target: 1 },
      row("all_100", "all_10"),
      row("all_1000", "all_10"),
      row("count_100", "count_10"),
      row("count_1000", "count_10"),
      row("nested_20", "nested_10"),
      row("distinct_50", "distinct_10"),
      row("distinct_100", "distinct_10"),
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function run({ runs, log, passes = Math.min(runs, 3), corpusOnly = false, growthOnly = false, only, rowsFile }) {
  ensureBuilt(log);
  const prover = loadProver();
  if (growthOnly) return growth(prover, runs, log);
  const corpus = await warmCorpus(prover, passes, log, only);
  if (rowsFile) fs.writeFileSync(rowsFile, `${JSON.stringify(corpus.rows, null, 1)}\n`);
  const rows = [
    { benchmark: "prover warm (median)", subject: `corpus programs with ≤ 10 calls (${corpus.small.length})`, subjectMs: median(corpus.small.map((r) => r.ms)), baseline: "target 15 ms", baselineMs: 15, runs: passes },
    // Issue 14: ≤ 10 ms warm median over every corpus program, p99 ≤ 1 s.
    { benchmark: "prover warm (median)", subject: `all corpus programs (${corpus.rows.length})`, subjectMs: median(corpus.rows.map((r) => r.ms)), baseline: "target 10 ms", baselineMs: 10, runs: passes, target: 1 },
    { benchmark: "prover warm (p90)", subject: `all corpus programs (${corpus.rows.length})`, subjectMs: percentile(corpus.rows.map((r) => r.ms), 90), baseline: "median", baselineMs: median(corpus.rows.map((r) => r.ms)), runs: passes },
    { benchmark: "prover warm (p99)", subject: `all corpus programs (${corpus.rows.length})`, subjectMs: percentile(corpus.rows.map((r) => r.ms), 99), baseline: "target 1000 ms", baselineMs: 1000, runs: passes, target: 1 },
    { benchmark: "prover warm (median split)", subject: "Z3 (solving, models)", subjectMs: median(corpus.rows.map((r) => r.z3)), baseline: "the rest (execution, encoding)", baselineMs: Math.max(0.01, median(corpus.rows.map((r) => r.ms - r.z3))), runs: passes },
  ];
  const asyncRows = corpus.rows.filter((r) => inAsyncCorpus(r.file));
  const syncRows = corpus.rows.filter((r) => !inAsyncCorpus(r.file));
  if (asyncRows.length > 0) {
    // Issue 10: the async corpus's warm median within 1.5× of the other programs'.
    rows.push({ benchmark: "prover warm (median)", subject: `async corpus programs (${asyncRows.length})`, subjectMs: median(asyncRows.map((r) => r.ms)), baseline: `the other corpus programs (${syncRows.length})`, baselineMs: median(syncRows.map((r) => r.ms)), runs: passes, target: 1.5 });
    rows.push({ benchmark: "prover warm (p90)", subject: `async corpus programs (${asyncRows.length})`, subjectMs: percentile(asyncRows.map((r) => r.ms), 90), baseline: `the other corpus programs (${syncRows.length})`, baselineMs: percentile(syncRows.map((r) => r.ms), 90), runs: passes });
    if (!only || only.includes(TWIN_DIR)) rows.push(await twins(prover, passes, log));
  }
  if (corpusOnly) return rows;
  const bases = [1, 2, 3];
  rows.push({ benchmark: "prover stability", subject: `slowest query, corpus under seed bases ${bases.join(", ")}`, subjectMs: await stability(prover, corpus, bases, log), baseline: "query timeout", baselineMs: 20_000, runs: 1 });
  rows.push(...coldCli(runs, log));
  rows.push(...(await growth(prover, runs, log)));
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const argv = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : fallback;
  };
  const runs = option("--runs", 7);
  const log = (line) => process.stderr.write(`${line}\n`);
  const { table } = await import("./run.mjs");
  run({ runs, log, passes: option("--passes", Math.min(runs, 3)), rowsFile: argv.includes("--rows") ? argv[argv.indexOf("--rows") + 1] : undefined, corpusOnly: argv.includes("--corpus-only"), growthOnly: argv.includes("--growth-only"), only: argv.includes("--only") ? argv[argv.indexOf("--only") + 1].split(",") : undefined }).then(
    (rows) => {
      process.stdout.write(`${table(rows)}\n`);
      process.exit(0);
    },
    (error) => {
      process.stderr.write(`bench prover failed: ${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
