/**
 * End to end: a real tsserver with the plugin. A trusted file changed on disk after `clauz3 lock`
 * shows the finding on its first statement and refuses the program that imports it (another
 * program stays proved); after `clauz3 lock` runs again, the plugin's watcher on clauz3.lock
 * clears both without an edit.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { lockProject } from "../../fixtures/projects/project.mjs";
import { ensureBuilt, FS_HEADER, locate, makeProject, ours, removeProject, Tsserver, type DiagnosticsView as View } from "../language-service/tsserver-client.mjs";

const EXTRA = `import { trusted } from "clauz3";
/** Reads nothing. */
export const peek = trusted(function peek(path: string): string { return ""; });
`;
const USES_EXTRA = `import { peek } from "./tools/filesystem/trusted/extra";
import * as fs from "./tools/filesystem/trusted/contracts";
export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  peek(path);
}
`;
const PROVED = FS_HEADER + `export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  if (path !== "" && !path.startsWith("/secrets")) readFile(path);
}
`;
const BUDGET = { budgetMs: 90_000 };

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });
let dir: string | undefined;
let s: Tsserver | undefined;
beforeAll(() => ensureBuilt());
afterAll(async () => {
  await s?.close();
  if (dir) removeProject(dir);
});

it("shows an unpinned trusted file and refuses the program that reaches it, until clauz3 lock pins it", async () => {
  dir = makeProject({ files: { "tools/filesystem/trusted/extra.ts": EXTRA, "agent.ts": USES_EXTRA, "plan.ts": PROVED } });
  // Changed after the operator pinned the layer (an agent, say).
  const extra = path.join(dir, "tools/filesystem/trusted/extra.ts");
  fs.writeFileSync(extra, EXTRA.replace('return "";', "return path;"));
  s = new Tsserver(dir);
  for (const f of ["tools/filesystem/trusted/extra.ts", "agent.ts", "plan.ts"]) await s.open(f);

  const r = await s.geterr(["tools/filesystem/trusted/extra.ts"]);
  const onFile = ours(r.semantic.get(extra) ?? []);
  expect(onFile.map((d) => [d.code, d.start])).toEqual([[93020, { line: 1, offset: 1 }]]);
  expect(onFile[0]!.text).toMatch(/^`tools\/filesystem\/trusted\/extra\.ts` changed since it was pinned in clauz3\.lock: review it, then run `clauz3 lock`/);

  const refused: View = await s.pollDiagnostics("agent.ts", (x: View) => ours(x.semantic).length > 0, BUDGET);
  expect(ours(refused.semantic).map((d) => [d.code, d.start])).toEqual([[93104, locate(USES_EXTRA, "fs.neverReadUnder")]]);
  expect(ours(refused.semantic)[0]!.text).toContain("`tools/filesystem/trusted/extra.ts` changed since it was pinned in clauz3.lock");
  // A settled verdict: proved, or an error (a solver that gives up under load, 93105, is not about the lock).
  const settled = (x: View) => ours(x.suggestion).some((d) => d.text.startsWith("proved: ")) || ours(x.semantic).length > 0;
  const notLock = (x: View) => ours(x.semantic).filter((d) => d.code !== 93105);
  expect(notLock(await s.pollDiagnostics("plan.ts", settled, BUDGET))).toEqual([]);

  // The operator reviews the change and pins it: no edit, the watcher on clauz3.lock re-verifies.
  lockProject(dir);
  const cleared: View = await s.pollDiagnostics("agent.ts", (x: View) => settled(x) && !ours(x.semantic).some((d) => d.code === 93104), BUDGET);
  expect(notLock(cleared)).toEqual([]);
  expect(ours((await s.geterr(["tools/filesystem/trusted/extra.ts"])).semantic.get(extra) ?? [])).toEqual([]);
});
