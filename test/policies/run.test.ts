/**
 * `clauz3 run` against a service with a policy: an auto-approved program runs at once under the
 * policy's receipt (redeemed like a person's), an auto-rejected one exits 3 with the rule's reason
 * and runs nothing; no reviewer is involved.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Keyring } from "../../service/keys";
import { startService, type RunningService } from "../../service/start";
import { ensureBuilt, tempProject } from "../cli/helpers";
import { approvalLayer, doc, READER, runCli, TSCONFIG, WRITER, writeConfig } from "../run/helpers";
import { writePolicy } from "./helpers";

const POLICY = {
  version: 1,
  rules: [
    { name: "read-only", decision: "auto_approved", reason: "It changes no file and reads nothing under /secrets.", whenProven: ["filesystem.readOnly()", 'filesystem.neverReadUnder(prefix="/secrets")'] },
    { name: "no-writes-under-etc", decision: "auto_rejected", reason: "It may write under /etc.", unlessProven: ['filesystem.neverWriteUnder("/etc")'] },
  ],
};

let tmp: string;
let layerDir: string;
let agentDir: string;
let service: RunningService;

beforeAll(async () => {
  ensureBuilt();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-policy-run-")));
  layerDir = tempProject({ "tsconfig.json": TSCONFIG, ...approvalLayer() });
  agentDir = tempProject({ "tsconfig.json": TSCONFIG, ...approvalLayer(), "reader.ts": READER, "writer.ts": WRITER });
  const keyFile = path.join(tmp, "approval-key.json");
  const keysFile = path.join(tmp, "operator", "approval-keys.json");
  (await Keyring.open(keyFile)).writePublicKeySet(keysFile);
  service = await startService({ layer: layerDir, db: path.join(tmp, "approvals.sqlite"), key: keyFile, tokens: path.join(tmp, "reviewers.json"), port: 0, policy: writePolicy(tmp, "policy.json", POLICY) });
  writeConfig(agentDir, { version: 1, service: service.url, publicKeys: keysFile });
});
afterAll(async () => {
  await service?.close();
  for (const d of [layerDir, agentDir, tmp]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

describe("clauz3 run with a policy", () => {
  it("auto-approved: runs at once under the policy's redeemed receipt", async () => {
    const dataFile = path.join(tmp, "data.txt");
    fs.writeFileSync(dataFile, "hello from data.txt");
    const r = await runCli(["reader.ts", "--inputs", JSON.stringify([dataFile]), "--json"], agentDir);
    expect(r.status).toBe(0);
    expect(doc(r)).toMatchObject({ outcome: "ran", exitCode: 0, status: "approved", result: "hello from data.txt", receipt: { redeemed: true, reason: null } });
  });

  it("auto-rejected: exit 3 with the rule's reason; nothing runs", async () => {
    const target = path.join(tmp, "written.txt");
    const r = await runCli(["writer.ts", "--inputs", JSON.stringify([target, "x"]), "--json"], agentDir);
    expect(r.status).toBe(3);
    expect(doc(r)).toMatchObject({ outcome: "rejected", status: "rejected", feedback: "It may write under /etc." });
    expect(fs.existsSync(target)).toBe(false);
  });
});
