/** The format layer's small parts, in process: tsc's closing line, colour, option choice, `-o`, inputs, help and explain. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../cli/main";
import { colourWanted } from "../../cli/format/colour";
import { chooseOutput, exitCodeOf, toolInfo } from "../../cli/format/output";
import { foundLine, type Problem, type Report } from "../../cli/format/report";
import { renderPlain } from "../../cli/format/text";
import { ALL_RULES, findRule } from "../../cli/format/rules";
import { writeAtomically } from "../../cli/format/write";
import { expandInputs } from "../../cli/inputs";
import type { Io } from "../../cli/io";
import { PROOF_CODES, RULES } from "../../core/rules";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-output-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function problem(file: string | undefined, line = 1): Problem {
  return { severity: "error", code: 93101, message: "m", diagnostic: {} as Problem["diagnostic"], ...(file ? { location: { file, line, column: 1, endLine: line, endColumn: 2 } } : {}) };
}

describe("tsc's closing line", () => {
  it.each([
    [[], undefined],
    [[problem("a.ts", 3)], "Found 1 error in a.ts:3"],
    [[problem(undefined)], "Found 1 error."],
    [[problem("a.ts", 3), problem("a.ts", 9)], "Found 2 errors in the same file, starting at: a.ts:3"],
    [[problem("a.ts", 3), problem("b.ts", 1), problem("b.ts", 2)], "Found 3 errors in 2 files."],
    [[problem(undefined), problem(undefined)], "Found 2 errors."],
  ] as const)("%j → %s", (problems, line) => {
    expect(foundLine(problems)).toBe(line);
  });

  it("counts errors only", () => {
    expect(foundLine([{ ...problem("a.ts"), severity: "warning" }])).toBeUndefined();
  });
});

describe("exit codes from a report", () => {
  const file = ts.createSourceFile("a.ts", "const x = 1;\n", ts.ScriptTarget.ES2022);
  const diagnostic = (category: ts.DiagnosticCategory) => ({ category, code: 93090, file, start: 6, length: 1, messageText: "m" });
  const report = (categories: ts.DiagnosticCategory[]): Report => ({ command: "check", ts, cwd: "/", findings: categories.map(diagnostic), verdicts: [], proofs: [] });

  it("warnings alone exit 0 unless --max-warnings is exceeded; an error exits 1", () => {
    const warned = report([ts.DiagnosticCategory.Warning, ts.DiagnosticCategory.Warning]);
    expect(exitCodeOf(warned, undefined)).toBe(0);
    expect(exitCodeOf(warned, 2)).toBe(0);
    expect(exitCodeOf(warned, 1)).toBe(1);
    expect(exitCodeOf(report([ts.DiagnosticCategory.Error]), undefined)).toBe(1);
    // Suggestions and messages are not problems.
    expect(exitCodeOf(report([ts.DiagnosticCategory.Suggestion, ts.DiagnosticCategory.Message]), 0)).toBe(0);
  });

  it("a message's later lines are indented, so no line of it reads as a problem", () => {
    const d = { ...diagnostic(ts.DiagnosticCategory.Error), messageText: "violated.\nb.ts(1,1): error TS1: not a problem\n  already indented" };
    const text = renderPlain({ ...report([]), findings: [d] }).stdout;
    expect(text.split("\n").slice(0, 3)).toEqual(["a.ts(1,7): error TS93090: violated.", "  b.ts(1,1): error TS1: not a problem", "  already indented"]);
  });

  it("a warning is a plain `warning TS…` line the $tsc pattern reads", () => {
    const text = renderPlain(report([ts.DiagnosticCategory.Warning])).stdout;
    expect(text.split("\n")[0]).toBe("a.ts(1,7): warning TS93090: m");
    expect(text).not.toContain("Found");
  });
});

describe("colour", () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: "1" }, true, false],
    [{ NO_COLOR: "" }, true, true],
    [{ FORCE_COLOR: "1" }, false, true],
    [{ FORCE_COLOR: "" }, false, true],
    [{ FORCE_COLOR: "0" }, true, false],
    [{ FORCE_COLOR: "false" }, true, false],
    [{ FORCE_COLOR: "1", NO_COLOR: "1" }, false, true],
  ] as const)("%j on a %s terminal → %s", (env, tty, want) => {
    expect(colourWanted(env, tty)).toBe(want);
  });
});

const io = (tty: boolean): Io => ({ cwd: scratch, stdout: () => undefined, stderr: () => undefined, stderrIsTTY: tty, stdoutIsTTY: tty });

describe("choosing the format", () => {
  it("pretty on a terminal, plain when piped, and the flags over both", () => {
    expect(chooseOutput({}, io(true)).format).toBe("pretty");
    expect(chooseOutput({}, io(false)).format).toBe("plain");
    expect(chooseOutput({ pretty: true }, io(false)).format).toBe("pretty");
    expect(chooseOutput({ pretty: false }, io(true)).format).toBe("plain");
    expect(chooseOutput({ json: true }, io(true)).format).toBe("json");
    expect(chooseOutput({ format: "sarif" }, io(true))).toEqual({ format: "sarif", console: "pretty" });
  });

  it("-o: the file gets plain unless a format is asked for; the console keeps its own", () => {
    expect(chooseOutput({ outputFile: "r.txt" }, io(true))).toEqual({ format: "plain", console: "pretty", outputFile: path.join(scratch, "r.txt") });
    expect(chooseOutput({ outputFile: "r.sarif", format: "sarif" }, io(false))).toMatchObject({ format: "sarif", console: "plain" });
  });

  it("--max-warnings takes a whole number", () => {
    expect(chooseOutput({ maxWarnings: "0" }, io(false)).maxWarnings).toBe(0);
    for (const bad of ["-1", "1.5", "x", ""]) expect(() => chooseOutput({ maxWarnings: bad }, io(false))).toThrow(/--max-warnings expects a whole number/);
  });
});

describe("the tool", () => {
  it("names its version and where its rules are documented", () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as { version: string };
    expect(toolInfo().version).toBe(pkg.version);
    expect(toolInfo().rulesUri).toMatch(/^https:\/\/[^#]+#rules-and-codes$/);
  });
});

describe("-o is written atomically", () => {
  it("replaces the file whole, and a failed write leaves nothing behind", () => {
    const target = path.join(scratch, "report.txt");
    fs.writeFileSync(target, "old");
    writeAtomically(target, "new report\n");
    expect(fs.readFileSync(target, "utf8")).toBe("new report\n");
    const blocked = path.join(scratch, "dir-in-the-way");
    fs.mkdirSync(blocked);
    expect(() => writeAtomically(blocked, "x")).toThrow(/cannot write --output-file .*dir-in-the-way/);
    expect(fs.readdirSync(scratch).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});

describe("files, directories and globs", () => {
  it("expands each to TypeScript sources, leaving out node_modules and declarations", () => {
    const root = path.join(scratch, "inputs");
    for (const f of ["plans/a.ts", "plans/deep/b.ts", "plans/c.d.ts", "plans/node_modules/x.ts", "plans/notes.md", "one.ts"]) {
      fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
      fs.writeFileSync(path.join(root, f), "");
    }
    const rel = (args: string[]) => expandInputs(root, args).map((i) => [path.relative(root, i.file), i.explicit]);
    expect(rel(["plans"])).toEqual([["plans/a.ts", false], ["plans/deep/b.ts", false]]);
    expect(rel(["plans/**/*.ts"])).toEqual([["plans/a.ts", false], ["plans/deep/b.ts", false]]);
    expect(rel(["plans/*.ts", "one.ts", "plans/a.ts"])).toEqual([["plans/a.ts", false], ["one.ts", true]]);
    expect(() => expandInputs(root, ["plans/*.js"])).toThrow(/plans\/\*\.js matches no TypeScript source file/);
    expect(() => expandInputs(root, ["nope.ts"])).toThrow(/nope\.ts does not exist/);
  });
});

