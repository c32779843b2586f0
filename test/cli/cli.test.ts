import * as fs from "node:fs";
import * as path from "node:path";
import { main } from "../../cli/main";
import { createAjv } from "../../core/manifest";
import { clauz3, ensureBuilt, metamodelPath, removeProject, stdlibLayer, tempProject } from "./helpers";

const projects: string[] = [];
function project(files: Record<string, string>): string {
  const dir = tempProject(files);
  projects.push(dir);
  return dir;
}

beforeAll(() => ensureBuilt());
afterAll(() => projects.forEach(removeProject));

const PLAN = String.raw`import { FilePath, DirectoryPath } from "clauz3";
import * as fs from "./tools/filesystem/trusted/contracts";
import { readFile } from "./tools/filesystem/trusted/effects";
export const guarantees = [
  fs.neverReadUnder("quote \" backslash \\ tab \t newline \n nul \0 esc \u001b del \u007f"),
  fs.onlyReadsFiles([FilePath("test.md"), FilePath("dir\\file \"x\".md"), FilePath("é 日本 😀")]),
  fs.onlyWritesFilesUnder(DirectoryPath("out")),
  fs.writesAtMost(2),
  fs.writesAtMost("2" as any),
];
export function main(path: string): void {
  readFile(path);
}
`;

