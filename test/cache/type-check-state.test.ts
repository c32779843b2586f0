/**
 * TypeScript's incremental state in the proof cache (core/cache/type-check-state.ts): a warm
 * `clauz3 check` takes the diagnostics of unchanged files from TypeScript's builder. What it
 * reports must be what a check without any cache reports, after every kind of edit: a module a
 * program imports, a global declaration, the program itself, and a state that is not what we wrote.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { clauz3, ensureBuilt, removeProject, ROOT, stdlibLayer, tempProject } from "../cli/helpers";

const HELPER = `export type Most = number;
`;

const FLOOR = `export type Floor = number;
`;

const PLAN = `import * as fs from "./tools/filesystem/trusted/contracts";
import { readFile } from "./tools/filesystem/trusted/effects";
import type { Most } from "./helper";
import type { Floor } from "./floor";
export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  const most: Most = 5;
  const least: Floor = 3;
  if (most > least && path !== "" && !path.startsWith("/secrets")) readFile(path);
}
`;

const TSCONFIG = { compilerOptions: { target: "ES2022", module: "preserve", moduleResolution: "bundler", strict: true, skipLibCheck: true, noEmit: true, types: ["node"] }, include: ["**/*.ts"], exclude: ["node_modules"] };

const projects: string[] = [];
beforeAll(() => ensureBuilt());
afterAll(() => projects.forEach(removeProject));

function project(): string {
  const dir = tempProject({ ...stdlibLayer(), "helper.ts": HELPER, "floor.d.ts": FLOOR, "plan.ts": PLAN, "tsconfig.json": JSON.stringify(TSCONFIG) });
  fs.symlinkSync(path.join(ROOT, "node_modules/@types"), path.join(dir, "node_modules/@types"), "dir");
  projects.push(dir);
  return dir;
}

const stateDir = (dir: string): string => path.join(dir, "node_modules/.cache/clauz3/proofs/typescript");

/** `check --json` with the cache, checked against the same command without it; returns the report. */
function checkBoth(dir: string): { status: number | null; report: { programs: { verdict: string; results: { message: string }[] }[]; diagnostics?: unknown } & Record<string, unknown>; stdout: string } {
  const warm = clauz3(["check", "--json"], dir);
  const none = clauz3(["check", "--json", "--no-cache"], dir);
  expect(warm.stderr).toBe(none.stderr);
  expect(warm.stdout).toBe(none.stdout);
  expect(warm.status).toBe(none.status);
  return { status: warm.status, report: JSON.parse(warm.stdout), stdout: warm.stdout };
}

const edit = (dir: string, file: string, from: string, to: string): void => {
  const full = path.join(dir, file);
  const text = fs.readFileSync(full, "utf8");
  expect(text).toContain(from);
  fs.writeFileSync(full, text.replace(from, to));
};

describe("clauz3 check with TypeScript's incremental state", () => {
  it("reports what a check without the cache reports, after each edit that changes a program's diagnostics", () => {
    const dir = project();
    expect(checkBoth(dir).status).toBe(0);
    expect(fs.readdirSync(stateDir(dir))).toHaveLength(1);

    // A module the program imports now says text: the program no longer type-checks.
    edit(dir, "helper.ts", "Most = number", "Most = string");
    let run = checkBoth(dir);
    expect(run.status).toBe(1);
    expect(run.report.programs[0]!.verdict).toBe("refused");
    expect(run.stdout).toMatch(/Type 'number' is not assignable to type 'string'/);

    // Back as it was: the state settles again and the program is proved.
    edit(dir, "helper.ts", "Most = string", "Most = number");
    expect(checkBoth(dir).report.programs[0]!.verdict).toBe("proved");

    // A declaration file (in every key's base, not in the program's own part).
    edit(dir, "floor.d.ts", "Floor = number", "Floor = string");
    run = checkBoth(dir);
    expect(run.status).toBe(1);
    expect(run.report.programs[0]!.verdict).toBe("refused");
    expect(run.stdout).toMatch(/Type 'number' is not assignable to type 'string'/);
    edit(dir, "floor.d.ts", "Floor = string", "Floor = number");
    expect(checkBoth(dir).status).toBe(0);

    // A module the program imports is deleted, then written again.
    fs.renameSync(path.join(dir, "helper.ts"), path.join(dir, "helper.moved"));
    run = checkBoth(dir);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/Cannot find module '\.\/helper'/);
    fs.renameSync(path.join(dir, "helper.moved"), path.join(dir, "helper.ts"));
    expect(checkBoth(dir).status).toBe(0);

    // The compiler options: an option that changes what TypeScript reports.
    edit(dir, "plan.ts", "const most: Most = 5;", "const most: Most = 5;\n  const spare = 1;");
    expect(checkBoth(dir).status).toBe(0);
    edit(dir, "tsconfig.json", '"strict":true', '"strict":true,"noUnusedLocals":true');
    run = checkBoth(dir);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/'spare' is declared but its value is never read/);
    edit(dir, "plan.ts", "\n  const spare = 1;", "");

    // The program itself.
    edit(dir, "plan.ts", "const least: Floor = 3;", "const least: Floor = most.length;");
    run = checkBoth(dir);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/Property 'length' does not exist on type 'number'/);
    // Twenty `check` processes: about 90 s idle, three minutes when the machine is busy.
  }, 900_000);

  it("ignores a state that is not what it wrote, and writes a good one in its place", () => {
    const dir = project();
    expect(checkBoth(dir).status).toBe(0);
    const [name] = fs.readdirSync(stateDir(dir));
    const file = path.join(stateDir(dir), name!);
    const written = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(written.format).toBe("clauz3-type-check-state/1");

    // The state of before an edit, whole: TypeScript sees the file changed and checks it again.
    edit(dir, "helper.ts", "Most = number", "Most = string");
    fs.writeFileSync(file, JSON.stringify(written));
    expect(checkBoth(dir).status).toBe(1);
    // That state again, its text swapped in under the new digest (edited): not believed.
    const stale = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(stale.digest).not.toBe(written.digest);
    fs.writeFileSync(file, JSON.stringify({ ...stale, state: written.state }));
    expect(checkBoth(dir).status).toBe(1);

    // Not JSON, a truncated file, another format, states TypeScript cannot use (with good digests).
    const sealed = (state: string): string => JSON.stringify({ format: "clauz3-type-check-state/1", digest: crypto.createHash("sha256").update(state).digest("hex"), state });
    const version = (require("typescript") as { version: string }).version;
    for (const text of [
      "{",
      fs.readFileSync(file, "utf8").slice(0, 100),
      JSON.stringify({ ...written, format: "other/1" }),
      sealed("not json"),
      sealed(JSON.stringify({ version, fileNames: 7, fileInfos: "x", root: [[1, 2]] })),
      sealed(JSON.stringify({ version, fileNames: ["helper.ts"], fileInfos: [{ version: 1 }], semanticDiagnosticsPerFile: [[1, [{ start: "x" }]]] })),
    ]) {
      fs.writeFileSync(file, text);
      const run = checkBoth(dir);
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(/Type 'number' is not assignable to type 'string'/);
    }
  }, 900_000);

  it("--no-cache neither reads nor writes it", () => {
    const dir = project();
    expect(clauz3(["check", "--no-cache"], dir).status).toBe(0);
    expect(fs.existsSync(stateDir(dir))).toBe(false);
  });
});
