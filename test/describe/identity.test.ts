import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describeProgram, sentenceOf, type GuaranteeIdentity } from "../../core/describe";
import { readLayer } from "../../core/layer/read";
import { defaultReadBytes, type ReadBytes } from "../../core/manifest";
import { RENDERER_VERSION } from "../../core/template";
import { createProgram, PROJECT, stdlibFiles } from "../helpers/program";

const ROOT = path.resolve(__dirname, "../..");
const MANIFEST = fs.readFileSync(path.join(ROOT, "stdlib/filesystem/clauz3.json"), "utf8");
const sha = (s: string) => crypto.createHash("sha256").update(Buffer.from(s, "utf8")).digest("hex");

function readBytesWith(files: Record<string, string>): ReadBytes {
  return (f) => {
    const rel = path.posix.relative(PROJECT, f);
    return rel in files ? Buffer.from(files[rel]!, "utf8") : f.startsWith(`${PROJECT}/`) ? undefined : defaultReadBytes(f);
  };
}

const HEADER = `import { FilePath, DirectoryPath } from "clauz3";
import * as fs from "./tools/filesystem/trusted/contracts";
`;

function describe_(plan: string, extra: Record<string, string> = {}) {
  const files = { ...stdlibFiles(), "tools/filesystem/clauz3.json": MANIFEST, ...extra, "plan.ts": HEADER + plan };
  const program = createProgram(files);
  const layer = readLayer(ts, program);
  expect(layer.findings.map((f) => f.message)).toEqual([]);
  const file = program.getSourceFile(`${PROJECT}/plan.ts`)!;
  return describeProgram({ ts, program, layer: layer.model, file, readBytes: readBytesWith(files) });
}

function only(plan: string, extra: Record<string, string> = {}): GuaranteeIdentity {
  const d = describe_(`export const guarantees = [${plan}];\n`, extra);
  expect(d.refusals.map((r) => r.message)).toEqual([]);
  expect(d.guarantees).toHaveLength(1);
  return d.guarantees[0]!;
}

