/**
 * Coverage codes as data (docs/coverage.md), stable like the rule and proof codes: `clauz3
 * explain`, SARIF metadata and the generated code table read them from here. Codes 93040–93049
 * belong to coverage.
 */
import type { RuleExample } from "../rules";

export const COVERAGE_CODES = {
  /** A used library's policy requires a contract the program does not state (error on `guarantees`). */
  "coverage-required-gap": 93040,
  /** A used library none of whose contracts the program states, without `noGuarantees(lib)` (warning on `guarantees`). */
  "coverage-silent-gap": 93041,
  /** A used library's policy recommends a contract the program does not state (editor suggestion). */
  "coverage-recommended-gap": 93042,
  /** A manifest's `coverage` names a tool or contract the library does not have, or a required contract that takes arguments (error on the field in `clauz3.json`). */
  "coverage-policy": 93043,
} as const;

export type CoverageCodeId = keyof typeof COVERAGE_CODES;

export interface CoverageRule {
  readonly code: number;
  readonly id: CoverageCodeId;
  readonly severity: "error" | "warning" | "suggestion";
  readonly doc: string;
  readonly example?: RuleExample;
}

export const COVERAGE_RULES: readonly CoverageRule[] = [
  {
    code: COVERAGE_CODES["coverage-required-gap"],
    id: "coverage-required-gap",
    severity: "error",
    doc: "The program uses a library (a `coverage.whenUsed` tool is called on a path the prover finds reachable) whose manifest requires a contract the program does not state in `guarantees`. The required contract is proved anyway, but the reviewer approves what the program states: add it to `guarantees`.",
  },
  {
    code: COVERAGE_CODES["coverage-silent-gap"],
    id: "coverage-silent-gap",
    severity: "warning",
    doc: "The program uses a library that declares a coverage policy but states none of its contracts: a reviewer would approve it without a word about that library. State a contract of the library, or list `noGuarantees(lib)` (with `import * as lib from \"…/trusted/…\"`) to say it promises nothing about it.",
  },
  {
    code: COVERAGE_CODES["coverage-recommended-gap"],
    id: "coverage-recommended-gap",
    severity: "suggestion",
    doc: "The program uses a library whose manifest recommends a contract the program does not state (editor suggestion; not a problem for `check`).",
  },
  {
    code: COVERAGE_CODES["coverage-policy"],
    id: "coverage-policy",
    severity: "error",
    doc: "A library's `coverage` in `clauz3.json` names a tool or contract the library does not have, or a `required` contract that takes arguments (a required contract is proved as written, so it takes none). Reported on the field; a program that uses the library gets a required gap until it is fixed.",
    example: { file: "tools/payments/clauz3.json", code: `{ "title": "Payments", "summary": "Charge cards.", "coverage": { "required": [⟦"chargesAtMost"⟧] } }\n` },
  },
];
