import * as path from "node:path";
import ts from "typescript";
import { readLayer } from "../../core/layer/read";
import { RULES } from "../../core/rules";

const FIXTURES = path.resolve(__dirname, "../../fixtures");

/** The fixtures project as configured by fixtures/tsconfig.json (layers, programs and stdlib). */
function fixturesProgram(): ts.Program {
  const configPath = path.join(FIXTURES, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, "\n"));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, FIXTURES);
  const host = ts.createCompilerHost(parsed.options);
  // The project directory is the repository root, as for a user's project holding the fixtures.
  host.getCurrentDirectory = () => path.resolve(FIXTURES, "..");
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host });
}

describe("fixture layers", () => {
  const program = fixturesProgram();
  const result = readLayer(ts, program);
  const rel = (f: string) => path.relative(FIXTURES, f).replace(/\\/g, "/");
  const show = (f: (typeof result.findings)[number]) =>
    `${rel(f.file.fileName)}:${f.file.getLineAndCharacterOfPosition(f.start).line + 1} TS${RULES[f.rule].code} ${f.message}`;

  it("type-check", () => {
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => (d.file ? `${rel(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start!).line + 1}: ` : "") + ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(errors).toEqual([]);
  });

  it("break no trusted-layer rule", () => {
    const trustedFindings = result.findings.filter((f) => result.isTrusted(f.file));
    expect(trustedFindings.map(show)).toEqual([]);
  });

  it("declare tools, events and contracts of every fixture domain", () => {
    const domains = new Set([...result.model.tools.values()].map((t) => t.domain));
    for (const d of ["email", "bank", "http", "text", "archive", "filesystem"]) expect(domains).toContain(d);
    for (const c of result.model.contracts.values()) {
      expect(c.summary, `${c.qualifiedName} has a JSDoc summary`).toBeTruthy();
      expect(c.template, `${c.qualifiedName} has a description template`).toBeDefined();
    }
    for (const t of result.model.tools.values()) expect(t.summary, `${t.qualifiedName} has a JSDoc summary`).toBeTruthy();
  });

  it("report agent-source declarations only in the programs that are refused for them", () => {
    // Only fixture files: runtime/*.ts, reached through `paths` rather than node_modules, is not
    // an agent program (core reads it as agent source; that is not what this test is about).
    const agentFindings = result.findings.filter((f) => !result.isTrusted(f.file) && !rel(f.file.fileName).startsWith("../"));
    expect(agentFindings.every((f) => f.rule === "agentDeclaration")).toBe(true);
    const files = new Set(agentFindings.map((f) => rel(f.file.fileName)));
    for (const f of files) expect(f).toMatch(/^programs\/refused\/declares_/);
  });
});
