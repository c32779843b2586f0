/**
 * Determinism: a verdict and its counterexample are a function of the program, not of the
 * machine's load or of what the process proved before. Queries are bounded by Z3's resource
 * counter, each runs in a fresh context, and the attempts of a query take turns in resource
 * slices; so the same program proved on an idle machine, after other programs, and while every
 * core is busy gives the same results, down to the counterexample text.
 */
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import ts from "typescript";
import type { ProgramVerdict } from "../../core/prover/api";
import { readLayer, type LayerResult } from "../../core/layer/read";
import { proveProgram } from "../../core/prover/prove";

const FIXTURES = path.resolve(__dirname, "../../fixtures");
/** Programs whose counterexamples come from the solver's search (floats over a loop, strings over a template), and one proved. */
const PROGRAMS = ["crm/discount_max_fail.ts", "http/url_prefix_template_fail.ts", "crm/winback_pass.ts"].map((p) => path.join(FIXTURES, "programs", p));

let program: ts.Program;
let layer: LayerResult;

beforeAll(() => {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(FIXTURES, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } })!;
  program = ts.createProgram({ rootNames: PROGRAMS, options: parsed.options });
  layer = readLayer(ts, program);
});

/** Everything a person sees of a verdict: each result's verdict, code, place, message and counterexample. */
function seen(v: ProgramVerdict): string {
  return JSON.stringify({ verdict: v.verdict, provisional: v.provisional, results: v.results.map((r) => ({ verdict: r.verdict, code: r.code, line: r.location.line, column: r.location.column, message: r.message, counterexample: r.counterexample })) });
}

const prove = (file: string) => proveProgram({ ts, program, file: program.getSourceFile(file)! }, layer);

/** Run `work` while `n` threads spin (the machine has fewer cores than that). */
async function busy<T>(n: number, work: () => Promise<T>): Promise<T> {
  const spinners = Array.from({ length: n }, () => new Worker("for (;;) {}", { eval: true }));
  try {
    await Promise.all(spinners.map((w) => new Promise((resolve) => w.once("online", resolve))));
    return await work();
  } finally {
    await Promise.all(spinners.map((w) => w.terminate()));
  }
}

describe("the same program gives the same results", () => {
  it("idle, after other programs, and with every core busy", async () => {
    const first = new Map<string, string>();
    for (const file of PROGRAMS) first.set(file, seen(await prove(file)));
    // The violated ones show counterexamples found by the solver, and nothing came from the wall clock.
    expect(first.get(PROGRAMS[0]!)).toMatch(/"verdict":"violated".*"counterexample"/);
    expect(first.get(PROGRAMS[1]!)).toMatch(/"verdict":"violated".*"counterexample"/);
    expect(first.get(PROGRAMS[2]!)).toMatch(/^\{"verdict":"proved"/);
    for (const s of first.values()) expect(s).not.toContain('"provisional":"');
    // Again, in reverse order (each query after different ones), with four threads spinning.
    await busy(4, async () => {
      for (const file of [...PROGRAMS].reverse()) expect(seen(await prove(file)), path.basename(file)).toBe(first.get(file));
    });
  });
});
