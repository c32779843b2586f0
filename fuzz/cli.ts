/**
 * `npm run fuzz -- [options]`: the differential soundness tester (docs/fuzzing.md).
 *
 *     npm run fuzz -- --count 2000 --seed 1000         # judge programs of seeds 1000…2999
 *     npm run fuzz -- --count 200 --profile tdz --reopen tdz --no-record   # show it finds a re-opened hole
 *     npm run fuzz -- --replay fuzz/findings/x.ts      # judge one saved program again
 *     npm run fuzz -- --total                          # distinct programs judged so far (fuzz/runs.jsonl)
 *
 * Prints programs/second, verdict shares and refusals by construct; saves every disagreement,
 * shrunk, under fuzz/findings/, and appends the run's seed and count to fuzz/runs.jsonl.
 * Exit code 1 when a disagreement was found, 2 on a usage error.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { HOLES, reopenHole, type Hole } from "../core/prover/holes";
import { appendRun, checkoutCommit, FINDINGS_DIR, findingProgram, readRuns, saveFinding, totalPrograms } from "./findings";
import { fuzz, judgeOptions, type FuzzReport } from "./fuzz";
import { Oracle, type Judgement } from "./oracle";
import { isProfile, PROFILES } from "./profiles";
import { fuzzLayerText, ROOT } from "./project";

const int = (what: string) => (v: string): number => {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError(`${what} must be a non-negative integer`);
  return n;
};

const percent = (n: number, of: number) => `${of === 0 ? 0 : ((100 * n) / of).toFixed(1)}%`;

function shares(v: Readonly<Record<string, number>>, of: number): string {
  return Object.entries(v).map(([k, n]) => `${k} ${n} (${percent(n, of)})`).join(", ");
}

function summary(report: FuzzReport, seed: number): string {
  const lines = [
    `fuzz: ${report.programs} programs (seeds ${seed}…${seed + report.programs - 1}) in ${report.seconds.toFixed(1)} s: ${(report.programs / report.seconds).toFixed(2)} programs/s, ${report.runs} concrete runs`,
    `verdicts: ${shares(report.verdicts, report.programs)}`,
    ...[...report.forms].map(([name, f]) => `${name}: ${f.programs} programs; verdicts ${Object.entries(f.verdicts).map(([v, n]) => `${v} ${n}`).join(", ")}`),
    `ill-typed programs: ${report.illTyped.designed} by design (++/-- on a string), ${report.illTyped.other} otherwise${report.illTyped.examples.map((e) => `\n  ${e}`).join("")}`,
    "refused programs by construct (the reason of the first refused result):",
    ...[...report.refusedPrograms].sort((a, b) => b[1] - a[1]).map(([k, n]) => `  ${String(n).padStart(6)}  ${k}`),
    `violations whose counterexample did not replay because it leaves out values the replay needed, or runs past a failing precondition or throw the prover also reports: ${report.unconfirmed}${report.unconfirmedExamples.map((e) => `\n  ${e.slice(0, 600)}`).join("")}`,
    `disagreements: ${report.findings.length}`,
    ...report.findings.map((f) => `  seed ${f.seed}: ${f.disagreement.kind} — ${f.disagreement.subject}`),
  ];
  return lines.join("\n");
}

function showJudgement(j: Judgement): string {
  return [
    `verdict: ${j.verdict}`,
    ...j.results.map((r) => `  ${r.kind} ${r.subject}: ${r.verdict}${r.verdict === "proved" ? "" : `\n    ${r.message}`}`),
    ...j.refusals.map((r) => `  refused: ${r}`),
    ...j.typeErrors.map((e) => `  type error ${e}`),
    `runs: ${j.runs}`,
    ...j.notes.map((d) => `  note: ${d.kind} — ${d.subject}: ${d.detail}`),
    j.disagreements.length === 0 ? "no disagreement" : `disagreements:\n${j.disagreements.map((d) => `  ${d.kind} — ${d.subject}: ${d.detail}`).join("\n")}`,
  ].join("\n");
}

interface Options {
  count: number;
  seed?: number;
  runs: number;
  profile: string;
  reopen: string[];
  shrink: number | false;
  replay?: string;
  total?: boolean;
  record: boolean;
  rlimit?: number;
  programTimeout?: number;
  stopAfter?: number;
}

export async function main(argv: readonly string[]): Promise<number> {
  const out = (s: string) => process.stdout.write(`${s}\n`);
  const program = new Command("fuzz")
    .description("Differential soundness tester: random agent programs, proved and then run for real.")
    .option("--count <n>", "programs to generate", int("--count"), 100)
    .option("--seed <s>", "seed of the first program (program i has seed s + i); random when absent", int("--seed"))
    .option("--runs <n>", "random runs of main per program with something proved", int("--runs"), 50)
    .option("--profile <name>", `generator weights: ${Object.keys(PROFILES).join(", ")}`, "default")
    .option("--reopen <hole>", `re-open a closed hole (${Object.keys(HOLES).join(", ")}); repeatable`, (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option("--shrink <n>", "programs judged while shrinking one disagreement", int("--shrink"), 100)
    .option("--no-shrink", "save disagreements unshrunk")
    .option("--replay <file>", "judge one saved program (a finding) and print the judgement")
    .option("--total", "print the distinct programs judged so far by default-profile runs (fuzz/runs.jsonl)")
    .option("--no-record", "do not append this run to fuzz/runs.jsonl")
    .option("--rlimit <units>", "Z3 resource units per query (default: a tenth of the prover's)", int("--rlimit"))
    .option("--program-timeout <ms>", "wall-clock budget of one proof", int("--program-timeout"))
    .option("--stop-after <n>", "stop after this many disagreements", int("--stop-after"))
    .exitOverride();
  let o: Options;
  try {
    program.parse([...argv], { from: "user" });
    o = program.opts<Options>();
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  if (o.total) {
    const t = totalPrograms(readRuns());
    out(`${t.programs} distinct programs in ${t.runs} default-profile runs (fuzz/runs.jsonl)`);
    return 0;
  }
  if (!isProfile(o.profile)) {
    process.stderr.write(`fuzz: unknown --profile ${o.profile} (one of ${Object.keys(PROFILES).join(", ")})\n`);
    return 2;
  }
  const holes = o.reopen;
  for (const h of holes) {
    if (!Object.hasOwn(HOLES, h)) {
      process.stderr.write(`fuzz: unknown --reopen ${h} (one of ${Object.keys(HOLES).join(", ")})\n`);
      return 2;
    }
  }
  const limits = { ...(o.rlimit !== undefined ? { rlimit: o.rlimit } : {}), ...(o.programTimeout !== undefined ? { programTimeoutMs: o.programTimeout } : {}) };
  const closers = holes.map((h) => reopenHole(h as Hole));
  try {
    const oracle = new Oracle(fuzzLayerText());
    if (o.replay) {
      const file = path.resolve(o.replay);
      if (!fs.existsSync(file)) {
        process.stderr.write(`fuzz: --replay ${o.replay}: no such file\n`);
        return 2;
      }
      const j = await oracle.judge(findingProgram(fs.readFileSync(file, "utf8")), judgeOptions({ runs: o.runs, ...limits }, o.seed ?? 0));
      out(showJudgement(j));
      return j.disagreements.length > 0 ? 1 : 0;
    }
    const seed = o.seed ?? Math.floor(Math.random() * 2 ** 31);
    const profile = o.profile;
    out(`fuzz: ${o.count} programs from seed ${seed}, profile ${profile}${holes.length > 0 ? `, re-opened: ${holes.join(", ")}` : ""}, ${o.runs} runs each`);
    const started = Date.now();
    const report = await fuzz(oracle, {
      count: o.count,
      seed,
      weights: PROFILES[profile],
      runs: o.runs,
      shrinkBudget: o.shrink === false ? 0 : o.shrink,
      shrinkSeconds: 180,
      ...limits,
      ...(o.stopAfter !== undefined ? { stopAfter: o.stopAfter } : {}),
      onProgram: (i, _g, j) => {
        const n = i + 1;
        if (n % 50 === 0 || n === o.count) out(`  ${n}/${o.count}  ${(n / ((Date.now() - started) / 1000)).toFixed(2)} programs/s  last: ${j.verdict}`);
      },
      onFinding: (f) => {
        // Findings of runs with re-opened holes show the tester works; they are kept apart (and not committed).
        const file = saveFinding(f, profile, holes, holes.length > 0 ? path.join(FINDINGS_DIR, "reopened") : FINDINGS_DIR);
        out(`  disagreement at seed ${f.seed}: ${f.disagreement.kind} — ${f.disagreement.subject} → ${path.relative(ROOT, file)}`);
      },
    });
    out(summary(report, seed));
    if (o.record) {
      const commit = checkoutCommit();
      appendRun({ date: new Date().toISOString(), profile, seed, programs: report.programs, seconds: Math.round(report.seconds), verdicts: report.verdicts, disagreements: report.findings.length, concreteRuns: report.runs, unconfirmed: report.unconfirmed, ...(holes.length > 0 ? { holes } : {}), ...(commit !== undefined ? { commit } : {}) });
      const t = totalPrograms(readRuns());
      out(`total: ${t.programs} distinct default-profile programs so far (fuzz/runs.jsonl)`);
    }
    return report.findings.length > 0 ? 1 : 0;
  } finally {
    closers.forEach((c) => c());
  }
}
