/**
 * The checked-in catalog of stdlib:filesystem must match the source: `npm test` fails when a
 * contract, effect, template or JSDoc changes without regenerating it with
 * `clauz3 catalog --library stdlib:filesystem --out stdlib/filesystem/catalog.json`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createAjv } from "../../core/manifest";
import { clauz3, ensureBuilt, metamodelPath, ROOT } from "../cli/helpers";

const CATALOG = path.join(ROOT, "stdlib/filesystem/catalog.json");

describe("stdlib/filesystem/catalog.json", () => {
  beforeAll(() => ensureBuilt());

  it("is current (clauz3 catalog --check)", () => {
    const r = clauz3(["catalog", "--library", "stdlib:filesystem", "--check", "--out", "stdlib/filesystem/catalog.json"], ROOT);
    expect(r.stderr, "Regenerate with: node dist/cli/main.js catalog --library stdlib:filesystem --out stdlib/filesystem/catalog.json").toBe("");
    expect(r.status).toBe(0);
  });

  it("validates against the LinkML metamodel", () => {
    const validate = createAjv().compile(JSON.parse(fs.readFileSync(metamodelPath(), "utf8")) as object);
    const catalog = JSON.parse(fs.readFileSync(CATALOG, "utf8")) as Record<string, any>;
    expect(validate(catalog), JSON.stringify(validate.errors)).toBe(true);
    expect(catalog.id).toMatch(/^https:\/\/w3id\.org\/clauz3\/stdlib\/filesystem\//);
    expect(catalog.classes.FilesystemOnlyReadsFiles.annotations.symbol).toBe("stdlib/filesystem/trusted/contracts#onlyReadsFiles");
  });

  it("has a template for every stdlib:filesystem contract", () => {
    const catalog = JSON.parse(fs.readFileSync(CATALOG, "utf8")) as { classes: Record<string, { is_a?: string; annotations?: { template?: string } }> };
    const contracts = Object.entries(catalog.classes).filter(([, c]) => c.is_a === "Contract");
    expect(contracts.length).toBeGreaterThan(0);
    for (const [name, c] of contracts) expect(c.annotations?.template, name).toBeTruthy();
  });

  it("is protected from line-ending conversion (source digests hash the bytes)", () => {
    const attributes = fs.readFileSync(path.join(ROOT, ".gitattributes"), "utf8");
    expect(attributes).toMatch(/^\* -text$/m);
  });
});
