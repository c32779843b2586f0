import fc from "fast-check";
import type { Verdict } from "../core/prover/api";
import { generatedArb, type Generated, type Weights } from "./generate";
import type { Disagreement, Judgement, JudgeOptions, Oracle } from "./oracle";

/**
 * The fuzzing loop. Program i of a run with seed S is generated from seed S + i alone (so
 * `--seed S+i --count 1` regenerates it, and runs with overlapping seed ranges test the same
 * programs: the total counts distinct seeds). A disagreement is shrunk by fast-check: smaller
 * programs are tried as long as they show the same kind of disagreement about the same contract.
 */

export interface FuzzOptions {
  readonly count: number;
  readonly seed: number;
  readonly weights: Weights;
  /** Random runs of `main` per program (when something is proved). */
  readonly runs: number;
  /** Programs judged while shrinking one disagreement, at most (0: no shrinking). */
  readonly shrinkBudget: number;
  /** Wall-clock seconds one shrink may take, at most (the CLI's; tests do not shrink). */
  readonly shrinkSeconds?: number;
  /** Solver limits of each proof (JudgeOptions). */
  readonly rlimit?: number;
  readonly programTimeoutMs?: number;
  /** Called after each program. */
  readonly onProgram?: (index: number, generated: Generated, judgement: Judgement) => void;
  /** Called after each disagreement was shrunk. */
  readonly onFinding?: (finding: Finding) => void | Promise<void>;
  /** Stop after this many programs with a disagreement. */
  readonly stopAfter?: number;
  /** Programs type-checked together in one TypeScript program (default 8). */
  readonly batch?: number;
}

/** A disagreement, with the program it was found in and the smallest program that still shows it. */
export interface Finding {
  readonly seed: number;
  readonly original: Generated;
  readonly originalJudgement: Judgement;
  readonly shrunk: Generated;
  readonly judgement: Judgement;
  readonly disagreement: Disagreement;
  /** Programs judged while shrinking. */
  readonly shrinkSteps: number;
}

export interface FuzzReport {
  readonly programs: number;
  readonly seconds: number;
  readonly verdicts: Readonly<Record<Verdict, number>>;
  /** Programs refused (as a whole verdict) by the reason of their first refused result. */
  readonly refusedPrograms: ReadonlyMap<string, number>;
  readonly findings: readonly Finding[];
  /** Programs with TypeScript errors: by design (`++` on a string) and otherwise (a generator bug). */
  readonly illTyped: { readonly designed: number; readonly other: number; readonly examples: readonly string[] };
  /** Concrete runs of `main` made by the oracle. */
  readonly runs: number;
  /** Violations whose counterexample did not replay but leaves out values the run needed (see `Judgement.notes`). */
  readonly unconfirmed: number;
  /** The first few of them, with their seeds. */
  readonly unconfirmedExamples: readonly string[];
  /** Issue 13's forms (see FORMS): programs that use each, and the verdicts of the results it concerns. */
  readonly forms: ReadonlyMap<string, { programs: number; verdicts: Record<Verdict, number> }>;
}

/**
 * Issue 13's forms, counted apart: a join guarantee (`sharesValueWith`; the verdicts of those
 * guarantees) and a call of a tool with an element promise (the verdicts of those programs).
 */
