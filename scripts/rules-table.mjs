#!/usr/bin/env node
/**
 * The rule, proof-code and coverage-code tables from the rule data (core/rules.ts, built to dist/).
 * scripts/gen-docs.mjs writes them into docs/rules.md and docs/coverage.md; test/docs/generated.test.ts
 * checks that the committed tables are exactly this output.
 */
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { RULES, PROOF_CODES } = require("../dist/core/rules.js");
const { COVERAGE_RULES } = require("../dist/core/coverage/rules.js");

const EVENT_LINES = new Set([
  "export class FsEvent extends Event { constructor(readonly path: string) { super(); } }",
  "export class Read extends FsEvent {}",
  "export class Write extends FsEvent {}",
]);
const body = (code) =>
  code
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("import") && !EVENT_LINES.has(l))
    .map((l) => l.trim())
    .join(" ");
const cell = (text) => (text ? "`" + text.replace(/\|/g, "\\|") + "`" : "—");

export function rulesTable() {
  const rows = Object.values(RULES).map((r) => {
    const testable = r.valid.code !== r.invalid.code;
    return `| ${r.code} | \`${r.id}\` | ${r.doc.replace(/\|/g, "\\|")} | ${testable ? cell(body(r.valid.code)) : "—"} | ${testable ? cell(body(r.invalid.code)) : "—"} |`;
  });
  return ["| code | id | rule | valid | invalid (⟦…⟧ = the reported node) |", "|---|---|---|---|---|", ...rows].join("\n");
}

export function proofCodesTable() {
  const docs = {
    proved: "a guarantee is proved (editor: suggestion on its entry in `guarantees`)",
    violated: "a guarantee is violated: error on the call whose event breaks it, with the counterexample",
    precondition: "a `requires` precondition can fail: error on the call",
    throw: "a `throw` (or a use of a possibly-undefined value) is reachable: error on it",
    refused: "the program or contract leaves the modelled subset: error on the exact node, saying what to write instead",
    unknown: "the solver answered unknown or timed out: refused, never proved",
    budget: "editor only: the proof used the editor budget (`editorBudgetMs`) without a verdict, or its symbolic execution would take more than the 25 000 steps the editor runs at once: error on `main`, run `clauz3 check` ([editor.md](editor.md))",
  };
  const rows = Object.entries(PROOF_CODES).map(([k, code]) => `| ${code} | \`${k}\` | ${docs[k]} |`);
  return ["| code | result | meaning |", "|---|---|---|", ...rows].join("\n");
}

/** The coverage codes (core/coverage/rules.ts): docs/coverage.md holds this table. */
export function coverageCodesTable() {
  const rows = COVERAGE_RULES.map((r) => `| ${r.code} | \`${r.id}\` | ${r.severity} | ${r.doc.replace(/\|/g, "\\|")} |`);
  return ["| code | id | severity | meaning |", "|---|---|---|---|", ...rows].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${rulesTable()}\n\n${proofCodesTable()}\n\n${coverageCodesTable()}\n`);
}
