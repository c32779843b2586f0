/** `clauz3/spec`: contracts and the relation algebra. */
export { contract, noGuarantees, allOf } from "./contract";
export type { Contract, ContractOptions, ContractInfo } from "./contract";
export { effect } from "./tool";
export { Relation, Aggregate } from "./relation";
export { check } from "./check";
export type { ContractSpec, Guarantee, Violation, Comparison } from "./spec-data";
