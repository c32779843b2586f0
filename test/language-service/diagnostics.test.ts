/**
 * The language service's diagnostic mapping, in memory (`@typescript/vfs`): proof results and
 * rule findings → `ts.Diagnostic`s on the right nodes, with the right categories and codes.
 */
import ts from "typescript";
import { toDiagnostic } from "../../core/context";
import { readLayer } from "../../core/layer/read";
import type { ProgramVerdict } from "../../core/prover/api";
import { PROOF_CODES, RULES } from "../../core/rules";
import { proofDiagnostics } from "../../core/prover/diagnostics";
import { harness, HEADER, PROJECT, shown, stdlibFiles } from "./vfs";

const VIOLATED = HEADER + `export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  if (path !== "") readFile(path);
}
`;
const PROVED = HEADER + `export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  if (path !== "" && !path.startsWith("/secrets")) readFile(path);
}
`;

describe("an agent program", () => {
  it("shows a violated guarantee as an error on the breaking call, with the counterexample and the guarantee", async () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": VIOLATED });
    const diags = await h.settledSemantic("plan.ts");
    const ours = shown(diags);
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatchObject({ line: 5, code: PROOF_CODES.violated, span: "readFile(path)", category: "Error" });
    expect(ours[0]!.message).toContain("filesystem.neverReadUnder(prefix=\"/secrets\") is violated");
    expect(ours[0]!.message).toMatch(/Counterexample: main\(path="\/secrets[^"]*"\)/);
    const d = diags.find((x) => x.source === "clauz3")!;
    expect(d.relatedInformation).toHaveLength(1);
    const rel = d.relatedInformation![0]!;
    expect(rel.file!.text.slice(rel.start!, rel.start! + rel.length!)).toBe('fs.neverReadUnder("/secrets")');
    expect(ts.flattenDiagnosticMessageText(rel.messageText, "\n")).toBe('guarantee filesystem.neverReadUnder(prefix="/secrets"): No filesystem tool reads a path starting with "/secrets".');
    // Nothing is proved, so there is no "proved" suggestion.
    expect(shown(await h.settledSuggestions("plan.ts"))).toEqual([]);
    expect(h.errors).toEqual([]);
  });

  it("shows a proved guarantee as a suggestion on its entry, and no error", async () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": PROVED });
    expect(shown(await h.settledSemantic("plan.ts"))).toEqual([]);
    expect(shown(await h.settledSuggestions("plan.ts"))).toEqual([
      { line: 3, code: PROOF_CODES.proved, span: 'fs.neverReadUnder("/secrets")', category: "Suggestion", message: 'proved: No filesystem tool reads a path starting with "/secrets".' },
    ]);
  });

  it("shows a failed precondition as an error on the call", async () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": HEADER + `export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  if (!path.startsWith("/secrets")) readFile(path);
}
` });
    const ours = shown(await h.settledSemantic("plan.ts"));
    expect(ours).toEqual([expect.objectContaining({ line: 5, code: PROOF_CODES.precondition, span: "readFile(path)", category: "Error" })]);
    expect(ours[0]!.message).toContain('precondition "readFile needs a non-empty path"');
    expect(ours[0]!.message).toContain('main(path="")');
  });

  it("shows a refused construct as an error on its node, saying what to write instead", async () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": HEADER + `export const guarantees = [fs.writesAtMost(3)];
export function main(n: number): void {
  let i = 0;
  while (i < n) {
    writeFile("/tmp/x", "y");
    i++;
  }
}
` });
    const ours = shown(await h.settledSemantic("plan.ts"));
    expect(ours.length).toBeGreaterThan(0);
    for (const d of ours) {
      expect(d.code).toBe(PROOF_CODES.refused);
      expect(d.line).toBe(6);
      // A loop whose bound is not evident is refused on its condition (docs/control-flow.md).
      expect(d.span).toBe("i < n");
      expect(d.message).toMatch(/^refused: /);
    }
    expect(shown(await h.settledSuggestions("plan.ts"))).toEqual([]);
  });

  it("shows a declaration in agent source once: the rule's diagnostic, from the same engine as the transformer", async () => {
    const plan = `import { performs } from "clauz3/events";
import { readFile } from "./tools/filesystem/trusted/effects";
import { Read } from "./tools/filesystem/trusted/events";
import * as fs from "./tools/filesystem/trusted/contracts";
export const guarantees = [fs.noReads()];
export const sneaky = performs((path: string) => new Read(path));
export function main(path: string): void {}
`;
    const h = harness({ ...stdlibFiles(), "plan.ts": plan });
    const diags = await h.settledSemantic("plan.ts");
    const program = h.env.languageService.getProgram()!;
    const expected = readLayer(ts, program).findings.filter((f) => f.file.fileName === `${PROJECT}/plan.ts`).map((f) => toDiagnostic(ts, f));
    expect(expected.length).toBeGreaterThan(0);
    const rule = diags.filter((d) => d.code === RULES.agentDeclaration.code);
    expect(rule.map((d) => [d.start, d.length, d.messageText])).toEqual(expected.map((d) => [d.start, d.length, d.messageText]));
    expect(shown(rule)[0]).toMatchObject({ line: 6, span: "performs" });
  });

  it("puts a result located in another file on the guarantee entry, pointing at that location", () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": PROVED });
    const program = h.env.languageService.getProgram()!;
    const file = program.getSourceFile(`${PROJECT}/plan.ts`)!;
    const contracts = program.getSourceFile(`${PROJECT}/tools/filesystem/trusted/contracts.ts`)!;
    const inContract = contracts.text.indexOf("Read.all(");
    const gStart = file.text.indexOf("fs.neverReadUnder");
    const line = contracts.getLineAndCharacterOfPosition(inContract).line + 1;
    const verdict: ProgramVerdict = {
      file: file.fileName,
      verdict: "refused",
      results: [
        {
          kind: "guarantee",
          verdict: "refused",
          contract: 'filesystem.neverReadUnder(prefix="/secrets")',
          sentence: "No filesystem tool reads a path starting with \"/secrets\".",
          message: "refused: this construct is outside the subset. Write it differently.",
          location: { fileName: contracts.fileName, start: inContract, length: 8, line, column: 7 },
          guarantee: { fileName: file.fileName, start: gStart, length: 'fs.neverReadUnder("/secrets")'.length, line: 3, column: 28 },
          code: PROOF_CODES.refused,
        },
      ],
    };
    const { errors, suggestions } = proofDiagnostics(ts, program, file, verdict);
    expect(suggestions).toEqual([]);
    expect(errors).toHaveLength(1);
    const d = errors[0]!;
    expect(d.file === file).toBe(true);
    expect(file.text.slice(d.start!, d.start! + d.length!)).toBe('fs.neverReadUnder("/secrets")');
    expect(d.messageText).toBe(`refused: this construct is outside the subset. Write it differently. (at tools/filesystem/trusted/contracts.ts:${line}:7)`);
    expect(d.relatedInformation).toHaveLength(1);
    const rel = d.relatedInformation![0]!;
    expect(rel.file === contracts).toBe(true);
    expect([rel.start, rel.length, rel.messageText]).toEqual([inContract, 8, "refused here"]);
  });
});

describe("a trusted layer", () => {
  it("shows the same rule diagnostics as the transformer, from readLayer", async () => {
    const effects = `import { trusted } from "clauz3";
import { performs } from "clauz3/events";
import { Read } from "./events";
export const peek = trusted(
  performs((path: string) => new Read("/etc/passwd")),
  function peek(path: string): string { return path; },
);
`;
    const h = harness({ ...stdlibFiles(), "tools/filesystem/trusted/extra.ts": effects });
    const diags = h.ls.getSemanticDiagnostics(h.at("tools/filesystem/trusted/extra.ts"));
    const program = h.env.languageService.getProgram()!;
    const expected = readLayer(ts, program).findings.filter((f) => f.file.fileName.endsWith("/extra.ts")).map((f) => toDiagnostic(ts, f));
    expect(expected.length).toBeGreaterThan(0);
    const ours = diags.filter((d) => d.source === "clauz3");
    expect(ours.map((d) => [d.code, d.start, d.length, d.messageText, d.category])).toEqual(expected.map((d) => [d.code, d.start, d.length, d.messageText, d.category]));
    // A trusted file is not an agent program: nothing is proved there.
    expect(h.scheduler.started).toBe(0);
  });
});

describe("plain TypeScript", () => {
  it("keeps TypeScript's own diagnostics next to clauz3's", async () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": VIOLATED.replace("readFile(path);", "readFile(path); const n: number = \"x\";") });
    const diags = await h.settledSemantic("plan.ts");
    expect(diags.filter((d) => d.source !== "clauz3").map((d) => d.code)).toEqual([2322]);
    expect(diags.filter((d) => d.source === "clauz3").length).toBeGreaterThan(0);
  });

  it("changes nothing in files without clauz3", () => {
    const h = harness({ ...stdlibFiles(), "src/util.ts": "export const twice = (n: number): number => n * 2;\nconst s: string = 1;\n" });
    const file = h.at("src/util.ts");
    expect(h.ls.getSemanticDiagnostics(file)).toEqual(h.env.languageService.getSemanticDiagnostics(file));
    expect(h.ls.getSuggestionDiagnostics(file)).toEqual(h.env.languageService.getSuggestionDiagnostics(file));
    expect(h.scheduler.started).toBe(0);
  });
});
