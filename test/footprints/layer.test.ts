/**
 * Footprints in the layer (core/footprint): derived from `performs` with the library manifest's
 * `eventAccess`, declared with `footprint(...)` and checked by rules 93060–93063 on the right line.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { manifestEventAccess, toolFootprint } from "../../core/footprint/derive";
import { readLayer } from "../../core/layer/read";
import { RULES } from "../../core/rules";
import { createProgram, stdlibFiles } from "../helpers/program";

const ROOT = path.resolve(__dirname, "../..");
const STDLIB_MANIFEST = fs.readFileSync(path.join(ROOT, "stdlib/filesystem/clauz3.json"));

/** Manifests as the in-memory project would hold them. */
const manifests = (extra: Record<string, string> = {}) =>
  manifestEventAccess((file) => {
    if (file === "/project/tools/filesystem/clauz3.json") return STDLIB_MANIFEST;
    const rel = file.replace("/project/", "");
    return extra[rel] !== undefined ? Buffer.from(extra[rel]!) : undefined;
  });

const HEAD = `import { trusted } from "clauz3";
import { Event, performs, footprint } from "clauz3/events";
export class Send extends Event { constructor(readonly to: string, readonly subject: string) { super(); } }
export class Urgent extends Send {}
export class Lookup extends Event { constructor(readonly key: string) { super(); } }
`;
const HEAD_LINES = HEAD.split("\n").length - 1;

function read(body: string) {
  const program = createProgram({ ...stdlibFiles(), "tools/demo/trusted/layer.ts": HEAD + body });
  const layer = readLayer(ts, program);
  const findings = layer.findings
    .filter((f) => f.file.fileName.includes("/tools/demo/"))
    .map((f) => ({ code: RULES[f.rule].code, line: f.file.getLineAndCharacterOfPosition(f.start).line + 1 - HEAD_LINES, text: f.file.text.slice(f.start, f.start + f.length), message: f.message }));
  const spec = (name: string, accessOf = manifests()) => {
    const tool = [...layer.model.tools.values()].find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    return toolFootprint(layer.model, tool, accessOf).selectors;
  };
  return { findings, spec };
}

describe("derived footprints", () => {
  const { findings, spec } = read(`export const nothing = trusted(function nothing(x: string): void {});\n`);

  it("the stdlib filesystem layer reads clean", () => {
    expect(findings).toEqual([]);
  });

  it("filesystem events become path resources: Read reads, Write and its subclasses write, recursive events a tree", () => {
    expect(spec("readFile")).toEqual([{ kind: "path", field: "path", access: "read" }]);
    expect(spec("writeFile")).toEqual([{ kind: "path", field: "path", access: "write" }]);
    expect(spec("deleteFile")).toEqual([{ kind: "path", field: "path", access: "write" }]);
    expect(spec("copy")).toEqual([{ kind: "path", field: "src", access: "read" }, { kind: "path", field: "dest", access: "write" }]);
    expect(spec("move")).toEqual([
      { kind: "path", field: "src", access: "read" },
      { kind: "path", field: "src", access: "write" },
      { kind: "path", field: "dest", access: "write" },
    ]);
    expect(spec("listDir")).toEqual([{ kind: "path", field: "dir", access: "read", tree: true }]);
    expect(spec("removeTree")).toEqual([{ kind: "path", field: "dir", access: "write", tree: true }]);
    expect(spec("readFileAsync")).toEqual([{ kind: "path", field: "path", access: "read" }]);
  });

  it("without the manifest's eventAccess, filesystem events are writes keyed by their class (fail closed)", () => {
    const none = manifestEventAccess(() => undefined);
    expect(spec("readFile", none)).toEqual([{ kind: "event", event: "events.ts#FsEvent", fields: ["path"], access: "write" }]);
  });

  it("a tool with neither performs nor footprint is opaque", () => {
    expect(spec("nothing")).toEqual([{ kind: "opaque" }]);
  });
});

describe("other events and declared footprints", () => {
  const { findings, spec } = read(`export const send = trusted(performs((to: string, subject: string) => new Urgent(to, subject)), footprint({ kind: "rateLimit", provider: "smtp" }), function send(to: string, subject: string): void {});
export const lookup = trusted(performs((key: string) => new Lookup(key)), function lookup(key: string): string { return ""; });
export const drop = trusted(footprint({ kind: "scoped", family: "table", field: "table", access: "write" }, { kind: "literal", resource: "db-schema", access: "read" }), function drop(table: string): void {});
export const edit = trusted(footprint({ kind: "path", field: "file", access: "write" }, { kind: "manifest", field: "file", access: "write" }), function edit(file: string, text: string): void {});
export const shell = trusted(footprint({ kind: "opaque" }), function shell(command: string): void {});
export const named = trusted(footprint({ kind: "scoped", family: "queue", field: "queue", access: "write" }), function named(req: { queue: string; body: string }): void {});
export const pure = trusted(footprint(), function pure(x: number): number { return x; });
`);

  it("valid declarations read clean", () => {
    expect(findings).toEqual([]);
  });

  it("an event without a path is its root class keyed by the root's fields, a write unless the manifest says read", () => {
    expect(spec("send")).toEqual([{ kind: "event", event: "layer.ts#Send", fields: ["to", "subject"], access: "write" }, { kind: "rateLimit", provider: "smtp" }]);
    expect(spec("lookup")).toEqual([{ kind: "event", event: "layer.ts#Lookup", fields: ["key"], access: "write" }]);
    const withManifest = manifests({ "tools/demo/clauz3.json": JSON.stringify({ title: "Demo", summary: "Demo.", eventAccess: { Lookup: "read" } }) });
    expect(spec("lookup", withManifest)).toEqual([{ kind: "event", event: "layer.ts#Lookup", fields: ["key"], access: "read" }]);
  });

  it("declared selectors are the footprint of a tool without events", () => {
    expect(spec("drop")).toEqual([
      { kind: "scoped", family: "table", field: "table", access: "write" },
      { kind: "literal", resource: "db-schema", access: "read" },
    ]);
    expect(spec("edit")).toEqual([{ kind: "path", field: "file", access: "write" }, { kind: "manifest", field: "file", access: "write" }]);
    expect(spec("shell")).toEqual([{ kind: "opaque" }]);
    expect(spec("named")).toEqual([{ kind: "scoped", family: "queue", field: "queue", access: "write" }]);
    expect(spec("pure")).toEqual([]);
  });
});