describe("guarantee identity", () => {
  it("has the library title, the qualified call, the sentence, the symbol and the digests", () => {
    const g = only(`fs.onlyReadsFiles([FilePath("test.md")])`);
    expect(g.library).toMatchObject({ id: "filesystem", domain: "filesystem", title: "Filesystem", badge: null, manifest: "tools/filesystem/clauz3.json", manifestSha256: sha(MANIFEST) });
    expect(g.call).toBe('filesystem.onlyReadsFiles(files=[FilePath("test.md")])');
    expect(g.sentence).toBe('Filesystem tools read only the files ["test.md"], and list or search no directory.');
    expect(g.sentenceSource).toBe("template");
    expect(g.sentenceProblem).toBeNull();
    expect(g.symbol).toBe("tools/filesystem/trusted/contracts#onlyReadsFiles");
    expect(g.qualifiedName).toBe("filesystem.onlyReadsFiles");
    expect(g.parameters).toEqual([{ name: "files", type: "FilePath[]", value: ["test.md"], literal: '[FilePath("test.md")]', defaulted: false }]);
    expect(g.instance).toEqual({ contract: "filesystem.onlyReadsFiles", arguments: { files: ["test.md"] } });
    expect(g.template).toBe("Filesystem tools read only the files {files}, and list or search no directory.");
    expect(g.templateSha256).toBe(sha(g.template!));
    expect(g.rendererVersion).toBe(RENDERER_VERSION);
    const stdlib = stdlibFiles();
    expect(g.sources).toEqual(
      ["contracts.ts", "async.ts", "effects.ts", "events.ts"].map((n) => ({ file: `tools/filesystem/trusted/${n}`, sha256: sha(stdlib[`tools/filesystem/trusted/${n}`]!) })),
    );
    expect(g.documentation).toMatch(/^Only the listed files are read, each named exactly\.\n\n/);
    expect(g.location).toEqual({ file: "plan.ts", line: 3, column: 28 });
    expect(g.expression).toBe('fs.onlyReadsFiles([FilePath("test.md")])');
  });

  it.each([
    ['"plain"', '"plain"'],
    [String.raw`"quote \" and backslash \\"`, String.raw`"quote \" and backslash \\"`],
    [String.raw`"tab\tnewline\nreturn\rnul\0bell\u0007esc\u001b"`, String.raw`"tab\tnewline\nreturn\rnul\u0000bell\u0007esc\u001b"`],
    [String.raw`"del\u007f c1\u0085 ls\u2028 rlo\u202e"`, String.raw`"del\u007f c1\u0085 ls\u2028 rlo\u202e"`],
    ['"é 日本語 😀"', '"é 日本語 😀"'],
    [String.raw`"\u00e9\u{1F600}"`, '"é😀"'],
    ["'single \\' quoted'", `"single ' quoted"`],
    ["`template literal`", '"template literal"'],
    ['"{prefix}"', '"{prefix}"'],
  ])("renders the literal %s exactly as %s", (literal, rendered) => {
    const g = only(`fs.neverReadUnder(${literal})`);
    expect(g.sentence).toBe(`No filesystem tool reads a path starting with ${rendered}.`);
    expect(JSON.parse(rendered)).toBe(g.parameters[0]!.value);
  });

  it("renders typed paths and arrays", () => {
    expect(only(`fs.onlyWritesFilesUnder(DirectoryPath("out/\\"x\\""))`).sentence).toBe('Filesystem tools write, move or delete only files inside the directory "out/\\"x\\"".');
    expect(only(`fs.onlyReadsFiles([FilePath("a.md"), FilePath("b\\\\c.md"), FilePath("")])`).sentence).toBe(
      'Filesystem tools read only the files ["a.md", "b\\\\c.md", ""], and list or search no directory.',
    );
    expect(only(`fs.onlyReadsFiles([])`).sentence).toBe("Filesystem tools read only the files [], and list or search no directory.");
  });

  it("renders numbers as JSON and -0 as -0", () => {
    expect(only(`fs.writesAtMost(3)`).sentence).toBe("Filesystem tools perform at most 3 file writes (a move counts as two) and write no whole directory.");
    expect(only(`fs.writesAtMost(2.50)`).sentence).toMatch(/at most 2\.5 file writes/);
    expect(only(`fs.writesAtMost(0x10)`).sentence).toMatch(/at most 16 file writes/);
    expect(only(`fs.writesAtMost(-0)`).sentence).toMatch(/at most -0 file writes/);
  });

  it("shows the first JSDoc paragraph when a number has no JSON form", () => {
    const g = only(`fs.writesAtMost(1e999)`);
    expect(g.sentence).toBe("At most n file writes are performed.");
    expect(g.sentenceSource).toBe("documentation");
    expect(g.sentenceProblem).toMatch(/Infinity has no JSON form/);
    expect(g.parameters[0]!.value).toBe("Infinity");
  });

  it("shows the first JSDoc paragraph on a type mismatch, and says so", () => {
    const g = only(`fs.writesAtMost("3" as any)`);
    expect(g.sentence).toBe("At most n file writes are performed.");
    expect(g.sentenceSource).toBe("documentation");
    expect(g.sentenceProblem).toMatch(/a string was given where the parameter is declared number/);
    expect(g.call).toBe('filesystem.writesAtMost(n="3")');
    const path = only(`fs.onlyReadsFiles(["plain string"] as any)`);
    expect(path.sentenceSource).toBe("documentation");
    expect(path.sentence).toBe("Only the listed files are read, each named exactly.");
  });

  it("expands defaults and uses the JSDoc when there is no template", () => {
    const layer = {
      "tools/extra/trusted/contracts.ts": `import { contract, type ContractSpec } from "clauz3/spec";
import { Read } from "../../filesystem/trusted/events";
/**
 * At most n reads
 * of any file.
 *
 * Details.
 */
export const readsAtMost = contract((n: number = 2): ContractSpec => Read.count().atMost(n));
/** Reads of files under prefix, at most limit. */
export const limited = contract({ description: "At most {limit} reads under {prefix}." }, (prefix: string, limit: number = 5): ContractSpec => Read.where((e) => e.path.startsWith(prefix)).count().atMost(limit));
export const bare = contract((): ContractSpec => Read.empty());
`,
    };
    const d = describe_(`import * as extra from "./tools/extra/trusted/contracts";\nexport const guarantees = [extra.readsAtMost(), extra.limited("a"), extra.limited("b", 1), extra.bare()];\n`, layer);
    const [a, b, c, e] = d.guarantees;
    expect(a!.sentence).toBe("At most n reads of any file.");
    expect(a!.sentenceSource).toBe("documentation");
    expect(a!.sentenceProblem).toBe("the contract has no description template");
    expect(a!.parameters).toEqual([{ name: "n", type: "number", value: 2, literal: "2", defaulted: true }]);
    expect(a!.call).toBe("extra.readsAtMost(n=2)");
    expect(a!.template).toBeNull();
    expect(a!.templateSha256).toBeNull();
    expect(a!.library).toMatchObject({ id: "extra", title: "extra", manifest: null });
    expect(a!.symbol).toBe("tools/extra/trusted/contracts#readsAtMost");
    expect(a!.sources.map((s) => s.file)).toEqual(["tools/extra/trusted/contracts.ts", "tools/filesystem/trusted/events.ts"]);
    expect(b!.sentence).toBe('At most 5 reads under "a".');
    expect(b!.parameters.map((p) => p.defaulted)).toEqual([false, true]);
    expect(c!.sentence).toBe('At most 1 reads under "b".');
    expect(e!.sentence).toBeNull();
    expect(e!.sentenceSource).toBe("none");
  });

  it("shows the badge declared by the manifest", () => {
    const manifest = JSON.stringify({ title: "Fake FS", summary: "A mock.", badge: "mock", dependencies: ["stdlib:filesystem"] });
    const g = only(`fs.readOnly()`, { "tools/filesystem/clauz3.json": manifest });
    expect(g.library).toMatchObject({ title: "Fake FS", badge: "mock", display: "Fake FS [mock]", summary: "A mock." });
  });

  it("refuses computed arguments on their node and counts noGuarantees()", () => {
    const d = describe_(`import { noGuarantees } from "clauz3/spec";\nconst p = "x";\nexport const guarantees = [fs.neverReadUnder(p), noGuarantees(), fs.readOnly()];\n`);
    expect(d.guarantees.map((g) => g.call)).toEqual(["filesystem.readOnly()"]);
    expect(d.noGuarantees).toBe(1);
    expect(d.refusals).toHaveLength(1);
    expect(d.refusals[0]!.node.getText()).toBe("p");
  });

  it("sentenceOf never uses documentation text as a template", () => {
    expect(sentenceOf({ template: undefined, summary: "Mentions {x}." }, [])).toEqual({ text: "Mentions {x}.", source: "documentation", problem: "the contract has no description template" });
  });
});
