/**
 * Skills for agents (core/skills): choose each library's sample program by proving the candidates
 * its signatures give, and write one `SKILL.md` per library. `writeSkills` is what `clauz3 skills`
 * runs and what `clauz3 install --skills` calls.
 *
 * A candidate is proved as `clauz3 prove` would prove a file at the project's root holding its
 * text: the same compiler options and trusted layer, the file type-checked first (a sample that
 * does not compile is never shown). It is proved against the libraries' source as it is now: the
 * in-memory proof pins the trusted files it reaches in a lock of its own, so a project whose
 * `clauz3.lock` is missing or stale still gets the samples its source allows.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as TS from "typescript";
import { readLayer } from "../core/layer/read";
import { lockDirectoryOf, lockOfProgram, LOCK_FILE, serializeLock } from "../core/lock";
import type { Library } from "../core/manifest";
import type { ProgramVerdict } from "../core/prover/api";
import { proveProgram } from "../core/prover/prove";
import { describeEntries, MAX_SAMPLE_CANDIDATES, renderSkill, sampleCandidates, type SampleCandidate, type Skill } from "../core/skills";
import type { Project } from "./project";

/** Where a candidate stands while it is proved: a file name no project holds. */
function sampleFileName(projectDir: string): string {
  for (let i = 0; ; i++) {
    const name = path.join(projectDir, `__clauz3_skill_sample${i === 0 ? "" : `_${i}`}__.ts`);
    if (!fs.existsSync(name)) return name;
  }
}

/** A program of the project's options whose one root is `fileName` holding `text`, with in-memory files over the disk. */
function overlayProgram(project: Project, files: ReadonlyMap<string, string>, root: string, oldProgram: TS.Program): TS.Program {
  const { ts } = project;
  const options = { ...project.program.getCompilerOptions(), noEmit: true };
  const host = ts.createCompilerHost(options, true);
  host.getCurrentDirectory = () => project.projectDir;
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  const key = (f: string): string => path.resolve(f);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = files.get(key(fileName));
    return text !== undefined ? ts.createSourceFile(fileName, text, languageVersion, true) : getSourceFile(fileName, languageVersion, onError, shouldCreate);
  };
  host.fileExists = (fileName) => files.has(key(fileName)) || fileExists(fileName);
  host.readFile = (fileName) => files.get(key(fileName)) ?? readFile(fileName);
  return ts.createProgram({ rootNames: [root], options, host, oldProgram });
}

export interface SampleProof {
  readonly verdict: ProgramVerdict | undefined;
  /** TypeScript's errors in the sample (it is not proved when there are any). */
  readonly typeErrors: readonly string[];
}

/** Prove `text` as a program at the project's root (see the module comment). */
export async function proveSample(project: Project, text: string): Promise<SampleProof> {
  const { ts } = project;
  const fileName = sampleFileName(project.projectDir);
  const files = new Map([[path.resolve(fileName), text]]);
  const first = overlayProgram(project, files, fileName, project.program);
  const firstLayer = readLayer(ts, first, project.options);
  const lockDir = lockDirectoryOf(first);
  files.set(path.resolve(lockDir, LOCK_FILE), serializeLock(lockOfProgram(first, firstLayer.isTrusted, lockDir)));
  const program = overlayProgram(project, files, fileName, first);
  const file = program.getSourceFile(fileName)!;
  const typeErrors = ts
    .getPreEmitDiagnostics(program, file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  if (typeErrors.length > 0) return { verdict: undefined, typeErrors };
  const verdict = await proveProgram({ ts, program, file, options: project.options }, readLayer(ts, program, project.options));
  return { verdict, typeErrors };
}

/** A verdict that shows the sample: proved, final, and its guarantee among the results. */
function provedGuarantee(verdict: ProgramVerdict | undefined): { sentence: string | undefined } | undefined {
  if (!verdict || verdict.verdict !== "proved" || verdict.provisional) return undefined;
  const guarantee = verdict.results.find((r) => r.kind === "guarantee" && r.verdict === "proved");
  return guarantee ? { sentence: guarantee.sentence } : undefined;
}

/** The skill of one library: its entries, and the first candidate sample the prover proves. */
export async function skillOf(project: Project, library: Library): Promise<Skill> {
  const { tools, contracts } = describeEntries(project.layer.model, library, project.projectDir);
  const files = new Set(library.files.map((f) => f.fileName));
  const broken = project.layer.findings.filter((f) => files.has(f.file.fileName));
  if (broken.length > 0) {
    const problem = `the library breaks ${broken.length} trusted-layer rule${broken.length === 1 ? "" : "s"} (first: ${broken[0]!.message}), so no program over it is proved; fix the layer (\`clauz3 check\` lists the rules).`;
    return { library, tools, contracts, sample: { problem } };
  }
  const candidates = sampleCandidates(project.ts, project.layer.model, library, project.projectDir);
  const tried = candidates.slice(0, MAX_SAMPLE_CANDIDATES);
  let first: string | undefined;
  for (const c of tried) {
    const proof = await proveSample(project, c.program);
    const proved = provedGuarantee(proof.verdict);
    if (proved) return { library, tools, contracts, sample: { ...c, sentence: proved.sentence } };
    first ??= proof.typeErrors[0] ?? proof.verdict?.provisional ?? proof.verdict?.results.find((r) => r.verdict !== "proved")?.message;
  }
  const why = noSampleReason(library, candidates, tried);
  return { library, tools, contracts, sample: { problem: first ? `${why} The first candidate failed with: ${first}` : why } };
}

function noSampleReason(library: Library, candidates: readonly SampleCandidate[], tried: readonly SampleCandidate[]): string {
  if (candidates.length === 0) {
    return `${library.id} has no contract and tool whose required parameters are all of types a literal can be written for (string, number, boolean, FilePath, DirectoryPath, arrays and records of those), so no sample could be generated from the signatures.`;
  }
  return `none of the ${tried.length} candidate programs generated from the signatures (one tool call under one contract${candidates.length > tried.length ? `, of ${candidates.length}` : ""}) was proved. Write the library's sample by hand and prove it with \`clauz3 check\`.`;
}

/** The skills of the given libraries (default: every library of the project), in the project's library order. */
export async function skillsOf(project: Project, libraries: readonly Library[] = project.libraries): Promise<Skill[]> {
  const out: Skill[] = [];
  for (const library of libraries) out.push(await skillOf(project, library));
  return out;
}

/** The file a library's skill is written to: `<outDir>/<domain>/SKILL.md` (`stdlib-<domain>` for a stdlib library beside a local one of that domain). */
export function skillPath(outDir: string, library: Library, all: readonly Library[]): string {
  const clash = all.some((l) => l !== library && l.domain === library.domain);
  return path.join(outDir, clash && library.stdlib ? `stdlib-${library.domain}` : library.domain, "SKILL.md");
}

/**
 * Write one `SKILL.md` per library under `outDir` (created as needed; existing skill files are
 * replaced, they are generated). Returns the skills and the files written.
 */
export async function writeSkills(project: Project, outDir: string, libraries: readonly Library[] = project.libraries): Promise<{ skills: Skill[]; files: string[] }> {
  const skills = await skillsOf(project, libraries);
  const files: string[] = [];
  for (const skill of skills) {
    const file = skillPath(outDir, skill.library, libraries);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, renderSkill(skill), "utf8");
    files.push(file);
  }
  return { skills, files };
}
