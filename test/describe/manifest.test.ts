import * as fs from "node:fs";
import * as path from "node:path";
import { displayTitle, libraryAt, libraryRootOf, manifestSchema, readManifest, validateManifest, type ReadBytes } from "../../core/manifest";
import { modulePath, symbolOf } from "../../core/describe";

const ROOT = path.resolve(__dirname, "../..");

const bytes = (files: Record<string, string>): ReadBytes => (f) => (f in files ? Buffer.from(files[f]!, "utf8") : undefined);

describe("library manifest schema", () => {
  it("is shipped in schema/ and is a draft 2019-09 schema", () => {
    const schema = manifestSchema() as { $schema: string };
    expect(schema.$schema).toBe("https://json-schema.org/draft/2019-09/schema");
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { files: string[] };
    expect(pkg.files).toContain("schema");
  });

  it("accepts the stdlib filesystem manifest", () => {
    const r = validateManifest(JSON.parse(fs.readFileSync(path.join(ROOT, "stdlib/filesystem/clauz3.json"), "utf8")));
    expect(r).toMatchObject({ ok: true });
  });

  it.each([
    [{ title: "Filesystem", summary: "Files." }],
    [{ title: "Mail", summary: "Send mail.", badge: "mock", dependencies: ["stdlib:filesystem", "grep"], version: "1.2.0" }],
    [{ $schema: "../../schema/manifest.schema.json", title: "Mixed", summary: "Some real.", badge: "mixed", dependencies: [] }],
    [{ title: "Mail", summary: "Send mail.", requirements: [{ kind: "env", name: "SMTP_HOST", description: "the relay" }, { kind: "command", name: "sendmail" }] }],
  ])("accepts %j", (m) => {
    expect(validateManifest(m)).toMatchObject({ ok: true });
  });

  it.each([
    [{ summary: "no title" }, /must have required property 'title'/],
    [{ title: "No summary" }, /must have required property 'summary'/],
    [{ title: "", summary: "x" }, /manifest\.title must NOT have fewer than 1 characters/],
    [{ title: "   ", summary: "x" }, /manifest\.title must match pattern/],
    [{ title: "Line\nbreak", summary: "x" }, /manifest\.title must match pattern/],
    [{ title: "T", summary: "x", badge: "fake" }, /manifest\.badge must be equal to one of the allowed values \("mock", "mixed"\)/],
    [{ title: "T", summary: "x", dependencies: ["stdlib:filesystem", "stdlib:filesystem"] }, /must NOT have duplicate items/],
    [{ title: "T", summary: "x", dependencies: ["no spaces allowed"] }, /manifest\.dependencies\[0\] must match pattern/],
    [{ title: "T", summary: "x", dependencies: "stdlib:filesystem" }, /manifest\.dependencies must be array/],
    [{ title: "T", summary: "x", origin: "https://example.com" }, /must NOT have additional properties \("origin"\)/],
    [{ title: "T", summary: "x", requirements: [{ kind: "env" }] }, /manifest\.requirements\[0\] must have required property 'name'/],
    [{ title: 3, summary: "x" }, /manifest\.title must be string/],
    [[], /manifest must be object/],
  ])("refuses %j", (m, problem) => {
    const r = validateManifest(m);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems.join("\n")).toMatch(problem);
  });

  it("reads manifests from files: missing, not JSON, invalid, valid", () => {
    const files = { "/p/a.json": "{ not json", "/p/b.json": '{"title":"B"}', "/p/c.json": '{"title":"C","summary":"S"}' };
    expect(readManifest("/p/none.json", bytes(files))).toEqual({ status: "missing" });
    expect(readManifest("/p/a.json", bytes(files))).toMatchObject({ status: "invalid", problems: [expect.stringMatching(/^not valid JSON/)] });
    expect(readManifest("/p/b.json", bytes(files))).toMatchObject({ status: "invalid" });
    expect(readManifest("/p/c.json", bytes(files))).toMatchObject({ status: "ok", manifest: { title: "C", summary: "S" }, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});

describe("libraries", () => {
  it("a library is the directory above trusted/", () => {
    expect(libraryRootOf("/p/tools/filesystem/trusted/effects.ts")).toBe("/p/tools/filesystem");
    expect(libraryRootOf("/p/tools/mail/trusted/sub/send.ts")).toBe("/p/tools/mail");
    expect(libraryRootOf("/p/layers/mail.ts")).toBe("/p/layers");
  });

  it("identifies clauz3's stdlib as stdlib:<domain>, other libraries by their domain", () => {
    const files = {
      "/pkg/package.json": JSON.stringify({ name: "clauz3", version: "1.4.2" }),
      "/pkg/stdlib/filesystem/clauz3.json": JSON.stringify({ title: "Filesystem", summary: "Files." }),
      "/proj/tools/mail/clauz3.json": JSON.stringify({ title: "Mail", summary: "Mail.", badge: "mock", version: "2.0.0" }),
      "/other/package.json": JSON.stringify({ name: "not-clauz3" }),
    };
    const std = libraryAt("/pkg/stdlib/filesystem", [], bytes(files));
    expect(std).toMatchObject({ id: "stdlib:filesystem", domain: "filesystem", stdlib: true, title: "Filesystem", version: "1.4.2", manifestProblems: [] });
    const mail = libraryAt("/proj/tools/mail", [], bytes(files));
    expect(mail).toMatchObject({ id: "mail", stdlib: false, version: "2.0.0" });
    expect(displayTitle(mail)).toBe("Mail [mock]");
    const lookalike = libraryAt("/other/stdlib/filesystem", [], bytes(files));
    expect(lookalike).toMatchObject({ id: "filesystem", stdlib: false, title: "filesystem", manifest: undefined, version: "0.0.0" });
    expect(libraryAt("/x/node_modules/clauz3/stdlib/filesystem", [], bytes({})).id).toBe("stdlib:filesystem");
  });

  it("keeps an invalid manifest's problems and falls back to the domain as title", () => {
    const lib = libraryAt("/p/tools/mail", [], bytes({ "/p/tools/mail/clauz3.json": JSON.stringify({ title: "Mail" }) }));
    expect(lib.manifest).toBeUndefined();
    expect(lib.title).toBe("mail");
    expect(lib.manifestProblems.join()).toMatch(/summary/);
  });
});

describe("symbols", () => {
  it("are module paths relative to the project without extension, then #export", () => {
    expect(symbolOf("/p/tools/fs/trusted/contracts.ts", "readOnly", "/p")).toBe("tools/fs/trusted/contracts#readOnly");
    expect(modulePath("/p/a/b.mts", "/p")).toBe("a/b");
    expect(modulePath("/p/a/b.d.ts", "/p")).toBe("a/b");
  });

  it("name files outside the project by their package", () => {
    const files = { "/deps/lib/package.json": JSON.stringify({ name: "@acme/tools" }) };
    expect(modulePath("/deps/lib/tools/mail/trusted/send.ts", "/p", bytes(files))).toBe("@acme/tools/tools/mail/trusted/send");
    expect(modulePath("/nowhere/x.ts", "/p", bytes({}))).toBe("/nowhere/x");
  });
});