describe("footprint rules, each on its line", () => {
  it("93060: a selector that is not literal data, of an unknown kind, missing or extra properties, declared twice", () => {
    const { findings } = read(`export const a = trusted(footprint({ kind: "rateLimit", provider: 42 }), function a(x: string): void {});
export const b = trusted(footprint({ kind: "file", field: "x" }), function b(x: string): void {});
export const c = trusted(footprint({ kind: "path", field: "x" }), function c(x: string): void {});
export const d = trusted(footprint({ kind: "path", field: "x", access: "modify" }), function d(x: string): void {});
export const e = trusted(footprint({ kind: "opaque", field: "x" }), function e(x: string): void {});
export const f = trusted(footprint({ kind: "opaque" }), footprint({ kind: "opaque" }), function f(x: string): void {});
export const g = trusted(footprint("x"), function g(x: string): void {});
`);
    expect(findings.map((f) => [f.code, f.line, f.text])).toEqual([
      [93060, 1, "provider: 42"],
      [93060, 2, `kind: "file"`],
      [93060, 3, `{ kind: "path", field: "x" }`],
      [93060, 4, `access: "modify"`],
      [93060, 5, `field: "x"`],
      [93060, 6, `footprint({ kind: "opaque" })`],
      [93060, 7, `"x"`],
    ]);
  });

  it("93061: a selector naming an undeclared argument, or one of the wrong type", () => {
    const { findings } = read(`export const a = trusted(footprint({ kind: "path", field: "nonexistent", access: "read" }), function a(path: string): void {});
export const b = trusted(
  footprint({ kind: "path", field: "count", access: "write" }),
  function b(count: number): void {},
);
export const c = trusted(footprint({ kind: "scoped", family: "t", field: "names", access: "write" }), function c(names: string[]): void {});
export const d = trusted(footprint({ kind: "manifest", field: "queue", access: "write" }), function d(req: { body: string }): void {});
`);
    expect(findings.map((f) => [f.code, f.line, f.text])).toEqual([
      [93061, 1, `field: "nonexistent"`],
      [93061, 3, `field: "count"`],
      [93061, 6, `field: "names"`],
      [93061, 7, `field: "queue"`],
    ]);
    expect(findings[0]!.message).toMatch(/`a` has no parameter `nonexistent` \(its parameters: path\)/);
    expect(findings[1]!.message).toMatch(/is `number`, but a `path` selector needs a path/);
  });

  it("93062: a mutating tool may not declare an empty footprint; opting into opaque is fine", () => {
    const { findings } = read(`export const a = trusted(performs((to: string, subject: string) => new Send(to, subject)), footprint(), function a(to: string, subject: string): void {});
export const b = trusted(performs((to: string, subject: string) => new Send(to, subject)), footprint({ kind: "opaque" }), function b(to: string, subject: string): void {});
`);
    expect(findings.map((f) => [f.code, f.line, f.text])).toEqual([[93062, 1, "footprint()"]]);
  });

  it("93062 without a manifest: every event defaults to write, so an empty footprint is refused", () => {
    const { findings } = read(`import { Read, Write } from "../../filesystem/trusted/events";
export const a = trusted(performs((path: string) => new Write(path)), footprint(), function a(path: string): void {});
`);
    // No manifest is on disk for the in-memory project: every event defaults to write.
    expect(findings.map((f) => [f.code, f.line])).toEqual([[93062, 2]]);
  });

  it("93063: a footprint contradicting the events", () => {
    const { findings } = read(`export const a = trusted(performs((to: string, subject: string) => new Send(to, subject)), footprint({ kind: "scoped", family: "mailbox", field: "to", access: "read" }), function a(to: string, subject: string): void {});
export const b = trusted(performs((to: string, subject: string) => new Send(to, subject)), footprint({ kind: "scoped", family: "mailbox", field: "to", access: "write" }), function b(to: string, subject: string): void {});
`);
    expect(findings.map((f) => [f.code, f.line, f.text])).toEqual([[93063, 1, `{ kind: "scoped", family: "mailbox", field: "to", access: "read" }`]]);
    expect(findings[0]!.message).toMatch(/declares `to` read, but its events write it/);
  });

  it("footprint(...) outside trusted(...) is refused", () => {
    const { findings } = read(`export const f = footprint({ kind: "opaque" });\n`);
    expect(findings.map((f) => [f.code, f.line])).toEqual([[RULES.toolForm.code, 1]]);
  });
});
