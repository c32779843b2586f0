import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import type { ValidateFunction } from "ajv";
import { buildCatalog, catalogDifferences, CatalogError, instanceSchema, linkmlSchema, stableStringify } from "../../core/catalog";
import { describeProgram } from "../../core/describe";
import { readLayer } from "../../core/layer/read";
import { createAjv, defaultReadBytes, librariesOf, type ReadBytes } from "../../core/manifest";
import { createProgram, PROJECT, stdlibFiles } from "../helpers/program";
import { metamodelPath } from "../cli/helpers";

const ROOT = path.resolve(__dirname, "../..");
const MANIFEST = fs.readFileSync(path.join(ROOT, "stdlib/filesystem/clauz3.json"), "utf8");

function readBytesWith(files: Record<string, string>): ReadBytes {
  return (f) => {
    const rel = path.posix.relative(PROJECT, f);
    return rel in files ? Buffer.from(files[rel]!, "utf8") : f.startsWith(`${PROJECT}/`) ? undefined : defaultReadBytes(f);
  };
}

function catalogOf(extra: Record<string, string> = {}, select?: (id: string) => boolean) {
  const files = { ...stdlibFiles(), "tools/filesystem/clauz3.json": MANIFEST, ...extra };
  const program = createProgram(files);
  const layer = readLayer(ts, program);
  const readBytes = readBytesWith(files);
  const libraries = librariesOf(layer.model, readBytes).filter((l) => !select || select(l.id));
  return { program, layer, readBytes, catalog: buildCatalog(ts, program, layer.model, libraries, readBytes) };
}

