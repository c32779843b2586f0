/**
 * Descriptions and catalog entries of the fluent forms: final-state guarantees render their
 * templates with their arguments, and the catalog lists each fluent contract and each tool's
 * writes (`updates`), valid against the LinkML metamodel.
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
import { HOME_LAYER, IMPORTS } from "./layer";

vi.setConfig({ testTimeout: 0 });

const PLAN = `${IMPORTS}export const guarantees = [h.lockedAtEnd("front"), h.noFlagLeftOn(), h.lastWriteIs("config.json", "approved"), h.levelAtMost(5)];
export function main(): void {}
`;
const FILES = { "tools/home/trusted/layer.ts": HOME_LAYER, "plan.ts": PLAN };
const readBytes: ReadBytes = (f) => {
  const rel = path.posix.relative(PROJECT, f);
  return rel in FILES ? Buffer.from(FILES[rel as keyof typeof FILES], "utf8") : f.startsWith(`${PROJECT}/`) ? undefined : defaultReadBytes(f);
};
const program = createProgram(FILES);
const layer = readLayer(ts, program);

describe("describe", () => {
  const d = describeProgram({ ts, program, layer: layer.model, file: program.getSourceFile(`${PROJECT}/plan.ts`)!, readBytes });

  it("renders each final-state guarantee's template with its arguments", () => {
    expect(layer.findings.map((f) => f.message)).toEqual([]);
    expect(d.guarantees.map((g) => [g.call, g.sentence])).toEqual([
      ['home.lockedAtEnd(door="front")', 'Door "front" is locked when the program finishes.'],
      ["home.noFlagLeftOn()", "No feature flag is left on when the program finishes."],
      ['home.lastWriteIs(path="config.json", text="approved")', 'The last write to "config.json" is "approved".'],
      ["home.levelAtMost(n=5)", "Every level the program set ends at most 5."],
    ]);
    expect(d.deprecations).toEqual([[], [], [], []]);
  });
});

describe("catalog", () => {
  const catalog = buildCatalog(ts, program, layer.model, librariesOf(layer.model, readBytes), readBytes);
  const schema = linkmlSchema(catalog) as { classes: Record<string, any> };

  it("is valid against the LinkML metamodel, with an entry per fluent contract", () => {
    const validate = createAjv().compile(JSON.parse(fs.readFileSync(metamodelPath(), "utf8")) as object);
    expect(validate(schema) ? [] : validate.errors).toEqual([]);
    expect(Object.values(schema.classes).find((c) => c.title === "home.lockedAtEnd")).toMatchObject({
      is_a: "Contract",
      attributes: { door: { range: "string", required: true, rank: 1 } },
      annotations: { template: "Door {door} is locked when the program finishes." },
    });
    expect(Object.values(schema.classes).find((c) => c.title === "home.noFlagLeftOn")).toMatchObject({ is_a: "Contract" });
  });

  it("lists each tool's fluent writes beside its events", () => {
    const effect = (name: string) => Object.values(schema.classes).find((c) => c.title === `home.${name}`);
    expect(effect("lock")!.annotations).toMatchObject({ performs: "DoorEvent(door)", updates: "Locked.set(door, true)" });
    expect(effect("lockAll")!.annotations).toMatchObject({ updates: 'Locked.set(door, true), Locked.set("hall", true)' });
    expect(effect("setFlag")!.annotations).toMatchObject({ updates: "Flag.set(name, on)" });
    expect(effect("listDoors")!.annotations.updates).toBeUndefined();
  });
});
