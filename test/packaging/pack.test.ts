/**
 * The published packages, as a user gets them (docs/packaging.md): `scripts/pack.mjs` packs
 * `clauz3` (runtime) and `clauz3-tools` (tooling) with `npm pack`; both are installed into
 * projects under os.tmpdir(), outside the checkout, without the network:
 *
 * - a development project (CommonJS) installs both tarballs and the tools' dependencies from the
 *   npm cache (`npm ci` filled it): its package-lock.json is the repository's, whose entries get
 *   their registry URLs back so npm never needs package metadata; `--ignore-scripts`, because
 *   better-sqlite3's install script would download a binary (only the approval service's SQLite
 *   store uses it). There `clauz3 init`, `clauz3 check`, `tspc` and a real tsserver run from the
 *   tarballs, and a broken line is refused by all three;
 * - an ES-module project (`"type": "module"`, nodenext) beside it installs a library, proves and
 *   builds with the same tarballs, and runs its output;
 * - a production project installs only the runtime tarball with `--omit=dev --offline`: neither
 *   z3-solver nor typescript resolves there, the install stays under 1 MB, and the program the
 *   development project compiled runs.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureBuilt, ROOT } from "../cli/helpers";
import { ours, Tsserver, type DiagnosticsView } from "../language-service/tsserver-client.mjs";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

let base: string;
let runtimeTgz: string;
let toolsTgz: string;
const servers: Tsserver[] = [];

function run(command: string, args: readonly string[], cwd: string): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(command, [...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", npm_config_update_notifier: "false" } });
  return { status: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Total size in bytes of the files below `dir`. */
function sizeOf(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) total += sizeOf(full);
    else if (e.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

/** A package-lock for `pkg` holding the repository's resolved packages, each with its registry URL (so npm installs from the cache). */
function offlineLock(pkg: { name: string; version: string; dependencies?: object; devDependencies?: object }): object {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, Record<string, unknown>> };
  const packages: Record<string, Record<string, unknown>> = { "": { name: pkg.name, version: pkg.version, dependencies: pkg.dependencies, devDependencies: pkg.devDependencies } };
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === "" || !key.startsWith("node_modules/") || entry.link || typeof entry.integrity !== "string") continue;
    const name = (entry.name as string | undefined) ?? key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
    packages[key] = { ...entry, resolved: entry.resolved ?? `https://registry.npmjs.org/${name}/-/${name.split("/").pop()}-${entry.version as string}.tgz` };
  }
  return { name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages };
}

const repoVersion = (name: string): string => {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { version: string }> };
  return lock.packages[`node_modules/${name}`]!.version;
};

