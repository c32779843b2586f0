/**
 * Descriptions and catalog entries of contracts written with the new forms: a join's template
 * renders with its arguments, `describe` names `allSameValue` where a contract still uses the
 * deprecated `sharesValue` (and nothing else changes), and the catalog has a valid entry for each.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { buildCatalog, linkmlSchema } from "../../core/catalog";
import { describeProgram } from "../../core/describe";
import { readLayer } from "../../core/layer/read";
import { createAjv, defaultReadBytes, librariesOf, type ReadBytes } from "../../core/manifest";
import { metamodelPath } from "../cli/helpers";
import { createProgram, PROJECT } from "../helpers/program";
import { CONTRACTS_LAYER, IMPORTS } from "./layer";

vi.setConfig({ testTimeout: 0 });

const PLAN = `${IMPORTS}export const guarantees = [c.sameContent("bob", "ann"), c.oneRecipient(), c.oneRecipientOld(), c.readsOnlyUnder("APP_")];
export function main(): void {}
`;
const FILES = { "tools/mail/trusted/layer.ts": CONTRACTS_LAYER, "plan.ts": PLAN };
const readBytes: ReadBytes = (f) => {
  const rel = path.posix.relative(PROJECT, f);
  return rel in FILES ? Buffer.from(FILES[rel as keyof typeof FILES], "utf8") : f.startsWith(`${PROJECT}/`) ? undefined : defaultReadBytes(f);
};

const program = createProgram(FILES);
const layer = readLayer(ts, program);

describe("describe", () => {
  const d = describeProgram({ ts, program, layer: layer.model, file: program.getSourceFile(`${PROJECT}/plan.ts`)!, readBytes });

  it("renders the join's template with both arguments", () => {
    expect(layer.findings.map((f) => f.message)).toEqual([]);
    expect(d.guarantees[0]).toMatchObject({ call: 'mail.sameContent(a="bob", b="ann")', sentence: '"bob" and "ann" received the same message.', sentenceSource: "template" });
  });

  it("names the new name where a contract uses the deprecated sharesValue, and only there", () => {
    expect(d.deprecations.map((ds) => ds.map((x) => `${x.contract}: ${x.query} → ${x.instead}`))).toEqual([[], [], ["oneRecipientOld: sharesValue → allSameValue"], []]);
    const at = d.deprecations[2]![0]!;
    const line = CONTRACTS_LAYER.split("\n")[at.line - 1]!;
    expect(line.slice(at.column - 1)).toMatch(/^sharesValue\(/);
  });

  it("the deprecated name changes neither sentence nor identity shape", () => {
    expect(d.guarantees[2]!.sentence).toBe("All emails go to one address (old name).");
    expect(Object.keys(d.guarantees[2]!).sort()).toEqual(Object.keys(d.guarantees[1]!).sort());
  });

  it("a deprecated query reached through another contract is named too", () => {
    const layerText = `${CONTRACTS_LAYER}
export const viaOld = contract({ description: "Via the old name." }, (): ContractSpec => oneRecipientOld());
`;
    const files = { "tools/mail/trusted/layer.ts": layerText, "plan.ts": `${IMPORTS}export const guarantees = [c.viaOld()];\nexport function main(): void {}\n` };
    const p = createProgram(files);
    const l = readLayer(ts, p);
    const own = describeProgram({ ts, program: p, layer: l.model, file: p.getSourceFile(`${PROJECT}/plan.ts`)!, readBytes: (f) => (f.startsWith(`${PROJECT}/`) ? undefined : defaultReadBytes(f)) });
    expect(own.deprecations).toEqual([[expect.objectContaining({ contract: "oneRecipientOld", query: "sharesValue", instead: "allSameValue" })]]);
  });
});

describe("catalog", () => {
  const catalog = buildCatalog(ts, program, layer.model, librariesOf(layer.model, readBytes), readBytes);
  const schema = linkmlSchema(catalog) as { classes: Record<string, any> };

  it("has an entry for the join contract with its template and parameters, valid against the LinkML metamodel", () => {
    const validate = createAjv().compile(JSON.parse(fs.readFileSync(metamodelPath(), "utf8")) as object);
    expect(validate(schema) ? [] : validate.errors).toEqual([]);
    const entry = Object.values(schema.classes).find((c) => c.title === "mail.sameContent");
    expect(entry).toMatchObject({
      is_a: "Contract",
      attributes: { a: { range: "string", required: true, rank: 1 }, b: { range: "string", required: true, rank: 2 } },
      annotations: { template: "{a} and {b} received the same message." },
    });
  });

  it("lists the tools with element promises as effects returning arrays", () => {
    const effects = Object.values(schema.classes).filter((c) => c.is_a === "Effect");
    expect(effects.find((c) => c.title === "mail.listEnv")).toBeDefined();
    expect(effects.find((c) => c.title === "mail.openInvoices")).toBeDefined();
  });
});
