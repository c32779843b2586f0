/**
 * The validators of the JSON Schemas the package ships (`schema/<name>.schema.json`), and the one
 * ajv configuration clauz3 uses.
 *
 * Compiling a schema with ajv costs about 100 ms of CPU per schema and process (loading ajv,
 * validating the schema against the draft 2019-09 meta-schema, generating code), which every
 * `tspc` build paid twice (a library manifest, then `clauz3.lock`). So `npm run build` also writes
 * the schemas read during a build as ajv's standalone code (`scripts/build-validators.mjs` →
 * `dist/validators/<name>.js`, with the SHA-256 of the schema text it was generated from): the
 * same generated function `compile` would give, loaded in about a millisecond. A schema whose
 * text differs from that hash, or a checkout without the file, is compiled at run time as before.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type Ajv2019 from "ajv/dist/2019";
import type { Options, ValidateFunction } from "ajv";

/** Schemas written as standalone code by `npm run build`: those every build reads. */
export const PRECOMPILED_SCHEMAS = ["manifest", "lock"] as const;
export type PrecompiledSchema = (typeof PRECOMPILED_SCHEMAS)[number];

/** The directory holding the package's `schema/` folder (works from sources and from `dist/`). */
export function packageRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (fs.existsSync(path.join(dir, "schema", "manifest.schema.json")) && fs.existsSync(path.join(dir, "package.json"))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`clauz3: cannot find schema/manifest.schema.json above ${__dirname}`);
    dir = up;
  }
}

/**
 * An ajv instance for draft 2019-09 schemas with formats: the one JSON Schema validator clauz3
 * uses. ajv is loaded on the first call only (a build that reads precompiled validators never
 * loads it). `code` is for `scripts/build-validators.mjs`, which must generate with these options.
 */
export function createAjv(code?: Options["code"]): Ajv2019 {
  const Ajv = (require("ajv/dist/2019") as typeof import("ajv/dist/2019")).default;
  const addFormats = (require("ajv-formats") as typeof import("ajv-formats")).default;
  const ajv = new Ajv({ strict: false, allErrors: true, ...(code ? { code } : {}) });
  addFormats(ajv);
  return ajv;
}

/** The text of `schema/<name>.schema.json`. */
export function schemaText(name: string): string {
  return fs.readFileSync(path.join(packageRoot(), "schema", `${name}.schema.json`), "utf8");
}

export function schemaSha256(text: string): string {
  return crypto.createHash("sha256").update(text).digest("hex");
}

/** Where `npm run build` writes the standalone validator of a schema. */
export function precompiledPath(name: PrecompiledSchema): string {
  return path.join(packageRoot(), "dist", "validators", `${name}.js`);
}

/** The validator `npm run build` generated from exactly `text`, if there is one. */
export function precompiledValidator(name: PrecompiledSchema, text: string): ValidateFunction | undefined {
  const file = precompiledPath(name);
  if (!fs.existsSync(file)) return undefined;
  const generated = require(file) as ValidateFunction & { schemaSha256?: string };
  return generated.schemaSha256 === schemaSha256(text) ? generated : undefined;
}

/** The validator of a shipped schema: the precompiled one when it is current, else compiled now. */
export function schemaValidator(name: PrecompiledSchema): ValidateFunction {
  const text = schemaText(name);
  return precompiledValidator(name, text) ?? createAjv().compile(JSON.parse(text) as object);
}
