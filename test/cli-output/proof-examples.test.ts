/**
 * The proof codes' examples in the rule table (PROOF_RULES, what `clauz3 explain 93101` prints)
 * are true: each, beside the stdlib filesystem layer, gets its code where ⟦ marks it.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { PROOF_RULES } from "../../core/rules";
import { clauz3, ensureBuilt, removeProject, stdlibLayer, tempProject } from "../cli/helpers";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

const TSCONFIG = JSON.stringify({
  compilerOptions: { target: "ES2022", module: "preserve", moduleResolution: "bundler", strict: true, skipLibCheck: true, noEmit: true, types: ["node"], typeRoots: ["./node_modules/clauz3/node_modules/@types"] },
  include: ["**/*.ts"],
  exclude: ["node_modules"],
});

const examples = PROOF_RULES.flatMap((r) => (r.example ? [{ rule: r, file: `p${r.code}.ts`, code: r.example.code }] : []));

/** Line and column (from 1) of ⟦ in the text without its markers. */
function marked(code: string): { text: string; line: number; column: number } {
  const at = code.indexOf("⟦");
  const before = code.slice(0, at).split("\n");
  return { text: code.replace(/[⟦⟧]/g, ""), line: before.length, column: before[before.length - 1]!.length + 1 };
}

let dir: string;
let report: { programs: { file: string; results: { code: number; verdict: string; location: { line: number; column: number } }[] }[] };
beforeAll(() => {
  ensureBuilt();
  dir = tempProject({ "tsconfig.json": TSCONFIG, ...stdlibLayer(), ...Object.fromEntries(examples.map((e) => [e.file, marked(e.code).text])) });
  report = JSON.parse(clauz3(["prove", "--json", ...examples.map((e) => e.file)], dir).stdout);
});
afterAll(() => removeProject(dir));

it("every proof code but 93105 (the solver's budget) and 93085 (the editor's) has an example", () => {
  expect(examples.map((e) => e.rule.code).sort()).toEqual([93100, 93101, 93102, 93103, 93104]);
});

it.each(examples)("the example of $rule.code ($rule.id) gets it where marked", ({ rule, file, code }) => {
  const { line, column } = marked(code);
  const program = report.programs.find((p) => p.file === file)!;
  const hit = program.results.filter((r) => r.code === rule.code).map((r) => [r.location.line, r.location.column]);
  expect(hit, JSON.stringify(program.results)).toContainEqual([line, column]);
});