export const FORMS: Readonly<Record<string, { readonly program: RegExp; readonly result?: RegExp }>> = {
  "join guarantees (sharesValueWith)": { program: /\bm\.(alsoSentTo|paidAsTo|measuredOtherThan|someEmail)\(/, result: /^fuzz\.(alsoSentTo|paidAsTo|measuredOtherThan|someEmail)\(/ },
  "calls of tools with element promises": { program: /\b(prefixed|positives|credits)\(/ },
};

/** TypeScript's error for `++`/`--` on a string: the generator writes it on purpose. */
const DESIGNED_TYPE_ERROR = /^TS2356 /;

/**
 * Solver limits of the fuzzer's proofs: a tenth of the prover's default resource limit per query,
 * and 20 s per program. An undecided query is a refusal, which can only hide a disagreement, never
 * make one; most programs need far less.
 */
export const FUZZ_RLIMIT = 4_000_000;
export const FUZZ_PROGRAM_TIMEOUT_MS = 20_000;

export function judgeOptions(options: Pick<FuzzOptions, "runs" | "rlimit" | "programTimeoutMs">, seed: number): JudgeOptions {
  return { runs: options.runs, seed, rlimit: options.rlimit ?? FUZZ_RLIMIT, programTimeoutMs: options.programTimeoutMs ?? FUZZ_PROGRAM_TIMEOUT_MS };
}

/** The program of one seed. */
export function generate(weights: Weights, seed: number): Generated {
  return fc.sample(generatedArb(weights), { seed, numRuns: 1 })[0]!;
}

/** What makes two disagreements the same while shrinking: their kind and the contract (or result kind) they concern. */
function signature(d: Disagreement): string {
  return `${d.kind}|${d.subject.replace(/\(.*$/s, "").replace(/@.*$/, "")}`;
}

export async function fuzz(oracle: Oracle, options: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const verdicts: Record<Verdict, number> = { proved: 0, violated: 0, refused: 0 };
  const refusedPrograms = new Map<string, number>();
  const findings: Finding[] = [];
  const illTyped = { designed: 0, other: 0, examples: [] as string[] };
  let runs = 0;
  let programs = 0;
  let unconfirmed = 0;
  const unconfirmedExamples: string[] = [];
  const forms = new Map(Object.keys(FORMS).map((f) => [f, { programs: 0, verdicts: { proved: 0, violated: 0, refused: 0 } as Record<Verdict, number> }]));
  const batch = options.batch ?? 8;
  let stop = false;
  for (let start = 0; start < options.count && !stop; start += batch) {
    const seeds = Array.from({ length: Math.min(batch, options.count - start) }, (_, k) => options.seed + start + k);
    const generatedAll = seeds.map((seed) => generate(options.weights, seed));
    const judgements = await oracle.judgeAll(generatedAll.map((g, k) => ({ text: g.text, options: judgeOptions(options, seeds[k]!) })));
    for (const [k, judgement] of judgements.entries()) {
      const i = start + k;
      const seed = seeds[k]!;
      const generated = generatedAll[k]!;
      if (await record(i, seed, generated, judgement)) {
        stop = true;
        break;
      }
    }
  }
  return { programs, seconds: (Date.now() - started) / 1000, verdicts, refusedPrograms, findings, illTyped, runs, unconfirmed, unconfirmedExamples, forms };

  /** Count one judged program; true when the run should stop. */
  async function record(i: number, seed: number, generated: Generated, judgement: Judgement): Promise<boolean> {
    programs++;
    runs += judgement.runs;
    unconfirmed += judgement.notes.length;
    for (const n of judgement.notes) if (unconfirmedExamples.length < 5) unconfirmedExamples.push(`seed ${seed}: ${n.kind}: ${n.subject}: ${n.detail}`);
    verdicts[judgement.verdict]++;
    for (const [name, form] of Object.entries(FORMS)) {
      if (!form.program.test(generated.text)) continue;
      const count = forms.get(name)!;
      count.programs++;
      if (!form.result) count.verdicts[judgement.verdict]++;
      else for (const r of judgement.results) if (form.result.test(r.subject)) count.verdicts[r.verdict]++;
    }
    if (judgement.verdict === "refused" && judgement.refusals[0]) refusedPrograms.set(judgement.refusals[0], (refusedPrograms.get(judgement.refusals[0]) ?? 0) + 1);
    if (judgement.typeErrors.length > 0) {
      if (judgement.typeErrors.every((e) => DESIGNED_TYPE_ERROR.test(e))) illTyped.designed++;
      else {
        illTyped.other++;
        if (illTyped.examples.length < 3) illTyped.examples.push(`seed ${seed}: ${judgement.typeErrors.filter((e) => !DESIGNED_TYPE_ERROR.test(e)).join("; ")}`);
      }
    }
    options.onProgram?.(i, generated, judgement);
    const first = judgement.disagreements[0];
    if (first) {
      const finding = await shrink(oracle, options, seed, generated, judgement, first);
      findings.push(finding);
      await options.onFinding?.(finding);
      if (options.stopAfter !== undefined && findings.length >= options.stopAfter) return true;
    }
    return false;
  }
}

/** Shrink a program while it shows a disagreement of the same signature; at most `shrinkBudget` programs are judged. */
export async function shrink(oracle: Oracle, options: FuzzOptions, seed: number, original: Generated, originalJudgement: Judgement, disagreement: Disagreement): Promise<Finding> {
  const want = signature(disagreement);
  let best = { generated: original, judgement: originalJudgement, disagreement };
  let steps = 0;
  const deadline = Date.now() + (options.shrinkSeconds ?? Infinity) * 1000;
  // Candidates get a fifth of the solver budget: one the solver cannot decide quickly is refused, and most do not reproduce anyway.
  const candidateOptions = { ...judgeOptions(options, seed), programTimeoutMs: Math.ceil((options.programTimeoutMs ?? FUZZ_PROGRAM_TIMEOUT_MS) / 5) };
  if (options.shrinkBudget > 0) {
    await fc.check(
      fc.asyncProperty(generatedArb(options.weights), async (candidate) => {
        if (steps >= options.shrinkBudget || Date.now() > deadline) return true;
        steps++;
        // The first candidate is the original program: judged as it was found.
        const j = steps === 1 ? originalJudgement : await oracle.judge(candidate.text, candidateOptions);
        const same = j.disagreements.find((d) => signature(d) === want);
        if (!same) return true;
        if (candidate.text.length <= best.generated.text.length) best = { generated: candidate, judgement: j, disagreement: same };
        return false;
      }),
      { seed, numRuns: 1 },
    );
  }
  return { seed, original, originalJudgement, shrunk: best.generated, judgement: best.judgement, disagreement: best.disagreement, shrinkSteps: steps };
}
