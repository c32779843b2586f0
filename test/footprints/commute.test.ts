/**
 * Which calls of a program commute (core/prover/commute.ts): footprints compared by the solver on
 * the symbolic arguments, path aliases canonicalised, inexact paths failing closed, witnesses.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { manifestEventAccess } from "../../core/footprint/derive";
import { callPairs, type CallPair, type ProgramCalls } from "../../core/prover/commute";
import { createProgram, stdlibFiles } from "../helpers/program";

const ROOT = path.resolve(__dirname, "../..");
const STDLIB_MANIFEST = fs.readFileSync(path.join(ROOT, "stdlib/filesystem/clauz3.json"));
const accessOf = () => manifestEventAccess((file) => (file === "/project/tools/filesystem/clauz3.json" ? STDLIB_MANIFEST : undefined));

const HEAD = `import * as fs from "./tools/filesystem/trusted/effects.js";
import * as fa from "./tools/filesystem/trusted/async.js";
import { shell } from "./tools/demo/trusted/layer.js";
import { noGuarantees } from "clauz3/spec";
export const guarantees = [noGuarantees()];
`;
const HEAD_LINES = HEAD.split("\n").length - 1;
const DEMO = `import { trusted } from "clauz3";
/** Run a command: its touched state is not described (opaque). */
export const shell = trusted(function shell(command: string): void {});
`;

/** The verdict of each pair, keyed `line~line` (lines of the body). */
async function pairs(body: string): Promise<ProgramCalls & { verdicts: Record<string, string>; pair: (a: number, b: number) => CallPair }> {
  const program = createProgram({ ...stdlibFiles(), "tools/demo/trusted/layer.ts": DEMO, "plan.ts": HEAD + body });
  const file = program.getSourceFile("/project/plan.ts")!;
  const result = await callPairs({ ts, program, file }, undefined, accessOf());
  if (result.refusal) throw new Error(result.refusal.message);
  const line = (i: number) => result.calls[i]!.location.line - HEAD_LINES;
  const verdicts: Record<string, string> = {};
  for (const p of result.pairs) verdicts[`${line(p.first)}~${line(p.second)}`] = p.verdict;
  const pair = (a: number, b: number) => result.pairs.find((p) => line(p.first) === a && line(p.second) === b)!;
  return { ...result, verdicts, pair };
}

describe("callPairs: literal paths", () => {
  it("distinct literal paths commute, reads of one file commute, a write and a read of one file conflict", async () => {
    const r = await pairs(`export function main(): void {
  fs.readFile("a.txt");
  fs.readFile("b.txt");
  fs.writeFile("c.txt", "x");
  fs.readFile("a.txt");
  fs.readFile("c.txt");
}`);
    expect(r.verdicts).toEqual({
      "2~3": "commute", "2~4": "commute", "2~5": "commute", "2~6": "commute",
      "3~4": "commute", "3~5": "commute", "3~6": "commute",
      "4~5": "commute", "4~6": "may conflict",
      "5~6": "commute",
    });
    expect(r.pair(4, 6).witness).toMatchObject({ first: { path: "c.txt" }, second: { path: "c.txt" } });
  });

  it("`dir/a` and `dir/./a` (and `dir//a`, `dir/b/../a`, `dir/a/`) are one file", async () => {
    const r = await pairs(`export function main(): void {
  fs.writeFile("dir/a", "1");
  fs.writeFile("dir/./a", "2");
  fs.writeFile("dir//a", "3");
  fs.writeFile("dir/b/../a", "4");
  fs.readFile("dir/a/");
  fs.readFile("dir/b");
}`);
    for (const [a, b] of [[2, 3], [2, 4], [2, 5], [2, 6], [3, 6], [5, 6]]) expect(r.verdicts[`${a}~${b}`], `${a}~${b}`).toBe("may conflict");
    expect(r.verdicts["2~7"]).toBe("commute");
    expect(r.verdicts["6~7"]).toBe("commute");
  });

  it("a tree removal conflicts with a write beneath it, not with a sibling whose name extends it", async () => {
    const r = await pairs(`export function main(): void {
  fs.removeTree("dir");
  fs.writeFile("dir/sub/x", "1");
  fs.writeFile("dirx/a", "2");
  fs.readFile("dir");
  fs.listDir("other");
}`);
    expect(r.verdicts["2~3"]).toBe("may conflict");
    expect(r.verdicts["2~4"]).toBe("commute");
    expect(r.verdicts["2~5"]).toBe("may conflict");
    expect(r.verdicts["2~6"]).toBe("commute");
  });

  it("a relative and an absolute path may be one file (the working directory is unknown)", async () => {
    const r = await pairs(`export function main(): void {
  fs.writeFile("/work/a.txt", "1");
  fs.readFile("a.txt");
  fs.readFile("/work/b.txt");
}`);
    expect(r.verdicts["2~3"]).toBe("may conflict");
    expect(r.verdicts["2~4"]).toBe("commute");
  });

  it("a path leaving the working directory fails closed", async () => {
    const r = await pairs(`export function main(): void {
  fs.writeFile("../x", "1");
  fs.readFile("y");
}`);
    expect(r.pair(2, 3)).toMatchObject({ verdict: "may conflict", reason: expect.stringMatching(/cannot be compared exactly/) });
  });
});

