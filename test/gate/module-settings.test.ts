/**
 * Each supported `module`/`moduleResolution` combination (docs/module-settings.md), as a real
 * project on disk: `clauz3 check` and `clauz3 prove` pass it (its program proved), the real `tspc`
 * builds it, and Node runs the emitted program with clauz3's runtime.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { ensureBuilt } from "../../fixtures/projects/project.mjs";
import { clauz3, layerFiles, planFile, removeProjects, tsconfig, tspc, writeProject, type Files } from "./projects";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });
beforeAll(() => ensureBuilt());
afterAll(() => removeProjects());

interface Setting {
  readonly name: string;
  readonly options: Record<string, unknown>;
  /** `.js` after relative specifiers (ESM). */
  readonly ext: string;
  readonly packageJson?: string;
}

const SETTINGS: readonly Setting[] = [
  { name: "commonjs + node10", options: { module: "commonjs", moduleResolution: "node10" }, ext: "" },
  { name: "commonjs + default resolution (node10)", options: { module: "commonjs" }, ext: "" },
  { name: "node16 (CommonJS package)", options: { module: "node16", moduleResolution: "node16" }, ext: "" },
  { name: "nodenext (ESM package)", options: { module: "nodenext", moduleResolution: "nodenext" }, ext: ".js", packageJson: `{ "type": "module" }\n` },
  { name: "esnext + bundler", options: { module: "esnext", moduleResolution: "bundler" }, ext: "" },
];

describe.each(SETTINGS)("$name", (s) => {
  it("check and prove pass, tspc builds, and the program runs", () => {
    const files: Files = { "tsconfig.json": tsconfig(s.options), ...layerFiles(s.ext), "plan.ts": planFile(s.ext) };
    if (s.packageJson) files["package.json"] = s.packageJson;
    const dir = writeProject({ files });
    const check = clauz3(dir, ["check", "--no-pretty"]);
    expect(check.stdout + check.stderr).not.toMatch(/error TS/);
    expect(check.status).toBe(0);
    const prove = clauz3(dir, ["prove", "--json", "plan.ts"]);
    expect(JSON.parse(prove.stdout).programs.map((p: { verdict: string }) => p.verdict)).toEqual(["proved"]);
    expect(prove.status).toBe(0);
    const build = tspc(dir);
    expect(build.stdout + build.stderr).toBe("");
    expect(build.status).toBe(0);
    if (s.options.moduleResolution === "bundler") return; // a bundler's output, not Node's: nothing to run here
    // What was checked is what Node loads: the emitted program runs and records its tool's event.
    const script = `const { record } = require("clauz3"); import(${JSON.stringify(path.join(dir, "out/plan.js"))}).then((m) => { const { trace } = record(() => (m.main ?? m.default.main)("inv-1")); console.log(JSON.stringify(trace.map((e) => e.toJSON()))); });`;
    const run = spawnSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual([
      { effect: "payments.pay", invoice: "inv-1", amount: 10 },
      { event: "Charge", invoice: "inv-1", amount: 10 },
    ]);
  });
});
