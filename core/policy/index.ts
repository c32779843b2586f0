/** Approval policies (docs/policies.md): read a policy, bind it to a layer, evaluate it for a program. */
export * from "./types";
export { parseClause, ClauseSyntaxError, type ParsedClause } from "./clause";
export { parsePolicy, readPolicyFile, policySchema } from "./load";
export { resolvePolicy } from "./resolve";
export { evaluatePolicy, fires, type Entails } from "./evaluate";
export { augmentProgram, entailmentOf, proveWithClauses, AugmentError, type ClauseProofInput } from "./prove";
