import { Event } from "./event";
import { ToolCall, type Occurrence } from "./occurrence";
import type { ContractSpec, RelationData, Violation } from "./spec-data";

/** The items of a relation in a trace, with the value its predicates see. */
function itemsOf(relation: RelationData, trace: readonly Occurrence[]): { occurrence: Occurrence; value: unknown }[] {
  const out: { occurrence: Occurrence; value: unknown }[] = [];
  const source = relation.source;
  for (const occurrence of trace) {
    let value: unknown;
    if (source.kind === "event") {
      if (!(occurrence instanceof Event) || !(occurrence instanceof source.eventClass)) continue;
      value = occurrence;
    } else {
      if (!(occurrence instanceof ToolCall) || occurrence.tool !== source.tool) continue;
      value = occurrence.fields;
    }
    if (relation.filters.every((f) => Boolean(f(value)))) out.push({ occurrence, value });
  }
  return out;
}

function describe(relation: RelationData): string {
  const s = relation.source;
  const base = s.kind === "event" ? s.eventClass.name : `effect(${s.toolName})`;
  return relation.filters.length > 0 ? `${base}.where(…)` : base;
}

const comparisons = {
  atMost: (v: number, [n]: readonly number[]) => v <= n!,
  atLeast: (v: number, [n]: readonly number[]) => v >= n!,
  lessThan: (v: number, [n]: readonly number[]) => v < n!,
  greaterThan: (v: number, [n]: readonly number[]) => v > n!,
  equals: (v: number, [n]: readonly number[]) => v === n,
  between: (v: number, [lo, hi]: readonly number[]) => lo! <= v && v <= hi!,
} as const;

/**
 * Evaluate a specification on a concrete trace (events and tool calls, in the order performed).
 * Returns every violation; an empty array means the trace satisfies the specification. These are
 * the semantics the prover decides for all traces of a program.
 */
export function check(spec: ContractSpec, trace: readonly Occurrence[], contract?: string): Violation[] {
  switch (spec.kind) {
    case "none":
      return [];
    case "allOf":
      return spec.specs.flatMap((s) => check(s, trace, contract));
    case "guarantee":
      return check(spec.spec, trace, spec.contract);
    case "all":
      return itemsOf(spec.relation, trace)
        .filter((i) => !spec.predicate(i.value))
        .map((i) => ({ contract, message: `${String(i.occurrence)} breaks ${describe(spec.relation)}.all(…)`, witnesses: [i.occurrence] }));
    case "empty":
      return itemsOf(spec.relation, trace).map((i) => ({
        contract,
        message: `${String(i.occurrence)} is performed but ${describe(spec.relation)} must be empty`,
        witnesses: [i.occurrence],
      }));
    case "compare": {
      const items = itemsOf(spec.relation, trace);
      const agg = spec.aggregate;
      const value = agg.kind === "count" ? items.length : items.reduce((acc, i) => acc + agg.selector(i.value), 0);
      if (comparisons[spec.comparison](value, spec.bounds)) return [];
      const what = agg.kind === "count" ? "count()" : "sum(…)";
      return [{
        contract,
        message: `${describe(spec.relation)}.${what} is ${value}, expected ${spec.comparison}(${spec.bounds.join(", ")})`,
        witnesses: items.map((i) => i.occurrence),
      }];
    }
    case "distinct":
    case "sharesValue": {
      const items = itemsOf(spec.relation, trace);
      const keys = items.map((i) => spec.key(i.value));
      const out: Violation[] = [];
      for (let a = 0; a < items.length; a++) {
        for (let b = a + 1; b < items.length; b++) {
          const same = keys[a] === keys[b];
          if (same === (spec.kind === "distinct")) {
            out.push({
              contract,
              message: spec.kind === "distinct"
                ? `${String(items[a]!.occurrence)} and ${String(items[b]!.occurrence)} share the key ${JSON.stringify(keys[a])}`
                : `${String(items[a]!.occurrence)} and ${String(items[b]!.occurrence)} have different keys ${JSON.stringify(keys[a])} and ${JSON.stringify(keys[b])}`,
              witnesses: [items[a]!.occurrence, items[b]!.occurrence],
            });
          }
        }
      }
      return out;
    }
  }
}

/** True when the specification can be checked on a prefix of a run (safety), so the runtime backstop may enforce it before each call. */
export function isPrefixClosed(spec: ContractSpec): boolean {
  switch (spec.kind) {
    case "none": case "all": case "empty": case "distinct": case "sharesValue":
      return true;
    case "allOf":
      return spec.specs.every(isPrefixClosed);
    case "guarantee":
      return isPrefixClosed(spec.spec);
    case "compare":
      // A count only grows; a sum of arbitrary numbers does not, so it cannot be enforced early.
      return spec.aggregate.kind === "count" && (spec.comparison === "atMost" || spec.comparison === "lessThan");
  }
}