beforeAll(() => {
  ensureBuilt();
  base = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-pack-"));
  const packed = execFileSync(process.execPath, [path.join(ROOT, "scripts/pack.mjs"), base], { cwd: ROOT, encoding: "utf8" }).trim().split("\n");
  [runtimeTgz, toolsTgz] = packed as [string, string];
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

describe("the packed tarballs", () => {
  it("clauz3 holds the runtime only; clauz3-tools holds the tooling, the schemas and the standard library", () => {
    const list = (tgz: string): string[] => execFileSync("tar", ["tzf", tgz], { encoding: "utf8" }).trim().split("\n");
    const runtime = list(runtimeTgz);
    expect(runtime.filter((f) => !/^package\/(dist\/runtime\/[a-z-]+\.(js|d\.ts)|dist\/forward\/(plugin|language-service)\.js|language-service\/package\.json|package\.json|LICENSE|README\.md)$/.test(f))).toEqual([]);
    const tools = list(toolsTgz);
    for (const f of ["package/dist/cli/main.js", "package/dist/plugin/index.js", "package/dist/language-service/index.js", "package/schema/lock.schema.json", "package/stdlib/filesystem/trusted/effects.ts", "package/stdlib/filesystem/clauz3.json", "package/LICENSE"]) {
      expect(tools).toContain(f);
    }
  });
});

describe("a CommonJS development project, then production", () => {
  let dev: string;
  beforeAll(() => {
    dev = path.join(base, "dev");
    const pkg = {
      name: "dev",
      version: "1.0.0",
      private: true,
      dependencies: { clauz3: `file:${runtimeTgz}` },
      devDependencies: { "clauz3-tools": `file:${toolsTgz}`, typescript: repoVersion("typescript"), "ts-patch": repoVersion("ts-patch"), "@types/node": repoVersion("@types/node") },
    };
    writeJson(path.join(dev, "package.json"), pkg);
    writeJson(path.join(dev, "package-lock.json"), offlineLock(pkg));
    const r = run("npm", ["install", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], dev);
    if (r.status !== 0) throw new Error(`npm install (offline) failed:\n${r.stdout}${r.stderr}`);
  });

  it("`clauz3 init` from the tarball writes a project whose sample program `clauz3 check` proves", () => {
    const init = run(path.join(dev, "node_modules/.bin/clauz3"), ["init"], dev);
    expect(init.stderr).toBe("");
    expect(init.status).toBe(0);
    expect(init.stdout).not.toContain("first: the packages this project lacks");
    expect(init.stdout).toContain("installed stdlib:filesystem into tools/filesystem");
    const check = run(path.join(dev, "node_modules/.bin/clauz3"), ["check"], dev);
    expect(check.stdout + check.stderr).toContain("0 finding(s), 1/1 program(s) proved");
    expect(check.status).toBe(0);
  });

  it("`npm run build` (tspc with clauz3/plugin) builds it clean, and fails on a broken line", () => {
    const build = run("npm", ["run", "build", "--silent"], dev);
    expect(build.stdout + build.stderr).toBe("");
    expect(build.status).toBe(0);
    expect(fs.existsSync(path.join(dev, "dist/src/agent.js"))).toBe(true);
    expect(fs.readFileSync(path.join(dev, "dist/tools/filesystem/trusted/effects.js"), "utf8")).toMatch(/require\("clauz3"\)/);

    const broken = path.join(base, "dev-broken");
    fs.mkdirSync(broken);
    for (const f of ["package.json", "tsconfig.json", "clauz3.lock", "src", "tools"]) fs.cpSync(path.join(dev, f), path.join(broken, f), { recursive: true });
    fs.symlinkSync(path.join(dev, "node_modules"), path.join(broken, "node_modules"), "dir");
    const agent = path.join(broken, "src/agent.ts");
    fs.writeFileSync(agent, fs.readFileSync(agent, "utf8").replace('writeFile("out/summary.md"', 'writeFile("notes/summary.md"'));
    const r = run(path.join(broken, "node_modules/.bin/tspc"), ["-p", "tsconfig.json"], broken);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(/src\/agent\.ts\(\d+,\d+\): error TS93\d{3}/);
    expect(r.stdout).toContain("onlyWritesFilesUnder");
  });

  it("a real tsserver loads clauz3/language-service from the tarball: a squiggle on the broken line, none once fixed", async () => {
    const s = new Tsserver(dev, { verbose: false });
    servers.push(s);
    await s.configure();
    const text = fs.readFileSync(path.join(dev, "src/agent.ts"), "utf8");
    const brokenText = text.replace('writeFile("out/summary.md"', 'writeFile("notes/summary.md"');
    await s.open("src/agent.ts", brokenText);
    const errors = (v: DiagnosticsView) => ours(v.semantic);
    const v = await s.pollDiagnostics("src/agent.ts", (x) => errors(x).length > 0, { budgetMs: 600_000 });
    const line = brokenText.split("\n").findIndex((l) => l.includes('writeFile("notes/summary.md"')) + 1;
    expect(errors(v).map((d) => d.start.line)).toContain(line);
    expect(errors(v).some((d) => d.text.includes("onlyWritesFilesUnder"))).toBe(true);
    await s.replace("src/agent.ts", brokenText, text);
    const fixed = await s.pollDiagnostics("src/agent.ts", (x) => errors(x).length === 0 && ours(x.suggestion).some((d) => d.text.startsWith("proved: ")), { budgetMs: 600_000 });
    expect(errors(fixed)).toEqual([]);
  });

  it("production: only the runtime is installed (no z3-solver, no typescript, under 1 MB), and the compiled program runs", () => {
    const prod = path.join(base, "prod");
    writeJson(path.join(prod, "package.json"), { name: "prod", version: "1.0.0", private: true, dependencies: { clauz3: `file:${runtimeTgz}` } });
    const install = run("npm", ["install", "--omit=dev", "--offline", "--no-audit", "--no-fund"], prod);
    expect(install.stderr.replace(/npm warn .*\n/g, "")).toBe("");
    expect(install.status).toBe(0);
    expect(fs.readdirSync(path.join(prod, "node_modules")).filter((n) => !n.startsWith("."))).toEqual(["clauz3"]);
    const size = sizeOf(path.join(prod, "node_modules"));
    expect(size).toBeLessThan(1024 * 1024);

    // Node resolves through every ancestor's node_modules: one above the temporary folder (a stray
    // /tmp/node_modules) would make the probe find packages this install never brought.
    const ancestors = path.dirname(prod).split(path.sep).map((_, i, parts) => parts.slice(0, i + 1).join(path.sep) || path.sep);
    expect(ancestors.filter((a) => fs.existsSync(path.join(a, "node_modules"))), "a node_modules folder above the test's temporary folder").toEqual([]);
    const probe = run(process.execPath, ["-e", 'for (const m of ["z3-solver", "typescript", "clauz3-tools", "clauz3", "clauz3/events", "clauz3/spec"]) { try { require.resolve(m); console.log(m + ": found"); } catch { console.log(m + ": missing"); } }'], prod);
    expect(probe.stdout).toBe("z3-solver: missing\ntypescript: missing\nclauz3-tools: missing\nclauz3: found\nclauz3/events: found\nclauz3/spec: found\n");
    // Without the tooling, the plugin entry says what to install instead of a stack of resolution errors.
    const plugin = run(process.execPath, ["-e", 'try { require("clauz3/plugin"); } catch (e) { console.log(e.message); }'], prod);
    expect(plugin.stdout).toBe("clauz3/plugin is part of the tooling: install it next to the runtime with `npm install --save-dev clauz3-tools`.\n");

    fs.cpSync(path.join(base, "dev/dist"), path.join(prod, "dist"), { recursive: true });
    fs.mkdirSync(path.join(prod, "notes"));
    fs.mkdirSync(path.join(prod, "out"));
    fs.writeFileSync(path.join(prod, "notes/todo.md"), "- ship it\n");
    const r = run(process.execPath, ["-e", 'require("./dist/src/agent.js").main()'], prod);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(prod, "out/summary.md"), "utf8")).toBe("# Summary\n\n- ship it\n");
    process.stdout.write(`production install of clauz3: ${size} bytes\n`);
  });
});

