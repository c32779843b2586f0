import { breaksAll, breaksCompare, breaksEmpty, breaksPair, countCeiling, itemsOf, unknownSpec, type Item } from "./check";
import { append, appendAll, concat, mapGet, mapHas, mapSet } from "./intrinsics";
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
      case "allSameValue":
        append(this.#parts, spec.kind === "distinct" ? distinctPart(spec.relation, spec.key, contract) : sharedPart(spec.relation, spec.key, contract));
        return;
      case "sharesValueWith":
      case "finalAll":
      case "finalAt":
        return; // not decidable on a prefix: `check` decides it when the run ends
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

/**
 * `distinct`: the first index of each key seen (a Map: SameValueZero is `===` except for NaN,
 * which equals nothing under `===` and so is never entered). A new item conflicts with the
 * earliest item of its key; the violation reported is the first pair in `check`'s order.
 */
function distinctPart(relation: RelationData, key: (item: any) => unknown, contract: string | undefined): Part {
  const seen: Item[] = [];
  const firstOf = new Map<unknown, number>();
  return {
    violation(next) {
      const items = itemsOf(relation, next);
      let best: { a: number; b: number; itemA: Item; itemB: Item; key: unknown } | undefined;
      const local = new Map<unknown, number>();
      for (let j = 0; j < items.length; j++) {
        const k = key(items[j]!.value);
        const b = seen.length + j;
        if (k === k) {
          const earlier = mapGet(firstOf, k);
          const a = earlier !== undefined ? earlier : mapGet(local, k);
          if (a !== undefined) {
            if (!best || a < best.a) {
              best = { a, b, itemA: a < seen.length ? seen[a]! : items[a - seen.length]!, itemB: items[j]!, key: k };
            }
          } else mapSet(local, k, b);
        }
      }
      return best ? breaksPair(true, best.itemA, best.itemB, best.key, best.key, contract) : undefined;
    },
    absorb(next) {
      const items = itemsOf(relation, next);
      for (let j = 0; j < items.length; j++) {
        const k = key(items[j]!.value);
        if (k === k && !mapHas(firstOf, k)) mapSet(firstOf, k, seen.length);
        append(seen, items[j]!);
      }
    },
  };
}

/**
 * `allSameValue`: with no violation so far every item's key is the first item's, so the first
 * violating pair is (first item, first new item whose key differs from it).
 */
function sharedPart(relation: RelationData, key: (item: any) => unknown, contract: string | undefined): Part {
  let first: { item: Item; key: unknown } | undefined;
  return {
    violation(next) {
      const items = itemsOf(relation, next);
      let anchor = first;
      for (let j = 0; j < items.length; j++) {
        const k = key(items[j]!.value);
        if (!anchor) anchor = { item: items[j]!, key: k };
        else if (anchor.key !== k) return breaksPair(false, anchor.item, items[j]!, anchor.key, k, contract);
      }
      return undefined;
    },
    absorb(next) {
      if (first) return;
      const items = itemsOf(relation, next);
      if (items.length > 0) first = { item: items[0]!, key: key(items[0]!.value) };
    },
  };
}
