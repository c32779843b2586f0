/**
 * Coverage in the approval request (`coverage`, schema/approval-request.schema.json) and on the
 * reviewers' page: `clauz3 approval-service` as a real process over an operator's layer whose
 * manifests declare coverage policies, the page in headless Chromium (/usr/bin/chromium). The panel
 * shows the service's own coverage, worst status first; a required gap cannot be approved.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Browser } from "playwright-core";
import { buildRequest } from "../../core/approval/request";
import { validateRequest } from "../../core/approval/validate";
import type { ApprovalRequest } from "../../core/approval/types";
import { loadProject } from "../../cli/project";
import { call, serviceEntry } from "../approval/service-helpers";
import { addToken, launchBrowser, newPage, signIn, startService, stopService, type Running } from "../service-page/helpers";
import { coverageProject, EMAIL_POLICY, manifest, proveAll, TEXT_POLICY, type CoverageProject } from "./project";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

const MANIFESTS = {
  email: manifest("Email", EMAIL_POLICY),
  text: manifest("Text", TEXT_POLICY),
  bank: manifest("Bank", { whenUsed: ["transfer"], required: [], recommended: [] }),
};

/** Text: silent gap; email: recommended gap; bank: covered. */
const THREE = `export const guarantees = [email.noForwards(), bank.payEachOnce()];
export function main(to: string, message: string): void {
  print(message);
  sendEmail(to, "hi", "");
  transfer("acct-1", 5);
}
`;
/** Email: required gap (not stated), bank: covered. */
const GAP = `export const guarantees = [email.sendsAtMost(1), bank.payEachOnce()];
export function main(to: string): void {
  transfer("acct-1", 5);
  sendEmail(to, "hi", "");
}
`;

let operator: CoverageProject;
let agent: CoverageProject;
let tmp: string;
let service: Running;
let browser: Browser;
let alice: string;
const requests = new Map<string, ApprovalRequest>();

beforeAll(async () => {
  const cli = serviceEntry();
  operator = coverageProject(MANIFESTS, {});
  agent = coverageProject(MANIFESTS, { three: THREE, gap: GAP });
  const { verdicts } = await proveAll(agent.dir);
  for (const name of ["three", "gap"]) {
    const full = path.join(agent.dir, "plans", `${name}.ts`);
    const project = loadProject({ cwd: agent.dir, extraRoots: [full], onlyExtraRoots: true });
    const file = project.program.getSourceFile(full)!;
    requests.set(name, buildRequest({ ts: project.ts, program: project.program, layer: project.layer, file, inputs: ["a@corp.com", "hello"].slice(0, name === "gap" ? 1 : 2), libraries: project.libraries, verdict: verdicts.get(name)! }));
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-coverage-page-"));
  const tokens = path.join(tmp, "reviewers.json");
  alice = addToken(cli, tokens, "alice", tmp);
  service = await startService(cli, ["--layer", operator.dir, "--db", path.join(tmp, "approvals.sqlite"), "--key", path.join(tmp, "key.json"), "--tokens", tokens, "--port", "0"], tmp);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (service) await stopService(service);
  operator?.remove();
  agent?.remove();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the approval request", () => {
  it("carries the prover's coverage, worst status first, and validates against the schema", () => {
    const r = requests.get("three")!;
    expect(r.coverage!.map((c) => `${c.library}:${c.status}`)).toEqual(["text:silent-gap", "email:recommended-gap", "bank:covered"]);
    expect(r.coverage![1]).toEqual({
      library: "email",
      title: "Email",
      status: "recommended-gap",
      uses: [{ tool: "email.sendEmail", location: { file: "plans/three.ts", line: 10, column: 3 } }],
      required: [{ contract: "email.noForwards", stated: true }],
      recommended: [{ contract: "email.sendsAtMost", stated: false }],
      stated: ["email.noForwards"],
      noGuarantees: false,
      problems: [],
    });
    expect(validateRequest(JSON.parse(JSON.stringify(r)))).toEqual(r);
    expect(() => validateRequest({ ...JSON.parse(JSON.stringify(r)), coverage: [{ ...r.coverage![0]!, status: "fine" }] })).toThrow(/coverage\[0\]\.status/);
  });
});

describe("the service and the page", () => {
  it("verifies the coverage it computed itself; a submitted coverage that differs is a problem", async () => {
    const r = requests.get("three")!;
    const ok = await call(service.url, "POST", "/requests", { body: r });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ verified: true });
    const forged = { ...r, inputs: ["b@corp.com", "x"], coverage: r.coverage!.map((c) => ({ ...c, status: "covered" })) };
    const bad = await call(service.url, "POST", "/requests", { body: forged });
    expect(bad.body).toMatchObject({ verified: false });
    expect(bad.body.problems).toEqual(expect.arrayContaining([expect.objectContaining({ field: "coverage", problem: expect.stringContaining("differs from the coverage the service computed") })]));
  });

  it("shows the coverage panel, worst status first, for a verified request", async () => {
    const r = requests.get("three")!;
    const answer = await call(service.url, "POST", "/requests", { body: r });
    const id = answer.body.id as string;
    const page = await newPage(browser);
    await signIn(page, service.url, alice);
    await page.goto(`${service.url}/review/requests/${id}`);
    await page.locator("#coverage").waitFor();
    const entries = page.locator("#coverage .coverage-entry");
    expect(await entries.evaluateAll((els) => els.map((e) => `${e.getAttribute("data-library")}:${e.getAttribute("data-status")}`))).toEqual(["text:silent-gap", "email:recommended-gap", "bank:covered"]);
    expect(await entries.nth(0).locator(".coverage-status").textContent()).toBe("Silent gap");
    expect(await entries.nth(1).locator("li.missing").textContent()).toBe("email.sendsAtMost not stated");
    expect(await entries.nth(1).getByText("plans/three.ts:10:3").count()).toBe(1);
    expect(await entries.nth(2).locator(".coverage-status").textContent()).toBe("Covered");
    // The panel is styled by the service's stylesheet (no inline style: the CSP forbids it).
    expect(await entries.nth(0).evaluate((e) => (globalThis as unknown as { getComputedStyle(x: unknown): { borderLeftWidth: string } }).getComputedStyle(e).borderLeftWidth)).toBe("6px");
    await page.context().close();
  });

  it("a required gap is shown first and the request cannot be approved", async () => {
    const r = requests.get("gap")!;
    expect(r.coverage!.map((c) => `${c.library}:${c.status}`)).toEqual(["email:required-gap", "bank:covered"]);
    const answer = await call(service.url, "POST", "/requests", { body: r });
    expect(answer.body).toMatchObject({ verified: false });
    expect(answer.body.problems).toEqual([{ field: "coverage", problem: "email is used but email.noForwards required by its coverage policy is not stated" }]);
    const page = await newPage(browser);
    await signIn(page, service.url, alice);
    await page.goto(`${service.url}/review/requests/${answer.body.id as string}`);
    const entries = page.locator("#coverage .coverage-entry");
    await entries.first().waitFor();
    expect(await entries.evaluateAll((els) => els.map((e) => e.getAttribute("data-status")))).toEqual(["required-gap", "covered"]);
    expect(await entries.first().locator("li.missing").textContent()).toBe("email.noForwards not stated");
    expect(await page.getByRole("button", { name: "Approve once", exact: true }).count()).toBe(0);
    await page.context().close();
  });
});
