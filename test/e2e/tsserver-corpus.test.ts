/**
 * End to end over the agent-program corpus (fixtures/programs), the way an editor meets programs
 * it has never seen: a sample of programs of every domain is opened in one real tsserver with the
 * plugin. Each shows what the engine (`proveProgram`, run here in-process on the same files) says:
 * a clauz3 error on the line of each breaking call, failing call or refused node, no clauz3 error
 * and a "proved" suggestion per guarantee for a proved program; where the engine agrees with the
 * corpus header, the header's lines. Diagnostics are polled until they settle (a bounded budget,
 * no assertion on elapsed time).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { proveProgram } from "../../core/prover/prove";
import { PROOF_CODES } from "../../core/rules";
import { loadCorpus, type CorpusProgram } from "../helpers/expectations";
import { lockProject } from "../../fixtures/projects/project.mjs";
import { ensureBuilt, makeProject, ours, removeProject, ROOT, Tsserver, type DiagnosticsView } from "../language-service/tsserver-client.mjs";

const DOMAINS = ["archive", "bank", "email", "filesystem", "http", "text"];
const PER_KIND = 2;

function sample(): CorpusProgram[] {
  const corpus = loadCorpus(path.join(ROOT, "fixtures/programs"));
  const picked: CorpusProgram[] = [];
  for (const domain of DOMAINS) {
    const programs = corpus.filter((p) => p.suite === domain);
    const failing = programs.filter((p) => p.expectations.every((e) => e.verdict === "violated" || e.verdict === "precondition"));
    const proving = programs.filter((p) => p.expectations[0]!.verdict === "proved" && !fs.readFileSync(p.file, "utf8").includes("noGuarantees"));
    picked.push(...failing.slice(0, PER_KIND), ...proving.slice(0, PER_KIND));
  }
  picked.push(...corpus.filter((p) => p.suite === "refused").slice(0, PER_KIND));
  return picked;
}

const programs = sample();
let dir: string;
let s: Tsserver;
/** The same project, type-checked in this process: what the engine says without the editor. */
let inProcess: ts.Program;

beforeAll(async () => {
  ensureBuilt();
  dir = makeProject({ stdlib: [], files: { "tsconfig.json": "{}" }, lock: false });
  for (const sub of ["fixtures/layers", "fixtures/programs", "stdlib"]) fs.cpSync(path.join(ROOT, sub), path.join(dir, sub), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", lib: ["ES2022"], module: "node16", moduleResolution: "node16", strict: true, noEmit: true, skipLibCheck: true, types: ["node"], plugins: [{ name: "clauz3/language-service" }] },
      include: ["fixtures/layers", "stdlib", ...programs.map((p) => `fixtures/programs/${p.relative}`)],
    }),
  );
  // The copied layers are the operator's: pin them (the lock sits next to this tsconfig).
  lockProject(dir);
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(dir, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  inProcess = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  s = new Tsserver(dir);
  for (const p of programs) await s.open(`fixtures/programs/${p.relative}`);
});
afterAll(async () => {
  await s?.close();
  if (dir) removeProject(dir);
});

it("samples every domain", () => {
  expect(new Set(programs.map((p) => p.suite))).toEqual(new Set([...DOMAINS, "refused"]));
  expect(programs.length).toBeGreaterThanOrEqual(20);
});

describe.each(programs.map((p) => [p.relative, p] as const))("%s", (relative, program) => {
  const file = `fixtures/programs/${relative}`;
  const header = program.expectations;

  it("shows the engine's verdict: an error on each breaking call's line, or each guarantee proved", async (context) => {
    const abs = path.join(dir, file);
    const verdict = await proveProgram({ ts, program: inProcess, file: inProcess.getSourceFile(abs)!, options: { timeoutMs: 3000 } });
    // A program the solver cannot decide quickly says nothing about the editor (it would only wait longer).
    if (verdict.results.some((r) => r.code === PROOF_CODES.unknown)) context.skip();
    const failing = verdict.results.filter((r) => r.verdict !== "proved");
    const provedGuarantees = verdict.results.filter((r) => r.verdict === "proved" && r.kind === "guarantee").length;
    // What the editor must show: each non-proved result on its line (in this file), or on its guarantee entry.
    const expected = new Set(failing.map((r) => `${r.location.fileName === abs ? r.location.line : (r.guarantee?.line ?? 0)}:${r.code}`));
    const v = await s.pollDiagnostics(file, (x) => (failing.length > 0 ? ours(x.semantic).length > 0 : ours(x.suggestion).filter((d) => d.text.startsWith("proved: ")).length >= provedGuarantees), { budgetMs: 90_000 });
    const shown = new Set(ours(v.semantic).map((d) => `${d.start.line}:${d.code}`));
    for (const e of expected) if (!e.startsWith("0:")) expect(shown).toContain(e);
    if (failing.length === 0) expect(ours(v.semantic)).toEqual([]);
    expect(ours(v.suggestion).filter((d) => d.text.startsWith("proved: ")).length).toBe(provedGuarantees);

    // Where the engine agrees with the corpus header (it does for all but a few hard programs), so does the editor.
    const lines = new Set(ours(v.semantic).filter((d) => d.category === "error").map((d) => d.start.line));
    if (header[0]!.verdict === "proved" && verdict.verdict === "proved") expect(ours(v.semantic)).toEqual([]);
    if (header[0]!.verdict !== "proved" && verdict.verdict !== "proved") {
      const listed = header.map((e) => ("line" in e ? e.line : 0));
      if (listed.every((l) => failing.some((r) => r.location.line === l))) for (const l of listed) expect(lines).toContain(l);
    }
  });
});
