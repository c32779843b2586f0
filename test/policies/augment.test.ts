/**
 * How clauses are added to a program before it is proved again: at the end of its `guarantees`
 * array (after a trailing comma or a comment alike, through `as const`), with each contract's
 * module imported at the end of the file under a name the program does not use, so no line of the
 * program moves; a program without a `guarantees` array cannot take clauses (its lists are unknown).
 * And how a verdict of that program is read: per clause, the program's own results apart.
 */
import ts from "typescript";
import { AugmentError, augmentProgram, entailmentOf, parsePolicy, resolvePolicy, type ResolvedCall } from "../../core/policy";
import type { ProgramVerdict, ProofResult } from "../../core/prover/api";
import { testProject } from "../approval/project";

const HEAD = `import { FilePath } from "clauz3";
import { readFile } from "./tools/filesystem/trusted/effects";
import * as fs from "./tools/filesystem/trusted/contracts";
`;
const MAIN = `export function main(): void {
  readFile("/data/a.md");
}
`;

function calls(project: ReturnType<typeof testProject>, clauses: string[]): ResolvedCall[] {
  const policy = parsePolicy(ts, "p.json", JSON.stringify({ version: 1, rules: [{ name: "r", decision: "auto_approved", reason: "x", whenProven: clauses }] }));
  return resolvePolicy(ts, project.program.getTypeChecker(), project.layer.model, policy).rules[0]!.calls as ResolvedCall[];
}

function augment(guarantees: string, clauses: string[], extra = ""): { text: string; regions: readonly (readonly [number, number])[]; original: string } {
  const original = `${HEAD}export const guarantees = ${guarantees};\n${MAIN}${extra}`;
  const project = testProject({ "plan.ts": original });
  const out = augmentProgram(ts, project.program, project.file, project.layer, calls(project, clauses), project.system);
  return { ...out, original };
}

describe("adding clauses to a program", () => {
  it("appends the calls to the array and imports the contract module at the end, lines unchanged", () => {
    const { text, regions, original } = augment('[fs.neverReadUnder("/secrets")]', ['filesystem.onlyReadsFiles(files=[FilePath("/data/a.md")])', "filesystem.writesAtMost(0)"]);
    const lines = text.split("\n");
    // Every line but the guarantees' is the program's own, at its own number.
    original.split("\n").forEach((line, i) => {
      if (i !== 3) expect(lines[i]).toBe(line);
    });
    expect(lines[3]).toBe('export const guarantees = [fs.neverReadUnder("/secrets"), __clauz3_policy0.onlyReadsFiles([__clauz3_policy_FilePath("/data/a.md")]), __clauz3_policy0.writesAtMost(0)];');
    expect(text.endsWith(`${MAIN}\nimport * as __clauz3_policy0 from "./tools/filesystem/trusted/contracts";\nimport { FilePath as __clauz3_policy_FilePath, DirectoryPath as __clauz3_policy_DirectoryPath } from "clauz3";\n`)).toBe(true);
    expect(regions.map(([s, e]) => text.slice(s, e))).toEqual(['__clauz3_policy0.onlyReadsFiles([__clauz3_policy_FilePath("/data/a.md")])', "__clauz3_policy0.writesAtMost(0)"]);
  });

  it("after a trailing comma or a comment, and through `as const`", () => {
    expect(augment('[\n  fs.neverReadUnder("/secrets"),\n]', ["filesystem.readOnly()"]).text).toContain('[\n  fs.neverReadUnder("/secrets"),\n __clauz3_policy0.readOnly()]');
    expect(augment('[fs.neverReadUnder("/secrets") // the only one\n]', ["filesystem.readOnly()"]).text).toContain('[fs.neverReadUnder("/secrets") // the only one\n, __clauz3_policy0.readOnly()]');
    expect(augment('[fs.neverReadUnder("/secrets")] as const', ["filesystem.readOnly()"]).text).toContain('[fs.neverReadUnder("/secrets"), __clauz3_policy0.readOnly()] as const');
  });

  it("never takes a name the program uses", () => {
    const { text } = augment('[fs.neverReadUnder("/secrets")]', ["filesystem.readOnly()"], "// __clauz3_policy0 is mine\n");
    expect(text).toContain("__clauz3_policy_0.readOnly()");
    expect(text).toContain('import * as __clauz3_policy_0 from "./tools/filesystem/trusted/contracts";');
  });

  it("a program without a guarantees array cannot take clauses", () => {
    const project = testProject({ "plan.ts": `${HEAD}${MAIN}` });
    expect(() => augmentProgram(ts, project.program, project.file, project.layer, calls(project, ["filesystem.readOnly()"]), project.system)).toThrow(AugmentError);
  });
});

describe("reading the verdict of the program with clauses", () => {
  const file = "/project/plan.ts";
  const regions: [number, number][] = [[100, 120], [122, 140]];
  const call = (c: string): ResolvedCall => ({ text: c, call: c, qualifiedName: c, contractName: c, contractFile: "/c.ts", args: [] });
  const result = (verdict: ProofResult["verdict"], start: number, kind: ProofResult["kind"] = "guarantee"): ProofResult => ({ kind, verdict, message: `${verdict} here`, code: 1, location: { fileName: file, start, length: 1, line: 4, column: 1 }, ...(kind === "guarantee" ? { guarantee: { fileName: file, start, length: 1, line: 4, column: 1 } } : {}) });
  const verdictOf = (verdict: ProgramVerdict["verdict"], results: ProofResult[], provisional?: string): ProgramVerdict => ({ file, verdict, results, ...(provisional ? { provisional } : {}) });
  const both = [call("lib.a()"), call("lib.b()")];

  it("proved is entailed; a provisional answer is not", () => {
    expect(entailmentOf(verdictOf("proved", [result("proved", 105)]), both, file, regions)).toEqual({ status: "entailed", detail: null });
    expect(entailmentOf(verdictOf("proved", [], "the wall clock"), both, file, regions).status).toBe("unknown");
  });

  it("a violation names the clause, or the program's own result; a violation outweighs a refusal", () => {
    expect(entailmentOf(verdictOf("violated", [result("refused", 101), result("violated", 130)]), both, file, regions)).toEqual({ status: "not_entailed", detail: "`lib.b()` is violated: violated here" });
    expect(entailmentOf(verdictOf("violated", [result("violated", 40)]), both, file, regions).detail).toBe("the program's own guarantee at plan.ts:4:1 is violated: violated here");
    expect(entailmentOf(verdictOf("violated", [result("violated", 110, "precondition")]), both, file, regions).detail).toMatch(/^the program's own precondition/);
  });

  it("a refusal is unknown", () => {
    expect(entailmentOf(verdictOf("refused", [result("proved", 40), result("refused", 101)]), both, file, regions)).toEqual({ status: "unknown", detail: "`lib.a()` could not be proved: refused here" });
  });
});
