import type { Comparison, ContractSpec, RelationData, RelationSource } from "./spec-data";

function freezeSpec<S extends ContractSpec>(spec: S): S {
  return Object.freeze(spec);
}

/**
 * The count or sum of a relation, waiting for a comparison with literal bounds.
 * Every comparison returns a contract specification.
 */
export class Aggregate {
  readonly #relation: RelationData;
  readonly #aggregate: Extract<ContractSpec, { kind: "compare" }>["aggregate"];
  constructor(relation: RelationData, aggregate: Extract<ContractSpec, { kind: "compare" }>["aggregate"]) {
    this.#relation = relation;
    this.#aggregate = aggregate;
  }
  #compare(comparison: Comparison, bounds: number[]): ContractSpec {
    for (const b of bounds) {
      if (typeof b !== "number") throw new TypeError(`clauz3: ${comparison}() expects numbers`);
    }
    return freezeSpec({
      kind: "compare",
      relation: this.#relation,
      aggregate: this.#aggregate,
      comparison,
      bounds: Object.freeze(bounds),
    });
  }
  /** The aggregate is ≤ n. */
  atMost(n: number): ContractSpec { return this.#compare("atMost", [n]); }
  /** The aggregate is ≥ n. */
  atLeast(n: number): ContractSpec { return this.#compare("atLeast", [n]); }
  /** The aggregate is < n. */
  lessThan(n: number): ContractSpec { return this.#compare("lessThan", [n]); }
  /** The aggregate is > n. */
  greaterThan(n: number): ContractSpec { return this.#compare("greaterThan", [n]); }
  /** The aggregate is exactly n. */
  equals(n: number): ContractSpec { return this.#compare("equals", [n]); }
  /** lo ≤ aggregate ≤ hi. */
  between(lo: number, hi: number): ContractSpec { return this.#compare("between", [lo, hi]); }
}

/** The relation of an event class, set by ./event (which imports this module, so this one cannot import it). */
let eventRelation: ((cls: Function) => Relation<any> | undefined) | undefined;
export function setEventRelations(of: (cls: Function) => Relation<any> | undefined): void {
  eventRelation = of;
}

/**
 * A relation: the bag of events of one class (subclasses included), or of one tool's calls,
 * optionally narrowed by `where`. Order does not matter; multiplicity does.
 */
export class Relation<T> {
  readonly data: RelationData;
  constructor(source: RelationSource, filters: readonly ((item: any) => boolean)[] = []) {
    this.data = Object.freeze({ source, filters: Object.freeze([...filters]) });
  }
  /** The sub-relation of items satisfying `predicate`. */
  where(predicate: (item: T) => boolean): Relation<T> {
    return new Relation<T>(this.data.source, [...this.data.filters, predicate]);
  }
  /** Every item satisfies `predicate`. */
  all(predicate: (item: T) => boolean): ContractSpec {
    return freezeSpec({ kind: "all", relation: this.data, predicate });
  }
  /** No item at all. */
  empty(): ContractSpec {
    return freezeSpec({ kind: "empty", relation: this.data });
  }
  /** The number of items (with multiplicity). */
  count(): Aggregate {
    return new Aggregate(this.data, Object.freeze({ kind: "count" as const }));
  }
  /** The sum of `selector` over the items (with multiplicity). */
  sum(selector: (item: T) => number): Aggregate {
    return new Aggregate(this.data, Object.freeze({ kind: "sum" as const, selector }));
  }
  /** No two items have the same `key` (e.g. "nobody emailed twice"). */
  distinct(key: (item: T) => unknown): ContractSpec {
    return freezeSpec({ kind: "distinct", relation: this.data, key });
  }
  /** Every two items have the same `key` (e.g. "all emails go to one address"). */
  allSameValue(key: (item: T) => unknown): ContractSpec {
    return freezeSpec({ kind: "allSameValue", relation: this.data, key });
  }
  /**
   * @deprecated Renamed `allSameValue` (same meaning: every two items have the same `key`); this
   * alias stays for one release. `sharesValueWith` is the join between two relations.
   */
  sharesValue(key: (item: T) => unknown): ContractSpec {
    return this.allSameValue(key);
  }
  /**
   * Some item of this relation and some item of `other` have the same `key` (`===`): "bob and ann
   * received the same message" is
   * `SendEmail.where((e) => e.to === "bob").sharesValueWith(SendEmail.where((e) => e.to === "ann"), (e) => e.body)`.
   * An item may stand on both sides when it passes both relations' filters.
   */
  sharesValueWith<U>(other: Relation<U> | (abstract new (...args: any[]) => U), key: (item: T | U) => unknown): ContractSpec {
    const rel = other instanceof Relation ? other : typeof other === "function" ? eventRelation?.(other) : undefined;
    if (!rel) throw new TypeError("clauz3: sharesValueWith(other, key) expects a relation: an event class, its where(...), or effect(tool)");
    if (typeof key !== "function") throw new TypeError("clauz3: sharesValueWith(other, key) expects a key function");
    return freezeSpec({ kind: "sharesValueWith", relation: this.data, other: rel.data, key });
  }
}
