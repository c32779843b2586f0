/**
 * The proof cache (docs/cache.md): `clauz3 check` over the whole corpus (fixtures/programs, one
 * project), a fresh process per run, alternately:
 *
 * - cold: `--no-cache`, every program proved;
 * - warm: the same command over a cache the warm-up run filled (`--cache-location` in a
 *   temporary directory), nothing changed in between: the stored run is replayed (docs/cache.md,
 *   "A run nothing changed");
 * - warm without a stored run: the same, after removing the cache's stored runs (`runs/`), as
 *   after an edit the proof cache answers: every final verdict is a hit, but TypeScript, the
 *   layer and the gate run (that run stores the run again, which the next warm run replays).
 *
 * The corpus is its decided programs, as in bench/prover.mjs: the programs under a directory
 * whose name starts with `_` (`_pending/`: programs the prover cannot decide yet, `_support/`) are
 * left out. An undecided proof (a time-out, the resource limit) is never cached, so each of those
 * costs its whole budget on every run, warm or cold (docs/cache.md).
 *
 * Target: warm ≤ 5 % of cold (issue 14).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt, ROOT } from "../fixtures/projects/project.mjs";
import { alternate, decidedPrograms, median } from "./run.mjs";

export const name = "cache";
export const description = "`clauz3 check` over the corpus (fixtures/programs), one fresh process per run: no cache against a warm cache (its stored run replayed) and against a warm proof cache without a stored run; medians of alternating runs";

const CLI = path.join(ROOT, "dist/cli/main.js");
const CPU_TIME = fileURLToPath(new URL("./cpu-time.cjs", import.meta.url));

export async function run({ runs, log }) {
  ensureBuilt(log);
  const programs = decidedPrograms(ROOT);
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-bench-cache-"));
  try {
    const check = (...flags) => () => {
      const r = spawnSync(process.execPath, ["--require", CPU_TIME, CLI, "check", "-p", "fixtures/tsconfig.json", "--format", "json", ...flags, ...programs], {
        cwd: ROOT,
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
        stdio: ["ignore", "pipe", "pipe", "pipe"],
      });
      // The corpus holds violated and refused programs on purpose: exit 1 is its normal result.
      if (r.status !== 0 && r.status !== 1) throw new Error(`clauz3 check exited with ${r.status}:\n${r.stderr}`);
      return JSON.parse(r.output[3]);
    };
    const warm = check("--cache-location", cacheDir);
    const fns = {
      cold: check("--no-cache"),
      warm,
      proofsOnly: () => {
        fs.rmSync(path.join(cacheDir, "runs"), { recursive: true, force: true });
        return warm();
      },
    };
    log(`bench cache: 3 × (1 warm-up + ${runs} runs) of clauz3 check over the corpus (${programs.length} programs)`);
    const samples = await alternate(fns, runs);
    return [
      {
        benchmark: "proof cache",
        subject: `clauz3 check of ${programs.length} corpus programs, warm cache (its stored run replayed)`,
        subjectMs: median(samples.warm.wall),
        subjectCpuMs: median(samples.warm.cpu),
        baseline: "clauz3 check --no-cache",
        baselineMs: median(samples.cold.wall),
        baselineCpuMs: median(samples.cold.cpu),
        runs,
        target: 0.05,
      },
      {
        benchmark: "proof cache",
        subject: "the same, its stored run removed (every proof a hit; TypeScript, the layer and the gate run)",
        subjectMs: median(samples.proofsOnly.wall),
        subjectCpuMs: median(samples.proofsOnly.cpu),
        baseline: "clauz3 check --no-cache",
        baselineMs: median(samples.cold.wall),
        baselineCpuMs: median(samples.cold.cpu),
        runs,
      },
    ];
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}