async function cli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await main(args, { cwd: scratch, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stderrIsTTY: false });
  return { status, stdout, stderr };
}

describe("--help", () => {
  it.each(["prove", "check", "describe", "lock", "libraries", "catalog", "explain"])("%s shows examples and the exit codes", async (command) => {
    const r = await cli([command, "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Examples:\n  $ clauz3 ");
    expect(r.stdout).toContain("Exit codes:\n  0  nothing wrong");
    expect(r.stdout).toContain("  2  usage or configuration");
  });

  it("clauz3 --help shows the exit codes", async () => {
    const r = await cli(["--help"]);
    expect(r.stdout).toContain("Exit codes:");
    expect(r.stdout).toContain("explain");
  });
});

describe("clauz3 explain", () => {
  it("prints a rule's documentation and examples from the rule table, by TS code, number or id", async () => {
    const a = await cli(["explain", "TS93003"]);
    expect(a.status).toBe(0);
    expect(a.stdout).toContain(`TS93003 event-field-argument\n\n${RULES.eventFieldArgument.doc}`);
    expect(a.stdout).toContain("Invalid (tools/demo/trusted/layer.ts, ⟦…⟧ marks where it is reported):");
    expect(a.stdout).toContain(`new Read(⟦"/etc/app.conf"⟧)`);
    expect((await cli(["explain", "93003"])).stdout).toBe(a.stdout);
    expect((await cli(["explain", "event-field-argument"])).stdout).toBe(a.stdout);
  });

  it("explains proof codes too", async () => {
    const r = await cli(["explain", "93101"]);
    expect(r.stdout).toContain("TS93101 violated");
    expect(r.stdout).toContain("⟦readFile(path)⟧");
  });

  it("lists every code without one, and an unknown code is a usage error", async () => {
    const list = await cli(["explain"]);
    expect(list.stdout.trim().split("\n")).toHaveLength(ALL_RULES.length);
    const bad = await cli(["explain", "TS2322"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("TS2322 is not a clauz3 code");
  });

  it("every rule and proof code has documentation", () => {
    for (const r of Object.values(RULES)) expect(findRule(String(r.code))?.doc).toBe(r.doc);
    for (const code of Object.values(PROOF_CODES)) expect(findRule(`TS${code}`)?.doc.length).toBeGreaterThan(20);
  });
});
