/**
 * The standalone validators `npm run build` writes (dist/validators/, scripts/build-validators.mjs)
 * answer exactly as ajv's run-time compilation of the same schema: the same verdict and the same
 * errors (the diagnostics of manifests and locks are built from them), on every manifest and lock
 * of the checkout and on mutations of each; one generated from another text is never used.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ValidateFunction } from "ajv";
import { createAjv, packageRoot, precompiledPath, precompiledValidator, PRECOMPILED_SCHEMAS, schemaText, schemaValidator } from "../../core/manifest/validators";
import { ensureBuilt } from "../../fixtures/projects/project.mjs";

const ROOT = packageRoot();

/** Files named `name` below the checkout (not node_modules, dist or temporary folders). */
function filesNamed(name: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (["node_modules", "dist", ".git", "tmp", ".scratch"].includes(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === name) out.push(full);
    }
  };
  walk(ROOT);
  return out.sort();
}

/** The document, then one mutation per place: each key removed, each value replaced by values of other types. */
function mutations(doc: unknown): unknown[] {
  const out: unknown[] = [doc];
  const replacements: unknown[] = [null, 0, -1.5, "", "x".repeat(300), true, [], [1, "a"], {}, { unexpected: 1 }];
  const visit = (value: unknown, rebuild: (v: unknown) => unknown, depth: number) => {
    for (const r of replacements) out.push(rebuild(r));
    if (depth > 4 || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, (v) => rebuild(value.map((x, j) => (j === i ? v : x))), depth + 1));
      return;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const { [key]: _removed, ...rest } = record;
      out.push(rebuild(rest));
      visit(record[key], (v) => rebuild({ ...record, [key]: v }), depth + 1);
    }
    out.push(rebuild({ ...record, "extra key": "x" }));
  };
  visit(doc, (v) => v, 0);
  return out;
}

function answer(validate: ValidateFunction, data: unknown): unknown {
  const ok = validate(structuredClone(data));
  return { ok, errors: ok ? null : validate.errors };
}

beforeAll(() => ensureBuilt());

describe.each(PRECOMPILED_SCHEMAS.map((name) => [name]))("the precompiled %s validator", (name) => {
  const file = name === "manifest" ? "clauz3.json" : "clauz3.lock";

  it("is current after the build, and is the one clauz3 uses", () => {
    const text = schemaText(name);
    const precompiled = precompiledValidator(name, text);
    expect(precompiled).toBeTypeOf("function");
    expect(schemaValidator(name)).toBe(precompiled);
  });

  it(`gives the verdict and errors ajv's compilation gives, on every ${file} of the checkout and mutations of each`, () => {
    const precompiled = precompiledValidator(name, schemaText(name))!;
    const compiled = createAjv().compile(JSON.parse(schemaText(name)) as object);
    const docs = filesNamed(file).flatMap((f) => mutations(JSON.parse(fs.readFileSync(f, "utf8"))));
    expect(docs.length).toBeGreaterThan(200);
    let invalid = 0;
    for (const doc of docs) {
      const expected = answer(compiled, doc);
      expect(answer(precompiled, doc)).toEqual(expected);
      if (!(expected as { ok: boolean }).ok) invalid++;
    }
    expect(invalid).toBeGreaterThan(100);
  });

  it("is not used for another schema text: that one is compiled at run time", () => {
    expect(fs.existsSync(precompiledPath(name))).toBe(true);
    expect(precompiledValidator(name, schemaText(name).replace(/\s*$/, "\n\n"))).toBeUndefined();
  });
});
