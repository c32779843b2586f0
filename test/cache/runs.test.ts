/**
 * The whole-run cache of `clauz3 check` (core/cache/runs.ts, fs-trace.ts; docs/cache.md). What a
 * replayed run prints must be what a run without any cache prints, after every kind of change;
 * a change to anything the run read (a file's content, a new file in a listed directory, a file
 * that changes how a module resolves, the code that runs) must make the next run do the work.
 * That a run was replayed shows in its stored entry: a replay leaves it as it is, a full run
 * writes it again (a new file renamed into place).
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { firstChange, startRecording, type RecordingHandle } from "../../core/cache/fs-trace";
import { RunCache } from "../../core/cache/runs";
import { RunRecorder } from "../../cli/run-cache";
import { clauz3, ensureBuilt, removeProject, ROOT, stdlibLayer, tempProject } from "../cli/helpers";

// The CommonJS `fs` object, as TypeScript, the loader and clauz3's compiled code call it.
const cjsFs = createRequire(__filename)("node:fs") as typeof fs;

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeProject));

function scratch(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-runs-"));
  dirs.push(dir);
  return dir;
}

function recording(excluded: string[] = [], writable: string[] = []): RecordingHandle {
  return startRecording({ excluded: () => excluded, writable: () => writable });
}

describe("recording what a run reads", () => {
  it("answers the same while nothing changes, and names the first read that answers otherwise", () => {
    const dir = scratch();
    fs.writeFileSync(path.join(dir, "a.ts"), "export const a = 1;\n");
    fs.mkdirSync(path.join(dir, "lib"));
    fs.symlinkSync(path.join(dir, "a.ts"), path.join(dir, "link.ts"));
    const r = recording();
    cjsFs.readFileSync(path.join(dir, "a.ts"), "utf8");
    cjsFs.existsSync(path.join(dir, "b.ts"));
    cjsFs.statSync(path.join(dir, "lib"), { throwIfNoEntry: false });
    cjsFs.readdirSync(dir, { withFileTypes: true });
    cjsFs.realpathSync(path.join(dir, "link.ts"));
    expect(() => cjsFs.readFileSync(path.join(dir, "missing.ts"))).toThrow();
    const rec = r.stop();
    expect(rec.spoiled).toBeUndefined();
    expect(rec.observations.map((o) => o[0])).toEqual(["readFileSync", "existsSync", "statSync", "readdirSync", "realpathSync", "readFileSync"]);
    expect(rec.observations[5]![2]).toBe("!ENOENT");
    expect(firstChange(rec)).toBeUndefined();

    fs.writeFileSync(path.join(dir, "a.ts"), "export const a = 2;\n");
    expect(firstChange(rec)).toBe(`readFileSync(${JSON.stringify(path.join(dir, "a.ts"))})`);
    fs.writeFileSync(path.join(dir, "a.ts"), "export const a = 1;\n");
    expect(firstChange(rec)).toBeUndefined();
    // A file where there was none: the existence check answers otherwise (and so does the listing).
    fs.writeFileSync(path.join(dir, "b.ts"), "");
    expect(firstChange(rec)).toBe(`existsSync(${JSON.stringify(path.join(dir, "b.ts"))})`);
    fs.rmSync(path.join(dir, "b.ts"));
    // A listing alone: a new file nobody asked for by name.
    fs.writeFileSync(path.join(dir, "c.ts"), "");
    expect(firstChange(rec)).toBe(`readdirSync(${JSON.stringify(dir)})`);
    fs.rmSync(path.join(dir, "c.ts"));
    expect(firstChange(rec)).toBeUndefined();
    // A directory that became a file.
    fs.rmdirSync(path.join(dir, "lib"));
    fs.writeFileSync(path.join(dir, "lib"), "");
    expect(firstChange(rec)).toMatch(/^statSync/);
  });

  it("sees a symbolic link retargeted, and a file that now shadows a module's resolution", () => {
    const dir = scratch();
    fs.mkdirSync(path.join(dir, "node_modules/pkg"), { recursive: true });
    fs.writeFileSync(path.join(dir, "node_modules/pkg/index.js"), "module.exports = 1;\n");
    fs.mkdirSync(path.join(dir, "sub"));
    fs.writeFileSync(path.join(dir, "sub/x.js"), "");
    fs.writeFileSync(path.join(dir, "one.ts"), "1");
    fs.writeFileSync(path.join(dir, "two.ts"), "1");
    fs.symlinkSync(path.join(dir, "one.ts"), path.join(dir, "link.ts"));
    const r = recording();
    cjsFs.realpathSync.native(path.join(dir, "link.ts"));
    createRequire(path.join(dir, "sub/x.js")).resolve("pkg");
    const rec = r.stop();
    expect(rec.resolutions).toEqual([["pkg", path.join(dir, "sub/x.js"), null, path.join(dir, "node_modules/pkg/index.js")]]);
    expect(firstChange(rec)).toBeUndefined();
    fs.rmSync(path.join(dir, "link.ts"));
    fs.symlinkSync(path.join(dir, "two.ts"), path.join(dir, "link.ts"));
    expect(firstChange(rec)).toMatch(/^realpathSync\.native/);
    fs.rmSync(path.join(dir, "link.ts"));
    fs.symlinkSync(path.join(dir, "one.ts"), path.join(dir, "link.ts"));
    expect(firstChange(rec)).toBeUndefined();
    fs.mkdirSync(path.join(dir, "sub/node_modules/pkg"), { recursive: true });
    fs.writeFileSync(path.join(dir, "sub/node_modules/pkg/index.js"), "module.exports = 2;\n");
    expect(firstChange(rec)).toBe(`require("pkg") from ${path.join(dir, "sub/x.js")}`);
  });

  it("does not write down reads under an excluded directory, and lets the run write there and to its report", () => {
    const dir = scratch();
    const cache = path.join(dir, "cache");
    fs.mkdirSync(cache);
    fs.writeFileSync(path.join(cache, "entry.json"), "{}");
    const report = path.join(dir, "report.json");
    const r = recording([cache], [report]);
    cjsFs.readFileSync(path.join(cache, "entry.json"));
    cjsFs.writeFileSync(path.join(cache, "new.json"), "{}");
    cjsFs.writeFileSync(path.join(dir, ".report.json.123.abc.tmp"), "[]");
    cjsFs.renameSync(path.join(dir, ".report.json.123.abc.tmp"), report);
    const rec = r.stop();
    expect(rec).toEqual({ observations: [], resolutions: [] });
  });

  const spoilers: [string, (dir: string) => unknown, RegExp][] = [
    ["an asynchronous read", (dir) => cjsFs.promises.readFile(path.join(dir, "a.ts")), /fs\.promises\.readFile/],
    ["a callback read", (dir) => cjsFs.readFile(path.join(dir, "a.ts"), () => undefined), /fs\.readFile/],
    ["a file's modification time", (dir) => cjsFs.statSync(path.join(dir, "a.ts")).mtimeMs, /times were read/],
    ["a file's modification date", (dir) => cjsFs.lstatSync(path.join(dir, "a.ts")).mtime, /times were read/],
    ["a write outside the cache and the report", (dir) => cjsFs.writeFileSync(path.join(dir, "out.txt"), ""), /fs\.writeFileSync of .*out\.txt/],
    ["a file opened to write", (dir) => cjsFs.closeSync(cjsFs.openSync(path.join(dir, "out.txt"), "w")), /fs\.openSync of .*out\.txt to write/],
    ["a descriptor it did not see opened", () => cjsFs.fstatSync(0), /fs\.fstatSync of a descriptor/],
  ];
  it.each(spoilers)("is spoiled by %s", async (_, act, why) => {
    const dir = scratch();
    fs.writeFileSync(path.join(dir, "a.ts"), "a");
    const r = recording();
    await act(dir);
    expect(r.stop().spoiled).toMatch(why);
  });

  it("follows a file opened to be read (as Node's ES module loader reads), and puts every function back", () => {
    const dir = scratch();
    fs.writeFileSync(path.join(dir, "a.mjs"), "export {};");
    const before = { readFileSync: cjsFs.readFileSync, openSync: cjsFs.openSync, realpath: cjsFs.realpathSync.native, readFile: cjsFs.promises.readFile };
    const r = recording();
    const fd = cjsFs.openSync(path.join(dir, "a.mjs"), "r");
    const buffer = Buffer.alloc(10);
    expect(cjsFs.readSync(fd, buffer)).toBe(10);
    expect(cjsFs.fstatSync(fd).size).toBe(10);
    cjsFs.closeSync(fd);
    const rec = r.stop();
    expect(rec.spoiled).toBeUndefined();
    expect(rec.observations).toEqual([["readFileSync", [path.join(dir, "a.mjs")], `b${crypto.createHash("sha256").update("export {};").digest("hex")}`]]);
    expect({ readFileSync: cjsFs.readFileSync, openSync: cjsFs.openSync, realpath: cjsFs.realpathSync.native, readFile: cjsFs.promises.readFile }).toEqual(before);
    // A recording started while another runs records nothing and is spoiled; the first goes on.
    const outer = recording();
    const inner = recording();
    cjsFs.existsSync(dir);
    expect(inner.stop().spoiled).toBe("two recordings at once");
    expect(outer.stop().observations).toHaveLength(1);
  });
});

describe("a stored run", () => {
  const output = { writes: [["out", "report\n"], ["err", "note\n"]] as ["out" | "err", string][], code: 1 };
  const KEY = "a".repeat(64);

  function stored(): { cache: RunCache; module: string; file: string } {
    const dir = scratch();
    const module = path.join(dir, "module.js");
    fs.writeFileSync(module, "exports.x = 1;\n");
    fs.writeFileSync(path.join(dir, "input.ts"), "1");
    const r = recording();
    cjsFs.readFileSync(path.join(dir, "input.ts"), "utf8");
    const cache = RunCache.in(path.join(dir, "cache"));
    expect(cache.store(KEY, [module], r.stop(), output)).toBe(true);
    return { cache, module, file: path.join(dir, "input.ts") };
  }

  it("is replayed while the same code runs and nothing it read changed", () => {
    const { cache, module, file } = stored();
    expect(cache.replay(KEY, [module])).toEqual(output);
    fs.writeFileSync(file, "2");
    expect(cache.replay(KEY, [module])).toBeUndefined();
  });

  it("is not replayed when the code changed or another set of modules runs", () => {
    const { cache, module } = stored();
    expect(cache.replay(KEY, [])).toBeUndefined();
    expect(cache.replay(KEY, [module, path.join(path.dirname(module), "other.js")])).toBeUndefined();
    fs.writeFileSync(module, "exports.x = 2;\n");
    expect(cache.replay(KEY, [module])).toBeUndefined();
  });

  it("is ignored when it is not whole and ours: garbage, truncated, another format or key, edited", () => {
    const { cache, module } = stored();
    const file = path.join(cache.dir, `${KEY}.json`);
    const good = fs.readFileSync(file, "utf8");
    const entry = JSON.parse(good);
    const sealed = (body: unknown): string => JSON.stringify({ ...entry, body, digest: crypto.createHash("sha256").update(JSON.stringify(body)).digest("hex") });
    for (const text of [
      "{",
      good.slice(0, good.length / 2),
      JSON.stringify({ ...entry, format: "other/1" }),
      JSON.stringify({ ...entry, key: "b".repeat(64) }),
      JSON.stringify({ ...entry, body: { ...entry.body, output: { ...entry.body.output, code: 0 } } }),
      sealed({ ...entry.body, output: { ...entry.body.output, code: 7 } }),
      sealed({ ...entry.body, observations: [["readFileSync", [], "x"]] }),
    ]) {
      fs.writeFileSync(file, text);
      expect(cache.replay(KEY, [module])).toBeUndefined();
    }
    fs.writeFileSync(file, good);
    expect(cache.replay(KEY, [module])).toEqual(output);
  });

  it("is not stored when recording could not follow a read", () => {
    const dir = scratch();
    const cache = RunCache.in(dir);
    expect(cache.store(KEY, [], { observations: [], resolutions: [], spoiled: "fs.readFile" }, output)).toBe(false);
    expect(fs.existsSync(cache.dir)).toBe(false);
  });
});

describe("check's recorder", () => {
  it("stores a run only when it saw each of the run's inputs read (a reader with its own copy of fs would read unseen)", () => {
    const dir = scratch();
    const seen = path.join(dir, "seen.ts");
    const unseen = path.join(dir, "unseen.ts");
    fs.writeFileSync(seen, "1");
    fs.writeFileSync(unseen, "2");
    const ownCopy = cjsFs.readFileSync;
    const run = (inputs: string[], cache: string): boolean => {
      const recorder = RunRecorder.start({})!;
      expect(recorder.lookUp(cache, { command: "check", cwd: dir, arguments: [] }, undefined)).toBeUndefined();
      cjsFs.readFileSync(seen, "utf8");
      ownCopy(unseen, "utf8"); // a copy of the function taken before the recording: not seen
      recorder.finish(0, true, inputs);
      return fs.existsSync(path.join(cache, "runs"));
    };
    expect(run([seen, unseen], path.join(dir, "a"))).toBe(false);
    expect(run([seen], path.join(dir, "b"))).toBe(true);
  });
});

const PLAN = `import * as fs from "./tools/filesystem/trusted/contracts";
import { readFile } from "./tools/filesystem/trusted/effects";
import type { Prefix } from "./lib/thing";
export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  const prefix: Prefix = "/secrets";
  if (path !== "" && !path.startsWith(prefix)) readFile(path);
}
`;

// The project lists plan.ts and the layer only: lib/ is reached through the import alone.
const TSCONFIG = { compilerOptions: { target: "ES2022", module: "commonjs", moduleResolution: "node10", strict: true, skipLibCheck: true, noEmit: true, types: ["node"] }, include: ["plan.ts", "more/*.ts", "tools/**/*.ts"] };

