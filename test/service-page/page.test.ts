/**
 * The reviewers' page in a real headless Chromium against `clauz3 approval-service` running as a
 * process: sign-in, the queue, the request page (what seed 002 lists, exactly as describe computes
 * it), each decision and what the agent's API then answers, hostile strings rendered inert, forged
 * cross-site posts refused, an unverified request without approval, and the queue after a restart.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import type { Browser, Page } from "playwright-core";
import type { ApprovalRequest } from "../../core/approval";
import { removeProject, ROOT } from "../cli/helpers";
import { HEAD } from "../approval/project";
import { agentProject, call, operatorLayer, requestIn, serviceEntry } from "../approval/service-helpers";
import { addToken, launchBrowser, newPage, signIn, startService, stopService, type Running } from "./helpers";

/** Agent-controlled strings a page must show as text: markup, quotes, a bidi override and a zero-width space. */
const HOSTILE = `${HEAD}// </pre><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> \u202Egnp.exe\u200B
export const guarantees = [fs.onlyReadsFiles([FilePath("<script>window.__pwned = 3</script>\\"'\u202E\u200B.md")])];
export function main(name: string, other: string): void {}
`;

let tmp: string;
let layerDir: string;
let agentDir: string;
let cli: string;
let tokens: string;
let alice: string;
let service: Running;
let browser: Browser;

function serviceArgs(): string[] {
  return ["--layer", layerDir, "--db", path.join(tmp, "approvals.sqlite"), "--key", path.join(tmp, "key.json"), "--tokens", tokens, "--port", "0"];
}

