/**
 * stdlib:filesystem's async tools (node:fs/promises): each performs the events of its sync
 * counterpart and gives the same result, a failed `requires` rejects before anything happens, the
 * contracts cover them, and the prover reads awaited calls of them.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { RequiresError, ToolCall, check, record, type Occurrence } from "clauz3";
import { proveProgram } from "../../core/prover/prove";
import * as fsa from "../../stdlib/filesystem/trusted/async";
import * as fsc from "../../stdlib/filesystem/trusted/contracts";
import * as fss from "../../stdlib/filesystem/trusted/effects";
import { createProgram, PROJECT, stdlibFiles } from "../helpers/program";
import { problems } from "../prover/prove-helpers";

const events = (trace: readonly Occurrence[]): unknown[] => trace.filter((o) => !(o instanceof ToolCall)).map((o) => o.toJSON());

let root: string;
const at = (...parts: string[]): string => path.join(root, ...parts);

function fixture(): void {
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(at("data", "sub"), { recursive: true });
  fs.writeFileSync(at("data", "a.txt"), "alpha\nbeta\r\ngamma alpha\n");
  fs.writeFileSync(at("data", "sub", "b.txt"), "no match\nalphabet");
  fs.writeFileSync(at("top.txt"), "alpha at top");
}

/** Run the sync tool and the async one on fresh copies of the fixture: same result (or error), same events. */
async function same(name: keyof typeof fss, args: () => unknown[]): Promise<void> {
  fixture();
  const sync = record(() => {
    try {
      return { value: (fss[name] as (...a: unknown[]) => unknown)(...args()) };
    } catch (error) {
      return { error: (error as Error).constructor.name };
    }
  });
  const syncTree = snapshot();
  fixture();
  const asyncRun = record(async () => {
    try {
      return { value: await (fsa[`${name}Async` as keyof typeof fsa] as (...a: unknown[]) => Promise<unknown>)(...args()) };
    } catch (error) {
      return { error: (error as Error).constructor.name };
    }
  });
  expect(await asyncRun.result).toEqual(sync.result);
  expect(events(asyncRun.trace)).toEqual(events(sync.trace));
  expect(snapshot()).toEqual(syncTree);
}

function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) visit(full);
      else out[path.relative(root, full)] = fs.readFileSync(full, "utf8");
    }
  };
  if (fs.existsSync(root)) visit(root);
  return out;
}

describe("stdlib filesystem async tools", () => {
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-fsa-"));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("each async tool matches its sync counterpart: result, events and files", async () => {
    await same("readFile", () => [at("top.txt")]);
    await same("readLines", () => [at("data", "a.txt")]);
    await same("writeFile", () => [at("data", "new.txt"), "x\ny"]);
    await same("appendFile", () => [at("top.txt"), " more"]);
    await same("copy", () => [at("top.txt"), at("data", "copy.txt")]);
    await same("move", () => [at("top.txt"), at("data", "moved.txt")]);
    await same("deleteFile", () => [at("top.txt")]);
    await same("listDir", () => [at("data")]);
    await same("grep", () => ["alpha", at("data")]);
    await same("grep", () => ["alpha", at("top.txt")]);
    await same("removeTree", () => [at("data", "sub")]);
    await same("readFile", () => [at("missing.txt")]);
  });

  it("a failed requires rejects the promise before the implementation runs, recording nothing", async () => {
    fixture();
    const { result, trace } = record(() => fsa.removeTreeAsync("/"));
    await expect(result).rejects.toBeInstanceOf(RequiresError);
    expect(trace).toEqual([]);
    const copy = record(() => fsa.copyAsync(at("top.txt"), at("top.txt")));
    await expect(copy.result).rejects.toThrow(/different source and destination/);
    expect(copy.trace).toEqual([]);
  });

  it("the contracts cover the async tools: onlyPattern sees grepAsync, readOnly sees writes", async () => {
    fixture();
    const { result, trace } = record(async () => {
      await fsa.grepAsync("beta", at("data"));
      await fsa.writeFileAsync(at("data", "w.txt"), "w");
    });
    await result;
    expect(check(fsc.onlyPattern("alpha"), trace)).toHaveLength(1);
    expect(check(fsc.onlyPattern("beta"), trace)).toEqual([]);
    expect(check(fsc.readOnly(), trace)).toHaveLength(1);
  });
});

const IMPORTS = `import { readFileAsync, writeFileAsync, grepAsync } from "./tools/filesystem/trusted/async";
import * as fs from "./tools/filesystem/trusted/contracts";
import { FilePath } from "clauz3";
`;

async function prove(body: string) {
  const program = createProgram({ ...stdlibFiles(), "plan.ts": IMPORTS + body });
  return proveProgram({ ts, program, file: program.getSourceFile(`${PROJECT}/plan.ts`)! });
}

describe("programs over the async filesystem tools", () => {
  it("awaited reads of one file only: proved", async () => {
    const v = await prove(`export const guarantees = [fs.readOnly(), fs.onlyReadsFiles([FilePath("notes.md")])];
export async function main(): Promise<number> {
  const text = await readFileAsync("notes.md");
  return text.length;
}`);
    expect(v.verdict, JSON.stringify(problems(v))).toBe("proved");
  });

  it("an awaited write breaks readOnly at its line", async () => {
    const v = await prove(`export const guarantees = [fs.readOnly()];
export async function main(path: string): Promise<void> {
  const text = await readFileAsync("notes.md");
  if (text.length > 0) await writeFileAsync(path, text);
}`);
    expect(v.verdict).toBe("violated");
    expect(problems(v)[0]?.line).toBe(7);
  });

  it("onlyPattern holds for grepAsync with the pattern, and breaks with another", async () => {
    const ok = await prove(`export const guarantees = [fs.onlyPattern("TODO")];
export async function main(dir: string): Promise<void> {
  if (dir.length > 0) await grepAsync("TODO", dir);
}`);
    expect(ok.verdict, JSON.stringify(problems(ok))).toBe("proved");
    const bad = await prove(`export const guarantees = [fs.onlyPattern("TODO")];
export async function main(dir: string, pattern: string): Promise<void> {
  if (dir.length > 0 && pattern.length > 0) await grepAsync(pattern, dir);
}`);
    expect(bad.verdict).toBe("violated");
  });
});
