/**
 * Skills for agents (docs/skills.md): every library of stdlib/ and every fixture layer with a
 * manifest gets a SKILL.md whose sample program calls one of its tools under one of its contracts,
 * and the sample, exactly as the SKILL.md shows it, is proved here again by the prover in a
 * project of its own (not by the code that chose it). A library no candidate proves gets a
 * SKILL.md that says so, and `clauz3 skills` fails.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { createAjv } from "../../core/manifest";
import { proveProgram } from "../../core/prover/prove";
import { namespaceName, renderSkill, type Skill } from "../../core/skills";
import { loadProject, type Project } from "../../cli/project";
import { skillsOf } from "../../cli/skills";
import { createProgram, PROJECT, typeErrors } from "../helpers/program";
import { clauz3, ensureBuilt, ROOT } from "../cli/helpers";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

/** The trusted files of stdlib/ and fixtures/layers/, by path relative to the repository. */
function layerFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(r);
      else if (e.name.endsWith(".ts") && r.includes("/trusted/")) out[r] = fs.readFileSync(path.join(ROOT, r), "utf8");
    }
  };
  walk("stdlib");
  walk("fixtures/layers");
  return out;
}

/** The ```ts agent proved block of a SKILL.md. */
function sampleOf(markdown: string): string | undefined {
  return /```ts agent proved\n([\s\S]*?)```/.exec(markdown)?.[1];
}

/** Which contract the sample's guarantees call and which tools its `main` calls (read from its syntax). */
function callsOf(text: string): { contracts: string[]; calls: string[] } {
  const file = ts.createSourceFile("sample.ts", text, ts.ScriptTarget.ES2022, true);
  const contracts: string[] = [];
  const calls: string[] = [];
  for (const s of file.statements) {
    if (ts.isVariableStatement(s)) {
      const init = s.declarationList.declarations[0]?.initializer;
      if (init && ts.isArrayLiteralExpression(init)) {
        for (const e of init.elements) if (ts.isCallExpression(e)) contracts.push(e.expression.getText());
      }
    }
    if (ts.isFunctionDeclaration(s) && s.name?.text === "main") {
      const visit = (n: ts.Node): void => {
        if (ts.isCallExpression(n)) calls.push(n.expression.getText());
        ts.forEachChild(n, visit);
      };
      visit(s);
    }
  }
  return { contracts, calls };
}

/** Prove `text` placed at `at` (relative to the repository) beside every layer file, with a lock pinning them. */
async function proveIndependently(text: string, at: string, files: Record<string, string>): Promise<{ verdict: string; errors: string[]; proved: string[] }> {
  const program = createProgram({ ...files, [at]: text });
  const errors = typeErrors(program);
  const v = await proveProgram({ ts, program, file: program.getSourceFile(`${PROJECT}/${at}`)! });
  return { verdict: v.verdict, errors, proved: v.results.filter((r) => r.kind === "guarantee" && r.verdict === "proved").map((r) => r.contract ?? "") };
}

