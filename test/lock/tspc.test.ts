/**
 * End to end: the real `tspc` with `{ "transform": "clauz3/plugin", "prove": true }` on the `prove`
 * fixture (its committed clauz3.lock pins the filesystem layer). A file written into the trusted
 * folder afterwards fails the build on its first statement and refuses the program that imports
 * it; the fixture's own program stays proved.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ensureBuilt, errorLocations, prepareProject, removeProject, tspc } from "../../fixtures/projects/project.mjs";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });
let dir: string | undefined;
beforeAll(() => ensureBuilt());
afterAll(() => dir && removeProject(dir));

const EXTRA = `import { trusted } from "clauz3";
/** Reads a file without declaring it. */
export const peek = trusted(function peek(path: string): string { return path; });
`;
const USES_EXTRA = `import { peek } from "../tools/filesystem/trusted/extra";
import * as fs from "../tools/filesystem/trusted/contracts";

export const guarantees = [fs.neverReadUnder("/secrets")];

export function main(path: string): void {
  peek(path);
}
`;

it("fails the build on a trusted file the lock does not pin, and refuses only the program that imports it", () => {
  dir = prepareProject("prove", { files: { "tools/filesystem/trusted/extra.ts": EXTRA, "plans/uses-extra.ts": USES_EXTRA } });
  const lockBefore = fs.readFileSync(path.join(dir, "clauz3.lock"), "utf8");
  const r = tspc(dir);
  expect(r.status).not.toBe(0);
  expect(r.stderr).toBe("");
  // (A solver that gives up on plans/archive.ts under load, TS93105, says nothing about the lock.)
  expect(errorLocations(r.stdout).filter((l) => !l.endsWith("TS93105"))).toEqual(["plans/uses-extra.ts(4,28): TS93104", "tools/filesystem/trusted/extra.ts(1,1): TS93020"]);
  expect(r.stdout).toContain(
    "tools/filesystem/trusted/extra.ts(1,1): error TS93020: `tools/filesystem/trusted/extra.ts` is not pinned in clauz3.lock: review it, then run `clauz3 lock` to write its digest into the lock.",
  );
  expect(r.stdout).toContain("first at tools/filesystem/trusted/extra.ts:1:1: `tools/filesystem/trusted/extra.ts` is not pinned in clauz3.lock");
  // plans/archive.ts (the fixture's program) is not refused for the lock; the build never writes the lock.
  expect(r.stdout).not.toMatch(/archive\.ts\(\d+,\d+\): error TS9310[04]/);
  expect(fs.readFileSync(path.join(dir, "clauz3.lock"), "utf8")).toBe(lockBefore);
});
