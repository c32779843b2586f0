/**
 * `clauz3 approval-service` as the operator meets it: configuration errors are one line naming the
 * option or file, exit 2 and no stack trace; `token add` prints a token the service accepts and
 * records only its hash (mode 0600); `token revoke` withdraws it.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { authenticateReviewer } from "../../service/tokens";
import { removeProject } from "../cli/helpers";
import { operatorLayer, serviceEntry } from "../approval/service-helpers";

let cli: string;
let tmp: string;
let layerDir: string;

beforeAll(() => {
  cli = serviceEntry();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-service-command-"));
  layerDir = operatorLayer();
});
afterAll(() => {
  removeProject(layerDir);
  fs.rmSync(tmp, { recursive: true, force: true });
});

function clauz3(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: tmp, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** One line on stderr, exit 2, nothing that looks like a stack trace. */
function configurationError(r: { status: number | null; stdout: string; stderr: string }, line: RegExp): void {
  expect(r.status).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(r.stderr).toMatch(line);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe("clauz3 approval-service", () => {
  it("refuses bad configuration with one line naming the option or file, and exit 2", async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const busyPort = (busy.address() as net.AddressInfo).port;
    configurationError(clauz3("approval-service"), /^clauz3 approval-service: --layer <dir> is required/);
    configurationError(clauz3("approval-service", "--layer", layerDir, "--port", "80a"), /^clauz3 approval-service: --port must be a whole number, not "80a"$/m);
    configurationError(clauz3("approval-service", "--layer", layerDir, "--port", "70000"), /--port must be at most 65535/);
    configurationError(clauz3("approval-service", "--layer", path.join(tmp, "absent")), /^clauz3 approval-service: --layer .*absent: is not a directory$/m);
    const key = path.join(tmp, "open-key.json");
    fs.writeFileSync(key, "{}", { mode: 0o644 });
    fs.chmodSync(key, 0o644);
    configurationError(clauz3("approval-service", "--layer", layerDir, "--db", path.join(tmp, "a.sqlite"), "--key", key, "--port", "0"), new RegExp(`^clauz3 approval-service: ${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: is readable or writable by others`, "m"));
    configurationError(clauz3("approval-service", "--layer", layerDir, "--db", path.join(tmp, "b.sqlite"), "--key", path.join(tmp, "k.json"), "--port", String(busyPort)), /^clauz3 approval-service: --host\/--port: listen EADDRINUSE/m);
    configurationError(clauz3("approval-service", "token", "add", "not a name", "--tokens", path.join(tmp, "t.json")), /reviewer "not a name" must be 1 to 64 letters/);
    busy.close();
  });

  it("issues a token that authenticates, stores only its hash with mode 0600, and revokes it", () => {
    const file = path.join(tmp, "reviewers.json");
    const added = clauz3("approval-service", "token", "add", "carol", "--tokens", file);
    expect(added.status).toBe(0);
    const token = added.stdout.trim();
    expect(token).toMatch(/^clauz3r_[A-Za-z0-9_-]{43}$/);
    expect(added.stderr).toMatch(/issued a token for carol .*not shown again/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, "utf8")).not.toContain(token);
    expect(authenticateReviewer(file, `Bearer ${token}`)).toBe("carol");
    const revoked = clauz3("approval-service", "token", "revoke", "carol", "--tokens", file);
    expect(revoked).toMatchObject({ status: 0, stdout: "withdrew 1 token of carol\n" });
    expect(authenticateReviewer(file, `Bearer ${token}`)).toBeUndefined();
    configurationError(clauz3("approval-service", "token", "revoke", "carol", "--tokens", file), /has no token for carol/);
  });
});
