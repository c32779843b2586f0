/**
 * Parallel proving (`--jobs`, docs/jobs.md): `clauz3 check --no-cache` over the corpus's decided
 * programs (fixtures/programs without `_pending/`, as bench/cache.mjs), a fresh process per run, alternately with `--jobs 1` (every
 * program proved in the CLI's own process) and `--jobs 2` (two worker processes, each with its own
 * warm Z3). Wall time only: the workers' CPU time is not the CLI process's.
 *
 * Target: `--jobs 2` ≥ 1.7× faster than `--jobs 1` on two idle cores (ratio ≤ 0.59). The gate's
 * type-check and the loading of the project stay serial in the CLI, and each worker loads the
 * project again; on a loaded machine the ratio says little.
 *
 * The runs keep the proofs' timings in a temporary `--cache-location` (verdicts are not cached:
 * `--no-cache`), so every run after the warm-ups hands the slowest programs out first, as a CI
 * run after a restored cache does; the first run of a project has no timings (docs/jobs.md).
 *
 * `CLAUZ3_BENCH_JOBS_PATHS` (space-separated paths below the repository) narrows the run to a
 * subset of the corpus, for a quick look.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureBuilt, ROOT } from "../fixtures/projects/project.mjs";
import { alternate, decidedPrograms, median } from "./run.mjs";

export const name = "jobs";
export const description = "`clauz3 check --no-cache` over the corpus (fixtures/programs), one fresh process per run: --jobs 2 (slowest programs first, by the previous run's timings) against --jobs 1; medians of alternating runs (wall time)";

const CLI = path.join(ROOT, "dist/cli/main.js");

export async function run({ runs, log }) {
  ensureBuilt(log);
  const narrowed = (process.env.CLAUZ3_BENCH_JOBS_PATHS ?? "").split(" ").filter(Boolean);
  const paths = narrowed.length > 0 ? narrowed : decidedPrograms(ROOT);
  const timings = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-bench-jobs-"));
  const check = (jobs) => () => {
    const r = spawnSync(process.execPath, [CLI, "check", "-p", "fixtures/tsconfig.json", ...paths, "--format", "json", "--no-cache", "--cache-location", timings, "--jobs", String(jobs)], {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    // The corpus holds violated and refused programs on purpose: exit 1 is its normal result.
    if (r.status !== 0 && r.status !== 1) throw new Error(`clauz3 check --jobs ${jobs} exited with ${r.status}:\n${r.stderr}`);
  };
  const what = narrowed.length > 0 ? narrowed.join(" ") : `the corpus (${paths.length} programs)`;
  log(`bench jobs: 2 × (1 warm-up + ${runs} runs) of clauz3 check over ${what}`);
  let samples;
  try {
    samples = await alternate({ one: check(1), two: check(2) }, runs);
  } finally {
    fs.rmSync(timings, { recursive: true, force: true });
  }
  return [
    {
      benchmark: "parallel proving",
      subject: `clauz3 check --jobs 2 (${what})`,
      subjectMs: median(samples.two.wall),
      baseline: "clauz3 check --jobs 1",
      baselineMs: median(samples.one.wall),
      runs,
      target: 1 / 1.7,
    },
  ];
}
