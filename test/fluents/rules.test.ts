/**
 * The layer rules for fluents: declarations (93050), `updates` builders (93051) and the types of
 * their writes (93052), each reported on its exact node; agents may not declare or write fluents.
 */
import ts from "typescript";
import { readLayer } from "../../core/layer/read";
import { RULES } from "../../core/rules";
import { createProgram, unmark } from "../helpers/program";

const HEAD = `import { trusted } from "clauz3";
import { fluent, updates } from "clauz3/events";
export const Locked = fluent("Locked", { key: String, value: Boolean, initial: false });
`;

/** The layer findings of one trusted file (and an optional agent file), as code and the text of the reported node. */
function findings(code: string, agent?: string): { code: number; text: string; message: string }[] {
  const trusted = unmark(code);
  const plan = agent === undefined ? undefined : unmark(agent);
  const files: Record<string, string> = { "tools/x/trusted/layer.ts": HEAD + trusted.text };
  if (plan) files["plan.ts"] = plan.text;
  const program = createProgram(files);
  const layer = readLayer(ts, program);
  const found = layer.findings.map((f) => ({ code: RULES[f.rule].code, text: f.file.text.slice(f.start, f.start + f.length), message: f.message }));
  const marked = plan?.span ? plan : trusted;
  if (marked.span) expect(found.map((f) => f.text)).toContain(marked.text.slice(marked.span.start, marked.span.start + marked.span.length));
  return found;
}

describe("accepted", () => {
  it.each([
    ["a tool parameter and a literal", `export const lock = trusted(updates((door: string) => Locked.set(door, true)), function lock(door: string): void {});`],
    ["two writes, a literal key", `export const lockAll = trusted(updates((door: string) => [Locked.set(door, true), Locked.set("hall", true)]), function lockAll(door: string): void {});`],
    ["a tool of named arguments", `export const lock = trusted(updates(({ door, on }) => Locked.set(door, on)), function lock(req: { door: string; on: boolean }): void {});`],
    ["tags written as type names", `export const Mode = fluent("Mode", { key: "string", value: "number", initial: 0 });\nexport const set = trusted(updates((k: string, v: number) => Mode.set(k, v)), function set(k: string, v: number): void {});`],
    ["a number fluent with a negative initial value", `export const Level = fluent("Level", { key: Number, value: Number, initial: -1 });\nexport const set = trusted(updates((at: number, v: number) => Level.set(at, v)), function set(at: number, v: number): void {});`],
  ])("%s", (_name, code) => {
    expect(findings(code)).toEqual([]);
  });
});

describe("refused on their node", () => {
  it.each([
    ["a name other than the export's", `export const Flag = fluent(⟦"Flags"⟧, { key: String, value: Boolean, initial: false });`, 93050, /the name `"Flag"`/],
    ["a key that is not String, Number or Boolean", `export const Flag = fluent("Flag", { key: ⟦Date⟧, value: Boolean, initial: false });`, 93050, /`key` is `String`, `Number` or `Boolean`/],
    ["a computed initial value", `const off = false;\nexport const Flag = fluent("Flag", { key: String, value: Boolean, initial: ⟦off⟧ });`, 93050, /`initial` is a literal boolean/],
    ["a fluent that is not exported", `const Flag = ⟦fluent("Flag", { key: String, value: Boolean, initial: false })⟧;`, 93050, /not exported/],
    ["an extra property", `export const Flag = fluent("Flag", { key: String, value: Boolean, initial: false, ⟦reset: true⟧ });`, 93050, /exactly the properties/],
    ["a computed key", `export const lock = trusted(updates((door: string) => Locked.set(⟦door.trim()⟧, true)), function lock(door: string): void {});`, 93051, /neither a builder parameter nor a literal/],
    ["a write of something that is not a fluent", `const Other = { set: (k: string, v: boolean) => [k, v] };\nexport const lock = trusted(updates((door: string) => ⟦Other.set(door, true)⟧ as never), function lock(door: string): void {});`, 93051, /not a write `Fluent.set\(key, value\)`/],
    ["a conditional write", `export const lock = trusted(updates((door: string) => ⟦door ? Locked.set(door, true) : []⟧), function lock(door: string): void {});`, 93051, /not a write/],
    ["a second updates", `export const lock = trusted(updates((door: string) => Locked.set(door, true)), ⟦updates((door: string) => Locked.set(door, false))⟧, function lock(door: string): void {});`, 93051, /already declares `updates/],
    ["a value of the wrong type", `export const lock = trusted(updates((door: string) => Locked.set(door, ⟦"yes"⟧)), function lock(door: string): void {});`, 93052, /a boolean value/],
    ["a key parameter of the wrong type", `export const lock = trusted(updates((n: number) => Locked.set(⟦n⟧, true)), function lock(n: number): void {});`, 93052, /tool parameter `n: number`/],
    ["updates outside trusted(...)", `export const u = ⟦updates((door: string) => Locked.set(door, true))⟧;`, 93011, /only allowed as an argument of `trusted/],
  ])("%s", (_name, code, expected, problem) => {
    const found = findings(code).filter((f) => f.code === expected);
    expect(found, JSON.stringify(findings(code))).toHaveLength(1);
    expect(found[0]!.message).toMatch(problem);
  });

  it("agents may not declare a fluent (93001)", () => {
    const found = findings("", `import { fluent } from "clauz3/events";\nexport const Mine = ⟦fluent⟧("Mine", { key: String, value: Boolean, initial: false });\n`);
    expect(found.map((f) => f.code)).toEqual([93001]);
  });

  it("agents may not declare updates (93001)", () => {
    const found = findings("", `import { updates } from "clauz3/events";\nexport const u = ⟦updates⟧((d: string) => []);\n`);
    expect(found.map((f) => f.code)).toEqual([93001]);
  });
});
