/**
 * The approval memory on the reviewers' page, in headless Chromium against `clauz3
 * approval-service` running as a process (as test/service-page/ drives it): "Approve and remember"
 * makes a rule, an identical request is approved by it and names it, an ineligible argument is
 * said so and not offered for remembering, a rule that does not apply after a template change says
 * why, history shows the identity recorded at verification (the old sentence and template digest
 * after the library changed) and "Resolved identity not recorded" for a decision stored before
 * snapshots, and the rules page lists the rule and revokes it, behind the page's CSRF and Origin
 * checks.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Browser, Page } from "playwright-core";
import type { ApprovalRequest } from "../../core/approval";
import { removeProject } from "../cli/helpers";
import { PLAN, requestFor } from "../approval/project";
import { agentProject, call, operatorLayer, requestIn, serviceEntry } from "../approval/service-helpers";
import { addToken, launchBrowser, newPage, signIn, startService, stopService, type Running } from "../service-page/helpers";
import { baseLayer, templateChanged, writeLayer, writeOldStore, writePrograms } from "./helpers";

let tmp: string;
let layerDir: string;
let agentDir: string;
let cli: string;
let tokens: string;
let alice: string;
let service: Running;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  cli = serviceEntry();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-memory-page-"));
  tokens = path.join(tmp, "reviewers.json");
  layerDir = operatorLayer();
  agentDir = agentProject();
  writeLayer([layerDir, agentDir], baseLayer());
  writePrograms(agentDir);
  const db = path.join(tmp, "approvals.sqlite");
  // A decision an older service stored, before identity snapshots.
  await writeOldStore(db, "old-1", requestFor({ "plan.ts": PLAN }, ["old"]), "2026-11-30T10:00:00.000Z");
  alice = addToken(cli, tokens, "alice", tmp);
  service = await startService(cli, ["--layer", layerDir, "--db", db, "--key", path.join(tmp, "key.json"), "--tokens", tokens, "--port", "0"], tmp);
  browser = await launchBrowser();
  page = await newPage(browser);
  await signIn(page, service.url, alice);
});

afterAll(async () => {
  await browser?.close();
  if (service) await stopService(service);
  removeProject(layerDir);
  removeProject(agentDir);
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function submit(file: string, inputs: unknown[]): Promise<{ id: string; body: Record<string, unknown>; request: ApprovalRequest }> {
  const request = requestIn(agentDir, file, inputs);
  const answer = await call(service.url, "POST", "/requests", { body: request });
  expect(answer.status).toBe(201);
  return { id: answer.body.id as string, body: answer.body, request };
}

async function open(id: string): Promise<void> {
  await page.goto(`${service.url}/review/requests/${id}`);
  await page.getByRole("heading", { name: `Request ${id}` }).waitFor();
}

describe("the approval memory on the reviewers' page", () => {
  let first: { id: string; request: ApprovalRequest };
  let ruleId: string;

  it("approves and remembers; an identical request is approved by the rule, which it names", async () => {
    first = await submit("plan.ts", ["a"]);
    await open(first.id);
    await page.getByRole("button", { name: "Approve and remember", exact: true }).click();
    await page.locator("section.decision").waitFor();
    const made = await page.locator("p.made-rule").textContent();
    ruleId = /Remembered as rule (\S+), active/.exec(made ?? "")![1]!;

    const second = await submit("plan.ts", ["b"]);
    expect(second.body).toMatchObject({ status: "approved", decision: { reviewer: `rule:${ruleId}` } });
    await open(second.id);
    expect(await page.locator("p.fired-rule").textContent()).toContain(`Approved automatically by remembered rule ${ruleId} (remembered by alice from request ${first.id})`);
  });

  it("says which arguments cannot be remembered and offers only approve once", async () => {
    const { id } = await submit("secretive.ts", ["a"]);
    await open(id);
    expect(await page.locator("div.remember-ineligible").textContent()).toMatch(/Not eligible for remembering.*argument prefix is not eligible for remembering: its value looks like a secret/s);
    expect(await page.getByRole("button", { name: "Approve and remember", exact: true }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Approve once", exact: true }).count()).toBe(1);
  });

  it("after a template change: the rule does not apply and says why, and history still shows the old sentence and digest", async () => {
    const old = first.request.guarantees[0]!;
    writeLayer([layerDir, agentDir], templateChanged(baseLayer()));
    try {
      const changed = await submit("plan.ts", ["c"]);
      expect(changed.body).toMatchObject({ status: "pending" });
      await open(changed.id);
      expect(await page.locator("li.near-miss").first().textContent()).toMatch(new RegExp(`${ruleId}: .*neverReadUnder.*its template changed`));
      expect(await page.locator("p.sentence").first().textContent()).toBe('No tool of the filesystem library reads any path that starts with "/secrets".');

      await page.goto(`${service.url}/review/history/${first.id}`);
      await page.getByRole("heading", { name: `History of request ${first.id}` }).waitFor();
      const recorded = page.locator("section.guarantee.recorded").first();
      expect(await recorded.locator("p.sentence").textContent()).toBe(old.sentence);
      expect(old.sentence).toBe('No filesystem tool reads a path starting with "/secrets".');
      expect(await recorded.locator("p.symbol").textContent()).toBe(old.symbol);
      await recorded.locator("summary").click();
      expect(await recorded.locator("code.template-digest").textContent()).toBe(old.templateSha256);
      expect(await recorded.locator("pre.contract-source").textContent()).toContain("No filesystem tool reads a path starting with {prefix}.");
      expect(await recorded.locator("code.layer-fingerprint").textContent()).toBe(first.request.layer.fingerprint);
      expect(await recorded.locator("code.library-revision").textContent()).toBe(first.request.layer.libraries.find((l) => l.directory === "tools/filesystem")!.revision);
      expect(await page.locator("p.made-rule").textContent()).toContain(ruleId);
    } finally {
      writeLayer([layerDir, agentDir], baseLayer());
    }
  });

  it("lists decisions in history, and shows a decision stored before snapshots as not recorded", async () => {
    await page.goto(`${service.url}/review/history`);
    await page.getByRole("heading", { name: "History" }).waitFor();
    expect(await page.locator(`tr:has(a[href="/review/history/${first.id}"])`).textContent()).toMatch(/approved remember.*alice.*recorded/s);
    expect(await page.locator('tr:has(a[href="/review/history/old-1"])').textContent()).toContain("not recorded");
    await page.locator('a[href="/review/history/old-1"]').click();
    await page.getByRole("heading", { name: "History of request old-1" }).waitFor();
    expect(await page.locator("div.no-snapshot").textContent()).toContain("Resolved identity not recorded.");
    expect(await page.locator("ul.original-expressions li").allTextContents()).toEqual(['fs.neverReadUnder("/secrets")', 'fs.onlyReadsFiles([FilePath("/data/a.md")])']);
    expect(await page.locator("p.sentence").count()).toBe(0);
  });

  it("lists the rule, refuses a forged revoke, revokes from the page; the next identical request waits for a person", async () => {
    await page.goto(`${service.url}/review/remembered`);
    const rule = page.locator(`section#rule-${ruleId}`);
    expect(await rule.locator("p.meta").textContent()).toMatch(/Remembered by alice .* fired 1 time, last /);
    expect(await rule.locator("ul.rule-guarantees li").count()).toBe(2);
    const target = `${service.url}/review/remembered/${ruleId}/revoke`;
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const noToken = await fetch(target, { method: "POST", redirect: "manual", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect(noToken.status).toBe(403);
    const csrf = await rule.locator('input[name="_csrf"]').getAttribute("value");
    const foreign = await fetch(target, { method: "POST", redirect: "manual", headers: { cookie, origin: "http://evil.example", "content-type": "application/x-www-form-urlencoded" }, body: `_csrf=${encodeURIComponent(csrf!)}` });
    expect(foreign.status).toBe(403);
    expect(await rule.getAttribute("class")).toContain("active");

    await rule.getByRole("button", { name: "Revoke rule" }).click();
    await page.locator(`section#rule-${ruleId}.revoked`).waitFor();
    expect(await page.locator(`section#rule-${ruleId} p.meta`).textContent()).toMatch(/revoked by alice/);
    expect((await submit("plan.ts", ["d"])).body).toMatchObject({ status: "pending", decision: null });
  });
});
