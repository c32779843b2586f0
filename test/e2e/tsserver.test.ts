/**
 * End to end: a real tsserver process (`typescript/lib/tsserver.js`) with
 * `{ "name": "clauz3/language-service" }` in `compilerOptions.plugins`, the plugin found by package
 * name through `--pluginProbeLocations`, driven over its JSON protocol (`updateOpen`, `geterr`,
 * `quickinfo`). Proofs finish in the background, so diagnostics are polled (bounded, but no
 * assertion on elapsed time).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { lockProject } from "../../fixtures/projects/project.mjs";
import { ensureBuilt, FS_HEADER, locate, makeProject, ours, removeProject, ROOT, Tsserver, type DiagnosticsView as View, type ProtocolDiagnostic as Diag } from "../language-service/tsserver-client.mjs";

const VIOLATED = FS_HEADER + `export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  if (path !== "") readFile(path);
}
`;
const PROVED = FS_HEADER + `export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  if (path !== "" && !path.startsWith("/secrets")) readFile(path);
}
`;
const BUDGET = { budgetMs: 90_000 };


const made: string[] = [];
const servers: Tsserver[] = [];
function project(options: Parameters<typeof makeProject>[0]): string {
  const dir = makeProject(options);
  made.push(dir);
  return dir;
}
function server(dir: string, options?: ConstructorParameters<typeof Tsserver>[1]): Tsserver {
  const s = new Tsserver(dir, options);
  servers.push(s);
  return s;
}
const errorsOf = (v: View): Diag[] => ours(v.semantic);
const provedOf = (v: View): Diag[] => ours(v.suggestion).filter((d) => d.text.startsWith("proved: "));

beforeAll(() => ensureBuilt());
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  made.forEach(removeProject);
});

describe("an agent program in tsserver", () => {
  let dir: string;
  let s: Tsserver;
  beforeAll(async () => {
    dir = project({ files: { "plan.ts": VIOLATED, "tools/notes.ts": "export const x = 1;\n" } });
    s = server(dir);
    await s.configure();
    await s.open("plan.ts");
  });

  it("gets an error on the call that breaks the guarantee, with the counterexample and the guarantee", async () => {
    const v: View = await s.pollDiagnostics("plan.ts", (x: View) => errorsOf(x).length > 0, BUDGET);
    const errors = errorsOf(v);
    expect(errors).toHaveLength(1);
    const e = errors[0]!;
    const call = locate(VIOLATED, "readFile(path)");
    expect(e).toMatchObject({ code: 93101, category: "error", source: "clauz3", start: call, end: { line: call.line, offset: call.offset + "readFile(path)".length } });
    expect(e.text).toContain('filesystem.neverReadUnder(prefix="/secrets") is violated (No filesystem tool reads a path starting with "/secrets".)');
    expect(e.text).toMatch(/Counterexample: main\(path="\/secrets[^"]*"\) reaches the call at plan\.ts:5:20, performing Read\(path="\/secrets[^"]*"\)/);
    expect(e.relatedInformation).toEqual([
      {
        span: { start: locate(VIOLATED, "fs.neverReadUnder"), end: expect.anything(), file: path.join(dir, "plan.ts") },
        message: 'guarantee filesystem.neverReadUnder(prefix="/secrets"): No filesystem tool reads a path starting with "/secrets".',
        category: "message",
        code: 93101,
      },
    ]);
    expect(provedOf(v)).toEqual([]);
  });

  it("shows the contract's sentence, qualified call, symbol and verdict on hover", async () => {
    const at = locate(VIOLATED, "neverReadUnder(");
    const info = await s.quickinfo("plan.ts", at.line, at.offset + 2);
    expect(info.displayString).toBe("const neverReadUnder: (prefix: string) => Guarantee");
    expect(info.documentation).toContain('**clauz3 guarantee** `filesystem.neverReadUnder(prefix="/secrets")`');
    expect(info.documentation).toContain('No filesystem tool reads a path starting with "/secrets".');
    expect(info.documentation).toContain("Symbol: `tools/filesystem/trusted/contracts#neverReadUnder`");
    expect(info.documentation).toContain('Verdict: violated: filesystem.neverReadUnder(prefix="/secrets") is violated');
    // TypeScript's own documentation (the contract's JSDoc) follows.
    expect(info.documentation).toContain("No read path starts with prefix (a literal text prefix).");
  });

  it("clears the error after an edit that fixes the program, and shows the guarantee proved", async () => {
    await s.replace("plan.ts", VIOLATED, PROVED);
    const v: View = await s.pollDiagnostics("plan.ts", (x: View) => provedOf(x).length > 0, BUDGET);
    expect(errorsOf(v)).toEqual([]);
    const entry = locate(PROVED, "fs.neverReadUnder");
    expect(provedOf(v)).toEqual([
      expect.objectContaining({ start: entry, code: 93100, category: "suggestion", source: "clauz3", text: 'proved: No filesystem tool reads a path starting with "/secrets".' }),
    ]);
    const at = locate(PROVED, "neverReadUnder(");
    expect((await s.quickinfo("plan.ts", at.line, at.offset)).documentation).toContain("Verdict: proved");
  });

  it("re-proves the program when a trusted layer file it depends on is edited", async () => {
    const contracts = "tools/filesystem/trusted/contracts.ts";
    const before = fs.readFileSync(path.join(dir, contracts), "utf8");
    const after = before.replace("Read.all((e) => !e.path.startsWith(prefix)),", 'Read.all((e) => !e.path.startsWith(prefix) && e.path !== "/tmp/x"),');
    expect(after).not.toBe(before);
    await s.open(contracts, before);
    // The operator saves the change and pins it after review (`clauz3 lock`): an unpinned layer
    // file would refuse the program instead (test/lock/tsserver.test.ts).
    fs.writeFileSync(path.join(dir, contracts), after);
    lockProject(dir);
    await s.replace(contracts, before, after);
    const v: View = await s.pollDiagnostics("plan.ts", (x: View) => errorsOf(x).length > 0, BUDGET);
    expect(errorsOf(v)).toEqual([expect.objectContaining({ code: 93101, start: locate(PROVED, "readFile(path)") })]);
    expect(errorsOf(v)[0]!.text).toContain('main(path="/tmp/x")');
    expect(provedOf(v)).toEqual([]);
    // Undo (pinned again): the earlier verdict of this exact content comes back.
    fs.writeFileSync(path.join(dir, contracts), before);
    lockProject(dir);
    await s.replace(contracts, after, before);
    const back: View = await s.pollDiagnostics("plan.ts", (x: View) => provedOf(x).length > 0, BUDGET);
    expect(errorsOf(back)).toEqual([]);
  });

  it("leaves files without clauz3 alone", async () => {
    await s.open("tools/notes.ts");
    const r = await s.geterr(["tools/notes.ts"]);
    const file = path.join(dir, "tools/notes.ts");
    expect(r.semantic.get(file)).toEqual([]);
    expect(r.suggestion.get(file)).toEqual([]);
  });
});

describe("a program the prover refuses in tsserver", () => {
  it("shows the refusal on the refused node", async () => {
    const plan = FS_HEADER + `export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(paths: string[], n: number): void {
  let i = 0;
  while (i < n) {
    readFile(paths[0]!);
    i++;
  }
}
`;
    const dir = project({ files: { "plan.ts": plan } });
    const s = server(dir);
    await s.open("plan.ts");
    const v: View = await s.pollDiagnostics("plan.ts", (x: View) => errorsOf(x).length > 0, BUDGET);
    const errors = errorsOf(v);
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) {
      // A loop whose bound is not evident is refused on its condition (docs/control-flow.md).
      expect(e).toMatchObject({ code: 93104, category: "error", start: locate(plan, "i < n") });
      expect(e.text).toMatch(/^refused: /);
    }
    expect(provedOf(v)).toEqual([]);
  });
});

describe("a trusted layer in tsserver", () => {
  it("shows the same rule diagnostics as the transformer (tspc), at the same places", async () => {
    const source = path.join(ROOT, "fixtures/projects/broken-layer/tools");
    const files: Record<string, string> = {};
    for (const rel of fs.readdirSync(source, { recursive: true }) as string[]) {
      const full = path.join(source, rel);
      if (fs.statSync(full).isFile()) files[path.join("tools", rel)] = fs.readFileSync(full, "utf8");
    }
    const dir = project({ files, stdlib: [] });
    const s = server(dir);
    const names = Object.keys(files).sort();
    for (const f of names) await s.open(f);
    const r = await s.geterr(names);
    const found: string[] = [];
    for (const f of names) {
      for (const d of ours(r.semantic.get(path.join(dir, f)) ?? [])) found.push(`${f}(${d.start.line},${d.start.offset}): TS${d.code}`);
    }
    // The locations test/e2e/tspc.test.ts expects from `tspc` on this fixture.
    expect(found.sort()).toEqual([
      "tools/shop/trusted/contracts.ts(6,18): TS93010",
      "tools/shop/trusted/effects.ts(13,13): TS93004",
      "tools/shop/trusted/effects.ts(20,3): TS93002",
      "tools/shop/trusted/effects.ts(21,32): TS93005",
      "tools/shop/trusted/effects.ts(26,29): TS93007",
      "tools/shop/trusted/effects.ts(7,31): TS93003",
      "tools/shop/trusted/events.ts(15,15): TS93009",
    ]);
  });
});

describe("a plugin failure in tsserver", () => {
  it("leaves plain TypeScript diagnostics and quick info working, and is logged", async () => {
    const plan = VIOLATED + "export const n: number = \"not a number\";\n";
    const dir = project({ files: { "plan.ts": plan } });
    const s = server(dir, { env: { CLAUZ3_LANGUAGE_SERVICE_FAULT: "*" } });
    await s.open("plan.ts");
    const r = await s.geterr(["plan.ts"]);
    const semantic = r.semantic.get(path.join(dir, "plan.ts")) ?? [];
    expect(semantic.map((d) => [d.code, d.start.line])).toEqual([[2322, 7]]);
    expect(ours(r.suggestion.get(path.join(dir, "plan.ts")) ?? [])).toEqual([]);
    const at = locate(plan, "neverReadUnder(");
    const info = await s.quickinfo("plan.ts", at.line, at.offset);
    expect(info.displayString).toBe("const neverReadUnder: (prefix: string) => Guarantee");
    expect(info.documentation).not.toContain("clauz3 guarantee");
    const log = fs.readFileSync(s.logFile, "utf8");
    expect(log).toContain("[clauz3/language-service] enabled for");
    expect(log).toContain("[clauz3/language-service] getSemanticDiagnostics failed; TypeScript's result is shown unchanged");
  });
});