describe("clauz3 describe", () => {
  it("--json gives the exact sentence, the identity and the digests of each guarantee", () => {
    const dir = project({ ...stdlibLayer(), "plan.ts": PLAN });
    const r = clauz3(["describe", "--json", "plan.ts"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { program: string; guarantees: any[]; noGuarantees: number; diagnostics: unknown[] };
    expect(out.program).toBe("plan.ts");
    expect(out.diagnostics).toEqual([]);
    expect(out.guarantees.map((g) => g.sentence)).toEqual([
      String.raw`No filesystem tool reads a path starting with "quote \" backslash \\ tab \t newline \n nul \u0000 esc \u001b del \u007f".`,
      String.raw`Filesystem tools read only the files ["test.md", "dir\\file \"x\".md", "é 日本 😀"], and list or search no directory.`,
      'Filesystem tools write, move or delete only files inside the directory "out".',
      "Filesystem tools perform at most 2 file writes (a move counts as two) and write no whole directory.",
      "At most n file writes are performed.",
    ]);
    expect(out.guarantees.map((g) => g.sentenceSource)).toEqual(["template", "template", "template", "template", "documentation"]);
    const [first, second] = out.guarantees;
    expect(first.parameters[0].value).toBe("quote \" backslash \\ tab \t newline \n nul \0 esc \u001b del \u007f");
    expect(first.call).toBe(String.raw`filesystem.neverReadUnder(prefix="quote \" backslash \\ tab \t newline \n nul \u0000 esc \u001b del \u007f")`);
    expect(second).toMatchObject({
      library: { id: "filesystem", title: "Filesystem", badge: null, manifest: "tools/filesystem/clauz3.json" },
      call: String.raw`filesystem.onlyReadsFiles(files=[FilePath("test.md"), FilePath("dir\\file \"x\".md"), FilePath("é 日本 😀")])`,
      symbol: "tools/filesystem/trusted/contracts#onlyReadsFiles",
      qualifiedName: "filesystem.onlyReadsFiles",
      rendererVersion: "clauz3-template/2",
      templateSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(second.sources.map((s: { file: string }) => s.file)).toEqual([
      "tools/filesystem/trusted/contracts.ts",
      "tools/filesystem/trusted/async.ts",
      "tools/filesystem/trusted/effects.ts",
      "tools/filesystem/trusted/events.ts",
    ]);
    // digests are of the bytes on disk
    const crypto = require("node:crypto") as typeof import("node:crypto");
    const bytes = fs.readFileSync(path.join(dir, "tools/filesystem/trusted/contracts.ts"));
    expect(second.sources[0].sha256).toBe(crypto.createHash("sha256").update(bytes).digest("hex"));
  });

  it("hashes the source bytes as they are, line endings included", () => {
    const crlf = Object.fromEntries(Object.entries(stdlibLayer()).map(([k, v]) => [k, k.endsWith(".ts") ? v.replace(/\n/g, "\r\n") : v]));
    const dir = project({ ...crlf, "plan.ts": PLAN });
    const lf = project({ ...stdlibLayer(), "plan.ts": PLAN });
    const a = JSON.parse(clauz3(["describe", "--json", "plan.ts"], dir).stdout).guarantees[0];
    const b = JSON.parse(clauz3(["describe", "--json", "plan.ts"], lf).stdout).guarantees[0];
    expect(a.sentence).toBe(b.sentence);
    expect(a.sources[0].sha256).not.toBe(b.sources[0].sha256);
  });

  it("prints a readable description with the title, call, sentence and symbol", () => {
    const dir = project({ ...stdlibLayer(), "tools/filesystem/clauz3.json": JSON.stringify({ title: "Sandbox FS", summary: "Fake files.", badge: "mock" }), "plan.ts": PLAN });
    const r = clauz3(["describe", "plan.ts"], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`plan.ts:6:3
  Sandbox FS [mock]
  filesystem.onlyReadsFiles(files=[FilePath("test.md"), FilePath("dir\\\\file \\"x\\".md"), FilePath("é 日本 😀")])
  Filesystem tools read only the files ["test.md", "dir\\\\file \\"x\\".md", "é 日本 😀"], and list or search no directory.
  symbol: tools/filesystem/trusted/contracts#onlyReadsFiles
  parameter files: FilePath[] = [FilePath("test.md"), FilePath("dir\\\\file \\"x\\".md"), FilePath("é 日本 😀")]`);
    expect(r.stdout).toContain("(first JSDoc paragraph shown: argument \"n\": a string was given where the parameter is declared number)");
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
  });

  it("refuses computed arguments with TypeScript-formatted diagnostics and exit 1", () => {
    const dir = project({ ...stdlibLayer(), "plan.ts": `import * as fs from "./tools/filesystem/trusted/contracts";\nconst p = "/x";\nexport const guarantees = [fs.neverReadUnder(p)];\n` });
    const r = clauz3(["describe", "--json", "--pretty", "plan.ts"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/plan\.ts:3:46 - error TS93104: Guarantee arguments must be literals/);
    expect(JSON.parse(r.stdout).diagnostics).toEqual([expect.objectContaining({ file: "plan.ts", line: 3, column: 46, code: 93104 })]);
  });

  it("reports trusted-layer rule findings (an invalid template) and exits 1", () => {
    const layer = stdlibLayer();
    layer["tools/filesystem/trusted/contracts.ts"] = layer["tools/filesystem/trusted/contracts.ts"]!.replace(
      "No filesystem tool reads a path starting with {prefix}.",
      "No filesystem tool reads under {prefix.upper}.",
    );
    const dir = project({ ...layer, "plan.ts": PLAN });
    const r = clauz3(["describe", "--pretty", "plan.ts"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/tools\/filesystem\/trusted\/contracts\.ts:\d+:\d+ - error TS93010: Invalid description template for `neverReadUnder`: "\{prefix\.upper\}" is attribute or index access/);
  });

  it("exits 2 for a missing program and for usage errors (in process, through main)", async () => {
    const dir = project({ ...stdlibLayer(), "plan.ts": PLAN });
    const run = async (...args: string[]) => {
      let stdout = "";
      let stderr = "";
      const status = await main(args, { cwd: dir, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stderrIsTTY: false });
      return { status, stdout, stderr };
    };
    expect(await run("describe", "nope.ts")).toMatchObject({ status: 2, stderr: expect.stringContaining("nope.ts does not exist") });
    expect(await run("describe")).toMatchObject({ status: 2, stderr: expect.stringContaining("missing required argument 'program'") });
    expect(await run("describe", "--bogus", "plan.ts")).toMatchObject({ status: 2, stderr: expect.stringContaining("unknown option '--bogus'") });
    expect((await run("frobnicate")).status).toBe(2);
    expect((await run()).status).toBe(2);
    expect((await run("catalog", "--project", "missing/tsconfig.json")).status).toBe(2);
    const help = await run("--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/describe .*\n[\s\S]*libraries[\s\S]*catalog/);
    expect((await run("--version")).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("the built CLI exits 2 on a usage error", () => {
    const r = clauz3(["describe", "--bogus", "x.ts"], projects[0] ?? process.cwd());
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown option '--bogus'");
  });
});

describe("clauz3 libraries", () => {
  it("lists libraries with their titles, summaries and setup requirements", () => {
    const dir = project({
      ...stdlibLayer(),
      "tools/mail/clauz3.json": JSON.stringify({
        title: "Mail",
        summary: "Send email through a relay.",
        badge: "mixed",
        dependencies: ["filesystem", "stdlib:crypto"],
        requirements: [{ kind: "env", name: "SMTP_HOST", description: "the relay host" }],
      }),
      "tools/mail/trusted/mail.ts": `import { trusted } from "clauz3";
import { Event, performs } from "clauz3/events";
export class SendEmail extends Event { constructor(readonly to: string) { super(); } }
/** Send one email. */
export const send = trusted(performs((to: string) => new SendEmail(to)), function send(to: string, body: string): void {});
`,
      "tools/legacy/trusted/x.ts": `export const nothing = 1;\n`,
    });
    const r = clauz3(["libraries"], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("filesystem  Filesystem\n  Read, write, copy, move, delete");
    expect(r.stdout).toContain("tools/filesystem: 20 effects, 12 contracts\n  setup: nothing required");
    expect(r.stdout).toContain("mail  Mail [mixed]\n  Send email through a relay.\n  tools/mail: 1 effect, 0 contracts");
    expect(r.stdout).toContain("setup: depends on filesystem\n");
    expect(r.stdout).toContain("setup: depends on stdlib:crypto (not among this project's trusted libraries)");
    expect(r.stdout).toContain("setup: env SMTP_HOST — the relay host");
    expect(r.stdout).toContain("legacy  legacy\n  (no manifest: write tools/legacy/clauz3.json with a title and a summary)");
    const json = JSON.parse(clauz3(["libraries", "--json"], dir).stdout) as { libraries: any[] };
    expect(json.libraries.map((l) => l.id)).toEqual(["filesystem", "legacy", "mail"]);
    expect(json.libraries[2]).toMatchObject({ title: "Mail", badge: "mixed", dependencies: [{ id: "filesystem", found: true }, { id: "stdlib:crypto", found: false }], effects: 1 });
  });

  it("refuses an invalid manifest with exit 2 and says what is wrong", () => {
    const dir = project({ ...stdlibLayer(), "tools/filesystem/clauz3.json": JSON.stringify({ title: "FS", badge: "fake" }) });
    const r = clauz3(["libraries"], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("tools/filesystem/clauz3.json: invalid library manifest");
    expect(r.stderr).toContain("manifest must have required property 'summary'");
    expect(r.stderr).toContain('manifest.badge must be equal to one of the allowed values ("mock", "mixed")');
  });

  it("without a tsconfig.json, uses default options and every TypeScript file, and says so", () => {
    const dir = project({ ...stdlibLayer() });
    fs.rmSync(path.join(dir, "tsconfig.json"));
    const r = clauz3(["libraries"], dir);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/no tsconfig\.json in .* using default compiler options/);
    expect(r.stdout).toContain("tools/filesystem: 20 effects, 12 contracts");
  });
});

describe("clauz3 catalog", () => {
  let validateMeta: ((data: unknown) => boolean) & { errors?: unknown };
  beforeAll(() => {
    validateMeta = createAjv().compile(JSON.parse(fs.readFileSync(metamodelPath(), "utf8")) as object);
  });

  it("prints a catalog that validates against the LinkML metamodel, identical across runs", () => {
    const dir = project({ ...stdlibLayer() });
    const a = clauz3(["catalog"], dir);
    const b = clauz3(["catalog"], dir);
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const schema = JSON.parse(a.stdout) as Record<string, any>;
    expect(validateMeta(schema), JSON.stringify(validateMeta.errors)).toBe(true);
    expect(Object.keys(schema.classes)).toHaveLength(2 + 12 + 20);
  });

  it("--check passes on a current catalog and fails after a template changes", () => {
    const dir = project({ ...stdlibLayer() });
    expect(clauz3(["catalog", "--out", "catalog.json"], dir).status).toBe(0);
    const ok = clauz3(["catalog", "--check", "--out", "catalog.json"], dir);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain("catalog.json is current");
    const file = path.join(dir, "tools/filesystem/trusted/contracts.ts");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("Every path a filesystem tool reads starts with {prefix}.", "Reads start with {prefix}."));
    const changed = clauz3(["catalog", "--check", "catalog.json"], dir);
    expect(changed.status).toBe(1);
    expect(changed.stderr).toContain("catalog.json differs from the source:");
    expect(changed.stderr).toContain("changed: FilesystemOnlyReadUnder");
    expect(changed.stderr).toContain('annotations.template: "Every path a filesystem tool reads starts with {prefix}." -> "Reads start with {prefix}."');
    expect(changed.stderr).toContain("Regenerate it with `clauz3 catalog --out catalog.json`");
    expect(clauz3(["catalog", "--check", "--out", "catalog.json"], dir).status).toBe(1);
  });

  it("--check defaults to catalog.json beside the library's manifest", () => {
    const dir = project({ ...stdlibLayer() });
    const missing = clauz3(["catalog", "--check"], dir);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("tools/filesystem/catalog.json does not exist");
    fs.writeFileSync(path.join(dir, "tools/filesystem/catalog.json"), clauz3(["catalog"], dir).stdout);
    expect(clauz3(["catalog", "--check"], dir).status).toBe(0);
  });

  it("stops on an unsupported signature with an error naming the symbol", () => {
    const dir = project({
      ...stdlibLayer(),
      "tools/filesystem/trusted/more.ts": `import { contract, type ContractSpec } from "clauz3/spec";
import { Read } from "./events";
export const withOptions = contract((options: { prefix: string }): ContractSpec => Read.all((e) => e.path.startsWith(options.prefix)));
`,
    });
    const r = clauz3(["catalog"], dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Unsupported signature of tools/filesystem/trusted/more#withOptions: parameter \"options\" has type { prefix: string }");
  });

  it("refuses a layer that breaks a rule, with TypeScript-formatted diagnostics", () => {
    const layer = stdlibLayer();
    layer["tools/filesystem/trusted/contracts.ts"] = layer["tools/filesystem/trusted/contracts.ts"]!.replace("{files}, and list", "{files!r}, and list");
    const r = clauz3(["catalog"], project(layer));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/error TS93010: Invalid description template for `onlyReadsFiles`/);
  });

  it("--json-schema exports a schema that validates the instances describe prints", () => {
    const dir = project({ ...stdlibLayer(), "plan.ts": PLAN });
    const r = clauz3(["catalog", "--json-schema"], dir);
    expect(r.status).toBe(0);
    const validate = createAjv().compile(JSON.parse(r.stdout) as object);
    const described = JSON.parse(clauz3(["describe", "--json", "plan.ts"], dir).stdout) as { guarantees: { instance: unknown; sentenceSource: string }[] };
    const typed = described.guarantees.filter((g) => g.sentenceSource === "template");
    expect(typed).toHaveLength(4);
    for (const g of typed) expect(validate(g.instance), JSON.stringify(validate.errors)).toBe(true);
    // the type mismatch ("2" for a number) is not a valid instance
    expect(validate(described.guarantees[4]!.instance)).toBe(false);
  });

  it("selects libraries with --library and refuses unknown ones with exit 2", () => {
    const dir = project({
      ...stdlibLayer(),
      "tools/mail/trusted/mail.ts": `import { trusted } from "clauz3";
import { Event, performs } from "clauz3/events";
export class SendEmail extends Event { constructor(readonly to: string) { super(); } }
export const send = trusted(performs((to: string) => new SendEmail(to)), function send(to: string): void {});
`,
    });
    const both = JSON.parse(clauz3(["catalog"], dir).stdout) as Record<string, any>;
    expect(both.name).toBe("clauz3_catalog_filesystem_mail");
    expect(validateMeta(both)).toBe(true);
    const mail = JSON.parse(clauz3(["catalog", "--library", "mail"], dir).stdout) as Record<string, any>;
    expect(Object.keys(mail.classes)).toEqual(["Contract", "Effect", "MailSend"]);
    const bad = clauz3(["catalog", "--library", "nope"], dir);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("no library nope in this project (libraries: filesystem, mail)");
  });
});
