/**
 * The inputs of a run against `main`'s parameter types. The proof is about inputs of the declared
 * types (core/prover/exec/fresh.ts `isInputType`), and the runner passes JSON values: a value of
 * another shape (a number where a string is declared, a record without a field) would run a
 * program the proof says nothing about, so such a request is not built.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import type { JsonValue } from "../describe";
import type { ValueType } from "../model";
import { findMain } from "../prover/program-shape";
import { Refusal } from "../refusal";
import { showValueType, valueTypeOf } from "../types";

/** The first input that does not have its parameter's type, as the request field and what is wrong; undefined when all do. */
export function inputsProblem(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile, inputs: readonly JsonValue[]): { field: string; problem: string } | undefined {
  let main: ReturnType<typeof findMain>;
  try {
    main = findMain(ts, checker, file);
  } catch (error) {
    if (error instanceof Refusal) return undefined; // no provable `main`: the proof's refusal says so
    throw error;
  }
  const params = main.parameters;
  const names = params.map((p) => p.name.getText());
  if (inputs.length !== params.length) {
    return { field: "inputs", problem: `holds ${inputs.length} value${inputs.length === 1 ? "" : "s"}, but \`main\` takes ${params.length}${names.length > 0 ? ` (${names.join(", ")})` : ""}` };
  }
  for (const [i, p] of params.entries()) {
    const type = valueTypeOf({ ts, checker }, checker.getTypeAtLocation(p));
    const problem = valueProblem(inputs[i]!, type, `inputs[${i}]`);
    if (problem) return { field: problem.field, problem: `${problem.problem} (\`main\`'s parameter \`${names[i]}: ${showValueType(type)}\`)` };
  }
  return undefined;
}

function valueProblem(value: JsonValue, type: ValueType, field: string): { field: string; problem: string } | undefined {
  const is = (ok: boolean, what: string) => (ok ? undefined : { field, problem: `must be ${what}, not ${describe(value)}` });
  switch (type.kind) {
    case "string": case "FilePath": case "DirectoryPath": return is(typeof value === "string", "a string");
    case "number": return is(typeof value === "number", "a number");
    case "boolean": return is(typeof value === "boolean", "a boolean");
    case "array": {
      if (!Array.isArray(value)) return is(false, "an array");
      for (const [j, x] of value.entries()) {
        const problem = valueProblem(x, type.element, `${field}[${j}]`);
        if (problem) return problem;
      }
      return undefined;
    }
    case "record": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return is(false, `an object with ${type.fields.map((f) => f.name).join(", ")}`);
      for (const f of type.fields) {
        if (!Object.hasOwn(value, f.name)) return { field: `${field}.${f.name}`, problem: `is missing (${type.name} has it)` };
        const problem = valueProblem((value as Record<string, JsonValue>)[f.name]!, f.type, `${field}.${f.name}`);
        if (problem) return problem;
      }
      return undefined;
    }
    default:
      return undefined; // a type no proof models: the program is refused, not run
  }
}

function describe(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `${typeof value} ${JSON.stringify(value)}`;
}
