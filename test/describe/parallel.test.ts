/**
 * `clauz3 describe` shows which calls of a program may run in parallel (core/describe/parallel.ts
 * over core/prover/commute.ts), as text and as JSON; `--no-calls` skips it.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clauz3, ensureBuilt, removeProject, stdlibLayer, tempProject } from "../cli/helpers";

const projects: string[] = [];
beforeAll(() => ensureBuilt());
afterAll(() => projects.forEach(removeProject));

const PLAN = `import { readFile, writeFile } from "./tools/filesystem/trusted/effects";
import { noGuarantees } from "clauz3/spec";
export const guarantees = [noGuarantees()];
export function main(a: string, p: string): void {
  readFile(a);
  readFile("b.txt");
  if (a === "x") return;
  writeFile(p, "text");
  readFile("notes.md");
}
`;

const ROOT = path.resolve(__dirname, "../..");
/** The stdlib's effects import `node:fs`: the project type-checks with @types/node. */
const TSCONFIG = JSON.stringify({
  compilerOptions: { target: "ES2022", module: "preserve", moduleResolution: "bundler", strict: true, skipLibCheck: true, noEmit: true, types: ["node"], typeRoots: [path.join(ROOT, "node_modules/@types")] },
  include: ["**/*.ts"],
  exclude: ["node_modules"],
});

describe("describe: calls that may run in parallel", () => {
  const dir = tempProject({ ...stdlibLayer(), "tsconfig.json": TSCONFIG, "plan.ts": PLAN });
  projects.push(dir);

  it("text: one sentence per pair, conflicts first, with a witness", () => {
    const r = clauz3(["describe", "plan.ts"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const block = r.stdout.slice(r.stdout.indexOf("calls:"));
    expect(block).toContain("readFile(a) (line 5) and readFile(\"b.txt\") (line 6) commute: they may run in parallel.");
    expect(block).toMatch(/readFile\(a\) \(line 5\) and writeFile\(p, "text"\) \(line 8\) may conflict when they touch the same file or resource and one of them writes it, e\.g\. main\(a=("[^"]*"), p=("[^"]*")\) calls readFile\(path=\1\) and writeFile\(path=\2, text="text"\): they run in program order\./);
    expect(block).toMatch(/writeFile\(p, "text"\) \(line 8\) and readFile\("notes\.md"\) \(line 9\) may conflict .* e\.g\. main\(a="[^"]*", p="[^"]*"\) calls writeFile\(path="[^"]*", text="text"\) and readFile\(path="notes\.md"\)/);
    expect(block).toContain('readFile("b.txt") (line 6) and readFile("notes.md") (line 9) commute');
    // Conflicts are listed before the pairs that commute.
    expect(block.lastIndexOf("may conflict")).toBeLessThan(block.indexOf("commute:"));
  });

  it("--json: the call sites, and each pair's verdict, sentence and witness", () => {
    const r = clauz3(["describe", "--json", "plan.ts"], dir);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { parallel: { calls: { text: string; file: string; line: number }[]; pairs: { first: number; second: number; verdict: string; sentence: string; witness?: { inputs: Record<string, unknown>; first: Record<string, unknown>; second: Record<string, unknown> } }[] } };
    expect(out.parallel.calls.map((c) => `${c.file}:${c.line} ${c.text}`)).toEqual(["plan.ts:5 readFile(a)", 'plan.ts:6 readFile("b.txt")', 'plan.ts:8 writeFile(p, "text")', 'plan.ts:9 readFile("notes.md")']);
    const verdicts = Object.fromEntries(out.parallel.pairs.map((p) => [`${p.first}-${p.second}`, p.verdict]));
    expect(verdicts).toEqual({ "0-1": "commute", "0-2": "may conflict", "0-3": "commute", "1-2": "may conflict", "1-3": "commute", "2-3": "may conflict" });
    const conflict = out.parallel.pairs.find((p) => p.first === 0 && p.second === 2)!;
    // The witness makes the two calls touch one file: the read's path is the input a, the write's p.
    expect(conflict.witness!.first).toEqual({ path: conflict.witness!.inputs["a"] });
    expect(conflict.witness!.second).toEqual({ path: conflict.witness!.inputs["p"], text: "text" });
    // The witness keeps the run that reaches the write: a is not "x".
    expect(conflict.witness!.inputs["a"]).not.toBe("x");
  });

  it("--no-calls leaves the solver out", () => {
    const r = clauz3(["describe", "--no-calls", "plan.ts"], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain("calls:");
    expect(JSON.parse(clauz3(["describe", "--json", "--no-calls", "plan.ts"], dir).stdout)).not.toHaveProperty("parallel");
  });

  it("a program outside the subset is described, its calls not analysed (on the refused node)", () => {
    const other = tempProject({ ...stdlibLayer(), "tsconfig.json": TSCONFIG, "plan.ts": PLAN.replace('readFile("b.txt");', 'eval("b");') });
    projects.push(other);
    const r = clauz3(["describe", "--json", "plan.ts"], other);
    const out = JSON.parse(r.stdout) as { parallel: { refusal?: { line: number; message: string } } };
    expect(out.parallel.refusal).toMatchObject({ line: 6 });
  });
});
