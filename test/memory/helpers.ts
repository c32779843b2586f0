/**
 * Set-up for the approval memory's tests: the operator's layer and an agent's project (as the
 * approval tests make them) with a second library under the same name (`vendor/filesystem`, a copy
 * of the filesystem library: same id, same qualified names, another directory), programs that
 * differ from `plan.ts` only in what a remembered rule must notice, and layer changes written to
 * both checkouts and locked again, as an operator updating a library would.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { stdlibLayer } from "../cli/helpers";
import { lockFor } from "../helpers/lock";
import { HEAD, PLAN } from "../approval/project";

export { PLAN };

/** The filesystem library at tools/filesystem and its copy at vendor/filesystem. */
export function baseLayer(): Record<string, string> {
  const tools = stdlibLayer();
  const vendor = Object.fromEntries(Object.entries(tools).map(([rel, text]) => [rel.replace(/^tools\//, "vendor/"), text]));
  return { ...tools, ...vendor };
}

/** plan.ts's guarantees, stated with the same-named library's contracts. */
export const VENDORED = `import { FilePath } from "clauz3";
import { readFile } from "./vendor/filesystem/trusted/effects";
import * as fs from "./vendor/filesystem/trusted/contracts";
export const guarantees = [fs.neverReadUnder("/secrets"), fs.onlyReadsFiles([FilePath("/data/a.md")])];
export function main(name: string): void {
  if (name === "a") readFile("/data/a.md");
}
`;

/** plan.ts's guarantees exactly, but the program also calls a tool of the same-named library. */
export const MIXED = `${HEAD}import { readFile as readVendored } from "./vendor/filesystem/trusted/effects";
export const guarantees = [fs.neverReadUnder("/secrets"), fs.onlyReadsFiles([FilePath("/data/a.md")])];
export function main(name: string): void {
  if (name === "a") readFile("/data/a.md");
  if (name === "b") readVendored("/data/b.md");
}
`;

/** A guarantee whose argument looks like a secret: not eligible for remembering. */
export const SECRETIVE = `${HEAD}export const guarantees = [fs.neverReadUnder("sk_live_0123456789abcdefABCDEFGH")];
export function main(name: string): void {
  if (name === "a") readFile("/data/a.md");
}
`;

export const PROGRAMS: Record<string, string> = { "plan.ts": PLAN, "vendored.ts": VENDORED, "mixed.ts": MIXED, "secretive.ts": SECRETIVE };

export const OLD_TEMPLATE = "No filesystem tool reads a path starting with {prefix}.";
export const NEW_TEMPLATE = "No tool of the filesystem library reads any path that starts with {prefix}.";

/** The layer with tools/filesystem's neverReadUnder template changed (nothing else). */
export function templateChanged(layer: Record<string, string>): Record<string, string> {
  const rel = "tools/filesystem/trusted/contracts.ts";
  const text = layer[rel]!;
  if (!text.includes(OLD_TEMPLATE)) throw new Error("the filesystem library's neverReadUnder template is not the one these tests expect");
  return { ...layer, [rel]: text.replace(OLD_TEMPLATE, NEW_TEMPLATE) };
}

/** The layer with tools/filesystem's neverReadUnder body changed (two conjuncts swapped: same meaning, other bytes), its template unchanged. */
export function bodyChanged(layer: Record<string, string>): Record<string, string> {
  const rel = "tools/filesystem/trusted/contracts.ts";
  const text = layer[rel]!;
  const from = `e.dir !== "." &&\n          e.dir !== ".." &&`;
  if (!text.includes(from)) throw new Error("the filesystem library's neverReadUnder body is not the one these tests expect");
  return { ...layer, [rel]: text.replace(from, `e.dir !== ".." &&\n          e.dir !== "." &&`) };
}

/** Write `layer` into each checkout and lock it again (what the operator's `clauz3 lock` would write). */
export function writeLayer(dirs: readonly string[], layer: Record<string, string>): void {
  for (const dir of dirs) {
    for (const [rel, text] of Object.entries(layer)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    fs.writeFileSync(path.join(dir, "clauz3.lock"), lockFor(layer, dir));
  }
}

/** Write the programs into the agent's project. */
export function writePrograms(dir: string): void {
  for (const [rel, text] of Object.entries(PROGRAMS)) fs.writeFileSync(path.join(dir, rel), text);
}
