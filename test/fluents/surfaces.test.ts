/**
 * One engine: the CLI (`clauz3 check`) and the build (`tspc` with the clauz3 transformer) report a
 * fluent rule on the same file, line, column and code. (The editor reads the layer through the
 * same core/layer; test/language-service covers that path for the rules of before.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { ensureBuilt, lockProject, prepareProject, removeProject, ROOT, tspc } from "../../fixtures/projects/project.mjs";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });
const LAYER = fs.readFileSync(path.join(__dirname, "programs/tools/home/trusted/layer.ts"), "utf8");
const BAD = `${LAYER}export const bad = trusted(updates((door: string) => Locked.set(door, 1 as never)), function bad(door: string): void {});\n`;
const PLAN = `import { lock } from "./tools/home/trusted/layer";
import * as h from "./tools/home/trusted/layer";
export const guarantees = [h.lockedAtEnd("front")];
export function main(x: boolean): void { if (x) return; lock("front"); }
`;
let dir: string | undefined;
beforeAll(() => ensureBuilt());
afterAll(() => dir && removeProject(dir));

it("CLI and tspc report TS93052 on the same node", () => {
  dir = prepareProject("good-layer", { prefix: "clauz3-fluents-", files: { "tools/home/trusted/layer.ts": BAD, "plan.ts": PLAN } });
  lockProject(dir);
  let cli: string;
  try {
    cli = execFileSync("node", [path.join(ROOT, "dist/cli/main.js"), "check"], { cwd: dir, encoding: "utf8" });
  } catch (error) {
    cli = String((error as { stdout?: string }).stdout ?? "");
  }
  const build = tspc(dir);
  const at = (text: string) => text.split("\n").filter((l) => l.includes("TS93052")).map((l) => l.slice(0, l.indexOf(": error")));
  expect(at(cli)).toEqual(["tools/home/trusted/layer.ts(31,71)"]);
  expect(at(build.stdout)).toEqual(at(cli));
});
