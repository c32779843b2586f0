import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Finding } from "./fuzz";
import { ROOT } from "./project";

/** Where shrunk disagreements are saved, and the log of every run's seeds. */
export const FINDINGS_DIR = path.join(ROOT, "fuzz/findings");
export const RUNS_LOG = path.join(ROOT, "fuzz/runs.jsonl");

/** One line of fuzz/runs.jsonl. */
export interface RunRecord {
  readonly date: string;
  readonly profile: string;
  /** Programs seed … seed + programs - 1 were judged. */
  readonly seed: number;
  readonly programs: number;
  readonly seconds: number;
  readonly verdicts: Readonly<Record<string, number>>;
  readonly disagreements: number;
  /** Concrete runs of `main`, and violations whose counterexample left out values the replay needed (absent in the first records). */
  readonly concreteRuns?: number;
  readonly unconfirmed?: number;
  /** Holes re-opened during the run (none for soundness runs). */
  readonly holes?: readonly string[];
  /** The checkout's commit (with `+dirty` when it had uncommitted changes), so a run can be tied to the prover it judged (absent in the first records). */
  readonly commit?: string;
}

/** The checkout's commit, `+dirty` when the work tree differs from it; undefined outside a git checkout. */
export function checkoutCommit(): string | undefined {
  try {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no", "--", "core", "runtime", "fuzz", ":!fuzz/runs.jsonl", ":!fuzz/findings"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return dirty === "" ? head : `${head}+dirty`;
  } catch {
    return undefined;
  }
}

/** The header of a saved finding: `//` lines, then the shrunk program (its line numbers are the program's own: the header is left out when it is judged again). */
export function findingText(f: Finding, profile: string, holes: readonly string[]): string {
  const d = f.disagreement;
  const comment = (s: string) => s.split("\n").map((l) => `// ${l}`).join("\n");
  const header = [
    `fuzz finding: ${d.kind} — ${d.subject}`,
    `seed ${f.seed}, profile ${profile}${holes.length > 0 ? `, re-opened holes: ${holes.join(", ")}` : ""} (\`npm run fuzz -- --seed ${f.seed} --count 1${profile !== "default" ? ` --profile ${profile}` : ""}${holes.map((h) => ` --reopen ${h}`).join("")}\` finds the original; \`npm run fuzz -- --replay <this file>\` judges this one)`,
    `prover verdict: ${f.judgement.verdict} (${f.judgement.results.map((r) => `${r.subject}: ${r.verdict}`).join("; ")})`,
    `disagreement: ${d.detail}`,
    `shrunk from ${f.original.text.length} to ${f.shrunk.text.length} characters in ${f.shrinkSteps} steps`,
  ];
  return `${comment(header.join("\n"))}\n${f.shrunk.text}`;
}

/** The program of a saved finding: its text without the header (so line numbers are those it was judged with). */
export function findingProgram(text: string): string {
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length && lines[i]!.startsWith("// ")) i++;
  return lines.slice(i).join("\n");
}

/** Save a finding as `fuzz/findings/<kind>-<seed>.ts`; returns its path. */
export function saveFinding(f: Finding, profile: string, holes: readonly string[], dir = FINDINGS_DIR): string {
  fs.mkdirSync(dir, { recursive: true });
  const slug = f.disagreement.kind.replace(/[^a-z]+/gi, "-").replace(/^-|-$/g, "").toLowerCase();
  const file = path.join(dir, `${holes.length > 0 ? `${holes.join("+")}-` : ""}${slug}-${f.seed}.ts`);
  fs.writeFileSync(file, findingText(f, profile, holes));
  return file;
}

export function appendRun(record: RunRecord, file = RUNS_LOG): void {
  fs.appendFileSync(file, `${JSON.stringify(record)}\n`);
}

export function readRuns(file = RUNS_LOG): RunRecord[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l, i) => {
      try {
        return JSON.parse(l) as RunRecord;
      } catch {
        throw new Error(`${path.relative(ROOT, file)}:${i + 1}: not a JSON run record`);
      }
    });
}

/** Distinct programs judged with the default profile and no re-opened hole: the union of the runs' seed ranges. */
export function totalPrograms(records: readonly RunRecord[]): { programs: number; runs: number } {
  const ranges = records
    .filter((r) => r.profile === "default" && (r.holes ?? []).length === 0)
    .map((r) => [r.seed, r.seed + r.programs] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [lo, hi] of ranges) {
    if (hi <= end) continue;
    total += hi - Math.max(lo, end);
    end = hi;
  }
  return { programs: total, runs: ranges.length };
}
