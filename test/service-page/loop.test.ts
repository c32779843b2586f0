/**
 * The approval loop end to end, as a newcomer walks it (docs/approvals.md): an
 * agent's `clauz3 run` (the built CLI, a child process) submits a proved program and waits; a
 * reviewer signs in on the page in a real headless Chromium, opens the request from the queue,
 * expands the source section and decides; `run` then executes the program — or, on a rejection,
 * exits 3 with the reviewer's feedback and runs nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Browser, Page } from "playwright-core";
import { ensureBuilt } from "../cli/helpers";
import { doc, READER, startRun, startWorld, WRITER, type World } from "../run/helpers";
import { launchBrowser, newPage, signIn } from "./helpers";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

let world: World;
let browser: Browser;
let dataFile: string;

beforeAll(async () => {
  ensureBuilt();
  world = await startWorld({ "reader.ts": READER, "writer.ts": WRITER });
  dataFile = path.join(world.tmp, "data.txt");
  fs.writeFileSync(dataFile, "hello from the approved run");
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

/** Sign in as alice, find request `id` in the queue and open it. */
async function openFromQueue(id: string): Promise<Page> {
  const page = await newPage(browser);
  await signIn(page, world.service.url, world.alice);
  await page.locator(`a[href="/review/requests/${id}"]`).click();
  await page.getByRole("heading", { name: `Request ${id}` }).waitFor();
  return page;
}

describe("the approval loop, page and run together", () => {
  it("a reviewer approves on the page and clauz3 run executes the program", async () => {
    const cli = startRun(["reader.ts", "--inputs", JSON.stringify([dataFile]), "--json"], world.agentDir);
    const id = await cli.waiting;
    const page = await openFromQueue(id);
    await page.locator("p.verified.ok").waitFor();
    // The reviewer looks at the contract's source before deciding.
    const first = page.locator("#guarantee-0");
    await first.getByText("Source and documentation").click();
    await first.locator("pre.contract-source").waitFor();
    expect(await first.locator("pre.contract-source").textContent()).toContain("neverReadUnder");
    await page.getByRole("button", { name: "Approve once", exact: true }).click();
    await page.locator("section.decision").waitFor();
    await page.context().close();

    const r = await cli.done;
    expect(r.status).toBe(0);
    expect(doc(r)).toMatchObject({ outcome: "ran", requestId: id, status: "approved", result: "hello from the approved run", receipt: { redeemed: true } });
  });

  it("a reviewer rejects on the page with feedback: clauz3 run exits 3 with it and runs nothing", async () => {
    const target = path.join(world.tmp, "never-written.txt");
    const cli = startRun(["writer.ts", "--inputs", JSON.stringify([target, "text"]), "--json"], world.agentDir);
    const id = await cli.waiting;
    const page = await openFromQueue(id);
    await page.getByLabel(/Feedback for the agent/).fill("Write into the workspace instead.");
    await page.getByRole("button", { name: "Reject", exact: true }).click();
    await page.locator("section.decision").waitFor();
    await page.context().close();

    const r = await cli.done;
    expect(r.status).toBe(3);
    expect(doc(r)).toMatchObject({ outcome: "rejected", requestId: id, feedback: "Write into the workspace instead." });
    expect(fs.existsSync(target)).toBe(false);
  });
});
