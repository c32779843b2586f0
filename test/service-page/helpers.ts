/**
 * Set-up for the reviewers' page tests: `clauz3 approval-service` as a real process on an
 * ephemeral port, reviewer tokens issued with `clauz3 approval-service token add`, and Debian's
 * Chromium driven by playwright-core (no browser download: `/usr/bin/chromium`, which `.ci/run`
 * installs when it is missing).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface Running {
  readonly child: ChildProcess;
  readonly url: string;
}

/** Start `clauz3 approval-service` and resolve with its URL once it says it listens (reject with its stderr if it exits). */
export function startService(cli: string, args: readonly string[], cwd: string): Promise<Running> {
  const child = spawn(process.execPath, [cli, "approval-service", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+) /.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => reject(new Error(`the service exited (${code}) before it listened: ${err}`)));
  });
}

/** Stop a service with SIGTERM (what an operator's Ctrl-C does); resolves with its exit code. */
export function stopService(running: Running): Promise<number | null> {
  return new Promise((resolve) => {
    if (running.child.exitCode !== null) return resolve(running.child.exitCode);
    running.child.once("exit", (code) => resolve(code));
    running.child.kill("SIGTERM");
  });
}

/** `clauz3 approval-service token add <reviewer> --tokens <file>`: the token it prints. */
export function addToken(cli: string, tokensFile: string, reviewer: string, cwd: string): string {
  const r = spawnSync(process.execPath, [cli, "approval-service", "token", "add", reviewer, "--tokens", tokensFile], { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`token add exited ${r.status}: ${r.stderr}`);
  return r.stdout.trim();
}

export function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A fresh browser context (its own cookies) with a fixed viewport; waits have no time limit (the test runner's applies). */
export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
  context.setDefaultTimeout(0);
  context.setDefaultNavigationTimeout(0);
  return context.newPage();
}

/** Sign in on the page with `token`; resolves on the queue. */
export async function signIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/review/login`);
  await page.getByLabel("Reviewer token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Pending requests" }).waitFor();
}
