/** Footprints as data (runtime/footprint.ts): the seed's six tests, conflicts and path canonicalisation. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { canonicalPath, commutes, conflicts, OPAQUE_SPEC, resolveFootprint, type FootprintSpec, type Resource } from "../../runtime/footprint";
import { isMutating } from "../../runtime/footprint";

const writePath: FootprintSpec = { selectors: [{ kind: "path", field: "path", access: "write" }] };
const readPath: FootprintSpec = { selectors: [{ kind: "path", field: "path", access: "read" }] };
const readTree: FootprintSpec = { selectors: [{ kind: "path", field: "path", access: "read", tree: true }] };
const writeTree: FootprintSpec = { selectors: [{ kind: "path", field: "path", access: "write", tree: true }] };
const rate: FootprintSpec = { selectors: [{ kind: "rateLimit", provider: "anthropic" }] };
const BASE = "/base";
const on = (spec: FootprintSpec, p: unknown) => resolveFootprint(spec, { path: p }, BASE);
const isOpaque = (r: readonly Resource[]) => r.some((x) => x.kind === "opaque");

describe("the seed's tests", () => {
  it("writes are contained in reads by construction", () => {
    const f = on(writePath, "src/lib.ts");
    expect(f.writes.length).toBe(1);
    for (const w of f.writes) expect(f.reads).toContainEqual(w);
    expect(f.writes).toContainEqual({ kind: "path", path: "/base/src/lib.ts", tree: false });
  });

  it("a non-string path argument fails closed to opaque", () => {
    expect(isOpaque(on(writePath, ["not", "a", "string"]).writes)).toBe(true);
    expect(isOpaque(on(readPath, 42).writes)).toBe(true);
    // A missing argument is not described either.
    expect(isOpaque(resolveFootprint(readPath, {}, BASE).writes)).toBe(true);
    // A scoped key must be a scalar.
    const scoped: FootprintSpec = { selectors: [{ kind: "scoped", family: "table", field: "t", access: "read" }] };
    expect(isOpaque(resolveFootprint(scoped, { t: { name: "x" } }).writes)).toBe(true);
    expect(isOpaque(resolveFootprint(scoped, { t: "users" }).writes)).toBe(false);
  });

  it("a rate limit is a read, never a serializing write", () => {
    const f = resolveFootprint(rate, {});
    expect(f.writes).toEqual([]);
    expect(f.reads).toContainEqual({ kind: "rate", provider: "anthropic" });
  });

  it("two rate-limited calls commute", () => {
    expect(commutes(resolveFootprint(rate, {}), resolveFootprint(rate, {}))).toBe(true);
    // ... even when they also write distinct files.
    const both: FootprintSpec = { selectors: [...rate.selectors, ...writePath.selectors] };
    expect(commutes(on(both, "a"), on(both, "b"))).toBe(true);
    expect(commutes(on(both, "a"), on(both, "a"))).toBe(false);
  });

  it("a mutating spec is one with a write selector (the layer rules refuse it empty: test/footprints/layer.test.ts)", () => {
    expect(isMutating(writePath)).toBe(true);
    expect(isMutating(readPath)).toBe(false);
    expect(isMutating(rate)).toBe(false);
    expect(isMutating(OPAQUE_SPEC)).toBe(true);
    expect(isMutating({ selectors: [] })).toBe(false);
  });
});

describe("conflicts", () => {
  it("a write conflicts with a read or write of the same path; two reads commute", () => {
    expect(conflicts(on(writePath, "a"), on(readPath, "a"))).toBe(true);
    expect(conflicts(on(readPath, "a"), on(writePath, "a"))).toBe(true);
    expect(conflicts(on(writePath, "a"), on(writePath, "a"))).toBe(true);
    expect(conflicts(on(readPath, "a"), on(readPath, "a"))).toBe(false);
    expect(conflicts(on(writePath, "a"), on(writePath, "b"))).toBe(false);
  });

  it("a tree overlaps every path beneath it, and no sibling", () => {
    expect(conflicts(on(readTree, "d"), on(writePath, "d/x/y"))).toBe(true);
    expect(conflicts(on(writeTree, "d"), on(readPath, "d"))).toBe(true);
    expect(conflicts(on(writeTree, "d/x"), on(readTree, "d"))).toBe(true);
    expect(conflicts(on(readTree, "d"), on(writePath, "dd/x"))).toBe(false);
    expect(conflicts(on(writeTree, "d"), on(readPath, "e"))).toBe(false);
    expect(conflicts(on(readTree, "d"), on(readPath, "d/x"))).toBe(false);
  });

  it("opaque conflicts with everything, even a pure call", () => {
    const opaque = resolveFootprint(OPAQUE_SPEC, {});
    expect(conflicts(opaque, on(readPath, "a"))).toBe(true);
    expect(conflicts(opaque, resolveFootprint({ selectors: [] }, {}))).toBe(true);
    expect(conflicts(opaque, resolveFootprint(rate, {}))).toBe(true);
  });

  it("keyed resources conflict on equal keys only, and never with paths", () => {
    const table: FootprintSpec = { selectors: [{ kind: "scoped", family: "table", field: "t", access: "write" }] };
    const event: FootprintSpec = { selectors: [{ kind: "event", event: "mail#Send", fields: ["to"], access: "write" }] };
    expect(conflicts(resolveFootprint(table, { t: "users" }), resolveFootprint(table, { t: "users" }))).toBe(true);
    expect(conflicts(resolveFootprint(table, { t: "users" }), resolveFootprint(table, { t: "orders" }))).toBe(false);
    expect(conflicts(resolveFootprint(table, { t: 1 }), resolveFootprint(table, { t: "1" }))).toBe(false);
    expect(conflicts(resolveFootprint(event, { to: "a@x" }), resolveFootprint(event, { to: "a@x" }))).toBe(true);
    expect(conflicts(resolveFootprint(event, { to: "a@x" }), resolveFootprint(table, { t: "a@x" }))).toBe(false);
    const manifest: FootprintSpec = { selectors: [{ kind: "manifest", field: "path", access: "write" }] };
    expect(conflicts(on(manifest, "pkg/src/a.ts"), on(manifest, "pkg/src/b.ts"))).toBe(true);
    expect(conflicts(on(manifest, "pkg/src/a.ts"), on(writePath, "pkg/src/a.ts"))).toBe(false);
  });
});

describe("path canonicalisation", () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-footprint-")));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const target = path.join(dir, "a", "b");

  it.each(["a/./b", "a/../a/b", "a//b", "a/b/", "./a/b", `${dir}/a/b`, "a/b/c/.."])("%s is a/b", (p) => {
    expect(canonicalPath(p, dir)).toBe(target);
    expect(conflicts(resolveFootprint(writePath, { path: p }, dir), resolveFootprint(readPath, { path: "a/b" }, dir))).toBe(true);
  });

  it("a tree and a file beneath it overlap; a tree given with a trailing slash too", () => {
    expect(conflicts(resolveFootprint(writeTree, { path: "a/" }, dir), resolveFootprint(readPath, { path: "a/./b" }, dir))).toBe(true);
  });

  it("symbolic links resolve through the longest existing prefix", () => {
    fs.mkdirSync(path.join(dir, "real"));
    fs.symlinkSync(path.join(dir, "real"), path.join(dir, "link"));
    // Neither file exists yet: the link is resolved and the rest appended.
    expect(canonicalPath("link/new/file.txt", dir)).toBe(path.join(dir, "real", "new", "file.txt"));
    expect(conflicts(resolveFootprint(writePath, { path: "link/x" }, dir), resolveFootprint(readPath, { path: "real/x" }, dir))).toBe(true);
    expect(conflicts(resolveFootprint(writeTree, { path: "link" }, dir), resolveFootprint(readPath, { path: "real/y/z" }, dir))).toBe(true);
    expect(conflicts(resolveFootprint(writePath, { path: "link/x" }, dir), resolveFootprint(readPath, { path: "real/y" }, dir))).toBe(false);
  });
});
