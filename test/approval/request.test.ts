import * as crypto from "node:crypto";
import ts from "typescript";
import {
  ApprovalRequestError,
  approvalRequestSchema,
  buildRequest,
  canonicalJson,
  identityDigests,
  invocationDigest,
  layerFingerprint,
  programDigest,
  validateRequest,
  type ApprovalRequest,
} from "../../core/approval";
import { describeProgram } from "../../core/describe";
import { parseLock } from "../../core/lock";
import { lockFor } from "../helpers/lock";
import { PROJECT, stdlibFiles } from "../helpers/program";
import { HEAD, MANIFEST, PLAN, requestFor, testProject } from "./project";

const sha = (s: string): string => crypto.createHash("sha256").update(Buffer.from(s, "utf8")).digest("hex");

/** The error `f` throws, which must be an ApprovalRequestError. */
function requestError(f: () => unknown): ApprovalRequestError {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(ApprovalRequestError);
    return error as ApprovalRequestError;
  }
  throw new Error("expected an ApprovalRequestError");
}

/** A deep copy of a request, changed by `edit`. */
function edited(request: ApprovalRequest, edit: (r: Record<string, any>) => void): unknown {
  const copy = JSON.parse(JSON.stringify(request)) as Record<string, any>;
  edit(copy);
  return copy;
}

