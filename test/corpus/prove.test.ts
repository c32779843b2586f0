import * as path from "node:path";
import ts from "typescript";
import { readLayer, type LayerResult } from "../../core/layer/read";
import { proveProgram } from "../../core/prover/prove";
import type { ProgramVerdict } from "../../core/prover/api";
import { expectedVerdict, loadCorpus, type CorpusProgram, type Expectation } from "../helpers/expectations";

const FIXTURES = path.resolve(__dirname, "../../fixtures");
const corpus = loadCorpus(path.join(FIXTURES, "programs"));

let program: ts.Program;
let layer: LayerResult;

beforeAll(() => {
  const configFile = path.join(FIXTURES, "tsconfig.json");
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } })!;
  program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  layer = readLayer(ts, program);
});

/** The non-proved results as comparable keys: `violated <contract> line=N`, `precondition <tool> line=N`, `throw line=N`. */
function actualKeys(v: ProgramVerdict, file: string): string[] {
  return v.results
    .filter((r) => r.verdict === "violated")
    .map((r) => {
      const line = r.location.fileName === file ? r.location.line : -1;
      if (r.kind === "guarantee") return `violated ${r.contractName} line=${line}`;
      if (r.kind === "precondition") return `precondition ${r.tool!.split(".").pop()} line=${line}`;
      return `throw line=${line}`;
    })
    .filter((k, i, all) => all.indexOf(k) === i)
    .sort();
}

function expectedKeys(es: readonly Expectation[]): string[] {
  return es
    .flatMap((e) => (e.verdict === "violated" ? [`violated ${e.contract} line=${e.line}`] : e.verdict === "precondition" ? [`precondition ${e.tool} line=${e.line}`] : e.verdict === "throw" ? [`throw line=${e.line}`] : []))
    .sort();
}

function explain(v: ProgramVerdict): string {
  return v.results.filter((r) => r.verdict !== "proved").map((r) => `${r.verdict} ${r.kind} ${path.basename(r.location.fileName)}:${r.location.line}: ${r.message}`).join("\n");
}

// Every directory of fixtures/programs is a suite (a domain, `refused` or `adversarial`).
const suites = [...new Set(corpus.map((p) => p.suite))].sort();

describe.each(suites)("corpus: %s", (suite) => {
  const programs = corpus.filter((p) => p.suite === suite);
  it.each(programs.map((p) => [p.relative, p] as [string, CorpusProgram]))("%s", async (_name, p) => {
    const file = program.getSourceFile(p.file);
    expect(file, `${p.file} is not in fixtures/tsconfig.json`).toBeDefined();
    // Verdicts, not speed, are under test here (speed is `npm run bench`): queries are bounded by
    // the solver's resource limit (the default, deterministic), and the wall-clock backstops are
    // far away, so a busy machine cannot turn a slow answer into a refusal.
    const v = await proveProgram({ ts, program, file: file!, options: { timeoutMs: 600_000, programTimeoutMs: 3_600_000 } }, layer);
    expect(v.provisional, "an answer came from the wall clock, not from the resource limit").toBeUndefined();
    const want = expectedVerdict(p.expectations);
    if (suite === "adversarial" && !path.basename(p.file).startsWith("control_")) {
      // The hard requirement first: a program that hides a call is never proved.
      expect(v.verdict, explain(v)).not.toBe("proved");
    }
    expect(v.verdict, explain(v)).toBe(want);
    if (want === "refused") {
      const lines = p.expectations.flatMap((e) => (e.verdict === "refused" ? [e.line] : []));
      const refusedLines = v.results.filter((r) => r.verdict === "refused" && r.location.fileName === p.file).map((r) => r.location.line);
      expect(refusedLines.some((l) => lines.includes(l)), `refused at ${refusedLines.join(", ") || "no line of this file"}, expected one of ${lines.join(", ")}\n${explain(v)}`).toBe(true);
    } else if (want === "violated") {
      expect(actualKeys(v, p.file), explain(v)).toEqual(expectedKeys(p.expectations));
    }
    // The test's own limit is the program's (above), not vitest's default: a busy machine may take minutes.
  }, 3_600_000);
});
