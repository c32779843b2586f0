/**
 * A JSON Schema (draft 2019-09) for contract instances, derived from the same catalog as the
 * LinkML schema: `{ "contract": "filesystem.onlyReadsFiles", "arguments": { "files": ["a.md"] } }`.
 * Each contract (and effect) has a `$defs` entry whose properties are its parameters; the root
 * accepts an instance of any contract of the catalog and checks its arguments against that entry.
 */
import type { JsonValue } from "../describe";
import type { Catalog, CatalogEntry, CatalogParameter } from "./index";
import { libraryNamespace, URI_BASE } from "./uri";

type Json = { [key: string]: JsonValue };

function rangeSchema(p: CatalogParameter): Json {
  const scalar: Json =
    p.range === "FilePath" || p.range === "DirectoryPath" ? { $ref: `#/$defs/${p.range}` }
    : p.range === "double" ? { type: "number" }
    : { type: p.range };
  return p.multivalued ? { type: "array", items: scalar } : scalar;
}

function argumentsSchema(e: CatalogEntry): Json {
  const properties: Json = {};
  for (const p of e.parameters) {
    const s: Json = { ...rangeSchema(p) };
    if (p.defaultValue !== undefined) s.default = p.defaultValue;
    properties[p.name] = s;
  }
  const out: Json = { title: e.qualifiedName, type: "object" };
  if (e.summary !== undefined) out.description = e.summary;
  out.properties = properties;
  out.required = e.parameters.filter((p) => p.required).map((p) => p.name);
  out.additionalProperties = false;
  return out;
}

/** The JSON Schema of contract instances of a catalog. */
export function instanceSchema(catalog: Catalog): Json {
  const contracts = catalog.entries.filter((e) => e.kind === "contract");
  const id =
    catalog.libraries.length === 1
      ? `${libraryNamespace(catalog.libraries[0]!)}contract-instance.schema.json`
      : `${URI_BASE}catalog/${catalog.libraries.map((l) => encodeURIComponent(l.id)).join("+") || "empty"}/contract-instance.schema.json`;
  const defs: Json = {
    FilePath: { type: "string", description: "A path naming one file (clauz3 FilePath)." },
    DirectoryPath: { type: "string", description: "A path naming a directory (clauz3 DirectoryPath)." },
  };
  for (const e of catalog.entries) defs[e.className] = argumentsSchema(e);
  return {
    $schema: "https://json-schema.org/draft/2019-09/schema",
    $id: id,
    title: "clauz3 contract instance",
    description: `A guarantee: a contract of ${catalog.libraries.map((l) => l.id).join(", ") || "no library"} called with literal arguments (as \`clauz3 describe --json\` prints in \`instance\`).`,
    type: "object",
    required: ["contract", "arguments"],
    additionalProperties: false,
    properties: {
      contract: contracts.length > 0 ? { type: "string", enum: contracts.map((e) => e.qualifiedName) } : false,
      arguments: { type: "object" },
    },
    allOf: contracts.map((e) => ({
      if: { properties: { contract: { const: e.qualifiedName } } },
      then: { properties: { arguments: { $ref: `#/$defs/${e.className}` } } },
    })),
    $defs: defs,
  };
}
