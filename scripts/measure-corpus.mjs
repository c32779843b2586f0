#!/usr/bin/env node
/**
 * Measure how the prover decides corpus programs against their headers (fixtures/programs/README.md),
 * the way the held-out suite of issue 10 is judged: per program, decided correctly (the header's
 * verdict and, for a violation, its results and lines), refused (counted by the refusal's cause),
 * or wrong (a wrong "proved" first). Programs under `_pending/` directories are included: they are
 * the ones the prover refuses today although their header says proved or violated.
 *
 *     node scripts/measure-corpus.mjs [--json out.json] [--range a:b] <dir under fixtures/programs> ...
 *
 * `--range a:b` measures only programs a…b-1 of the sorted list (to split a run over processes).
 *
 * Uses the built `dist/` (run `npm run build` first) and the prover's default limits, as
 * `clauz3 prove` has them. Prints numbers, asserts nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const ts = require(path.join(ROOT, "node_modules/typescript"));
const { readLayer } = require(path.join(ROOT, "dist/core/layer/read.js"));
const { proveProgram } = require(path.join(ROOT, "dist/core/prover/prove.js"));

const args = process.argv.slice(2);
const jsonAt = args.indexOf("--json");
const jsonOut = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : undefined;
const rangeAt = args.indexOf("--range");
const range = rangeAt >= 0 ? args.splice(rangeAt, 2)[1].split(":").map(Number) : [0, Infinity];
const CORPUS = path.join(ROOT, "fixtures/programs");
if (args.length === 0) throw new Error("name one or more directories under fixtures/programs");

/** Every program below dir, `_pending/` included, support files (`_support`, other `_` names) not. */
function programs(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory() && (!e.name.startsWith("_") || e.name === "_pending")) out.push(...programs(full));
    else if (e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) out.push(full);
  }
  return out.sort();
}

/** The `@expect` lines of a header, as comparable keys (see test/helpers/expectations.ts). */
function expectations(text) {
  const lines = text.split(/\r?\n/);
  const out = [];
  for (const l of lines) {
    if (!l.startsWith("//")) break;
    const m = /^\/\/ @expect (.*)$/.exec(l);
    if (m) out.push(m[1]);
  }
  return out;
}

function expectedVerdict(es) {
  if (es.some((e) => e.startsWith("refused"))) return "refused";
  if (es.some((e) => e !== "proved")) return "violated";
  return "proved";
}

function actualKeys(v, file) {
  return [...new Set(v.results.filter((r) => r.verdict === "violated").map((r) => {
    const line = r.location.fileName === file ? r.location.line : -1;
    if (r.kind === "guarantee") return `violated ${r.contractName} line=${line}`;
    if (r.kind === "precondition") return `precondition ${r.tool.split(".").pop()} line=${line}`;
    return `throw line=${line}`;
  }))].sort();
}

/** A refusal's reason without what is particular to the program (as fuzz/oracle.ts's refusalKey). */
function refusalKey(message) {
  let m = message.replace(/^refused:\s*/, "");
  m = m.replace(/^[\w.]+\([^)]*\)(: |\s)/, "");
  if (/^the solver could not decide/.test(m)) return "the solver could not decide (unknown or timeout)";
  m = m.replace(/`[^`]*`/g, (code) => (/^`[A-Za-z.…]+`$/.test(code) && !/^`[vphikrm]\d/.test(code) ? code : "`…`"));
  const sentence = /^(.*?[.:])(\s|$)/.exec(m);
  return (sentence ? sentence[1] : m).replace(/"[^"]*"/g, '"…"').replace(/\d+/g, "N").slice(0, 140);
}

const configFile = path.join(ROOT, "fixtures/tsconfig.json");
const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } });
const files = args.flatMap((d) => programs(path.join(CORPUS, d))).slice(range[0], range[1]);
// _pending programs are not in fixtures/tsconfig.json's program when excluded; add every file measured.
const program = ts.createProgram({ rootNames: [...new Set([...parsed.fileNames, ...files])], options: parsed.options });
const layer = readLayer(ts, program);

const rows = [];
for (const file of files) {
  const rel = path.relative(CORPUS, file).split(path.sep).join("/");
  const es = expectations(fs.readFileSync(file, "utf8"));
  const want = expectedVerdict(es);
  const start = Date.now();
  const v = await proveProgram({ ts, program, file: program.getSourceFile(file) }, layer);
  const ms = Date.now() - start;
  let outcome;
  let detail = "";
  if (v.verdict === "refused") {
    const refusals = v.results.filter((r) => r.verdict === "refused");
    detail = refusals.length > 0 ? refusalKey(refusals[0].message) : "refused without a refused result";
    if (want === "refused") {
      const lines = es.filter((e) => e.startsWith("refused")).map((e) => Number(/line=(\d+)/.exec(e)[1]));
      outcome = refusals.some((r) => r.location.fileName === file && lines.includes(r.location.line)) ? "correct" : "refused-elsewhere";
    } else outcome = "refused";
    detail += ` @${refusals.map((r) => (r.location.fileName === file ? r.location.line : path.basename(r.location.fileName) + ":" + r.location.line)).join(",")}`;
  } else if (v.verdict === want) {
    if (want === "violated") {
      const got = actualKeys(v, file);
      const exp = es.filter((e) => e !== "proved").sort();
      outcome = JSON.stringify(got) === JSON.stringify(exp) ? "correct" : "violated-other-results";
      if (outcome !== "correct") detail = `expected ${exp.join("; ")}, got ${got.join("; ")}`;
    } else outcome = "correct";
  } else if (v.verdict === "proved") outcome = "WRONG-PROVED";
  else {
    outcome = "wrong";
    detail = `expected ${want}, got ${v.verdict}: ${actualKeys(v, file).join("; ")}`;
  }
  const row = { program: rel, expected: want, verdict: v.verdict, outcome, detail, ms, provisional: v.provisional };
  rows.push(row);
  console.log(`${outcome.padEnd(22)} ${rel.padEnd(60)} ${String(ms).padStart(6)} ms ${detail}${v.provisional ? " (provisional)" : ""}`);
}

const count = (pred) => rows.filter(pred).length;
console.log(`\n${rows.length} programs: ${count((r) => r.expected === "proved")} expected proved, ${count((r) => r.expected === "violated")} expected violated, ${count((r) => r.expected === "refused")} expected refused`);
const outcomes = {};
for (const r of rows) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
console.log(`outcomes: ${JSON.stringify(outcomes)}`);
const causes = {};
for (const r of rows.filter((x) => x.outcome === "refused")) {
  const k = r.detail.replace(/ @.*$/, "");
  causes[k] = (causes[k] ?? 0) + 1;
}
console.log("refusals of programs expected proved or violated, by cause:");
for (const [k, n] of Object.entries(causes).sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(3)}  ${k}`);
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ rows, outcomes, causes }, null, 2));
process.exit(0);
