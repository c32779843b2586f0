/**
 * Corpus-style programs of the contract language (programs/*.ts, `// @expect` headers as in
 * fixtures/programs): the Python reference's same_content cases, joins over loops, element
 * promises, and adversarial programs (`adversarial_*`, never proved) with `control_*` twins.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ProgramVerdict } from "../../core/prover/api";
import { expectedVerdict, parseExpectations, type Expectation } from "../helpers/expectations";
import { provePlan } from "./layer";

vi.setConfig({ testTimeout: 0 });

const DIR = path.join(__dirname, "programs");
const programs = fs.readdirSync(DIR).filter((n) => n.endsWith(".ts")).sort();

function actualKeys(v: ProgramVerdict): string[] {
  return [...new Set(v.results.filter((r) => r.verdict === "violated").map((r) => {
    const line = r.location.fileName.endsWith("/plan.ts") ? r.location.line : -1;
    if (r.kind === "guarantee") return `violated ${r.contractName} line=${line}`;
    if (r.kind === "precondition") return `precondition ${r.tool!.split(".").pop()} line=${line}`;
    return `throw line=${line}`;
  }))].sort();
}

function expectedKeys(es: readonly Expectation[]): string[] {
  return es.flatMap((e) => (e.verdict === "violated" ? [`violated ${e.contract} line=${e.line}`] : e.verdict === "precondition" ? [`precondition ${e.tool} line=${e.line}`] : e.verdict === "throw" ? [`throw line=${e.line}`] : [])).sort();
}

const TWINS: Record<string, string> = {
  "adversarial_join_unreachable.ts": "control_join_reachable.ts",
  "adversarial_join_loop_unreachable.ts": "control_join_loop_reachable.ts",
  "adversarial_join_promise.ts": "control_join_promise.ts",
};

it("has the three same_content cases of the Python reference and a control twin for each adversarial program", () => {
  for (const n of ["same_content_pass.ts", "same_content_branch_fail.ts", "same_content_fail.ts"]) expect(programs).toContain(n);
  expect(programs.filter((p) => p.startsWith("adversarial_")).sort()).toEqual(Object.keys(TWINS).sort());
  for (const control of Object.values(TWINS)) expect(programs).toContain(control);
});

it.each(programs)("%s", async (name) => {
  const text = fs.readFileSync(path.join(DIR, name), "utf8");
  const expectations = parseExpectations(text, name);
  const v = await provePlan(text);
  const explain = v.results.filter((r) => r.verdict !== "proved").map((r) => `${r.verdict} ${r.kind} line ${r.location.line}: ${r.message}`).join("\n");
  if (name.startsWith("adversarial_")) expect(v.verdict, explain).not.toBe("proved");
  expect(v.verdict, explain).toBe(expectedVerdict(expectations));
  expect(actualKeys(v), explain).toEqual(expectedKeys(expectations));
});
