import type { Occurrence } from "./occurrence";

/** Comparison of an aggregate (`count()` or `sum()`) with literal bounds. */
export type Comparison = "atMost" | "atLeast" | "lessThan" | "greaterThan" | "equals" | "between";

/** What a relation ranges over: the events of a class (and its subclasses), or one tool's calls. */
export type RelationSource =
  | { readonly kind: "event"; readonly eventClass: abstract new (...args: any[]) => object }
  | { readonly kind: "effect"; readonly tool: Function; readonly toolName: string };

export interface RelationData {
  readonly source: RelationSource;
  /** `where` filters, applied in order. */
  readonly filters: readonly ((item: any) => boolean)[];
}

/** A fluent as specifications refer to it (runtime/fluent.ts): identity is the object. */
export interface FluentData {
  readonly name: string;
  readonly initial: unknown;
}

/** A contract specification as data: what `Read.all(...)`, `allOf(...)`, a contract call build. */
export type ContractSpec =
  | { readonly kind: "all"; readonly relation: RelationData; readonly predicate: (item: any) => boolean }
  | { readonly kind: "empty"; readonly relation: RelationData }
  | {
      readonly kind: "compare";
      readonly relation: RelationData;
      readonly aggregate: { readonly kind: "count" } | { readonly kind: "sum"; readonly selector: (item: any) => number };
      readonly comparison: Comparison;
      readonly bounds: readonly number[];
    }
  | { readonly kind: "distinct"; readonly relation: RelationData; readonly key: (item: any) => unknown }
  /** Every two items have the same key (`allSameValue`, formerly `sharesValue`). */
  | { readonly kind: "allSameValue"; readonly relation: RelationData; readonly key: (item: any) => unknown }
  /** Some item of `relation` and some item of `other` have the same key (an existential join). */
  | { readonly kind: "sharesValueWith"; readonly relation: RelationData; readonly other: RelationData; readonly key: (item: any) => unknown }
  /** Every key the run wrote satisfies `predicate` with its final value (runtime/fluent.ts). */
  | { readonly kind: "finalAll"; readonly fluent: FluentData; readonly predicate: (entry: { readonly key: unknown; readonly value: unknown }) => boolean }
  /** The final value at `key` is `value` (`===`). */
  | { readonly kind: "finalAt"; readonly fluent: FluentData; readonly key: unknown; readonly value: unknown }
  | { readonly kind: "allOf"; readonly specs: readonly ContractSpec[] }
  | { readonly kind: "none" }
  | Guarantee;

/** A contract applied to arguments: what an agent program lists in `guarantees`. */
export interface Guarantee {
  readonly kind: "guarantee";
  /** Contract name (export name when known). */
  readonly contract: string;
  readonly args: readonly unknown[];
  /** The sentence from the description template, when the contract has one. */
  readonly description: string | undefined;
  /** The specification the contract body returns (computed on first use). */
  readonly spec: ContractSpec;
}

/** A violation found when a specification is evaluated on a concrete trace. */
export interface Violation {
  /** The guarantee (innermost contract call) that is broken, if any. */
  readonly contract: string | undefined;
  readonly message: string;
  /** The occurrences that witness the violation (empty for `atLeast`-style failures). */
  readonly witnesses: readonly Occurrence[];
}
