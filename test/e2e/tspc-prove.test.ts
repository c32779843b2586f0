/**
 * End to end: `{ "transform": "clauz3/plugin", "prove": true }` makes the real `tspc` prove every
 * agent program synchronously (through the warm synckit worker) and fail on violated or refused
 * guarantees, with the counterexample in the message.
 */
import { ensureBuilt, errorLocations, prepareProject, removeProject, tspc } from "../../fixtures/projects/project.mjs";

const made: string[] = [];
function project(files?: Record<string, string>): string {
  const dir = prepareProject("prove", { files });
  made.push(dir);
  return dir;
}

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });
beforeAll(() => ensureBuilt());
afterAll(() => made.forEach(removeProject));

const LEAK = `import { readFile } from "../tools/filesystem/trusted/effects";
import * as fs from "../tools/filesystem/trusted/contracts";

export const guarantees = [fs.neverReadUnder("/secrets")];

export function main(path: string): void {
  if (path.length > 0) readFile(path);
}
`;

const HIDDEN = `import { readFile } from "../tools/filesystem/trusted/effects";
import * as fs from "../tools/filesystem/trusted/contracts";

export const guarantees = [fs.neverReadUnder("/secrets")];

export function main(paths: string[]): void {
  paths.forEach(readFile);
}
`;

it("builds a project whose agent programs are proved", () => {
  const r = tspc(project());
  expect(r.stdout + r.stderr).toBe("");
  expect(r.status).toBe(0);
});

it("fails the build on the violating call, with the counterexample", () => {
  const r = tspc(project({ "plans/leak.ts": LEAK }));
  expect(r.status).not.toBe(0);
  expect(errorLocations(r.stdout)).toEqual(["plans/leak.ts(7,24): TS93101"]);
  expect(r.stdout).toMatch(/filesystem\.neverReadUnder\(prefix="\/secrets"\) is violated/);
  expect(r.stdout).toMatch(/Counterexample: main\(path="\/secrets[^"]*"\)/);
});

it("fails the build on a refused program, at the refused node", () => {
  const r = tspc(project({ "plans/hidden.ts": HIDDEN }));
  expect(r.status).not.toBe(0);
  expect(errorLocations(r.stdout)).toEqual(["plans/hidden.ts(7,17): TS93104"]);
  expect(r.stdout).toMatch(/used as a value/);
});
