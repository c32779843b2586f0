/**
 * The plugin's adapter, driven in-process the way ts-patch drives it (same call shapes), on the
 * fixture projects: things the real `tspc` runs cannot force (a failing rewrite, repeated factory
 * calls, TypeScript's cached diagnostic arrays).
 */
import * as path from "node:path";
import ts from "typescript";
import plugin from "../../plugin/index";
import { ensureBuilt, prepareProject, removeProject } from "../../fixtures/projects/project.mjs";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

const made: string[] = [];
function programOf(name: string): ts.Program {
  const dir = prepareProject(name);
  made.push(dir);
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(dir, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) throw new Error(`cannot read ${dir}/tsconfig.json`);
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
}

/** What ts-patch passes a program-type source transformer (its diagnostic list per program). */
function sourceExtras() {
  const diagnostics: ts.Diagnostic[] = [];
  return { ts, addDiagnostic: (d: ts.Diagnostic) => diagnostics.push(d), removeDiagnostic: (i: number) => void diagnostics.splice(i, 1), diagnostics, library: "typescript" };
}

const codes = (ds: readonly ts.Diagnostic[]) => ds.map((d) => d.code).sort();

beforeAll(() => ensureBuilt());
afterAll(() => made.forEach(removeProject));

describe("source-transformer form", () => {
  it("adds each finding once, however often ts-patch calls the factory for a program", () => {
    const program = programOf("broken-layer");
    const extras = sourceExtras();
    plugin(program, { transform: "clauz3/plugin" }, extras);
    plugin(program, { transform: "clauz3/plugin" }, extras); // a builder emits file by file
    expect(codes(extras.diagnostics)).toEqual([93002, 93003, 93004, 93005, 93007, 93009, 93010]);
    expect(extras.diagnostics.every((d) => d.source === "clauz3" && d.category === ts.DiagnosticCategory.Error)).toBe(true);
  });

  it("a rewrite that cannot find the model's tools fails the file (93090), it does not throw", () => {
    const program = programOf("good-layer");
    const extras = sourceExtras();
    // About the rewrite alone: proving (the default) runs the built worker, which test/e2e/tspc*.test.ts covers.
    const factory = plugin(program, { transform: "clauz3/plugin", prove: false }, extras);
    expect(extras.diagnostics).toEqual([]);
    const file = program.getSourceFiles().find((f) => f.fileName.endsWith("tools/email/trusted/effects.ts"))!;
    // Same file name, other nodes: none of the model's trusted(...) calls is in this tree.
    const reparsed = ts.createSourceFile(file.fileName, file.text, ts.ScriptTarget.ES2022, true);
    const result = ts.transform(reparsed, [factory]);
    expect(result.transformed[0]).toBe(reparsed);
    expect(extras.diagnostics).toHaveLength(1);
    const [d] = extras.diagnostics;
    expect(d!.code).toBe(93090);
    expect(d!.file).toBe(reparsed);
    expect(ts.flattenDiagnosticMessageText(d!.messageText, "\n")).toMatch(/^clauz3 could not check .*effects\.ts: injecting tool metadata failed: found 0 of the 3 trusted/);
  });

  it('refuses "after"/"afterDeclarations", which would rewrite TypeScript\'s output (93090)', () => {
    const program = programOf("good-layer");
    for (const placement of ["after", "afterDeclarations"]) {
      const extras = sourceExtras();
      plugin(program, { transform: "clauz3/plugin", [placement]: true }, extras);
      expect(extras.diagnostics.map((d) => [d.code, d.file])).toEqual([[93090, undefined]]);
      expect(String(extras.diagnostics[0]!.messageText)).toContain(`sets "${placement}". Nothing was checked. Remove "${placement}"`);
    }
  });

  it("refuses an unsupported ts-patch plugin type with a clear message", () => {
    const program = programOf("good-layer");
    const call = plugin as unknown as (...args: unknown[]) => unknown;
    expect(() => call(program.getTypeChecker(), {})).toThrow(/unsupported ts-patch plugin type.*nothing was checked/);
  });
});

describe("program-transformer form", () => {
  it("adds findings to the semantic diagnostics without touching TypeScript's cached arrays", () => {
    const program = programOf("broken-layer");
    const effects = program.getSourceFiles().find((f) => f.fileName.endsWith("tools/shop/trusted/effects.ts"))!;
    const own = program.getSemanticDiagnostics(effects);
    const ownCopy = [...own];
    const same = plugin(program, undefined, { transform: "clauz3/plugin", transformProgram: true }, { ts });
    expect(same).toBe(program);
    const first = program.getSemanticDiagnostics(effects);
    const second = program.getSemanticDiagnostics(effects);
    expect(codes(first)).toEqual([93002, 93003, 93004, 93005, 93007]);
    expect(second).toEqual(first);
    expect(own).toEqual(ownCopy); // TypeScript's cached array is unchanged
    expect(codes(program.getSemanticDiagnostics())).toEqual([93002, 93003, 93004, 93005, 93007, 93009, 93010]);
    const internal = program as ts.Program & { getProgramDiagnostics(f: ts.SourceFile): readonly ts.Diagnostic[] };
    expect(codes(internal.getProgramDiagnostics(effects))).toEqual([93002, 93003, 93004, 93005, 93007]);
    expect(program.getGlobalDiagnostics()).toEqual([]);
  });

  it("injects the metadata in every emit, next to the caller's transformers", () => {
    const program = programOf("good-layer");
    plugin(program, undefined, { transform: "clauz3/plugin", transformProgram: true, prove: false }, { ts });
    expect(program.getSemanticDiagnostics()).toEqual([]);
    const written = new Map<string, string>();
    let callerRan = 0;
    const caller: ts.TransformerFactory<ts.SourceFile> = () => (sf) => (callerRan++, sf);
    const result = program.emit(undefined, (name, text) => written.set(name, text), undefined, false, { before: [caller] });
    expect(result.diagnostics).toEqual([]);
    expect(callerRan).toBeGreaterThan(0);
    const js = [...written].find(([name]) => name.endsWith("out/tools/calendar/trusted/effects.js"))![1];
    expect(js).toContain(
      '(0, clauz3_1.trusted)({ __clauz3_metadata: { tool: "calendar.bookRoom", parameters: ["room", "day", "hours"], builderParameters: ["room", "day", "hours"], events: [{ event: "Booking", fields: { room: "room", day: "day", hours: "hours" } }], requires: [["hours"], ["day"]], ensures: [], footprint: { selectors: [{ kind: "event", event: "events.ts#Booking", fields: ["room", "day", "hours"], access: "write" }] } } }',
    );
  });

  it("an invalid option becomes a global diagnostic", () => {
    const program = programOf("good-layer");
    plugin(program, undefined, { transform: "clauz3/plugin", transformProgram: true, trustedRoots: [42] as unknown as string[] }, { ts });
    const global = program.getGlobalDiagnostics();
    expect(global.map((d) => d.code)).toEqual([93090]);
    expect(String(global[0]!.messageText)).toContain('option "trustedRoots" must be an array of non-empty glob strings');
  });
});