let metamodel: ValidateFunction | undefined;
function validateLinkml(schema: unknown): string[] {
  metamodel ??= createAjv().compile(JSON.parse(fs.readFileSync(metamodelPath(), "utf8")) as object);
  return metamodel(schema) ? [] : (metamodel.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe("LinkML catalog", () => {
  const { catalog } = catalogOf();
  const schema = linkmlSchema(catalog) as Record<string, any>;

  it("validates against the LinkML metamodel", () => {
    expect(validateLinkml(schema)).toEqual([]);
  });

  it("is a LinkML schema importing linkml:types, with typed paths as custom types", () => {
    expect(schema).toMatchObject({
      id: "https://w3id.org/clauz3/library/filesystem/0.0.0",
      name: "clauz3_filesystem",
      title: "Filesystem",
      default_prefix: "filesystem",
      imports: ["linkml:types"],
      prefixes: { linkml: "https://w3id.org/linkml/", filesystem: "https://w3id.org/clauz3/library/filesystem/0.0.0/" },
      types: { FilePath: { typeof: "string", uri: "clauz3:FilePath" }, DirectoryPath: { typeof: "string", uri: "clauz3:DirectoryPath" } },
    });
  });

  it("has a class for each contract and each effect", () => {
    const classes = schema.classes as Record<string, any>;
    const contracts = Object.values(classes).filter((c) => c.is_a === "Contract").map((c) => c.title);
    const effects = Object.values(classes).filter((c) => c.is_a === "Effect").map((c) => c.title);
    expect(contracts).toHaveLength(12);
    expect(contracts).toContain("filesystem.onlyReadsFiles");
    const tools = ["readFile", "readLines", "writeFile", "appendFile", "copy", "move", "deleteFile", "listDir", "grep", "removeTree"];
    // The async twins (trusted/async.ts) come first: files in path order.
    expect(effects).toEqual([...tools.map((n) => `${n}Async`), ...tools].map((n) => `filesystem.${n}`));
  });

  it("has typed slots in signature order, symbols, digests, documentation and templates", () => {
    const c = schema.classes.FilesystemOnlyReadsFiles;
    expect(c).toMatchObject({
      is_a: "Contract",
      class_uri: "filesystem:onlyReadsFiles",
      description: "Only the listed files are read, each named exactly.",
      attributes: { files: { range: "FilePath", multivalued: true, required: true, rank: 1, annotations: { parameter_kind: "required", typescript_type: "FilePath[]" } } },
      annotations: {
        clauz3_kind: "contract",
        symbol: "tools/filesystem/trusted/contracts#onlyReadsFiles",
        source_file: "tools/filesystem/trusted/contracts.ts",
        source_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        template: "Filesystem tools read only the files {files}, and list or search no directory.",
        template_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        documentation: expect.stringContaining("Exact-file contract"),
      },
    });
    const move = schema.classes.FilesystemMove;
    expect(Object.keys(move.attributes)).toEqual(["src", "dest"]);
    expect(move.annotations).toMatchObject({ clauz3_kind: "effect", performs: "Read(path=src), Delete(path=src), Write(path=dest)", returns: "void" });
    expect(schema.classes.FilesystemWritesAtMost.attributes.n.range).toBe("double");
    expect(schema.classes.FilesystemOnlyReadsFilesUnder.attributes.dir.range).toBe("DirectoryPath");
    expect(schema.annotations.source_files.split("\n")).toHaveLength(4);
  });

  it("annotates parameter kinds and defaults", () => {
    const { catalog: c } = catalogOf({
      "tools/extra/trusted/contracts.ts": `import { contract, type ContractSpec } from "clauz3/spec";
import { Read } from "../../filesystem/trusted/events";
/** Limited reads. */
export const limited = contract({ description: "At most {limit} reads under {prefix}, strict: {strict}." }, (prefix: string, limit: number = 5, strict?: boolean): ContractSpec => Read.count().atMost(limit));
`,
    }, (id) => id === "extra");
    const s = linkmlSchema(c) as Record<string, any>;
    expect(validateLinkml(s)).toEqual([]);
    expect(s.classes.ExtraLimited.attributes).toEqual({
      prefix: { range: "string", required: true, rank: 1, annotations: { parameter_kind: "required", typescript_type: "string" } },
      limit: { range: "double", required: false, rank: 2, annotations: { parameter_kind: "default", typescript_type: "number", typescript_default: "5" } },
      strict: { range: "boolean", required: false, rank: 3, annotations: { parameter_kind: "optional", typescript_type: "boolean" } },
    });
    const js = instanceSchema(c) as Record<string, any>;
    expect(js.$defs.ExtraLimited.properties.limit).toEqual({ type: "number", default: 5 });
    expect(js.$defs.ExtraLimited.required).toEqual(["prefix"]);
  });

  it("is byte-for-byte identical across runs", () => {
    const again = stableStringify(linkmlSchema(catalogOf().catalog));
    const first = stableStringify(schema);
    expect(again).toBe(first);
    expect(first.endsWith("}\n")).toBe(true);
    expect(first).not.toMatch(/\r/);
    expect(first).not.toMatch(/\d{4}-\d{2}-\d{2}T/); // no timestamps
  });

  it("combines several libraries with qualified class names", () => {
    const { catalog: c } = catalogOf({
      "tools/grep/trusted/contracts.ts": `import { contract, type ContractSpec } from "clauz3/spec";
import * as fs from "../../filesystem/trusted/contracts";
/** Delegates to the filesystem library. */
export const neverReadUnder = contract({ description: "grep never reads under {prefix}." }, (prefix: string): ContractSpec => fs.neverReadUnder(prefix).spec);
`,
    });
    const s = linkmlSchema(c) as Record<string, any>;
    expect(validateLinkml(s)).toEqual([]);
    expect(s.classes.GrepNeverReadUnder.class_uri).toBe("grep:neverReadUnder");
    expect(s.classes.FilesystemNeverReadUnder.class_uri).toBe("filesystem:neverReadUnder");
    expect(Object.keys(s.prefixes)).toEqual(["linkml", "clauz3", "filesystem", "grep"]);
  });

  it("stops with an error naming the symbol of an unsupported signature", () => {
    const bad = {
      "tools/extra/trusted/contracts.ts": `import { contract, type ContractSpec } from "clauz3/spec";
import { Read } from "../../filesystem/trusted/events";
export const byOptions = contract((options: { prefix: string }): ContractSpec => Read.all((e) => e.path.startsWith(options.prefix)));
export const nested = contract((groups: string[][]): ContractSpec => Read.empty());
`,
      "tools/extra/trusted/effects.ts": `import { trusted } from "clauz3";
import { performs } from "clauz3/events";
import { Read } from "../../filesystem/trusted/events";
export const readMap = trusted(performs((path: string) => new Read(path)), function readMap(path: string, m: Map<string, string>): void {});
`,
    };
    let error: unknown;
    try {
      catalogOf(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CatalogError);
    const problems = (error as CatalogError).problems;
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^Unsupported signature of tools\/extra\/trusted\/contracts#byOptions: parameter "options" has type \{ prefix: string \}/);
    expect(problems[1]).toMatch(/tools\/extra\/trusted\/contracts#nested: parameter "groups" has type string\[\]\[\]/);
    expect(problems[2]).toMatch(/tools\/extra\/trusted\/effects#readMap: parameter "m" has type Map<string, string>/);
    // other libraries can still be catalogued
    expect(() => catalogOf(bad, (id) => id === "filesystem")).not.toThrow();
  });
});

describe("catalog --check summary", () => {
  it("names the changed class and field", () => {
    const before = stableStringify(linkmlSchema(catalogOf().catalog));
    const stdlib = stdlibFiles();
    const contracts = stdlib["tools/filesystem/trusted/contracts.ts"]!.replace("No filesystem tool reads a path starting with {prefix}.", "Nothing reads under {prefix}.");
    const after = stableStringify(linkmlSchema(catalogOf({ "tools/filesystem/trusted/contracts.ts": contracts }).catalog));
    const lines = catalogDifferences(before, after);
    expect(lines).toContain("changed: FilesystemNeverReadUnder");
    expect(lines.join("\n")).toMatch(/annotations\.template: "No filesystem tool reads a path starting with \{prefix\}\." -> "Nothing reads under \{prefix\}\."/);
    expect(catalogDifferences(before, before)).toEqual([]);
    expect(catalogDifferences("{", before)[0]).toMatch(/not valid JSON/);
    expect(catalogDifferences(before.replace(/\n/g, "\r\n"), before)).toEqual(["same content, but the bytes differ (formatting, key order or line endings)"]);
  });
});

describe("JSON Schema for contract instances", () => {
  const files = `import { FilePath, DirectoryPath } from "clauz3";
import * as fs from "./tools/filesystem/trusted/contracts";
export const guarantees = [
  fs.onlyReadsFiles([FilePath("a.md"), FilePath("b\\n.md")]),
  fs.onlyWritesFilesUnder(DirectoryPath("out")),
  fs.writesAtMost(3),
  fs.neverReadUnder("/secret"),
  fs.readOnly(),
];
`;
  const { program, layer, catalog, readBytes } = catalogOf({ "plan.ts": files });
  const schema = instanceSchema(catalog);
  const validate = createAjv().compile(schema);

  it("is a valid draft 2019-09 schema", () => {
    expect((schema as { $schema: string }).$schema).toBe("https://json-schema.org/draft/2019-09/schema");
  });

  it("accepts the instances describe prints", () => {
    const d = describeProgram({ ts, program, layer: layer.model, file: program.getSourceFile(`${PROJECT}/plan.ts`)!, readBytes });
    expect(d.guarantees).toHaveLength(5);
    for (const g of d.guarantees) expect(validate(g.instance), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    [{ contract: "filesystem.onlyReadsFiles", arguments: { files: "a.md" } }],
    [{ contract: "filesystem.onlyReadsFiles", arguments: { files: [1] } }],
    [{ contract: "filesystem.onlyReadsFiles", arguments: {} }],
    [{ contract: "filesystem.writesAtMost", arguments: { n: "3" } }],
    [{ contract: "filesystem.readOnly", arguments: { extra: true } }],
    [{ contract: "filesystem.readFile", arguments: { path: "x" } }],
    [{ contract: "filesystem.nothing", arguments: {} }],
    [{ contract: "filesystem.readOnly" }],
  ])("refuses %j", (instance) => {
    expect(validate(instance)).toBe(false);
  });

  it("is deterministic", () => {
    expect(stableStringify(instanceSchema(catalogOf({ "plan.ts": files }).catalog))).toBe(stableStringify(schema));
  });
});
