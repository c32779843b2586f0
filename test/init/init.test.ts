/**
 * `clauz3 init`: an empty folder ends with a proved sample program (and a broken line in it is
 * refused); an existing project's tsconfig.json is merged keeping its comments and formatting;
 * a second run changes nothing; a user's differing value is kept without --force; malformed
 * files are named with the field, and nothing is written.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "jsonc-parser";
import { main } from "../../cli/main";
import { SAMPLE } from "../../cli/init/templates";
import { ROOT } from "../cli/helpers";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A folder outside the checkout whose node_modules links this checkout as `clauz3` (and @types/node, which the stdlib needs). */
function folder(files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-init-"));
  made.push(dir);
  fs.mkdirSync(path.join(dir, "node_modules/@types"), { recursive: true });
  fs.symlinkSync(ROOT, path.join(dir, "node_modules/clauz3"), "dir");
  fs.symlinkSync(path.join(ROOT, "node_modules/@types/node"), path.join(dir, "node_modules/@types/node"), "dir");
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

async function clauz3(args: string[], cwd: string): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await main(args, { cwd, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stderrIsTTY: false, env: { NO_COLOR: "1" } });
  return { status, stdout, stderr };
}

/** Every file below `dir` except node_modules, with its text. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === "node_modules") continue;
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), rel);
      else out[rel] = fs.readFileSync(path.join(d, e.name), "utf8");
    }
  };
  walk(dir, "");
  return out;
}

describe("clauz3 init in an empty folder", () => {
  let dir: string;
  let first: { status: number; stdout: string; stderr: string };
  beforeAll(async () => {
    dir = folder();
    first = await clauz3(["init"], dir);
  });

  it("writes the project, prints what it did and the next three commands", () => {
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout).toContain("created tsconfig.json");
    expect(first.stdout).toContain("installed stdlib:filesystem into tools/filesystem and pinned it in clauz3.lock");
    expect(first.stdout).toContain("wrote src/agent.ts");
    const next = first.stdout.slice(first.stdout.indexOf("Next:\n")).split("\n").slice(1).filter(Boolean);
    expect(next.slice(-3).map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(["npx clauz3 check", "npm run build", "code ."]);
    const tsconfig = parse(fs.readFileSync(path.join(dir, "tsconfig.json"), "utf8")) as { compilerOptions: { plugins: unknown[] } };
    expect(tsconfig.compilerOptions.plugins).toEqual([{ transform: "clauz3/plugin" }, { name: "clauz3/language-service" }]);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name: string; scripts: Record<string, string> };
    expect(pkg.scripts).toEqual({ check: "clauz3 check", build: "tspc -p tsconfig.json" });
    expect(pkg.name).toMatch(/^clauz3-init-/);
    expect(JSON.parse(fs.readFileSync(path.join(dir, ".vscode/settings.json"), "utf8"))).toMatchObject({ "typescript.tsdk": "node_modules/typescript/lib" });
    expect(fs.readFileSync(path.join(dir, "src/agent.ts"), "utf8")).toBe(SAMPLE);
  });

  it("the sample program is proved, and a broken line in it is refused", async () => {
    const r = await clauz3(["check"], dir);
    expect(r.stdout + r.stderr).toContain("1/1 program(s) proved");
    expect(r.status).toBe(0);
    const broken = folder(Object.fromEntries(Object.entries(snapshot(dir)).map(([k, v]) => [k, k === "src/agent.ts" ? v.replace('writeFile("out/summary.md"', 'writeFile("notes/summary.md"') : v])));
    const b = await clauz3(["check"], broken);
    expect(b.status).toBe(1);
    expect(b.stdout + b.stderr).toMatch(/src\/agent\.ts:\d+:\d+/);
    expect(b.stdout + b.stderr).toContain("onlyWritesFilesUnder");
  });

  it("is idempotent: a second run keeps every file", async () => {
    const before = snapshot(dir);
    const again = await clauz3(["init"], dir);
    expect(again.status).toBe(0);
    expect(again.stdout).not.toMatch(/^(created|updated|wrote|installed|replaced)/m);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("clauz3 init in an existing project", () => {
  const TSCONFIG = `// my project's settings
{
    "compilerOptions": {
        "strict": true, // keep this
        /* the build */
        "outDir": "build",
        "types": ["node"],
        "plugins": [
            { "name": "some-other-plugin" }
        ]
    },
    "include": ["src", "tools"],
}
`;

  it("merges the plugin entries keeping comments, order and indentation; keeps a user's script without --force", async () => {
    const dir = folder({
      "tsconfig.json": TSCONFIG,
      "package.json": `{\n\t"name": "mine",\n\t"scripts": {\n\t\t"build": "tsc"\n\t}\n}\n`,
      "src/agent.ts": "export const mine = 1;\n",
    });
    const r = await clauz3(["init"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const text = fs.readFileSync(path.join(dir, "tsconfig.json"), "utf8");
    expect(text.startsWith("// my project's settings\n{\n    \"compilerOptions\": {\n        \"strict\": true, // keep this\n        /* the build */\n")).toBe(true);
    expect((parse(text) as { compilerOptions: { plugins: unknown[] } }).compilerOptions.plugins).toEqual([
      { name: "some-other-plugin" },
      { transform: "clauz3/plugin" },
      { name: "clauz3/language-service" },
    ]);
    expect(text).toContain('            {\n                "transform": "clauz3/plugin"\n            }');
    expect(r.stdout).toContain("updated tsconfig.json: added the plugin \"clauz3/plugin\" and \"clauz3/language-service\" to compilerOptions.plugins");
    expect(r.stdout).toContain('kept package.json scripts.build ("tsc"); pass --force to make it "tspc -p tsconfig.json"');
    expect(r.stdout).toContain("kept src/agent.ts (it is yours)");
    expect(fs.readFileSync(path.join(dir, "src/agent.ts"), "utf8")).toBe("export const mine = 1;\n");
    expect(fs.readFileSync(path.join(dir, "package.json"), "utf8")).toBe(`{\n\t"name": "mine",\n\t"scripts": {\n\t\t"build": "tsc",\n\t\t"check": "clauz3 check"\n\t}\n}\n`);

    const forced = await clauz3(["init", "--force"], dir);
    expect(forced.status).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).scripts.build).toBe("tspc -p tsconfig.json");
    expect(fs.readFileSync(path.join(dir, "src/agent.ts"), "utf8")).toBe(SAMPLE);
  });

  it("adds compilerOptions.plugins when there is none, and creates the folder it is given", async () => {
    const parent = folder();
    const dir = path.join(parent, "agents");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "types": ["node"] } }');
    const r = await clauz3(["init", "agents"], parent);
    expect(r.status).toBe(0);
    expect((parse(fs.readFileSync(path.join(dir, "tsconfig.json"), "utf8")) as { compilerOptions: unknown }).compilerOptions).toEqual({
      strict: true,
      types: ["node"],
      plugins: [{ transform: "clauz3/plugin" }, { name: "clauz3/language-service" }],
    });
  });

  const malformed: [string, Record<string, string>, string][] = [
    ["a tsconfig.json that is not JSON", { "tsconfig.json": '{\n  "compilerOptions": {\n    "strict": true\n  \n' }, "clauz3 init: tsconfig.json: the text at line 5, column 1 is not valid JSON with comments (CloseBraceExpected)\n"],
    ["a tsconfig.json that is an array", { "tsconfig.json": "[]" }, "clauz3 init: tsconfig.json: the document must be a JSON object\n"],
    ["compilerOptions that is a string", { "tsconfig.json": '{ "compilerOptions": "strict" }' }, "clauz3 init: tsconfig.json: compilerOptions must be a JSON object (it is a string)\n"],
    ["plugins that is an object", { "tsconfig.json": '{ "compilerOptions": { "plugins": { "transform": "x" } } }' }, "clauz3 init: tsconfig.json: compilerOptions.plugins must be an array (it is an object)\n"],
    ["a plugin entry that is a string", { "tsconfig.json": '{ "compilerOptions": { "plugins": ["clauz3/plugin"] } }' }, "clauz3 init: tsconfig.json: compilerOptions.plugins[0] must be a JSON object\n"],
    ["a package.json with a comment", { "package.json": '{\n  // no\n  "name": "x"\n}' }, "clauz3 init: package.json: the text at line 2, column 3 is not valid JSON (InvalidCommentToken)\n"],
    ["scripts that is an array", { "package.json": '{ "scripts": ["build"] }' }, "clauz3 init: package.json: scripts must be a JSON object (it is an array)\n"],
    ["a script that is a number", { "package.json": '{ "scripts": { "check": 1 } }' }, "clauz3 init: package.json: scripts.check must be a string\n"],
    ["a .vscode/settings.json that is not JSON", { ".vscode/settings.json": "{ nope }" }, "clauz3 init: .vscode/settings.json: the text at line 1, column 3 is not valid JSON with comments (InvalidSymbol)\n"],
  ];
  it.each(malformed)("stops on %s, naming the file and the field, and writes nothing", async (_what, files, message) => {
    const dir = folder(files);
    const before = snapshot(dir);
    const r = await clauz3(["init"], dir);
    expect(r.stderr).toBe(message);
    expect(r.status).toBe(2);
    expect(snapshot(dir)).toEqual(before);
  });
});
