/**
 * End to end: the real `tspc` (ts-patch) binary builds fixture projects (fixtures/projects/) that
 * link node_modules/clauz3 to this checkout, with `{ "transform": "clauz3/plugin" }` configured.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { editTsconfig, ensureBuilt, errorLocations, prepareProject, removeProject, tspc } from "../../fixtures/projects/project.mjs";

type Runtime = typeof import("../../runtime/index");

const made: string[] = [];
function project(name: string, files?: Record<string, string>): string {
  const dir = prepareProject(name, { files });
  made.push(dir);
  return dir;
}

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

beforeAll(() => ensureBuilt());
afterAll(() => made.forEach(removeProject));

describe("a broken trusted layer", () => {
  it("fails the build with every rule violation at its exact position", () => {
    const dir = project("broken-layer");
    const r = tspc(dir);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toBe("");
    expect(errorLocations(r.stdout)).toEqual([
      "tools/shop/trusted/contracts.ts(6,18): TS93010",
      "tools/shop/trusted/effects.ts(7,31): TS93003",
      "tools/shop/trusted/effects.ts(13,13): TS93004",
      "tools/shop/trusted/effects.ts(20,3): TS93002",
      "tools/shop/trusted/effects.ts(21,32): TS93005",
      "tools/shop/trusted/effects.ts(26,29): TS93007",
      "tools/shop/trusted/events.ts(15,15): TS93009",
    ]);
    // Every line is a diagnostic (no stack trace, no other output), and each says what to do instead.
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(7);
    for (const line of lines) expect(line).toMatch(/\b(Write|Declare|Add|Rename|Return)\b/);
    expect(r.stdout).toContain("`item` is not a parameter of `buy` (its parameters: sku)");
  });
});

describe("stdlib:filesystem with good layers", () => {
  let dir: string;
  let status: number | null;
  let output: string;
  beforeAll(() => {
    dir = project("good-layer");
    // A generous proof budget: the verdict, not the machine's load, decides whether the build is clean.
    editTsconfig(dir, (c) => {
      c.compilerOptions.plugins = [{ transform: "clauz3/plugin", programTimeoutMs: 1_800_000 }];
    });
    const r = tspc(dir);
    status = r.status;
    output = r.stdout + r.stderr;
  });

  it("builds clean: the plain entry proves its agent program", () => {
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("fails the build when the agent program is refused, unless the entry opts out with \"prove\": false", () => {
    // bookRoom's `requires` tests a regular expression, which the prover does not model.
    const booking = fs.readFileSync(path.join(dir, "plan.ts"), "utf8").replace('import { invite } from', 'import { bookRoom, invite } from').replace("  for (const person", "  bookRoom(room, day, 2);\n  for (const person");
    const refused = project("good-layer", { "plan.ts": booking });
    const r = tspc(refused);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toBe("");
    expect(errorLocations(r.stdout)).toEqual(["plan.ts(15,3): TS93104", "plan.ts(16,3): TS93104", "plan.ts(17,3): TS93104", "plan.ts(18,3): TS93104", "plan.ts(19,3): TS93104"]);
    expect(r.stdout).toContain("RegularExpressionLiteral) is not modelled");
    editTsconfig(refused, (c) => {
      c.compilerOptions.plugins = [{ transform: "clauz3/plugin", prove: false }];
    });
    const optedOut = tspc(refused);
    expect(optedOut.stdout + optedOut.stderr).toBe("");
    expect(optedOut.status).toBe(0);
  });

  it("emits each tool's metadata as the first argument of trusted(...)", () => {
    const js = fs.readFileSync(path.join(dir, "out/tools/email/trusted/effects.js"), "utf8");
    expect(js).toContain(
      'exports.sendFile = (0, clauz3_1.trusted)({ __clauz3_metadata: { tool: "email.sendFile", parameters: ["to", "subject", "path"], builderParameters: ["path", "to", "subject"], events: [{ event: "Read", fields: { path: "path" } }, { event: "SendAttachment", fields: { to: "to", subject: "subject", attachment: "path" } }], requires: [["to"], ["path"]], ensures: [], footprint: { selectors: [{ kind: "path", field: "path", access: "read" }, { kind: "event", event: "events.ts#SendEmail", fields: ["to", "subject"], access: "write" }] } } }, (0, events_1.performs)(',
    );
    const fsJs = fs.readFileSync(path.join(dir, "out/tools/filesystem/trusted/effects.js"), "utf8");
    expect(fsJs.match(/__clauz3_metadata/g)).toHaveLength(10);
    expect(fsJs).toContain('{ __clauz3_metadata: { tool: "filesystem.move", parameters: ["src", "dest"], builderParameters: ["src", "dest"], events: [{ event: "Read", fields: { path: "src" } }, { event: "Delete", fields: { path: "src" } }, { event: "Write", fields: { path: "dest" } }], requires: [["src", "dest"], ["src", "dest"]], ensures: [], footprint: { selectors: [{ kind: "path", field: "src", access: "read" }, { kind: "path", field: "src", access: "write" }, { kind: "path", field: "dest", access: "write" }] } } }');
    // Only trusted(...) calls of the trusted layer are rewritten: agent and plain files are untouched.
    expect(fs.readFileSync(path.join(dir, "out/plan.js"), "utf8")).not.toContain("__clauz3_metadata");
    expect(fs.readFileSync(path.join(dir, "out/src/report.js"), "utf8")).not.toContain("__clauz3_metadata");
  });

  it("runs: the emitted tools record their events using the emitted metadata", () => {
    const require = createRequire(path.join(dir, "package.json"));
    const runtime = require("clauz3") as Runtime;
    const email = require("./out/tools/email/trusted/effects.js") as Record<string, (...args: unknown[]) => unknown>;
    const calendar = require("./out/tools/calendar/trusted/effects.js") as Record<string, (...args: unknown[]) => unknown>;
    const attachment = path.join(dir, "notes.md");
    fs.writeFileSync(attachment, "minutes\n");

    expect(runtime.toolInfo(email.sendFile)?.metadata).toEqual({
      tool: "email.sendFile",
      parameters: ["to", "subject", "path"],
      builderParameters: ["path", "to", "subject"],
      events: [
        { event: "Read", fields: { path: "path" } },
        { event: "SendAttachment", fields: { to: "to", subject: "subject", attachment: "path" } },
      ],
      requires: [["to"], ["path"]],
      ensures: [],
      footprint: { selectors: [{ kind: "path", field: "path", access: "read" }, { kind: "event", event: "events.ts#SendEmail", fields: ["to", "subject"], access: "write" }] },
    });

    const { result, trace } = runtime.record(() => {
      email.sendFile!("ann@example.com", "Minutes", attachment);
      return calendar.bookRoom!("lab", "2025-03-04", 2);
    });
    expect(result).toBe(2);
    // The tool names come from the metadata (`email.sendFile`), not from the implementation (`sendFile`).
    expect(trace.map((o) => o.toJSON())).toEqual([
      { effect: "email.sendFile", to: "ann@example.com", subject: "Minutes", path: attachment },
      { event: "Read", path: attachment },
      { event: "SendAttachment", to: "ann@example.com", subject: "Minutes", attachment },
      { effect: "calendar.bookRoom", room: "lab", day: "2025-03-04", hours: 2 },
      { event: "Booking", room: "lab", day: "2025-03-04", hours: 2 },
    ]);
    // requires(...) still runs, with the parameters the metadata names.
    expect(() => calendar.bookRoom!("lab", "2025-03-04", 9)).toThrow(runtime.RequiresError);
    expect(() => email.sendEmail!("nobody", "Hi", "")).toThrow(/sendEmail needs an email address/);
  });
});

describe("agent source", () => {
  it("fails when it declares tools, effects, contracts or events", () => {
    const dir = project("agent-declarations");
    const r = tspc(dir);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toBe("");
    // The plain entry proves the program too: each declaration refuses it (shown once, with the
    // rule's code), and so do its missing `guarantees` and its top-level code.
    expect(errorLocations(r.stdout)).toEqual([
      "plan.ts(2,1): TS93104",
      "plan.ts(7,27): TS93001",
      "plan.ts(7,27): TS93104",
      "plan.ts(8,3): TS93001",
      "plan.ts(14,24): TS93001",
      "plan.ts(16,25): TS93001",
      "plan.ts(18,14): TS93001",
    ]);
    expect(r.stdout.trim().split("\n")).toHaveLength(7);
    expect(r.stdout).toContain("plan.ts(16,25): error TS93001: refused: `contract` is a trusted-layer declaration and is not allowed in agent source");
  });

  it('with "prove": false, reports the declarations as rule findings alone', () => {
    const dir = project("agent-declarations");
    editTsconfig(dir, (c) => {
      c.compilerOptions.plugins = [{ transform: "clauz3/plugin", prove: false }];
    });
    const r = tspc(dir);
    expect(r.status).not.toBe(0);
    expect(errorLocations(r.stdout)).toEqual(["plan.ts(7,27): TS93001", "plan.ts(8,3): TS93001", "plan.ts(14,24): TS93001", "plan.ts(16,25): TS93001", "plan.ts(18,14): TS93001"]);
    expect(r.stdout).toContain("plan.ts(16,25): error TS93001: `contract` is a trusted-layer declaration and is not allowed in agent source");
  });
});

describe("the trustedRoots option", () => {
  it("replaces the `trusted` directory convention", () => {
    const dir = project("trusted-roots");
    const r = tspc(dir);
    // layer/** is trusted (no rule broken there); tools/legacy/trusted/ is not under the roots.
    expect(errorLocations(r.stdout)).toEqual(["tools/legacy/trusted/effects.ts(4,23): TS93001"]);
    expect(r.status).not.toBe(0);
    const js = fs.readFileSync(path.join(dir, "out/layer/effects.js"), "utf8");
    expect(js).toContain('(0, clauz3_1.trusted)({ __clauz3_metadata: { tool: "layer.post", parameters: ["channel", "text"], builderParameters: ["channel"]');
  });

  it("builds clean when every declaration is under the roots", () => {
    const dir = project("trusted-roots");
    fs.rmSync(path.join(dir, "tools"), { recursive: true });
    const r = tspc(dir);
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("without the option, the same layer is agent source", () => {
    const dir = project("trusted-roots");
    editTsconfig(dir, (c) => {
      c.compilerOptions.plugins = [{ transform: "clauz3/plugin" }];
    });
    const r = tspc(dir);
    expect(errorLocations(r.stdout)).toEqual([
      // The program's tool is no tool of a layer any more: the program is refused.
      "agent.ts(4,14): TS93104",
      "layer/effects.ts(6,21): TS93001",
      "layer/effects.ts(7,3): TS93001",
      "layer/events.ts(4,14): TS93001",
      // Now trusted by its folder, but the lock (written under the option) does not pin it.
      "tools/legacy/trusted/effects.ts(2,1): TS93020",
    ]);
  });

  it("an invalid value fails the build and says how to fix it", () => {
    const dir = project("trusted-roots");
    editTsconfig(dir, (c) => {
      c.compilerOptions.plugins = [{ transform: "clauz3/plugin", trustedRoots: "layer/**" }];
    });
    const r = tspc(dir);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toContain('error TS93090: clauz3/plugin could not start: option "trustedRoots" must be an array of non-empty glob strings');
    expect(r.stderr).toBe("");
  });

  it("a proof budget that is not a positive whole number fails the build and says what to write", () => {
    const dir = project("trusted-roots");
    editTsconfig(dir, (c) => {
      c.compilerOptions.plugins = [{ transform: "clauz3/plugin", trustedRoots: ["layer/**"], programTimeoutMs: "90s" }];
    });
    const r = tspc(dir);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toContain('error TS93090: clauz3/plugin could not start: option "programTimeoutMs" must be a positive whole number of milliseconds, got "90s"');
    expect(r.stderr).toBe("");
  });
});

describe("internal errors", () => {
  it("become a 93090 diagnostic naming the project, never a crash or a silent pass", () => {
    const dir = project("trusted-roots");
    // picomatch refuses globs longer than 64 KiB: the layer reader throws while classifying files.
    editTsconfig(dir, (c) => {
      c.compilerOptions.plugins = [{ transform: "clauz3/plugin", trustedRoots: ["x".repeat(70_000)] }];
    });
    const r = tspc(dir);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^error TS93090: clauz3 could not check .*tsconfig\.json: .*exceeds maximum allowed length.*This is a bug in clauz3/m);
    expect(r.stdout).not.toMatch(/\n\s+at /);
  });
});