describe("callPairs: inputs, branches, loops, opaque tools", () => {
  it("an input path and a literal may conflict, with the witness", async () => {
    const r = await pairs(`export function main(p: string): void {
  fs.writeFile(p, "x");
  fs.readFile("notes/a.txt");
}`);
    const pair = r.pair(2, 3);
    expect(pair.verdict).toBe("may conflict");
    // An exact conflict: the witness's path is canonical and names the read's file.
    expect(pair.reason).toBeUndefined();
    const p = pair.witness!.inputs["p"];
    expect(typeof p).toBe("string");
    expect(pair.witness!.first["path"]).toBe(p);
    expect(pair.witness!.second).toEqual({ path: "notes/a.txt" });
  });

  it("an input path kept apart by the program's guard commutes; a guard that lets `.` segments (or a \\ separator) through does not", async () => {
    const r = await pairs(`export function main(p: string): void {
  if (p.startsWith("out/") && !p.includes(".") && !p.includes("//") && !p.includes("\\\\") && !p.endsWith("/")) fs.writeFile(p, "x");
  fs.readFile("in/a.txt");
  if (p.startsWith("out/") && !p.includes("//")) fs.writeFile(p, "y");
}`);
    expect(r.verdicts["2~3"], JSON.stringify(r.pair(2, 3))).toBe("commute");
    expect(r.pair(3, 4)).toMatchObject({ verdict: "may conflict", reason: expect.stringMatching(/cannot be compared exactly/) });
    // p = "out/../in/a.txt" (or another alias) reaches the read's file.
    expect(String(r.pair(3, 4).witness!.inputs["p"])).toMatch(/^out\//);
  });

  it("calls on exclusive branches never run together: they commute", async () => {
    const r = await pairs(`export function main(flag: boolean): void {
  if (flag) fs.writeFile("a", "1");
  else fs.writeFile("a", "2");
}`);
    expect(r.verdicts["2~3"]).toBe("commute");
  });

  it("a call in a loop over an input is paired with itself across two iterations", async () => {
    const r = await pairs(`export function main(files: string[]): void {
  for (const f of files) fs.writeFile(f, "x");
}`);
    expect(r.verdicts).toEqual({ "2~2": "may conflict" });
    // Two iterations write one file: the same name, or a relative and an absolute name of it.
    const w = r.pair(2, 2).witness!;
    const [x, y] = [String(w.first["path"]), String(w.second["path"])];
    if (x !== y) expect(x.startsWith("/")).not.toBe(y.startsWith("/"));
  });

  it("reads in a loop commute with each other; a write in another loop over the same input may conflict with them", async () => {
    const r = await pairs(`export function main(files: string[]): void {
  for (const f of files) fs.readFile(f);
  for (const f of files) fs.writeFile("out/" + f, "x");
}`);
    expect(r.verdicts["2~2"]).toBe("commute");
    expect(r.verdicts["2~3"]).toBe("may conflict");
  });

  it("unrolled loops over literal arrays: distinct paths commute, a repeated one conflicts", async () => {
    const r = await pairs(`export function main(): void {
  for (const f of ["a", "b"]) fs.writeFile("out/" + f, "y");
  for (const f of ["a", "a"]) fs.writeFile("log/" + f, "y");
}`);
    expect(r.verdicts["2~2"]).toBe("commute");
    expect(r.verdicts["3~3"]).toBe("may conflict");
    expect(r.verdicts["2~3"]).toBe("commute");
  });

  it("a call once in a straight line has no pair with itself", async () => {
    const r = await pairs(`export async function main(): Promise<void> {
  await Promise.all([fa.readFileAsync("a"), fa.writeFileAsync("b", "x")]);
}`);
    expect(Object.keys(r.verdicts)).toEqual(["2~2"]);
    expect(r.verdicts["2~2"]).toBe("commute");
  });

  it("an opaque tool conflicts with every call, even one touching nothing it names", async () => {
    const r = await pairs(`export function main(): void {
  shell("ls");
  fs.readFile("a");
}`);
    expect(r.pair(2, 3)).toMatchObject({ verdict: "may conflict", reason: expect.stringMatching(/opaque/) });
  });
});