describe("skills of stdlib/ and the fixture layers", () => {
  let project: Project;
  let skills: Skill[];
  const files = layerFiles();

  beforeAll(async () => {
    project = loadProject({ cwd: path.join(ROOT, "fixtures") });
    skills = await skillsOf(project, project.libraries.filter((l) => l.manifest !== undefined));
  });

  it("covers stdlib:filesystem and every fixture layer with a manifest", () => {
    const expected = ["stdlib:filesystem", ...fs.readdirSync(path.join(ROOT, "fixtures/layers")).filter((d) => fs.existsSync(path.join(ROOT, "fixtures/layers", d, "clauz3.json")))];
    expect(skills.map((s) => s.library.id).sort()).toEqual(expected.sort());
  });

  it("has, for every library, a sample that calls one of its tools under one of its contracts, proved again here", async () => {
    for (const skill of skills) {
      const id = skill.library.id;
      const markdown = renderSkill(skill);
      const sample = sampleOf(markdown);
      expect(sample, `${id}: ${"problem" in skill.sample ? skill.sample.problem : ""}`).toBeDefined();
      const ns = namespaceName(skill.library.domain);
      const { contracts, calls } = callsOf(sample!);
      expect(contracts.some((c) => skill.contracts.some((k) => c === `${ns}.${k.name}`)), `${id}: ${contracts.join(", ")}`).toBe(true);
      expect(calls.some((c) => skill.tools.some((t) => c === t.name)), `${id}: ${calls.join(", ")}`).toBe(true);
      // The library's own files and stdlib:filesystem (which fixture layers import); no other layer.
      const root = `${path.relative(ROOT, skill.library.root).replace(/\\/g, "/")}/`;
      const own = Object.fromEntries(Object.entries(files).filter(([rel]) => rel.startsWith(root) || rel.startsWith("stdlib/")));
      const proof = await proveIndependently(sample!, "fixtures/sample.ts", own);
      expect(proof.errors, id).toEqual([]);
      expect(proof.verdict, id).toBe("proved");
      expect(proof.proved.length, id).toBeGreaterThan(0);
    }
  });

  it("builds a tool's strings from the literals its precondition tests (net: every tool wants an https URL or a #channel)", () => {
    const net = skills.find((s) => s.library.id.endsWith("net"))!;
    const sample = sampleOf(renderSkill(net));
    expect(sample, "problem" in net.sample ? net.sample.problem : "").toBeDefined();
    expect(sample).toMatch(/await (httpGet|httpGetLines|httpPost|postMessage)\(.*"(https:\/\/example|#example)"/);
  });

  it("states each tool's signature and first JSDoc line and each contract's signature and template", () => {
    const fsSkill = skills.find((s) => s.library.id === "stdlib:filesystem")!;
    const md = renderSkill(fsSkill);
    expect(md).toContain("- `readFile(path: string): string` from `../stdlib/filesystem/trusted/effects.js` — Read a UTF-8 text file.");
    expect(md).toContain("`filesystem.neverReadUnder(prefix: string)` from `../stdlib/filesystem/trusted/contracts.js` — “No filesystem tool reads a path starting with {prefix}.”");
    expect(md).toMatch(/^---\nname: "clauz3-filesystem"\ndescription: "Filesystem: Read, write/);
  });

  it("proves the stdlib sample in the layout `clauz3 install` gives a project (tools/filesystem/)", async () => {
    const sample = sampleOf(renderSkill(skills.find((s) => s.library.id === "stdlib:filesystem")!))!;
    const installed: Record<string, string> = {};
    for (const [rel, text] of Object.entries(files)) if (rel.startsWith("stdlib/filesystem/")) installed[rel.replace("stdlib/", "tools/")] = text;
    const proof = await proveIndependently(sample.replaceAll("../stdlib/filesystem/", "./tools/filesystem/"), "plan.ts", installed);
    expect(proof.errors).toEqual([]);
    expect(proof.verdict).toBe("proved");
  });
});

describe("a library without a provable sample", () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-skills-"));
    const runtime = (f: string): string[] => [path.join(ROOT, "runtime", f)];
    fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({
      compilerOptions: { target: "ES2022", module: "preserve", moduleResolution: "bundler", strict: true, noEmit: true, skipLibCheck: true, types: [], paths: { clauz3: runtime("index.ts"), "clauz3/events": runtime("events.ts"), "clauz3/spec": runtime("spec.ts") } },
      include: ["tools"],
    }));
    fs.mkdirSync(path.join(dir, "tools/codes/trusted"), { recursive: true });
    fs.writeFileSync(path.join(dir, "tools/codes/clauz3.json"), JSON.stringify({ title: "Codes", summary: "Send codes." }));
    fs.writeFileSync(path.join(dir, "tools/codes/trusted/layer.ts"), [
      'import { Event, performs } from "clauz3/events";',
      'import { requires, trusted } from "clauz3";',
      'import { contract, type ContractSpec } from "clauz3/spec";',
      "export class Sent extends Event { constructor(readonly code: string) { super(); } }",
      "/** Send a code; the prover does not model the regular expression its precondition tests. */",
      "export const send = trusted(",
      "  performs((code: string) => new Sent(code)),",
      '  requires((code: string) => /^[0-9]+$/.test(code), "digits only"),',
      "  function send(code: string): void {},",
      ");",
      'export const noCodes = contract({ description: "No code is sent." }, (): ContractSpec => Sent.empty());',
      "",
    ].join("\n"));
    // A library that breaks a layer rule (93005: a tool parameter with a default value).
    fs.mkdirSync(path.join(dir, "tools/bad/trusted"), { recursive: true });
    fs.writeFileSync(path.join(dir, "tools/bad/clauz3.json"), JSON.stringify({ title: "Bad", summary: "Breaks a rule." }));
    fs.writeFileSync(path.join(dir, "tools/bad/trusted/layer.ts"), [
      'import { trusted } from "clauz3";',
      'import { contract, type ContractSpec } from "clauz3/spec";',
      'import { Event, performs } from "clauz3/events";',
      "export class Noted extends Event { constructor(readonly text: string) { super(); } }",
      'export const note = trusted(performs((text: string) => new Noted(text)), function note(text: string = "x"): void {});',
      'export const noNotes = contract({ description: "Nothing is noted." }, (): ContractSpec => Noted.empty());',
      "",
    ].join("\n"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("gets a SKILL.md saying so, and `clauz3 skills` exits 1", () => {
    const r = clauz3(["skills", "--out", "out"], dir);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/without a sample program: none of the 1 candidate programs/);
    const md = fs.readFileSync(path.join(dir, "out/codes/SKILL.md"), "utf8");
    expect(md).toMatch(/No sample program: none of the 1 candidate programs generated from the signatures/);
    expect(md).not.toContain("```ts agent proved");
    expect(md).toContain("`send(code: string): void` from `./tools/codes/trusted/layer.js`");
    const bad = fs.readFileSync(path.join(dir, "out/bad/SKILL.md"), "utf8");
    expect(bad).toMatch(/No sample program: the library breaks 1 trusted-layer rule \(first: /);
  });
});

describe("clauz3 tools --json", () => {
  beforeAll(() => ensureBuilt());

  it("matches schema/tools.schema.json and holds what the SKILL.md holds", () => {
    const r = clauz3(["tools", "--json", "--library", "stdlib:filesystem"], path.join(ROOT, "fixtures"));
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { libraries: { id: string; tools: { name: string }[]; sample: { program: string; tool: string } | null }[] };
    const validate = createAjv().compile(JSON.parse(fs.readFileSync(path.join(ROOT, "schema/tools.schema.json"), "utf8")) as object);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.libraries.map((l) => l.id)).toEqual(["stdlib:filesystem"]);
    expect(json.libraries[0]!.tools.map((t) => t.name)).toContain("readFile");
    expect(json.libraries[0]!.sample?.program).toMatch(/export const guarantees = \[filesystem\./);
  });
});
