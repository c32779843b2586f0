/** The clauz3 engine: one place for every rule, used by the transformer, the editor plugin and the CLI. */
export { readLayer, sha256Of } from "./layer/read";
export type { LayerResult } from "./layer/read";
export { toDiagnostic } from "./context";
export type { Clauz3Options, Finding, TypeScript } from "./context";
export { RULES, formatMessage } from "./rules";
export type { Rule, RuleName, RuleExample } from "./rules";
export type * from "./model";
export { parseTemplate, validateTemplate, RENDERER_VERSION } from "./template";
export { proveProgram, guaranteeSentence } from "./prover/prove";
export type * from "./prover/api";
export { readGuarantees, qualifiedCall, literalText, plainValue } from "./guarantees";
export type { GuaranteeModel, GuaranteeList, LiteralValue, BoundArgument } from "./guarantees";
export { Refusal } from "./refusal";
export { PROOF_CODES } from "./rules";
