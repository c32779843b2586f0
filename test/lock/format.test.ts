/** The lock document: one deterministic serialisation, a reader that names the field of every problem. */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildLock, contentRevision, LockError, lockSchema, parseLock, serializeLock, sha256Hex } from "../../core/lock";
import { createAjv } from "../../core/manifest";

const A = "a".repeat(64);
const B = "b".repeat(64);

function lockText(patch: (doc: any) => void): string {
  const doc: any = {
    files: { "tools/mail/trusted/effects.ts": { sha256: A } },
    libraries: { "tools/mail": { id: "mail", origin: "local", revision: `sha256:${B}` } },
    version: 1,
  };
  patch(doc);
  return JSON.stringify(doc, null, 2);
}

/** The error `parseLock` throws for `text`, as field and problem. */
function problem(text: string): { field: string; problem: string } {
  try {
    parseLock("/p/clauz3.lock", text);
  } catch (error) {
    expect(error).toBeInstanceOf(LockError);
    const e = error as LockError;
    expect(e.file).toBe("/p/clauz3.lock");
    return { field: e.field, problem: e.problem };
  }
  throw new Error("parseLock accepted the lock");
}

describe("serializeLock", () => {
  it("writes sorted keys at every level, two spaces and a final newline, whatever the order it was built in", () => {
    const one = buildLock("/p", [
      { fileName: "/p/tools/mail/trusted/effects.ts", sha256: A },
      { fileName: "/p/tools/bank/trusted/pay.ts", sha256: B },
    ]);
    const two = buildLock("/p", [
      { fileName: "/p/tools/bank/trusted/pay.ts", sha256: B },
      { fileName: "/p/tools/mail/trusted/effects.ts", sha256: A },
    ]);
    const text = serializeLock(one);
    expect(serializeLock(two)).toBe(text);
    expect(text.endsWith("}\n")).toBe(true);
    expect(Object.keys(JSON.parse(text))).toEqual(["files", "libraries", "version"]);
    expect(Object.keys(JSON.parse(text).files)).toEqual(["tools/bank/trusted/pay.ts", "tools/mail/trusted/effects.ts"]);
    expect(JSON.parse(text).libraries["tools/mail"]).toEqual({ id: "mail", origin: "local", revision: contentRevision("/p/tools/mail", [{ path: "trusted/effects.ts", sha256: A }]) });
    expect(text).toContain('\n  "files": {\n    "tools/bank/trusted/pay.ts": {\n      "sha256": "');
  });

  it("round-trips through parseLock", () => {
    const lock = buildLock("/p/app", [
      { fileName: "/p/app/tools/mail/trusted/effects.ts", sha256: A },
      { fileName: "/p/lib/trusted/x.ts", sha256: B },
    ]);
    const again = parseLock("/p/app/clauz3.lock", serializeLock(lock));
    expect(serializeLock(again)).toBe(serializeLock(lock));
    // A file above the lock's directory keeps its `../` path; its library is keyed the same way.
    expect([...again.files.keys()]).toEqual(["../lib/trusted/x.ts", "tools/mail/trusted/effects.ts"]);
    expect([...again.libraries.keys()].sort()).toEqual(["../lib", "tools/mail"]);
  });

  it("a content revision is the sha256 of one `path\\0digest\\n` line per file, sorted by path", () => {
    const files = [
      { path: "trusted/b.ts", sha256: B },
      { path: "trusted/a.ts", sha256: A },
    ];
    expect(contentRevision("/x", files)).toBe(`sha256:${sha256Hex(`trusted/a.ts\0${A}\ntrusted/b.ts\0${B}\n`)}`);
  });
});

describe("the lock schema", () => {
  it("is shipped, compiles with ajv and accepts what buildLock writes", () => {
    expect(fs.existsSync(path.resolve(__dirname, "../../schema/lock.schema.json"))).toBe(true);
    const validate = createAjv().compile(lockSchema());
    const lock = buildLock("/p", [{ fileName: "/p/tools/mail/trusted/effects.ts", sha256: A }]);
    expect(validate(JSON.parse(serializeLock(lock))), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe("parseLock names the field of every problem", () => {
  it.each([
    ["not JSON", '{\n  "files": {,\n}', { field: "the text at line 2, column 13", problem: expect.stringMatching(/^is not JSON \(.+\)$/) }],
    ["another version", lockText((d) => (d.version = 2)), { field: "version", problem: "must be 1 (this clauz3 reads lock version 1)" }],
    ["a missing field", lockText((d) => delete d.libraries), { field: "libraries", problem: "is missing" }],
    ["a bad digest", lockText((d) => (d.files["tools/mail/trusted/effects.ts"].sha256 = "ABC")), { field: 'files["tools/mail/trusted/effects.ts"].sha256', problem: "must be 64 lowercase hex digits" }],
    ["an absolute path", lockText((d) => (d.files["/etc/trusted/x.ts"] = { sha256: A })), { field: 'files["/etc/trusted/x.ts"]', problem: "is not a path relative to the lock (forward slashes, not absolute, without an empty or `.` segment)" }],
    ["a backslash path", lockText((d) => (d.files["tools\\x\\trusted\\y.ts"] = { sha256: A })), { field: 'files["tools\\\\x\\\\trusted\\\\y.ts"]', problem: expect.stringContaining("is not a path relative to the lock") }],
    ["an unknown field", lockText((d) => (d.files["tools/mail/trusted/effects.ts"].sha1 = "x")), { field: 'files["tools/mail/trusted/effects.ts"].sha1', problem: "is not a field of the lock format" }],
    ["an unknown origin", lockText((d) => (d.libraries["tools/mail"].origin = "npm")), { field: 'libraries["tools/mail"].origin', problem: 'must be one of "stdlib", "local"' }],
    ["a bad revision", lockText((d) => (d.libraries["tools/mail"].revision = "main")), { field: 'libraries["tools/mail"].revision', problem: expect.stringMatching(/^must match /) }],
    ["not an object", "[]", { field: "the document", problem: "must be object" }],
  ])("%s", (_name, text, expected) => {
    expect(problem(text)).toEqual(expected);
  });

  it("never reads a lock whose file names a prototype key as an inherited value", () => {
    const lock = parseLock("/p/clauz3.lock", lockText((d) => (d.files = JSON.parse(`{"__proto__": {"sha256": "${A}"}}`))));
    expect([...lock.files.keys()]).toEqual(["__proto__"]);
    expect(lock.files.get("toString")).toBeUndefined();
  });
});