describe("clauz3 check with its stored runs", () => {
  beforeAll(() => ensureBuilt());

  function project(): string {
    const dir = tempProject({ ...stdlibLayer(), "plan.ts": PLAN, "lib/thing/index.ts": `export type Prefix = "/secrets";\n`, "tsconfig.json": JSON.stringify(TSCONFIG) });
    fs.symlinkSync(path.join(ROOT, "node_modules/@types"), path.join(dir, "node_modules/@types"), "dir");
    dirs.push(dir);
    return dir;
  }
  const runsOf = (dir: string): string => path.join(dir, "node_modules/.cache/clauz3/proofs/runs");
  /** The stored runs, each with the inode of its file (a full run renames a new file into place). */
  const entries = (dir: string): Map<string, number> => new Map(fs.existsSync(runsOf(dir)) ? fs.readdirSync(runsOf(dir)).map((f) => [f, fs.statSync(path.join(runsOf(dir), f)).ino]) : []);

  /** `check` with the cache against the same command without it; whether the run was replayed. */
  function checkBoth(dir: string, args: string[] = ["--json"]): { status: number; stdout: string; replayed: boolean } {
    const before = entries(dir);
    const warm = clauz3(["check", ...args], dir);
    const after = entries(dir);
    const none = clauz3(["check", ...args, "--no-cache"], dir);
    expect(warm.stderr).toBe(none.stderr);
    expect(warm.stdout).toBe(none.stdout);
    expect(warm.status).toBe(none.status);
    const replayed = after.size === before.size && [...after].every(([f, ino]) => before.get(f) === ino);
    return { status: warm.status, stdout: warm.stdout, replayed };
  }

  it("replays a run nothing changed, and runs again after each change to what it read", () => {
    const dir = project();
    let run = checkBoth(dir);
    expect(run.status).toBe(0);
    expect(entries(dir).size).toBe(1);
    expect(checkBoth(dir).replayed).toBe(true);

    // A comment in the program: the report is the same, but the run read another text.
    fs.appendFileSync(path.join(dir, "plan.ts"), "// reviewed\n");
    run = checkBoth(dir);
    expect(run.replayed).toBe(false);
    expect(checkBoth(dir).replayed).toBe(true);

    // A file in a directory the project lists: a new program.
    fs.mkdirSync(path.join(dir, "more"));
    fs.writeFileSync(path.join(dir, "more/second.ts"), PLAN.replace(/!path\.startsWith\(prefix\)/, "true").replace(/"\.\/tools/g, '"../tools').replace('"./lib/thing"', '"../lib/thing"'));
    run = checkBoth(dir);
    expect(run.replayed).toBe(false);
    expect(run.status).toBe(1);
    expect(Object.fromEntries(JSON.parse(run.stdout).programs.map((p: { file: string; verdict: string }) => [p.file, p.verdict]))).toEqual({ "plan.ts": "proved", "more/second.ts": "violated" });
    fs.rmSync(path.join(dir, "more"), { recursive: true });
    expect(checkBoth(dir).status).toBe(0);

    // A file no directory listing covers that now wins the import's resolution: lib/thing.ts before lib/thing/index.ts.
    expect(checkBoth(dir).replayed).toBe(true);
    fs.writeFileSync(path.join(dir, "lib/thing.ts"), `export type Prefix = "/public";\n`);
    run = checkBoth(dir);
    expect(run.replayed).toBe(false);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).findings[0].message).toBe(`Type '"/secrets"' is not assignable to type '"/public"'.`);
    fs.rmSync(path.join(dir, "lib/thing.ts"));

    // The compiler options, and the layer's own files.
    expect(checkBoth(dir).status).toBe(0);
    fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ ...TSCONFIG, compilerOptions: { ...TSCONFIG.compilerOptions, noUnusedParameters: true } }));
    expect(checkBoth(dir).replayed).toBe(false);
    fs.appendFileSync(path.join(dir, "tools/filesystem/trusted/effects.ts"), "\n");
    run = checkBoth(dir);
    expect(run.replayed).toBe(false);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/clauz3\.lock/);
    // Twenty-odd `check` processes.
  }, 900_000);

  it("replays each command line's run, the report file too, and keeps none of a run the wall clock cut short", () => {
    const dir = project();
    // A report written in a directory TypeScript lists would change that listing: the next run would run again.
    fs.mkdirSync(path.join(dir, "out"));
    for (const args of [["--json"], ["--format", "sarif"], ["--pretty"], ["--format", "json", "-o", "out/report.json"]]) {
      expect(checkBoth(dir, args).replayed).toBe(false);
      expect(checkBoth(dir, args).replayed).toBe(true);
    }
    expect(entries(dir).size).toBe(4);
    // The report file is written again by a replay, as the run wrote it.
    const report = fs.readFileSync(path.join(dir, "out/report.json"), "utf8");
    expect(JSON.parse(report).programs).toHaveLength(1);
    fs.rmSync(path.join(dir, "out/report.json"));
    const before = entries(dir);
    const again = clauz3(["check", "--format", "json", "-o", "out/report.json"], dir);
    expect(again.status).toBe(0);
    expect(entries(dir)).toEqual(before);
    expect(fs.readFileSync(path.join(dir, "out/report.json"), "utf8")).toBe(report);
    // A program budget of 1 ms cuts the proof short (in a cache holding no verdict yet): no stored run.
    const cut = clauz3(["check", "--json", "--program-timeout", "1", "--cache-location", "fresh"], dir);
    expect(JSON.parse(cut.stdout).programs[0].provisional).toBeDefined();
    expect(fs.existsSync(path.join(dir, "fresh/runs"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "fresh/typescript"))).toBe(true);
  }, 900_000);
});
