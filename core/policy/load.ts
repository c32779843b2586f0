/**
 * Reading a policy file: JSON (a duplicated key is an error, not "the last one wins"), validated
 * against schema/policy.schema.json with clauz3's ajv, rule names unique, and each clause parsed
 * (clause.ts). Every problem is a `PolicyError` naming the file and the field; nothing here needs a
 * layer — resolve.ts binds the clauses to contracts.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import { fieldOf } from "../approval/validate";
import { createAjv, packageRoot } from "../manifest";
import { ClauseSyntaxError, parseClause } from "./clause";
import { CLAUSES_OF, PolicyError, type Policy, type PolicyRule, type RuleDecision } from "./types";

let validator: ValidateFunction | undefined;

/** The policy JSON Schema shipped with the package. */
export function policySchema(): object {
  return JSON.parse(fs.readFileSync(path.join(packageRoot(), "schema", "policy.schema.json"), "utf8")) as object;
}

function pointerOf(instancePath: string): string[] {
  return instancePath === "" ? [] : instancePath.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The decision of the rule at `pointer` (`["rules", "2", …]`), when the data states a valid one. */
function decisionAt(data: unknown, pointer: readonly string[]): RuleDecision | undefined {
  if (pointer[0] !== "rules" || pointer[1] === undefined) return undefined;
  const rule = (data as { rules?: unknown[] }).rules?.[Number(pointer[1])] as { decision?: unknown } | undefined;
  return rule?.decision === "auto_approved" || rule?.decision === "auto_rejected" ? rule.decision : undefined;
}

const OTHER = { whenProven: "unlessProven", unlessProven: "whenProven" } as const;

/** The first schema violation as a field and a sentence (the `if` of the pairing rule is left out: its `then` says what is wrong). */
function schemaProblem(file: string, data: unknown, errors: readonly ErrorObject[]): PolicyError {
  const first = errors.find((x) => x.keyword !== "if") ?? errors[0];
  // In the same rule, a list that does not pair with the decision says more than the list it lacks.
  const rule = first ? /^\/rules\/\d+/.exec(first.instancePath)?.[0] : undefined;
  const e = (rule !== undefined ? errors.find((x) => x.keyword === "false schema" && x.instancePath.startsWith(`${rule}/`)) : undefined) ?? first;
  if (!e) return new PolicyError(file, "the policy", "does not match schema/policy.schema.json");
  const pointer = pointerOf(e.instancePath);
  const field = pointer.length === 0 ? "the policy" : fieldOf(pointer);
  const params = e.params as Record<string, unknown>;
  const inRule = pointer[0] === "rules" && pointer.length === 2;
  switch (e.keyword) {
    case "required": {
      const missing = String(params.missingProperty);
      const decision = decisionAt(data, pointer);
      if (decision && (missing === "whenProven" || missing === "unlessProven")) {
        return new PolicyError(file, fieldOf([...pointer, missing]), `is missing: an ${decision} rule lists in ${missing} the contract calls that ${decision === "auto_approved" ? "must be proved for it to approve" : "must be proved for it not to reject"}`);
      }
      return new PolicyError(file, fieldOf([...pointer, missing]), "is missing");
    }
    case "false schema": {
      const key = pointer[pointer.length - 1] as "whenProven" | "unlessProven";
      const decision = decisionAt(data, pointer);
      return new PolicyError(file, field, `is not allowed in an ${decision ?? "this"} rule: an ${decision} rule uses ${OTHER[key] ?? "the other list"} (auto_approved pairs with whenProven, auto_rejected with unlessProven)`);
    }
    case "additionalProperties":
      return new PolicyError(file, fieldOf([...pointer, String(params.additionalProperty)]), `is not a field of ${inRule ? "a policy rule (name, decision, reason, whenProven or unlessProven)" : pointer.length === 0 ? "a policy (version, rules)" : "this object"}`);
    case "const":
      return new PolicyError(file, field, pointer[0] === "version" ? "must be 1 (this clauz3 reads policy version 1)" : `must be ${JSON.stringify(params.allowedValue)}`);
    case "enum":
      return new PolicyError(file, field, `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`);
    case "type":
      return new PolicyError(file, field, `must be ${pointer.length === 0 ? "a JSON object" : `${/^[aeiou]/.test(String(params.type)) ? "an" : "a"} ${String(params.type).replace(",", " or ")}`}`);
    case "minItems":
      return new PolicyError(file, field, "must list at least one contract call");
    case "minLength":
      return new PolicyError(file, field, "must not be empty");
    case "maxLength":
      return new PolicyError(file, field, `must be at most ${String(params.limit)} characters long`);
    case "pattern":
      return new PolicyError(file, field, "must not contain control characters");
    default:
      return new PolicyError(file, field, e.message ?? "is invalid");
  }
}

/** `line L, column C` of an offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

/** The first key an object of the JSON text states twice (JSON.parse would keep the last silently). */
function duplicateKey(ts: TypeScript, text: string): { readonly pointer: string[]; readonly key: string; readonly at: number } | undefined {
  const json = ts.parseJsonText("policy.json", text);
  let found: { pointer: string[]; key: string; at: number } | undefined;
  const visit = (node: TS.Node, pointer: string[]): void => {
    if (found) return;
    if (ts.isObjectLiteralExpression(node)) {
      const seen = new Set<string>();
      for (const p of node.properties) {
        if (!ts.isPropertyAssignment(p) || !(ts.isStringLiteral(p.name) || ts.isIdentifier(p.name))) continue;
        const key = p.name.text;
        if (seen.has(key)) {
          found = { pointer, key, at: p.name.getStart(json) };
          return;
        }
        seen.add(key);
        visit(p.initializer, [...pointer, key]);
      }
    } else if (ts.isArrayLiteralExpression(node)) {
      node.elements.forEach((el, i) => visit(el, [...pointer, String(i)]));
    }
  };
  const root = json.statements[0]?.expression;
  if (root) visit(root, []);
  return found;
}

/** Parse and validate a policy's text; `file` is how errors name it. */
export function parsePolicy(ts: TypeScript, file: string, text: string): Policy {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // TypeScript's JSON reader says where (Node's message no longer does); it is lenient with
    // comments and trailing commas, so Node's own message stands when it finds nothing.
    const located = ts.parseConfigFileTextToJson(file, text).error;
    if (located?.start !== undefined) throw new PolicyError(file, "the file", `is not valid JSON (${lineColumn(text, located.start)}): ${ts.flattenDiagnosticMessageText(located.messageText, " ")}`);
    throw new PolicyError(file, "the file", `is not valid JSON: ${(error as Error).message}`);
  }
  const twice = duplicateKey(ts, text);
  if (twice) throw new PolicyError(file, fieldOf([...twice.pointer, twice.key]), `is stated twice (${lineColumn(text, twice.at)}); state each field once`);
  validator ??= createAjv().compile(policySchema());
  if (!validator(data)) throw schemaProblem(file, data, validator.errors ?? []);
  const raw = data as { rules: { name: string; decision: RuleDecision; reason: string; whenProven?: string[]; unlessProven?: string[] }[] };
  const names = new Map<string, number>();
  const rules: PolicyRule[] = raw.rules.map((r, index) => {
    const earlier = names.get(r.name);
    if (earlier !== undefined) throw new PolicyError(file, `rules[${index}].name`, `repeats the name of rules[${earlier}] (${JSON.stringify(r.name)}): each rule's name is unique, it is what a decision records`);
    names.set(r.name, index);
    const key = CLAUSES_OF[r.decision];
    const clauses = r[key]!;
    clauses.forEach((clause, j) => {
      try {
        parseClause(ts, clause);
      } catch (error) {
        if (error instanceof ClauseSyntaxError) throw new PolicyError(file, `rules[${index}].${key}[${j}]`, `${JSON.stringify(clause)} ${error.problem}`);
        throw error;
      }
    });
    return { name: r.name, decision: r.decision, reason: r.reason, clauses, index };
  });
  return { file, rules, sha256: crypto.createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex") };
}

/** Read and parse the policy file at `fullPath`; errors name it as `shown`. */
export function readPolicyFile(ts: TypeScript, fullPath: string, shown: string = fullPath): Policy {
  let text: string;
  try {
    text = fs.readFileSync(fullPath, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PolicyError(shown, "the file", code === "ENOENT" ? "does not exist" : code === "EISDIR" ? "is a directory, not a policy file" : `cannot be read (${code ?? (error as Error).message})`);
  }
  return parsePolicy(ts, shown, text);
}
