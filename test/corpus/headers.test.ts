import * as fs from "node:fs";
import * as path from "node:path";
import { expectedVerdict, loadCorpus, MalformedHeaderError, parseExpectations, type CorpusProgram } from "../helpers/expectations";

const PROGRAMS = path.resolve(__dirname, "../../fixtures/programs");
const corpus = loadCorpus(PROGRAMS);
const DOMAINS = ["email", "bank", "http", "text", "filesystem", "archive"];

const lineOf = (p: CorpusProgram, line: number): string => fs.readFileSync(p.file, "utf8").split(/\r?\n/)[line - 1]!.trim();

describe("corpus headers", () => {
  it.each(corpus.map((p) => [p.relative, p] as const))("%s is an agent program whose expectations point at real code", (_name, p) => {
    const text = fs.readFileSync(p.file, "utf8");
    // `let`, export clauses, `export *` and default exports: the program-shape adversarial programs
    // (docs/agent-programs.md), which the prover refuses or reads through the export.
    expect(text).toMatch(/^export (const|let) guarantees = \[/m);
    expect(text).toMatch(/^export ((async )?function main\(|(const|let) main = |\{[^}]*\bas main \}|\* from |default function)/m);
    const guaranteesText = /^export const guarantees = \[[\s\S]*?\];$/m.exec(text)?.[0] ?? "";
    for (const e of p.expectations) {
      if (e.verdict === "proved") continue;
      const source = lineOf(p, e.line);
      expect(source, `${p.relative}:${e.line} is code`).not.toMatch(/^(\/\/.*)?$/);
      if (e.verdict === "violated") {
        expect(guaranteesText, `${p.relative} guarantees name ${e.contract}`).toContain(`.${e.contract}(`);
        expect(source, `${p.relative}:${e.line} is a call or the guarantee entry`).toMatch(/\(/);
      }
      if (e.verdict === "precondition") expect(source, `${p.relative}:${e.line} calls ${e.tool}`).toMatch(new RegExp(`\\b${e.tool}\\(`));
      // A throw is a `throw` statement, a built-in that throws (`encodeURIComponent`), or a use of a value that may be undefined (the header's first line says so).
      if (e.verdict === "throw" && !/\bthrow\b|\bencodeURIComponent\(/.test(source)) expect(text.split(/\r?\n/)[0], `${p.relative}:${e.line} throws`).toMatch(/\bundefined\b/);
    }
  });

  it("meets the corpus minimums", () => {
    const bySuite = (s: string) => corpus.filter((p) => p.suite === s);
    const passFail = corpus.filter((p) => DOMAINS.includes(p.suite));
    const adversarial = bySuite("adversarial").filter((p) => !path.basename(p.file).startsWith("control_"));
    const controls = bySuite("adversarial").filter((p) => path.basename(p.file).startsWith("control_"));
    expect(corpus.length).toBeGreaterThanOrEqual(100);
    expect(passFail.length).toBeGreaterThanOrEqual(60);
    expect(passFail.filter((p) => expectedVerdict(p.expectations) === "proved").length).toBeGreaterThanOrEqual(25);
    expect(passFail.filter((p) => expectedVerdict(p.expectations) === "violated").length).toBeGreaterThanOrEqual(25);
    expect(bySuite("refused").length).toBeGreaterThanOrEqual(20);
    expect(bySuite("refused").every((p) => expectedVerdict(p.expectations) === "refused")).toBe(true);
    expect(adversarial.length).toBeGreaterThanOrEqual(20);
    expect(controls.length).toBeGreaterThanOrEqual(8);
    for (const d of ["email", "bank", "http", "text", "filesystem"]) expect(bySuite(d).length, d).toBeGreaterThan(0);
  });

  it("holds the async corpus of issue 10: at least 150 programs over async layers, about half proved and half violated (pending ones included)", () => {
    const files = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : []));
    const verdicts = ["ops", "net", "files-async"].flatMap((d) => files(path.join(PROGRAMS, d))).map((f) => expectedVerdict(parseExpectations(fs.readFileSync(f, "utf8"), f)));
    expect(verdicts.length).toBeGreaterThanOrEqual(150);
    expect(verdicts.filter((v) => v === "proved").length).toBeGreaterThanOrEqual(70);
    expect(verdicts.filter((v) => v === "violated").length).toBeGreaterThanOrEqual(70);
  });

  it("never expects an adversarial program to be proved, and always expects a control to be", () => {
    for (const p of corpus.filter((x) => x.suite === "adversarial")) {
      const control = path.basename(p.file).startsWith("control_");
      expect(expectedVerdict(p.expectations) === "proved", p.relative).toBe(control);
    }
  });

  it("covers every kind of expectation", () => {
    const kinds = new Set(corpus.flatMap((p) => p.expectations.map((e) => e.verdict)));
    expect([...kinds].sort()).toEqual(["precondition", "proved", "refused", "throw", "violated"]);
  });
});

describe("parseExpectations", () => {
  const ok = (header: string) => parseExpectations(`${header}\nexport function main(): void {}\n`);
  const bad = (text: string) => expect(() => parseExpectations(text)).toThrow(MalformedHeaderError);

  it("reads every form", () => {
    expect(ok("// @expect proved")).toEqual([{ verdict: "proved" }]);
    expect(ok("// text\n// @expect violated sendsAtMost line=2\n// @expect precondition transfer line=3\n// @expect throw line=1\n// @expect refused line=4")).toEqual([
      { verdict: "violated", contract: "sendsAtMost", line: 2 },
      { verdict: "precondition", tool: "transfer", line: 3 },
      { verdict: "throw", line: 1 },
      { verdict: "refused", line: 4 },
    ]);
  });

  it("refuses malformed headers", () => {
    bad("export function main(): void {}\n");
    bad("// @expect proved\n// @expect throw line=1\nx;\n");
    bad("// @expect violated line=1\nx;\n");
    bad("// @expect violated a b line=1\nx;\n");
    bad("// @expect precondition transfer\nx;\n");
    bad("// @expect throw line=0\nx;\n");
    bad("// @expect throw line=99\nx;\n");
    bad("// @expect refused line=1\n// @expect refused line=1\nx;\n");
    bad("// @expect sometimes\nx;\n");
    bad("//@expect proved\nx;\n");
    bad("x;\n// @expect proved\n");
  });
});
