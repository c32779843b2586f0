/**
 * The layer rules for the new forms: element promises in exactly the shape the prover models
 * (TS93013 on the exact node otherwise, saying what to write instead), and rule 93009 reserving
 * `allSameValue` and `sharesValueWith` (and still `sharesValue`) as event field names.
 */
import ts from "typescript";
import { readLayer } from "../../core/layer/read";
import { RESERVED_FIELD_NAMES, RULES } from "../../core/rules";
import { createProgram, unmark } from "../helpers/program";

const HEAD = `import { trusted, ensures } from "clauz3";
import { Event } from "clauz3/events";
export interface Invoice { readonly account: string; readonly amount: number }
`;

/** The layer findings of one trusted file, as code and the text of the reported node. */
function findings(code: string): { code: number; text: string; message: string }[] {
  const { text, span } = unmark(code);
  const program = createProgram({ "tools/x/trusted/layer.ts": HEAD + text });
  const layer = readLayer(ts, program);
  const found = layer.findings.map((f) => ({ code: RULES[f.rule].code, text: (HEAD + text).slice(f.start, f.start + f.length), message: f.message }));
  if (span) expect(found.map((f) => f.text)).toContain(text.slice(span.start, span.start + span.length));
  return found;
}

describe("element promises: the shapes the prover models are accepted", () => {
  it.each([
    ["strings with a parameter", `export const listEnv = trusted(ensures((names: string[], prefix: string) => names.every((n) => n.startsWith(prefix))), function listEnv(prefix: string): string[] { return []; });`],
    ["fields of interface elements", `export const open = trusted(ensures((r: Invoice[]) => r.every((inv) => inv.amount > 0 && inv.account !== "")), function open(): Invoice[] { return []; });`],
    ["beside a length bound in its own ensures", `export const few = trusted(ensures((r: Invoice[]) => r.length <= 3), ensures((r: Invoice[]) => (r.every((inv: Invoice) => inv.amount > 0))), function few(): Invoice[] { return []; });`],
  ])("%s", (_name, code) => {
    expect(findings(code)).toEqual([]);
  });
});

describe("element promises: other uses of every are refused on their node (TS93013)", () => {
  it.each([
    ["every beside another conjunct", `export const few = trusted(ensures((r: string[]) => r.length <= 3 && ⟦r.every((n) => n !== "")⟧), function few(): string[] { return []; });`, /modelled only as the whole predicate/],
    ["every on something else than the result", `export const list = trusted(ensures((r: string[], names: string[]) => ⟦names.every((n) => r.includes(n))⟧), function list(names: string[]): string[] { return []; });`, /only on the result `r`/],
    ["an index parameter", `export const list = trusted(ensures((r: string[]) => r.every((n, ⟦i⟧) => i < 3)), function list(): string[] { return []; });`, /exactly one plain parameter/],
    ["the element condition reads the whole result", `export const list = trusted(ensures((r: string[]) => r.every((n) => n !== ⟦r⟧[0])), function list(): string[] { return []; });`, /reads the whole result `r`/],
    ["a condition that is not an inline function", `const ok = (n: string) => n !== "";\nexport const list = trusted(ensures((r: string[]) => r.every(⟦ok⟧)), function list(): string[] { return []; });`, /one inline function of the element/],
    ["every inside a block body", `export const list = trusted(ensures((r: string[]) => { return ⟦r.every((n) => n !== "")⟧; }), function list(): string[] { return []; });`, /modelled only as the whole predicate/],
  ])("%s", (_name, code, problem) => {
    const found = findings(code).filter((f) => f.code === 93013);
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(problem);
    expect(found[0]!.message).toMatch(/Write an element promise as its own `ensures\(\(r, param\) => r\.every\(\(x\) => condition/);
  });
});

describe("rule 93009 reserves the new relation queries", () => {
  it.each(["allSameValue", "sharesValueWith", "sharesValue"])("%s", (name) => {
    expect(RESERVED_FIELD_NAMES.has(name)).toBe(true);
    const found = findings(`export class Tally extends Event { constructor(⟦readonly ${name}: string⟧) { super(); } }`);
    expect(found.map((f) => f.code)).toEqual([93009]);
  });
});
