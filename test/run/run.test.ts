/**
 * `clauz3 run` end to end: the built CLI against a real approval service (in this process, SQLite
 * in a temporary directory, a temporary keyring), reviewers deciding through the HTTP API. Every
 * proved program runs only after an approval, with exactly the approved source; nothing runs on a
 * rejection, a request for changes, a pending request, a tampered program, a forged, replayed or
 * mismatched receipt; and the library that requires approval refuses `node` running the compiled
 * program directly.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createServer, type Server } from "node:http";
import * as path from "node:path";
import { generateKeyPair } from "jose";
import { signReceipt, type ReceiptClaims } from "../../core/approval/receipt";
import { ensureBuilt, ROOT } from "../cli/helpers";
import { decide, doc, LEAKY, pendingIds, READER, runCli, startRun, startWorld, statusOf, WRITER, writeConfig, type World } from "./helpers";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

let world: World;
let dataFile: string;

beforeAll(async () => {
  ensureBuilt();
  world = await startWorld({ "reader.ts": READER, "writer.ts": WRITER, "leaky.ts": LEAKY });
  dataFile = path.join(world.tmp, "data.txt");
  fs.writeFileSync(dataFile, "hello from data.txt");
});
afterAll(async () => {
  await world?.close();
});

describe("clauz3 run", () => {
  it("approve: runs main with the inputs under the redeemed receipt and exits 0", async () => {
    const cli = startRun(["reader.ts", "--inputs", JSON.stringify([dataFile]), "--json"], world.agentDir);
    const id = await cli.waiting;
    expect(await pendingIds(world)).toContain(id);
    await decide(world, id, "approved_once");
    const r = await cli.done;
    expect(r.status).toBe(0);
    const d = doc(r);
    expect(d).toMatchObject({ version: 1, outcome: "ran", exitCode: 0, requestId: id, attached: false, status: "approved", result: "hello from data.txt", receipt: { redeemed: true, reason: null }, message: null });
    // The event log holds the call and its event.
    const log = fs.readFileSync(path.join(world.agentDir, (d.events as { log: string }).log), "utf8").trim().split("\n").map((l) => JSON.parse(l) as unknown);
    expect(log).toEqual([{ effect: "filesystem.readFile", path: dataFile }, { event: "Read", path: dataFile }]);
    expect(((await statusOf(world, id)).receipt as { redeemedAt: string | null }).redeemedAt).not.toBeNull();

    // The same receipt again (--resume): already redeemed, nothing runs.
    const replay = await runCli(["reader.ts", "--inputs", JSON.stringify([dataFile]), "--resume", id, "--json"], world.agentDir);
    expect(replay.status).toBe(2);
    expect(doc(replay)).toMatchObject({ outcome: "receipt-refused", receipt: { redeemed: false, reason: "already-redeemed" }, events: null });
  });

  it("reject: exit 3 with the reviewer's feedback; nothing runs", async () => {
    const target = path.join(world.tmp, "rejected.txt");
    const cli = startRun(["writer.ts", "--inputs", JSON.stringify([target, "x"])], world.agentDir);
    const id = await cli.waiting;
    await decide(world, id, "rejected", "do not write outside the workspace");
    const r = await cli.done;
    expect(r.status).toBe(3);
    expect(r.stdout).toContain(`request: ${id}\n`);
    expect(r.stdout).toContain("outcome: rejected\n");
    expect(r.stdout).toContain("feedback: do not write outside the workspace\n");
    expect(fs.existsSync(target)).toBe(false);
  });

  it("request changes: exit 4 with the feedback; nothing runs", async () => {
    const target = path.join(world.tmp, "changes.txt");
    const cli = startRun(["writer.ts", "--inputs", JSON.stringify([target, "y"]), "--json"], world.agentDir);
    const id = await cli.waiting;
    await decide(world, id, "changes_requested", "write under /tmp/out instead");
    const r = await cli.done;
    expect(r.status).toBe(4);
    expect(doc(r)).toMatchObject({ outcome: "changes-requested", requestId: id, feedback: "write under /tmp/out instead", decision: { decision: "changes_requested", reviewer: "alice" } });
    expect(fs.existsSync(target)).toBe(false);
  });

  it("timeout: exit 5 and the request stays pending; the same submission attaches to it; --resume after the approval runs", async () => {
    const target = path.join(world.tmp, "resumed.txt");
    const args = ["writer.ts", "--inputs", JSON.stringify([target, "resumed"]), "--json"];
    const first = await runCli([...args, "--timeout", "0"], world.agentDir);
    expect(first.status).toBe(5);
    const d = doc(first);
    expect(d).toMatchObject({ outcome: "pending", status: "pending", attached: false });
    const id = d.requestId as string;
    expect(await pendingIds(world)).toContain(id);
    // Submitted again while pending: attached, not duplicated.
    const again = await runCli([...args, "--timeout", "0"], world.agentDir);
    expect(doc(again)).toMatchObject({ outcome: "pending", requestId: id, attached: true });
    expect((await pendingIds(world)).filter((x) => x === id)).toHaveLength(1);
    expect(fs.existsSync(target)).toBe(false);

    await decide(world, id, "approved_once");
    const resumed = await runCli([...args, "--resume", id], world.agentDir);
    expect(resumed.status).toBe(0);
    expect(doc(resumed)).toMatchObject({ outcome: "ran", requestId: id, result: 7 });
    expect(fs.readFileSync(target, "utf8")).toBe("resumed");
  });

  it("a program that is not proved: exit 1, the findings as check prints them, and no request", async () => {
    const before = await pendingIds(world);
    const r = await runCli(["leaky.ts", "--inputs", JSON.stringify([dataFile])], world.agentDir);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/leaky\.ts\(\d+,\d+\): error TS931\d\d: /);
    expect(r.stdout).toContain("outcome: not-proved\n");
    expect(r.stdout).not.toContain("request:");
    expect(await pendingIds(world)).toEqual(before);
    const json = await runCli(["leaky.ts", "--json"], world.agentDir);
    expect(doc(json)).toMatchObject({ outcome: "not-proved", exitCode: 1, requestId: null, check: { command: "check", programs: [{ file: "leaky.ts", verdict: "violated" }] } });
  });

  it("a program changed after its approval does not run (the receipt approves the old source)", async () => {
    const target = path.join(world.tmp, "tampered.txt");
    const args = ["writer.ts", "--inputs", JSON.stringify([target, "tampered"]), "--json"];
    const first = await runCli([...args, "--timeout", "0"], world.agentDir);
    expect(doc(first)).toMatchObject({ outcome: "pending" });
    const id = doc(first).requestId as string;
    await decide(world, id, "approved_once");
    const file = path.join(world.agentDir, "writer.ts");
    const original = fs.readFileSync(file, "utf8");
    try {
      fs.writeFileSync(file, original.replace("return text.length;", "return text.length + 1;"));
      const r = await runCli([...args, "--resume", id], world.agentDir);
      expect(r.status).toBe(2);
      expect(doc(r)).toMatchObject({ outcome: "receipt-refused", receipt: { redeemed: false, reason: "wrong-program" } });
    } finally {
      fs.writeFileSync(file, original);
    }
    expect(fs.existsSync(target)).toBe(false);
    // Refused before redemption: the receipt was not spent.
    expect(((await statusOf(world, id)).receipt as { redeemedAt: string | null }).redeemedAt).toBeNull();
  });

  it("a receipt for another program does not run this one", async () => {
    const other = await runCli(["reader.ts", "--inputs", JSON.stringify([dataFile]), "--timeout", "0", "--json"], world.agentDir);
    expect(doc(other)).toMatchObject({ outcome: "pending" });
    const id = doc(other).requestId as string;
    await decide(world, id, "approved_once");
    const target = path.join(world.tmp, "other.txt");
    const r = await runCli(["writer.ts", "--inputs", JSON.stringify([target, "other"]), "--resume", id, "--json"], world.agentDir);
    expect(r.status).toBe(2);
    expect(doc(r)).toMatchObject({ outcome: "receipt-refused", receipt: { reason: "wrong-program" } });
    expect(fs.existsSync(target)).toBe(false);
  });

  it("a forged receipt (the operator's key id, signed with another key) does not run", async () => {
    const forger = await generateKeyPair("EdDSA", { crv: "Ed25519" });
    // An impostor in front of the real service hands out forged receipts.
    const impostor: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString()));
      req.on("end", () => {
        void (async () => {
          const upstream = await fetch(world.service.url + req.url!, { method: req.method, headers: { "content-type": "application/json" }, body: req.method === "POST" ? body : undefined });
          const answer = (await upstream.json()) as { receipt?: { token: string } | null };
          if (answer.receipt) {
            const [header, payload] = answer.receipt.token.split(".");
            const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as ReceiptClaims;
            const kid = (JSON.parse(Buffer.from(header!, "base64url").toString("utf8")) as { kid: string }).kid;
            answer.receipt = { ...answer.receipt, token: await signReceipt(claims, { kid, key: forger.privateKey }) };
          }
          res.writeHead(upstream.status, { "content-type": "application/json" }).end(JSON.stringify(answer));
        })();
      });
    });
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
    const port = (impostor.address() as { port: number }).port;
    try {
      const target = path.join(world.tmp, "forged.txt");
      const cli = startRun(["writer.ts", "--inputs", JSON.stringify([target, "forged"]), "--json"], world.agentDir, { CLAUZ3_APPROVAL_SERVICE: `http://127.0.0.1:${port}` });
      const id = await cli.waiting;
      await decide(world, id, "approved_once");
      const r = await cli.done;
      expect(r.status).toBe(2);
      expect(doc(r)).toMatchObject({ outcome: "receipt-refused", receipt: { redeemed: false, reason: "bad-signature" } });
      expect(fs.existsSync(target)).toBe(false);
    } finally {
      await new Promise((resolve) => impostor.close(resolve));
    }
  });

  it("configuration: a bad config file is exit 2 naming the file and field; keys inside the project are refused", async () => {
    const inputs = await runCli(["reader.ts", "--inputs", '{"path": 1}', "--json"], world.agentDir);
    expect(inputs.status).toBe(2);
    expect(doc(inputs)).toMatchObject({ outcome: "error", message: `--inputs must be a JSON array of the target's arguments, like '["a", 2]', not {"path": 1}.` });
    const config = path.join(world.agentDir, ".clauz3", "config.json");
    const good = fs.readFileSync(config, "utf8");
    try {
      writeConfig(world.agentDir, { version: 1, service: world.service.url, publicKeys: world.keysFile, extra: true });
      const extra = await runCli(["reader.ts", "--json"], world.agentDir);
      expect(extra.status).toBe(2);
      expect(doc(extra).message).toBe(`${config}: the document must NOT have additional properties ("extra") (schema: clauz3/schema/run-config.schema.json)`);
      writeConfig(world.agentDir, { version: 1, service: "ftp://example.org", publicKeys: world.keysFile });
      expect(doc(await runCli(["reader.ts", "--json"], world.agentDir)).message).toMatch(new RegExp(`^${config.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: service must match pattern`));
      fs.copyFileSync(world.keysFile, path.join(world.agentDir, "keys.json"));
      writeConfig(world.agentDir, { version: 1, service: world.service.url, publicKeys: "../keys.json" });
      const inside = await runCli(["reader.ts", "--json"], world.agentDir);
      expect(inside.status).toBe(2);
      expect(doc(inside).message).toContain(`${config}: publicKeys names ${path.join(world.agentDir, "keys.json")}, inside the project directory`);
    } finally {
      fs.writeFileSync(config, good);
    }
  });
});

describe("no way around run", () => {
  it("the compiled program run with node (or a script importing the tool) is refused, naming the library", () => {
    // A plain tsc build in place: the manifest sits beside the compiled trusted modules.
    const build = spawnSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", ".", "--noEmit", "false", "--module", "commonjs", "--moduleResolution", "node10"], { cwd: world.agentDir, encoding: "utf8" });
    expect(build.stdout + build.stderr).toBe("");
    const direct = spawnSync(process.execPath, ["-e", `require("./reader.js").main(${JSON.stringify(dataFile)})`], { cwd: world.agentDir, encoding: "utf8" });
    expect(direct.status).not.toBe(0);
    expect(direct.stderr).toContain('ApprovalRequiredError: clauz3: readFile is a tool of library "filesystem", whose manifest requires approval: it runs only inside `clauz3 run` holding a verified, redeemed receipt for this program (no receipt is in force in this context).');
    const imported = spawnSync(process.execPath, ["-e", `require("./tools/filesystem/trusted/effects.js").readFile(${JSON.stringify(dataFile)})`], { cwd: world.agentDir, encoding: "utf8" });
    expect(imported.status).not.toBe(0);
    expect(imported.stderr).toContain('is a tool of library "filesystem", whose manifest requires approval');
  });

  it("a plain tsc build into another directory keeps the requirement: the tool modules declare it in code (rule 93015)", () => {
    const outDir = "out-plain";
    const build = spawnSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", ".", "--noEmit", "false", "--module", "commonjs", "--moduleResolution", "node10", "--outDir", outDir], { cwd: world.agentDir, encoding: "utf8" });
    expect(build.stdout + build.stderr).toBe("");
    // Neither a manifest beside the built tools nor plugin metadata: only the code says it.
    expect(fs.existsSync(path.join(world.agentDir, outDir, "tools/filesystem/clauz3.json"))).toBe(false);
    expect(fs.readFileSync(path.join(world.agentDir, outDir, "tools/filesystem/trusted/effects.js"), "utf8")).not.toContain("requiresApproval:");
    const direct = spawnSync(process.execPath, ["-e", `require("./${outDir}/reader.js").main(${JSON.stringify(dataFile)})`], { cwd: world.agentDir, encoding: "utf8" });
    expect(direct.status).not.toBe(0);
    expect(direct.stderr).toContain('ApprovalRequiredError: clauz3: readFile is a tool of library "filesystem", whose manifest requires approval');
    const asyncTool = spawnSync(process.execPath, ["-e", `require("./${outDir}/tools/filesystem/trusted/async.js").readFileAsync(${JSON.stringify(dataFile)}).then(() => process.exit(0), (e) => { console.error(String(e)); process.exit(1); })`], { cwd: world.agentDir, encoding: "utf8" });
    expect(asyncTool.status).toBe(1);
    expect(asyncTool.stderr).toContain("requires approval");
  });

  it("a tspc build into another directory carries the requirement in the tools' metadata", () => {
    fs.writeFileSync(
      path.join(world.agentDir, "tsconfig.tspc.json"),
      JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: false, module: "commonjs", moduleResolution: "node10", outDir: "out", plugins: [{ transform: "clauz3/plugin", prove: false }] }, include: ["reader.ts", "tools/**/*.ts"] }),
    );
    const build = spawnSync(process.execPath, [path.join(ROOT, "node_modules/ts-patch/bin/tspc.js"), "-p", "tsconfig.tspc.json", "--pretty", "false"], { cwd: world.agentDir, encoding: "utf8" });
    expect(build.stdout + build.stderr).toBe("");
    // No manifest beside the built tools: only the metadata says the library requires approval.
    expect(fs.existsSync(path.join(world.agentDir, "out/tools/filesystem/clauz3.json"))).toBe(false);
    expect(fs.readFileSync(path.join(world.agentDir, "out/tools/filesystem/trusted/effects.js"), "utf8")).toContain('requiresApproval: "filesystem"');
    const direct = spawnSync(process.execPath, ["-e", `require("./out/reader.js").main(${JSON.stringify(dataFile)})`], { cwd: world.agentDir, encoding: "utf8" });
    expect(direct.status).not.toBe(0);
    expect(direct.stderr).toContain('ApprovalRequiredError: clauz3: filesystem.readFile is a tool of library "filesystem", whose manifest requires approval');
  });
});
