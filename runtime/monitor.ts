import { breaksAll, breaksCompare, breaksEmpty, breaksPair, countCeiling, itemsOf, unknownSpec, type Item } from "./check";
import { append, appendAll, concat, map } from "./intrinsics";
import type { Occurrence } from "./occurrence";
import type { ContractSpec, RelationData, Violation } from "./spec-data";

/**
 * One prefix-closed part of a guarantee, checked incrementally: what it remembers of the calls
 * already made, and whether a call's occurrences would break it.
 */
interface Part {
  /** The first violation that adding `next` to what was absorbed would cause. */
  violation(next: readonly Occurrence[]): Violation | undefined;
  /** `next` happened. */
  absorb(next: readonly Occurrence[]): void;
}

/**
 * The backstop's check before each call: the prefix-closed parts of the guarantees (those
 * `checkPrefix` evaluates), decided on the new call's occurrences against what the earlier calls
 * left (a count so far, the keys seen so far), so a run of n calls costs O(n) checks for `all`,
 * `empty` and counts, not O(n²). The verdicts are `checkPrefix`'s on the whole trace (the tests
 * compare them); predicates are assumed to answer the same for the same item, as the prover does.
 */
export class PrefixMonitor {
  readonly #parts: Part[] = [];

  constructor(entries: readonly ContractSpec[]) {
    for (let i = 0; i < entries.length; i++) this.#collect(entries[i]!, undefined);
  }

  #collect(spec: ContractSpec, contract: string | undefined): void {
    switch (spec.kind) {
      case "none":
        return;
      case "allOf":
        for (let i = 0; i < spec.specs.length; i++) this.#collect(spec.specs[i]!, contract);
        return;
      case "guarantee":
        return this.#collect(spec.spec, spec.contract);
      case "all": {
        const { relation, predicate } = spec;
        append(this.#parts, stateless(relation, (item) => (predicate(item.value) ? undefined : breaksAll(relation, item, contract))));
        return;
      }
      case "empty": {
        const relation = spec.relation;
        append(this.#parts, stateless(relation, (item) => breaksEmpty(relation, item, contract)));
        return;
      }
      case "compare": {
        const ceiling = countCeiling(spec);
        if (ceiling) append(this.#parts, counted(spec, ceiling, contract));
        return;
      }
      case "distinct":
      case "sharesValue":
        append(this.#parts, paired(spec.relation, spec.key, spec.kind === "distinct", contract));
        return;
      default: {
        const broken = unknownSpec(spec, contract);
        append(this.#parts, { violation: () => broken, absorb: () => undefined });
      }
    }
  }

  /** The first violation that `next` (one call's occurrences, or the calls made at load) would cause. */
  violation(next: readonly Occurrence[]): Violation | undefined {
    for (let i = 0; i < this.#parts.length; i++) {
      const v = this.#parts[i]!.violation(next);
      if (v) return v;
    }
    return undefined;
  }

  /** `next` happened: remember what later checks need. */
  absorb(next: readonly Occurrence[]): void {
    for (let i = 0; i < this.#parts.length; i++) this.#parts[i]!.absorb(next);
  }
}

/** `all` and `empty`: each item is judged on its own, so only new items need judging. */
function stateless(relation: RelationData, judge: (item: Item) => Violation | undefined): Part {
  return {
    violation(next) {
      const items = itemsOf(relation, next);
      for (let i = 0; i < items.length; i++) {
        const v = judge(items[i]!);
        if (v) return v;
      }
      return undefined;
    },
    absorb: () => undefined,
  };
}

/** The upper side of a count: the items so far only grow. */
function counted(spec: Extract<ContractSpec, { kind: "compare" }>, ceiling: (count: number) => boolean, contract: string | undefined): Part {
  const seen: Item[] = [];
  return {
    violation(next) {
      const items = itemsOf(spec.relation, next);
      const count = seen.length + items.length;
      return ceiling(count) ? undefined : breaksCompare(spec, count, concat(seen, items), contract);
    },
    absorb(next) {
      appendAll(seen, itemsOf(spec.relation, next));
    },
  };
}

/** `distinct` / `sharesValue`: a new item is compared with every earlier one and with the other new ones. */
function paired(relation: RelationData, key: (item: any) => unknown, distinct: boolean, contract: string | undefined): Part {
  const seen: Item[] = [];
  const keys: unknown[] = [];
  return {
    violation(next) {
      const items = itemsOf(relation, next);
      if (items.length === 0) return undefined;
      const all = concat(seen, items);
      const allKeys = concat(keys, map(items, (i) => key(i.value)));
      // Pairs (a, b) with a < b in trace order, as `check` enumerates them, restricted to b new.
      for (let a = 0; a < all.length; a++) {
        for (let b = a < seen.length ? seen.length : a + 1; b < all.length; b++) {
          if ((allKeys[a] === allKeys[b]) === distinct) return breaksPair(distinct, all[a]!, all[b]!, allKeys[a], allKeys[b], contract);
        }
      }
      return undefined;
    },
    absorb(next) {
      const items = itemsOf(relation, next);
      appendAll(seen, items);
      appendAll(keys, map(items, (i) => key(i.value)));
    },
  };
}