describe("an ES-module (nodenext) project", () => {
  it("installs a library from a folder, proves, builds with tspc and runs as ESM", () => {
    const esm = path.join(base, "dev", "esm");
    // A library written for ES modules: relative imports name their .js files.
    const lib = path.join(base, "esm-lib");
    for (const f of fs.readdirSync(path.join(ROOT, "fixtures/projects/good-layer/tools/calendar/trusted"))) {
      const text = fs.readFileSync(path.join(ROOT, "fixtures/projects/good-layer/tools/calendar/trusted", f), "utf8").replace(/from "\.\/(\w+)"/g, 'from "./$1.js"');
      fs.mkdirSync(path.join(lib, "tools/calendar/trusted"), { recursive: true });
      fs.writeFileSync(path.join(lib, "tools/calendar/trusted", f), text);
    }
    writeJson(path.join(esm, "package.json"), { name: "esm", version: "1.0.0", private: true, type: "module" });
    fs.writeFileSync(
      path.join(esm, "tsconfig.json"),
      `{\n  "compilerOptions": {\n    "target": "ES2022", "module": "nodenext", "moduleResolution": "nodenext", "strict": true, "skipLibCheck": true,\n    "types": ["node"], "rootDir": ".", "outDir": "dist",\n    "plugins": [{ "transform": "clauz3/plugin" }, { "name": "clauz3/language-service" }]\n  },\n  "include": ["src", "tools"]\n}\n`,
    );
    fs.mkdirSync(path.join(esm, "src"));
    fs.writeFileSync(
      path.join(esm, "src/plan.ts"),
      `import * as calendar from "../tools/calendar/trusted/contracts.js";\nimport { invite } from "../tools/calendar/trusted/effects.js";\n\nexport const guarantees = [calendar.invitesBetween(0, 2)];\n\nexport function main(a: string, b: string): number {\n  let n = 0;\n  if (invite(a)) n = n + 1;\n  if (invite(b)) n = n + 1;\n  return n;\n}\n`,
    );
    const clauz3 = path.join(base, "dev/node_modules/.bin/clauz3");
    const installed = run(clauz3, ["install", lib], esm);
    expect(installed.stderr).toBe("");
    expect(installed.status).toBe(0);
    const check = run(clauz3, ["check"], esm);
    expect(check.stdout + check.stderr).toContain("0 finding(s), 1/1 program(s) proved");
    const build = run(path.join(base, "dev/node_modules/.bin/tspc"), ["-p", "tsconfig.json"], esm);
    expect(build.stdout + build.stderr).toBe("");
    expect(build.status).toBe(0);
    expect(fs.readFileSync(path.join(esm, "dist/tools/calendar/trusted/effects.js"), "utf8")).toMatch(/^import .* from "clauz3";$/m);
    const r = run(process.execPath, ["--input-type=module", "-e", 'const { main } = await import("./dist/src/plan.js"); console.log(main("a@example.com", "b"));'], esm);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("1\n"); // invite("b") performs the invitation and returns false: no "@"
  });
});
