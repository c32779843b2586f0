/**
 * Independent verification without HTTP: a program with an agent module of its own (in a directory
 * the operator's checkout does not have) verifies; one whose request leaves that module out does
 * not. The overlay refuses paths that could stand for the operator's files, and reviewer tokens
 * are stored hashed and authenticate only while issued.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { programDigest, type ApprovalRequest } from "../../core/approval";
import { sha256Hex } from "../../core/lock";
import { openOperatorLayer, type OperatorLayer } from "../../service/layer";
import { overlayOf } from "../../service/overlay";
import { authenticateReviewer, issueReviewerToken, readTokensFile, revokeReviewer, TokenFileError } from "../../service/tokens";
import { verifySubmission } from "../../service/verify";
import { removeProject, stdlibLayer, tempProject } from "../cli/helpers";
import { HEAD } from "./project";
import { atPath, operatorLayer, requestIn } from "./service-helpers";

const HELPER = `export const TARGET = "/data/a.md";
`;
const WITH_HELPER = `${HEAD.replace(/"\.\/tools\//g, '"../tools/')}import "./lib/target";
export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(name: string): void {
  if (name === "a") readFile("/data/a.md");
}
`;

let layerDir: string;
let agentDir: string;
let layer: OperatorLayer;
let tmp: string;

beforeAll(() => {
  layerDir = operatorLayer();
  layer = openOperatorLayer(layerDir);
  const tsconfig = fs.readFileSync(path.join(layerDir, "tsconfig.json"), "utf8");
  agentDir = tempProject({ "tsconfig.json": tsconfig, ...stdlibLayer(), "plans/run.ts": WITH_HELPER, "plans/lib/target.ts": HELPER });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-verify-"));
});
afterAll(() => {
  removeProject(layerDir);
  removeProject(agentDir);
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("independent verification", () => {
  it("verifies a program with an agent module of its own, served from the request", async () => {
    const request = requestIn(agentDir, "plans/run.ts", ["a"]);
    expect(request.program.imports.map((m) => m.path)).toEqual(["plans/lib/target.ts"]);
    const verification = await verifySubmission(layer, request);
    expect(verification).toMatchObject({ verified: true, problems: [], verdict: "proved" });
    // The service adds the coverage of its own proof (docs/coverage.md); the request was built without one.
    expect(request.coverage).toBeNull();
    expect(verification.computed).toEqual({ ...request, coverage: [] });
    expect(fs.existsSync(path.join(layerDir, "plans"))).toBe(false);
  });

  it("does not verify a request that leaves out a module the program loads", async () => {
    const full = requestIn(agentDir, "plans/run.ts", ["a"]);
    const program = { ...full.program, imports: [] };
    const request: ApprovalRequest = { ...full, program: { ...program, digest: programDigest(program, full.layer.fingerprint) } };
    const verification = await verifySubmission(layer, request);
    expect(verification.verified).toBe(false);
    expect(verification.verdict).toBe("refused");
    expect(verification.problems.map((p) => p.field)).toContain("program");
  });

  it("does not verify a request for another target than main, which is what the prover proves", async () => {
    const request = requestIn(agentDir, "plans/run.ts", ["a"]);
    const verification = await verifySubmission(layer, { ...request, program: { ...request.program, target: "other" } });
    expect(verification.verified).toBe(false);
    expect(verification.problems).toContainEqual({ field: "program.target", problem: expect.stringMatching(/^is "other", but the prover proves `main`/) });
  });

  it("does not verify a program too deeply nested for TypeScript's parser (no stack trace, no 500)", async () => {
    const request = requestIn(agentDir, "plans/run.ts", ["a"]);
    const source = `${request.program.source}export const deep = ${'"a" + ('.repeat(1500)}"b"${")".repeat(1500)};\n`;
    const program = { ...request.program, source, sha256: sha256Hex(Buffer.from(source, "utf8")) };
    const verification = await verifySubmission(layer, { ...request, program: { ...program, digest: programDigest(program, request.layer.fingerprint) } });
    expect(verification).toMatchObject({ verified: false, verdict: "refused", problems: [{ field: "program", problem: expect.stringMatching(/^is nested too deeply for TypeScript's parser/) }] });
  });

  it("refuses paths that leave the checkout, name its files, lie below a link or a trusted root, or repeat", () => {
    const request = requestIn(agentDir, "plans/run.ts", ["a"]);
    fs.symlinkSync(os.tmpdir(), path.join(layerDir, "outside"));
    fs.writeFileSync(path.join(layerDir, "notes.ts"), "export {};\n");
    const refused: [ApprovalRequest, string, RegExp][] = [
      [atPath(request, "outside/plan.ts"), "program.path", /below outside, a symbolic link/],
      [atPath(request, "notes.ts/plan.ts"), "program.path", /below notes\.ts, which is a file/],
      [atPath(request, "tools/filesystem/trusted/new.ts"), "program.path", /lies under a trusted root/],
      [atPath(request, "tools/filesystem/trusted/effects.ts"), "program.path", /lies under a trusted root/],
      [atPath(request, "tools/filesystem/trusted"), "program.path", /TypeScript source/],
      [atPath(request, "./plan.ts"), "program.path", /normalized/],
      [atPath(request, "C:/plan.ts"), "program.path", /absolute/],
      [{ ...request, program: { ...request.program, imports: [request.program.imports[0]!, request.program.imports[0]!] } }, "program.imports[1].path", /repeats/],
    ];
    for (const [r, field, why] of refused) {
      let error: unknown;
      try {
        overlayOf(r, layer);
      } catch (e) {
        error = e;
      }
      expect(error, r.program.path).toMatchObject({ field, problem: expect.stringMatching(why) });
    }
    expect(overlayOf(request, layer).size).toBe(2);
  });
});

describe("reviewer tokens", () => {
  it("are stored hashed in a 0600 file, authenticate their reviewer, and stop when revoked", () => {
    const file = path.join(tmp, "reviewers.json");
    const alice = issueReviewerToken(file, "alice");
    const bob = issueReviewerToken(file, "bob");
    expect(alice).toMatch(/^clauz3r_[A-Za-z0-9_-]{43}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, "utf8")).not.toContain(alice.slice(8));
    expect(readTokensFile(file).reviewers.map((r) => r.reviewer)).toEqual(["alice", "bob"]);
    expect(authenticateReviewer(file, `Bearer ${alice}`)).toBe("alice");
    expect(authenticateReviewer(file, `Bearer ${bob}`)).toBe("bob");
    expect(authenticateReviewer(file, `Bearer ${alice}x`)).toBeUndefined();
    expect(authenticateReviewer(file, alice)).toBeUndefined();
    expect(authenticateReviewer(file, undefined)).toBeUndefined();
    expect(revokeReviewer(file, "alice")).toBe(1);
    expect(authenticateReviewer(file, `Bearer ${alice}`)).toBeUndefined();
    expect(authenticateReviewer(file, `Bearer ${bob}`)).toBe("bob");
    expect(() => issueReviewerToken(file, "no spaces")).toThrow(TokenFileError);
    fs.chmodSync(file, 0o644);
    expect(() => authenticateReviewer(file, `Bearer ${bob}`)).toThrow(/accessible to group or others/);
  });
});