describe("approval request", () => {
  it("carries describe's identities, the program, the layer from its lock and the inputs", () => {
    const p = testProject({ "plan.ts": PLAN });
    const request = buildRequest({ ts, program: p.program, layer: p.layer, file: p.file, host: p.system, inputs: ["a"], readBytes: p.readBytes });
    const described = describeProgram({ ts, program: p.program, layer: p.layer.model, file: p.file, readBytes: p.readBytes });
    expect(request.guarantees).toEqual(described.guarantees);
    expect(request.guarantees.map((g) => [g.library.display, g.call, g.sentence, g.sentenceSource, g.symbol])).toEqual([
      ["Filesystem", 'filesystem.neverReadUnder(prefix="/secrets")', 'No filesystem tool reads a path starting with "/secrets".', "template", "tools/filesystem/trusted/contracts#neverReadUnder"],
      ["Filesystem", 'filesystem.onlyReadsFiles(files=[FilePath("/data/a.md")])', 'Filesystem tools read only the files ["/data/a.md"], and list or search no directory.', "template", "tools/filesystem/trusted/contracts#onlyReadsFiles"],
    ]);
    expect(request.program).toMatchObject({ path: "plan.ts", source: PLAN, sha256: sha(PLAN), target: "main", imports: [] });
    expect(request.inputs).toEqual(["a"]);
    expect(request.noGuarantees).toBe(0);

    // The layer is the lock's: every pinned file, and the fingerprint over them.
    const lock = parseLock("clauz3.lock", lockFor({ ...stdlibFiles(), "tools/filesystem/clauz3.json": MANIFEST, "plan.ts": PLAN }, PROJECT));
    const pinned = [...lock.files].map(([path, f]) => ({ path, sha256: f.sha256 })).sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(request.layer.files).toEqual(pinned);
    expect(request.layer.files.map((f) => f.path)).toContain("tools/filesystem/trusted/contracts.ts");
    expect(request.layer.fingerprint).toBe(layerFingerprint(pinned));
    expect(request.layer.libraries).toEqual([{ directory: "tools/filesystem", id: "filesystem", origin: "local", revision: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }]);
    expect(request.program.digest).toBe(programDigest({ ...request.program }, request.layer.fingerprint));
  });

  it("digests are SHA-256 of RFC 8785 canonical JSON with a format tag", () => {
    const files = [{ path: "b.ts", sha256: "1".repeat(64) }];
    expect(layerFingerprint(files)).toBe(sha(`{"files":[{"path":"b.ts","sha256":"${"1".repeat(64)}"}],"format":"clauz3-layer/1"}`));
    expect(invocationDigest("main", [2, "x"])).toBe(sha('{"format":"clauz3-invocation/1","inputs":[2,"x"],"target":"main"}'));
    expect(canonicalJson({ b: 1, a: [1.5e21, "é"] })).toBe('{"a":[1.5e+21,"é"],"b":1}');
  });

  it("the program digest follows the source, the agent modules it loads and the layer", () => {
    const base = requestFor({ "plan.ts": PLAN });
    expect(requestFor({ "plan.ts": PLAN }).program.digest).toBe(base.program.digest);
    const edited_ = requestFor({ "plan.ts": `${PLAN}// a comment\n` });
    expect(edited_.program.digest).not.toBe(base.program.digest);
    expect(edited_.layer.fingerprint).toBe(base.layer.fingerprint);

    // A trusted file changed and pinned again: another layer, another program digest, same source.
    const contracts = stdlibFiles()["tools/filesystem/trusted/contracts.ts"]!;
    const relayered = requestFor({ "plan.ts": PLAN, "tools/filesystem/trusted/contracts.ts": `${contracts}\n// changed\n` });
    expect(relayered.layer.fingerprint).not.toBe(base.layer.fingerprint);
    expect(relayered.program.sha256).toBe(base.program.sha256);
    expect(relayered.program.digest).not.toBe(base.program.digest);
    expect(identityDigests(relayered.guarantees)).not.toEqual(identityDigests(base.guarantees));

    // An agent helper module the program loads is part of the program.
    const helper = `export function pick(name: string): string {\n  return "/data/" + name;\n}\n`;
    const plan = `${HEAD}import { pick } from "./helper";
export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(name: string): void {
  if (name === "a.md") readFile(pick(name));
}
`;
    const withHelper = requestFor({ "plan.ts": plan, "helper.ts": helper });
    expect(withHelper.program.imports).toEqual([{ path: "helper.ts", source: helper, sha256: sha(helper) }]);
    const otherHelper = requestFor({ "plan.ts": plan, "helper.ts": helper.replace("/data/", "/data2/") });
    expect(otherHelper.program.sha256).toBe(withHelper.program.sha256);
    expect(otherHelper.program.digest).not.toBe(withHelper.program.digest);
  });

  it("a guarantee's identity digest ignores where it is written, not what it binds", () => {
    const base = identityDigests(requestFor({ "plan.ts": PLAN }).guarantees);
    const moved = requestFor({ "plan.ts": PLAN.replace("export const guarantees = [", "\n\nexport const guarantees = [ ") });
    expect(moved.guarantees[0]!.location.line).not.toBe(requestFor({ "plan.ts": PLAN }).guarantees[0]!.location.line);
    expect(identityDigests(moved.guarantees)).toEqual(base);
    const otherArgument = identityDigests(requestFor({ "plan.ts": PLAN.replace('"/secrets"', '"/secret"') }).guarantees);
    expect(otherArgument[0]).not.toBe(base[0]);
    expect(otherArgument[1]).toBe(base[1]);
  });

  it("a layer that is not exactly what its lock pins gets no request", () => {
    expect(requestError(() => requestFor({ "plan.ts": PLAN }, [], false))).toMatchObject({ field: "layer", problem: expect.stringMatching(/^is not pinned: no lock at .*clauz3\.lock \(run `clauz3 lock`\)$/) });
    const unpinned = requestError(() => requestFor({ "plan.ts": PLAN }, [], { unpinned: ["tools/filesystem/trusted/events.ts"] }));
    expect(unpinned.field).toBe("layer");
    expect(unpinned.problem).toMatch(/^does not match its lock: .*tools\/filesystem\/trusted\/events\.ts.*not pinned/);
    expect(requestError(() => requestFor({ "plan.ts": PLAN }, [], { text: "{" })).problem).toMatch(/^is not pinned: .*clauz3\.lock is not valid \(the text at line 1, column 2 is not JSON/);
  });

  it("guarantees that are not literal contract calls, refused loads and non-JSON inputs get no request", () => {
    const computed = requestError(() => requestFor({ "plan.ts": `${HEAD}const p = "/secrets";\nexport const guarantees = [fs.neverReadUnder(p)];\nexport function main(): void {}\n` }));
    expect(computed.field).toBe("guarantees");
    expect(computed.problem).toMatch(/^cannot be described: /);
    const loads = requestError(() => requestFor({ "plan.ts": `import * as os from "node:os";\n${HEAD}export const guarantees = [fs.readOnly()];\nexport function main(): void { os.tmpdir(); }\n` }));
    expect(loads).toMatchObject({ field: "program", problem: expect.stringMatching(/^loads a module it may not: /) });
    const t = testProject({ "plan.ts": PLAN });
    const trusted = t.program.getSourceFile(`${PROJECT}/tools/filesystem/trusted/effects.ts`)!;
    expect(requestError(() => buildRequest({ ts, program: t.program, layer: t.layer, file: trusted, host: t.system, inputs: [] }))).toMatchObject({ field: "program", problem: "is a file of the trusted layer, not an agent program" });
    expect(requestError(() => requestFor({ "plan.ts": PLAN }, { name: "a" }))).toMatchObject({ field: "inputs", problem: "must be a JSON array (the target's arguments in order)" });
    expect(requestError(() => requestFor({ "plan.ts": PLAN }, ["a", { x: [Number.NaN] }]))).toMatchObject({ field: "inputs[1].x[0]", problem: "is NaN, which JSON cannot hold" });
    expect(requestError(() => requestFor({ "plan.ts": PLAN }, [undefined]))).toMatchObject({ field: "inputs[0]", problem: "is undefined, which JSON cannot hold" });
    expect(requestError(() => requestFor({ "plan.ts": PLAN }, [new Date(0)]))).toMatchObject({ field: "inputs[0]", problem: "is an object that is not plain JSON data, which JSON cannot hold" });
  });

  it("inputs that do not have main's parameter types get no request: the proof is about those types", () => {
    expect(requestError(() => requestFor({ "plan.ts": PLAN }, [2]))).toMatchObject({ field: "inputs[0]", problem: "must be a string, not number 2 (`main`'s parameter `name: string`)" });
    expect(requestError(() => requestFor({ "plan.ts": PLAN }, []))).toMatchObject({ field: "inputs", problem: "holds 0 values, but `main` takes 1 (name)" });
    expect(requestError(() => requestFor({ "plan.ts": PLAN }, ["a", "b"]))).toMatchObject({ field: "inputs", problem: "holds 2 values, but `main` takes 1 (name)" });
    const records = `${HEAD}export const guarantees = [fs.readOnly()];\ninterface Item { path: string; size: number }\nexport function main(items: Item[], strict: boolean): void {}\n`;
    expect(requestFor({ "plan.ts": records }, [[{ path: "/a", size: 1, extra: null }], true]).inputs).toHaveLength(2);
    expect(requestError(() => requestFor({ "plan.ts": records }, [[{ path: "/a" }], true]))).toMatchObject({ field: "inputs[0][0].size", problem: "is missing (Item has it) (`main`'s parameter `items: Item[]`)" });
    expect(requestError(() => requestFor({ "plan.ts": records }, [[{ path: "/a", size: "1" }], true]))).toMatchObject({ field: "inputs[0][0].size", problem: 'must be a number, not string "1" (`main`\'s parameter `items: Item[]`)' });
    expect(requestError(() => requestFor({ "plan.ts": records }, [[null], true]))).toMatchObject({ field: "inputs[0][0]", problem: "must be an object with path, size, not null (`main`'s parameter `items: Item[]`)" });
    expect(requestError(() => requestFor({ "plan.ts": records }, [[], "yes"]))).toMatchObject({ field: "inputs[1]", problem: 'must be a boolean, not string "yes" (`main`\'s parameter `strict: boolean`)' });
  });
});

describe("reading a request", () => {
  const request = requestFor({ "plan.ts": PLAN }, ["a"]);

  it("accepts the request as JSON, unchanged", () => {
    const json = JSON.parse(JSON.stringify(request)) as unknown;
    expect(validateRequest(json)).toEqual(request);
  });

  it.each<[string, (r: Record<string, any>) => void, string, string | RegExp]>([
    ["a missing field", (r) => delete r.program.digest, "program.digest", "is missing"],
    ["an extra field", (r) => (r.guarantees[0].verified = true), "guarantees[0].verified", "is not a field of an approval request"],
    ["an unknown badge", (r) => (r.guarantees[1].library.badge = "real"), "guarantees[1].library.badge", 'must be one of "mock", "mixed", null'],
    ["a malformed digest", (r) => (r.layer.files[0].sha256 = "ABC"), "layer.files[0].sha256", "must be 64 lowercase hex digits"],
    ["another version", (r) => (r.version = 2), "version", "must be 1 (this clauz3 reads approval request version 1)"],
    ["inputs that are no array", (r) => (r.inputs = { a: 1 }), "inputs", "must be array"],
    ["a sentence of the wrong type", (r) => (r.guarantees[0].sentence = 3), "guarantees[0].sentence", "must be string or null"],
    ["a bad target", (r) => (r.program.target = "main()"), "program.target", /^must match /],
    ["a tampered source", (r) => (r.program.source += "readFile('/secrets/x');\n"), "program.sha256", /^is not the SHA-256 of program\.source \([0-9a-f]{64}\)$/],
    ["a tampered program digest", (r) => (r.program.digest = "0".repeat(64)), "program.digest", /^is not the digest of the program's sources and layer \([0-9a-f]{64}\)$/],
    ["a tampered layer file", (r) => (r.layer.files[0].sha256 = "0".repeat(64)), "layer.fingerprint", /^is not the fingerprint of layer\.files/],
    ["unsorted layer files", (r) => r.layer.files.reverse(), "layer.files[1].path", /^must sort after the path before it/],
    ["a layer fingerprint and program digest both forged", (r) => {
      r.layer.files[0].sha256 = "0".repeat(64);
      r.layer.fingerprint = layerFingerprint(r.layer.files);
    }, "program.digest", /^is not the digest/],
  ])("refuses %s, naming the field", (_name, edit, field, problem) => {
    const e = requestError(() => validateRequest(edited(request, edit)));
    expect(e.field).toBe(field);
    if (typeof problem === "string") expect(e.problem).toBe(problem);
    else expect(e.problem).toMatch(problem);
    expect(e.message).toBe(`${e.field} ${e.problem}`);
  });

  it("the schema is strict: every object lists its required fields and allows no other", () => {
    const loose: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}[${i}]`));
      if (typeof node !== "object" || node === null) return;
      const o = node as Record<string, unknown>;
      if (o.type === "object" && o.properties !== undefined) {
        if (o.additionalProperties !== false) loose.push(`${where}: additionalProperties`);
        const required = (o.required ?? []) as string[];
        for (const k of Object.keys(o.properties as object)) if (!required.includes(k)) loose.push(`${where}.${k}: not required`);
      }
      for (const [k, v] of Object.entries(o)) walk(v, `${where}/${k}`);
    };
    walk(approvalRequestSchema(), "#");
    expect(loose).toEqual([]);
  });
});