beforeAll(async () => {
  cli = serviceEntry();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-service-page-"));
  tokens = path.join(tmp, "reviewers.json");
  layerDir = operatorLayer();
  agentDir = agentProject();
  fs.writeFileSync(path.join(agentDir, "hostile.ts"), HOSTILE);
  alice = addToken(cli, tokens, "alice", tmp);
  service = await startService(cli, serviceArgs(), tmp);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (service) await stopService(service);
  removeProject(layerDir);
  removeProject(agentDir);
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function submit(file: string, inputs: unknown[]): Promise<{ id: string; request: ApprovalRequest }> {
  const request = requestIn(agentDir, file, inputs);
  const answer = await call(service.url, "POST", "/requests", { body: request });
  expect(answer.status).toBe(201);
  return { id: answer.body.id as string, request };
}

/** Sign in as alice and open request `id` from the queue. */
async function openRequest(id: string): Promise<Page> {
  const page = await newPage(browser);
  await signIn(page, service.url, alice);
  await page.locator(`a[href="/review/requests/${id}"]`).click();
  await page.getByRole("heading", { name: `Request ${id}` }).waitFor();
  return page;
}

async function decisionButton(page: Page, name: string): Promise<void> {
  await page.getByRole("button", { name, exact: true }).click();
  await page.locator("section.decision").waitFor();
}

describe("the reviewers' page", () => {
  it("sends a visitor without a session to the sign-in page, and refuses a token it did not issue", async () => {
    const plain = await fetch(`${service.url}/review`, { redirect: "manual" });
    expect(plain.status).toBe(303);
    expect(plain.headers.get("location")).toBe("/review/login");
    const page = await newPage(browser);
    await page.goto(`${service.url}/review/requests/00000000-0000-0000-0000-000000000000`);
    expect(new URL(page.url()).pathname).toBe("/review/login");
    await page.getByLabel("Reviewer token").fill("clauz3r_not-a-token-this-service-issued");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "not one this service issued" }).waitFor();
    await page.context().close();
  });

  it("shows a request as describe computes it, with its source section, and an approval issues the receipt the agent's API returns", async () => {
    const { id, request } = await submit("plan.ts", ["approve"]);
    const page = await openRequest(id);
    await page.locator("p.verified.ok").waitFor();
    // Each guarantee: title and badge, qualified call, sentence, symbol beneath it: describe's identity.
    for (const [i, g] of request.guarantees.entries()) {
      const section = page.locator(`#guarantee-${i}`);
      expect(await section.locator(".library-title").textContent()).toBe(g.library.title);
      expect(await section.locator(".badge").textContent()).toBe(g.library.badge === "mock" ? "Mock" : g.library.badge === "mixed" ? "Mixed" : "Real");
      expect(await section.locator(".call").textContent()).toBe(g.call);
      expect(await section.locator(".sentence").first().textContent()).toBe(g.sentence);
      expect(await section.locator(".symbol").textContent()).toBe(g.symbol);
      expect(await section.locator(".sentence-note").count()).toBe(g.sentenceSource === "template" ? 0 : 1);
    }
    const screenshot = await page.locator("#guarantees").screenshot();
    expect(screenshot.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    if (process.env.CLAUZ3_UPDATE_SCREENSHOT === "1") fs.writeFileSync(path.join(ROOT, "docs/images/review-page.png"), screenshot);

    // The source section is collapsed until the reviewer expands it.
    const first = page.locator("#guarantee-1");
    const source = first.locator("pre.contract-source");
    expect(await source.isVisible()).toBe(false);
    await first.getByText("Source and documentation").click();
    await source.waitFor();
    const g = request.guarantees[1]!;
    expect(await source.textContent()).toContain(`export const ${g.symbol.split("#")[1]} = contract(`);
    expect(await first.locator("pre.jsdoc").textContent()).toBe(g.documentation);
    expect(await first.getByText(request.layer.fingerprint).count()).toBe(1);
    expect(await first.getByText(g.expression, { exact: true }).count()).toBe(1);
    // The program is collapsed below.
    expect(await page.locator("pre.program-source").isVisible()).toBe(false);
    await page.locator("details.program > summary").click();
    expect(await page.locator("pre.program-source").textContent()).toBe(request.program.source);

    expect(await page.locator("p.note").textContent()).toContain("approve and remember approves this request with a single-use receipt and stores a rule");
    await decisionButton(page, "Approve once");
    expect(await page.locator("strong.decision-approved_once").textContent()).toBe("approved once");
    // The agent's side: no credentials, the status carries the receipt, which redeems once.
    const status = await call(service.url, "GET", `/requests/${id}`);
    expect(status.body).toMatchObject({ status: "approved", decision: { decision: "approved_once", reviewer: "alice" }, receipt: { singleUse: true, redeemedAt: null } });
    const receipt = (status.body.receipt as { token: string; id: string }).token;
    expect(await page.getByText((status.body.receipt as { id: string }).id).count()).toBe(1);
    expect((await call(service.url, "POST", "/receipts/redeem", { body: { receipt } })).body).toMatchObject({ redeemed: true, claims: { request: id, program: request.program.digest } });
    await page.context().close();
  });

  it("rejects with feedback, which the agent's API returns", async () => {
    const { id } = await submit("plan.ts", ["reject"]);
    const page = await openRequest(id);
    await page.getByLabel(/Feedback for the agent/).fill("Reading /data/a.md is not needed <b>at all</b>.");
    await decisionButton(page, "Reject");
    expect(await page.locator("pre.feedback").textContent()).toBe("Reading /data/a.md is not needed <b>at all</b>.");
    expect((await call(service.url, "GET", `/requests/${id}`)).body).toMatchObject({ status: "rejected", decision: { decision: "rejected", reviewer: "alice", feedback: "Reading /data/a.md is not needed <b>at all</b>." }, receipt: null });
    await page.context().close();
  });

  it("requests changes only with feedback, which the agent's API returns", async () => {
    const { id } = await submit("plan.ts", ["changes"]);
    const page = await openRequest(id);
    await page.getByRole("button", { name: "Request changes", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "feedback is missing" }).waitFor();
    expect((await call(service.url, "GET", `/requests/${id}`)).body).toMatchObject({ status: "pending" });
    await page.getByLabel(/Feedback for the agent/).fill("Use onlyReadsFilesUnder(DirectoryPath(\"/data\")) instead.");
    await decisionButton(page, "Request changes");
    expect((await call(service.url, "GET", `/requests/${id}`)).body).toMatchObject({ status: "changes_requested", decision: { decision: "changes_requested", feedback: 'Use onlyReadsFilesUnder(DirectoryPath("/data")) instead.' } });
    await page.context().close();
  });

  it("renders a hostile program's strings as inert text, with invisible characters shown", async () => {
    const { id, request } = await submit("hostile.ts", ["<script>window.__pwned = 5</script>", "\u202E\u200B\"'"]);
    const page = await openRequest(id);
    for (const summary of await page.locator("summary").all()) await summary.click();
    await page.locator("pre.program-source").waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    // Nothing the agent wrote became an element: no script, no image, anywhere on the page.
    expect(await page.locator("script, img").count()).toBe(0);
    const g = request.guarantees[0]!;
    expect(g.call).toContain("<script>");
    expect(await page.locator("#guarantee-0 .call").textContent()).toBe(g.call);
    const program = (await page.locator("pre.program-source").textContent())!;
    expect(program).toContain("</pre><script>window.__pwned = 1</script><img src=x onerror=");
    // The bidi override and the zero-width space are visible markers, not characters that reorder or hide text.
    expect(program).toContain("⟨U+202E⟩gnp.exe⟨U+200B⟩");
    expect(program).not.toContain("\u202E");
    expect(await page.locator("pre.inputs").textContent()).toContain("<script>window.__pwned = 5</script>");
    await page.context().close();
  });

  it("refuses forged cross-site posts: from another site's page, and without the form's token", async () => {
    const { id } = await submit("plan.ts", ["forged"]);
    const page = await openRequest(id);
    // Another site (localhost is not the site 127.0.0.1) posts an approval form to the service.
    const target = `${service.url}/review/requests/${id}/decision`;
    const attacker = http.createServer((_req, res) => {
      res.setHeader("content-type", "text/html");
      res.end(`<form id="f" method="post" action="${target}"><input name="decision" value="approved_once"></form><script>document.getElementById("f").submit()</script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    try {
      const attack = await page.context().newPage();
      const answered = attack.waitForResponse((r) => r.url() === target);
      await attack.goto(`http://localhost:${(attacker.address() as AddressInfo).port}/`);
      expect((await answered).status()).toBe(403);
    } finally {
      attacker.close();
    }
    // The reviewer's own session cookie, from a client that sends no Origin: refused without the token.
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const noToken = await fetch(target, { method: "POST", redirect: "manual", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: "decision=approved_once" });
    expect(noToken.status).toBe(403);
    // The right token and cookie, but posted from another origin: refused.
    const token = await page.locator('form.decide input[name="_csrf"]').getAttribute("value");
    const foreign = await fetch(target, { method: "POST", redirect: "manual", headers: { cookie, origin: "http://evil.example", "content-type": "application/x-www-form-urlencoded" }, body: `decision=approved_once&_csrf=${encodeURIComponent(token!)}` });
    expect(foreign.status).toBe(403);
    expect((await call(service.url, "GET", `/requests/${id}`)).body).toMatchObject({ status: "pending", decision: null });
    // The same form from the page itself is accepted (here "approve and remember", which says what it does).
    await decisionButton(page, "Approve and remember");
    expect(await page.locator("section.decision p.note").textContent()).toContain("approve and remember approves this request with a single-use receipt and stores a rule");
    expect((await call(service.url, "GET", `/requests/${id}`)).body).toMatchObject({ status: "approved", decision: { decision: "approved_remember" }, receipt: { singleUse: true } });
    // Revoke the rule it remembered (test/memory/ tests rules), so later submissions of plan.ts wait for a person.
    await page.goto(`${service.url}/review/remembered`);
    await page.getByRole("button", { name: "Revoke rule" }).click();
    await page.locator("section.rule.revoked").waitFor();
    await page.context().close();
  });

  it("marks an unverified request, offers no approval, and the API refuses one too", async () => {
    const { id } = await submit("leaky.ts", ["a"]);
    const page = await openRequest(id);
    await page.locator("div.verified.bad").filter({ hasText: "Not verified" }).waitFor();
    expect(await page.getByRole("button", { name: /^Approve/ }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Reject", exact: true }).count()).toBe(1);
    const refused = await call(service.url, "POST", `/requests/${id}/decision`, { token: alice, body: { decision: "approved_once" } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("unverified");
    await page.context().close();
  });

  it("ends a reviewer's session when the operator revokes their token", async () => {
    const dave = addToken(cli, tokens, "dave", tmp);
    const page = await newPage(browser);
    await signIn(page, service.url, dave);
    expect(await page.locator("header strong").textContent()).toBe("dave");
    const revoked = spawnSync(process.execPath, [cli, "approval-service", "token", "revoke", "dave", "--tokens", tokens], { cwd: tmp, encoding: "utf8" });
    expect(revoked.status).toBe(0);
    await page.goto(`${service.url}/review`);
    expect(new URL(page.url()).pathname).toBe("/review/login");
    await page.context().close();
  });

  it("shows the pending requests again after a restart (reviewers sign in again)", async () => {
    const { id } = await submit("plan.ts", ["after-restart"]);
    const page = await newPage(browser);
    await signIn(page, service.url, alice);
    expect(await stopService(service)).toBe(0);
    service = await startService(cli, serviceArgs(), tmp);
    await page.goto(`${service.url}/review`);
    expect(new URL(page.url()).pathname).toBe("/review/login");
    await signIn(page, service.url, alice);
    expect(await page.locator(`a[href="/review/requests/${id}"]`).count()).toBe(1);
    await page.context().close();
  });
});
