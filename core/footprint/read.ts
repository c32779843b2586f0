/**
 * Read a declared `footprint(...)`: each argument an object literal of literal values, naming a
 * parameter of the tool of the right type (rules 93060, 93061).
 */
import type * as TS from "typescript";
import type { Access, Selector } from "../../runtime/footprint";
import { report, type ReadContext } from "../context";
import type { DeclaredSelectorModel, ParameterModel, ToolModel, ValueType } from "../model";

/** The properties each declarable kind takes (`event` selectors are derived, never declared). */
const SHAPES: Readonly<Record<string, readonly string[]>> = {
  literal: ["resource", "access"],
  path: ["field", "access", "tree?"],
  manifest: ["field", "access"],
  scoped: ["family", "field", "access"],
  rateLimit: ["provider"],
  opaque: [],
};

const PATH_TYPES = new Set(["string", "FilePath", "DirectoryPath"]);
const SCALAR_TYPES = new Set(["string", "number", "boolean", "FilePath", "DirectoryPath"]);

function form(shape: string): string {
  const props = SHAPES[shape]!.map((p) => (p.endsWith("?") ? `${p.slice(0, -1)}?: true` : p === "access" ? `access: "read" | "write"` : `${p}: "..."`));
  return `{ kind: "${shape}"${props.length ? ", " + props.join(", ") : ""} }`;
}

/** Read `footprint(...)` of `tool`; reports every selector it cannot read. */
export function readFootprint(
  ctx: ReadContext,
  call: TS.CallExpression,
  tool: string,
  byName: ReadonlyMap<string, ParameterModel>,
): NonNullable<ToolModel["footprint"]> {
  const { ts } = ctx;
  const selectors: DeclaredSelectorModel[] = [];
  for (const arg of call.arguments) {
    if (!ts.isObjectLiteralExpression(arg)) {
      report(ctx, "footprintForm", arg, { problem: `Each argument of \`footprint(...)\` of \`${tool}\` is an object literal selector.` });
      continue;
    }
    const values = new Map<string, { value: string | boolean; node: TS.Node }>();
    let ok = true;
    for (const p of arg.properties) {
      const name = p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;
      const init = ts.isPropertyAssignment(p) ? p.initializer : undefined;
      const value =
        init && (ts.isStringLiteral(init) || ts.isNoSubstitutionTemplateLiteral(init)) ? init.text
        : init?.kind === ts.SyntaxKind.TrueKeyword ? true
        : init?.kind === ts.SyntaxKind.FalseKeyword ? false
        : undefined;
      if (name === undefined || value === undefined || values.has(name)) {
        report(ctx, "footprintForm", p, { problem: "A selector's properties are written `name: \"literal\"` (a string literal, or `true`/`false` for `tree`), each once." });
        ok = false;
        continue;
      }
      values.set(name, { value, node: p });
    }
    if (!ok) continue;
    const kind = values.get("kind")?.value;
    const shape = typeof kind === "string" ? SHAPES[kind] : undefined;
    if (!shape) {
      report(ctx, "footprintForm", values.get("kind")?.node ?? arg, { problem: `A selector's \`kind\` is one of ${Object.keys(SHAPES).map((k) => `"${k}"`).join(", ")}.` });
      continue;
    }
    const allowed = new Set(["kind", ...shape.map((p) => p.replace("?", ""))]);
    const extra = [...values.keys()].find((k) => !allowed.has(k));
    const missing = shape.find((p) => !p.endsWith("?") && !values.has(p));
    const access = values.get("access")?.value;
    const badAccess = shape.includes("access") && access !== "read" && access !== "write";
    const tree = values.get("tree")?.value;
    if (extra !== undefined || missing !== undefined || (!missing && badAccess) || (tree !== undefined && typeof tree !== "boolean")) {
      const at = extra !== undefined ? values.get(extra)!.node : missing === undefined && badAccess ? values.get("access")!.node : arg;
      report(ctx, "footprintForm", at, { problem: `A \`${kind}\` selector is written \`${form(kind as string)}\`.` });
      continue;
    }
    const str = (k: string): string => values.get(k)!.value as string;
    if (kind === "path" || kind === "manifest" || kind === "scoped") {
      const field = str("field");
      const param = byName.get(field);
      const expected = kind === "scoped" ? SCALAR_TYPES : PATH_TYPES;
      const fieldNode = values.get("field")!.node;
      if (!param) {
        report(ctx, "footprintParameter", fieldNode, { tool, field, problem: `\`${tool}\` has no parameter \`${field}\` (its parameters: ${[...byName.keys()].join(", ") || "none"})` });
        continue;
      }
      if (!expected.has(typeName(param.type))) {
        report(ctx, "footprintParameter", fieldNode, {
          tool,
          field,
          problem: `parameter \`${field}\` is \`${param.typeText}\`, but a \`${kind}\` selector needs ${kind === "scoped" ? "a string, number or boolean" : "a path (`string`, `FilePath` or `DirectoryPath`)"}`,
        });
        continue;
      }
    }
    const selector: Selector =
      kind === "literal" ? { kind, resource: str("resource"), access: access as Access }
      : kind === "path" ? { kind, field: str("field"), access: access as Access, ...(tree === true ? { tree: true } : {}) }
      : kind === "manifest" ? { kind, field: str("field"), access: access as Access }
      : kind === "scoped" ? { kind, family: str("family"), field: str("field"), access: access as Access }
      : kind === "rateLimit" ? { kind, provider: str("provider") }
      : { kind: "opaque" };
    selectors.push({ selector, node: arg });
  }
  return { selectors, node: call };
}

function typeName(t: ValueType): string {
  return t.kind;
}
