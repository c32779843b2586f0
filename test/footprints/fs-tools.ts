/**
 * Async filesystem tools for the scheduler's tests and bench: the stdlib's events, the footprints
 * core derives for them (checked in test/footprints/layer.test.ts), and a simulated latency between
 * reading and writing, so that a schedule that runs two conflicting calls at once loses an update
 * or reads a half-done state.
 */
import * as fsp from "node:fs/promises";
import * as nodePath from "node:path";
import { trusted, type ToolMetadata } from "../../runtime";
import { performs } from "../../runtime/events";
import type { FootprintSpec } from "../../runtime/footprint";
import { Delete, Read, RecursiveRead, RecursiveWrite, Write, WriteText } from "../../stdlib/filesystem/trusted/events";

/** Milliseconds each call waits in the middle of its work (set by the test). */
export const latency = { of: (_path: string): number => 0 };
const pause = (path: string) => new Promise<void>((resolve) => setTimeout(resolve, latency.of(path)));

const meta = (tool: string, parameters: string[], footprint: FootprintSpec): { __clauz3_metadata: ToolMetadata } => ({
  __clauz3_metadata: { tool, parameters, builderParameters: parameters, events: [], requires: [], ensures: [], footprint },
});
const read = (field: string) => ({ kind: "path" as const, field, access: "read" as const });
const write = (field: string) => ({ kind: "path" as const, field, access: "write" as const });

async function contents(path: string): Promise<string> {
  try {
    return await fsp.readFile(path, "utf8");
  } catch {
    return "<missing>";
  }
}

/** Files beneath `dir` with their contents, sorted (not following links). */
async function tree(dir: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  const visit = async (d: string, prefix: string): Promise<void> => {
    let entries;
    try {
      entries = await fsp.readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory()) await visit(nodePath.join(d, e.name), rel);
      else out.push([rel, await contents(nodePath.join(d, e.name))]);
    }
  };
  await visit(dir, "");
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

export const readF = trusted(meta("test.readF", ["path"], { selectors: [read("path")] }), performs((path: string) => new Read(path)), async function readF(path: string): Promise<string> {
  await pause(path);
  return contents(path);
});

export const writeF = trusted(meta("test.writeF", ["path", "text"], { selectors: [write("path")] }), performs((path: string, text: string) => new WriteText(path, text)), async function writeF(path: string, text: string): Promise<void> {
  await pause(path);
  await fsp.writeFile(path, text);
});

/** Append as a read-modify-write with a pause in between: two appends at once lose one. */
export const appendF = trusted(meta("test.appendF", ["path", "text"], { selectors: [write("path")] }), performs((path: string, text: string) => new WriteText(path, text)), async function appendF(path: string, text: string): Promise<void> {
  const before = await contents(path);
  await pause(path);
  await fsp.writeFile(path, (before === "<missing>" ? "" : before) + text);
});

export const deleteF = trusted(meta("test.deleteF", ["path"], { selectors: [write("path")] }), performs((path: string) => new Delete(path)), async function deleteF(path: string): Promise<boolean> {
  await pause(path);
  try {
    await fsp.unlink(path);
    return true;
  } catch {
    return false;
  }
});

export const copyF = trusted(meta("test.copyF", ["src", "dest"], { selectors: [read("src"), write("dest")] }), performs((src: string, dest: string) => [new Read(src), new Write(dest)]), async function copyF(src: string, dest: string): Promise<void> {
  const text = await contents(src);
  await pause(dest);
  await fsp.writeFile(dest, text === "<missing>" ? "" : text);
});

/** The names in the tree, then (after a pause) their contents: a write beneath it meanwhile shows. */
export const listT = trusted(meta("test.listT", ["dir"], { selectors: [{ ...read("dir"), tree: true }] }), performs((dir: string) => new RecursiveRead(dir)), async function listT(dir: string): Promise<string> {
  const names = (await tree(dir)).map(([n]) => n);
  await pause(dir);
  const now = await tree(dir);
  return JSON.stringify({ names, now });
});

export const removeT = trusted(meta("test.removeT", ["dir"], { selectors: [{ ...write("dir"), tree: true }] }), performs((dir: string) => new RecursiveWrite(dir)), async function removeT(dir: string): Promise<number> {
  const files = await tree(dir);
  await pause(dir);
  for (const [rel] of files) await fsp.rm(nodePath.join(dir, rel), { force: true });
  return files.length;
});

export { tree };
