/**
 * A request for a project on disk, loaded as the CLI loads it: its guarantees are exactly what
 * `clauz3 describe --json` prints, and its layer exactly what `clauz3.lock` pins.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildRequest, layerFingerprint, type ApprovalRequest } from "../../core/approval";
import { LOCK_FILE, parseLock } from "../../core/lock";
import { loadProject } from "../../cli/project";
import { clauz3, ensureBuilt, removeProject, stdlibLayer, tempProject } from "../cli/helpers";
import { PLAN } from "./project";

function requestIn(dir: string, inputs: unknown = ["a"]): ApprovalRequest {
  const plan = path.join(dir, "plan.ts");
  const project = loadProject({ cwd: dir, extraRoots: [plan] });
  const file = project.program.getSourceFile(plan)!;
  return buildRequest({ ts: project.ts, program: project.program, layer: project.layer, file, inputs, libraries: project.libraries });
}

describe("approval request of a project on disk", () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempProject({ ...stdlibLayer(), "plan.ts": PLAN });
  });
  afterAll(() => removeProject(dir));

  it("carries the identities describe --json prints and the layer the lock pins", () => {
    const request = requestIn(dir);
    const described = clauz3(["describe", "--json", "plan.ts"], dir);
    expect(described.status).toBe(0);
    const json = JSON.parse(described.stdout) as { guarantees: unknown };
    expect(request.guarantees).toEqual(json.guarantees);
    expect(request.guarantees).toHaveLength(2);

    const lock = parseLock(LOCK_FILE, fs.readFileSync(path.join(dir, LOCK_FILE), "utf8"));
    const pinned = [...lock.files].map(([p, f]) => ({ path: p, sha256: f.sha256 })).sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(request.layer.files).toEqual(pinned);
    expect(request.layer.fingerprint).toBe(layerFingerprint(pinned));
    expect(request.program).toMatchObject({ path: "plan.ts", source: PLAN, imports: [] });
    expect(requestIn(dir).program.digest).toBe(request.program.digest);
  });

  it("refuses a trusted file changed on disk after the lock pinned it", () => {
    const file = path.join(dir, "tools/filesystem/trusted/contracts.ts");
    const original = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, `${original}\n// changed after clauz3 lock\n`);
    try {
      expect(() => requestIn(dir)).toThrow(/^layer does not match its lock: .*contracts\.ts.*changed since it was pinned/);
    } finally {
      fs.writeFileSync(file, original);
    }
  });
});
