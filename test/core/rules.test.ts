import ts from "typescript";
import { readLayer } from "../../core/layer/read";
import { verifyLock } from "../../core/lock/verify";
import { RULES, type Rule } from "../../core/rules";
import { createProgram, stdlibFiles, typeErrors, unmark } from "../helpers/program";

const testable = Object.entries(RULES as Record<string, Rule>).filter(([, r]) => r.invalid.code !== r.valid.code);

/** The layer's findings plus the lock's (the example project's clauz3.lock pins every trusted file but `unpinned`). */
function findingsOf(files: Record<string, string>, unpinned: readonly string[] = []) {
  const program = createProgram({ ...stdlibFiles(), ...files }, { unpinned });
  const layer = readLayer(ts, program);
  return { program, result: { ...layer, findings: [...layer.findings, ...verifyLock(ts, program, layer.isTrusted).findings] } };
}

describe.each(testable)("rule %s", (_name, rule) => {
  it(`accepts the valid example (${rule.id})`, () => {
    const { program, result } = findingsOf({ [rule.valid.file]: rule.valid.code });
    expect(result.findings.map((f) => `${RULES[f.rule].code} ${f.message}`)).toEqual([]);
    expect(typeErrors(program)).toEqual([]);
  });

  it(`reports the invalid example at its exact span (TS${rule.code})`, () => {
    const { text, span } = unmark(rule.invalid.code);
    expect(span).toBeDefined();
    const { result } = findingsOf({ [rule.invalid.file]: text }, rule.invalid.pinned === false ? [rule.invalid.file] : []);
    const mine = result.findings.filter((f) => f.file.fileName.endsWith(rule.invalid.file));
    expect(mine.map((f) => ({ code: RULES[f.rule].code, start: f.start, length: f.length, text: text.slice(f.start, f.start + f.length) }))).toEqual([
      { code: rule.code, start: span!.start, length: span!.length, text: text.slice(span!.start, span!.start + span!.length) },
    ]);
    // Every message says what to write instead.
    expect(mine[0]!.message).toMatch(/\b(Write|Declare|Add|Pass|Rename|Return|Call|Use|write|name it)\b/);
  });
});

describe("builder and predicate parameters without type annotations", () => {
  it("are accepted: their types come from the tool's parameters", () => {
    const code = `import { trusted, requires, ensures } from "clauz3";
import { Event, performs } from "clauz3/events";
export class Read extends Event { constructor(readonly path: string) { super(); } }
export const readFile = trusted(performs((path) => new Read(path)), requires((path) => path.length > 0), ensures((text) => text.length >= 0), function readFile(path: string): string { return ""; });
`;
    const { result } = findingsOf({ "tools/demo/trusted/layer.ts": code });
    expect(result.findings.map((f) => f.message)).toEqual([]);
    expect([...result.model.tools.values()].filter((t) => t.fileName.includes("/tools/demo/")).map((t) => t.name)).toEqual(["readFile"]);
  });

  it("still require the tool's own parameters to declare a type", () => {
    const code = `import { trusted } from "clauz3";
export const f = trusted(function f(path): void {});
`;
    const { result } = findingsOf({ "tools/demo/trusted/layer.ts": code });
    expect(result.findings.map((f) => RULES[f.rule].code)).toEqual([93005]);
  });
});
