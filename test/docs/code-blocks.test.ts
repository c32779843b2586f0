/**
 * Every ```ts block of README.md and docs/*.md compiles, and every block marked as an agent program
 * gets the verdict the page claims (docs/writing-docs.md holds the convention):
 *
 *   ```ts                                  compiled
 *   ```ts file=tools/mail/trusted/effects.ts   compiled at that path (other blocks may import it)
 *   ```ts agent proved file=digest.ts      compiled, and proved (`violated`, `refused` likewise)
 *   ```ts excerpt                          a piece of a larger file: parsed (an `…` standing
 *                                          for elided code counts as a comment), not compiled
 *
 * The blocks of one page are compiled together in one in-memory project holding the clauz3
 * package and stdlib:filesystem at tools/filesystem/; a block without `file=` is
 * `doc-block-<n>.ts` at the project root, made a module when it has no import or export.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { proveProgram } from "../../core/prover/prove";
import { createProgram, PROJECT, stdlibFiles, typeErrors } from "../helpers/program";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

const ROOT = path.resolve(__dirname, "../..");

interface Block {
  readonly page: string;
  readonly line: number;
  readonly info: string;
  readonly code: string;
  readonly file: string;
  readonly agent: string | undefined;
  readonly excerpt: boolean;
}

const VERDICTS = new Set(["proved", "violated", "refused"]);

/** The ```ts blocks of a page, with the info string read by the convention above. */
export function tsBlocks(page: string): Block[] {
  const text = fs.readFileSync(path.join(ROOT, page), "utf8");
  const out: Block[] = [];
  const fence = /^```(ts|typescript)(?:[ \t]+([^\n]*))?\n([\s\S]*?)^```[ \t]*$/gm;
  for (const m of text.matchAll(fence)) {
    const words = (m[2] ?? "").trim().split(/\s+/).filter(Boolean);
    const line = text.slice(0, m.index).split("\n").length;
    let file: string | undefined;
    let agent: string | undefined;
    let excerpt = false;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (w.startsWith("file=")) file = w.slice(5);
      else if (w === "agent" && VERDICTS.has(words[i + 1] ?? "")) agent = words[++i];
      else if (w === "excerpt") excerpt = true;
      else throw new Error(`${page}:${line}: unknown word "${w}" in the info string \`${m[0].split("\n")[0]}\` (docs/writing-docs.md)`);
    }
    out.push({ page, line, info: words.join(" "), code: m[3]!, file: file ?? `doc-block-${line}.ts`, agent, excerpt });
  }
  return out;
}

function pages(): string[] {
  return ["README.md", ...fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
}

const isModule = (code: string): boolean => /^\s*(import|export)\s/m.test(code);

describe.each(pages().filter((p) => tsBlocks(p).length > 0))("%s", (page) => {
  const blocks = tsBlocks(page);

  it("parses every excerpt", () => {
    for (const b of blocks.filter((x) => x.excerpt)) {
      const sf = ts.createSourceFile(b.file, b.code.replace(/(?<!\/\* ?)…/g, "/* … */"), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
      const errors = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      expect(errors, `${page}:${b.line}`).toEqual([]);
    }
  });

  it("compiles every block, and proves each agent program as the page claims", async () => {
    const compiled = blocks.filter((b) => !b.excerpt);
    if (compiled.length === 0) return;
    const files: Record<string, string> = { ...stdlibFiles() };
    for (const b of compiled) {
      expect(files[b.file], `${page}:${b.line}: two blocks at ${b.file}`).toBeUndefined();
      files[b.file] = isModule(b.code) ? b.code : `${b.code}\nexport {};\n`;
    }
    const program = createProgram(files);
    const errors = typeErrors(program).filter((e) => compiled.some((b) => e.startsWith(`${b.file}:`)));
    expect(errors, compiled.map((b) => `${b.file} is ${page}:${b.line}`).join("; ")).toEqual([]);
    for (const b of compiled.filter((x) => x.agent)) {
      const v = await proveProgram({ ts, program, file: program.getSourceFile(`${PROJECT}/${b.file}`)! });
      expect(v.verdict, `${page}:${b.line}: ${v.results.filter((r) => r.verdict !== "proved").map((r) => r.message).join(" | ")}`).toBe(b.agent);
    }
  });
});
