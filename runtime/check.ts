import { Event } from "./event";
import { assertIntrinsicsIntact } from "./integrity";
import { ReflectGetPrototypeOf, StringOf, append, appendAll, concat, isInstance, join, map, show } from "./intrinsics";
import { checkFinal } from "./final";
import { ToolCall, type Occurrence } from "./occurrence";
import type { Comparison, ContractSpec, RelationData, Violation } from "./spec-data";

// Every loop here is indexed and every built-in comes from ./intrinsics: a program that replaces
// `Array.prototype.filter` or `Symbol.hasInstance` cannot change what is counted or matched.

export interface Item {
  readonly occurrence: Occurrence;
  readonly value: unknown;
}

/** The items of a relation in a trace, with the value its predicates see. */
export function itemsOf(relation: RelationData, trace: readonly Occurrence[]): Item[] {
  const out: Item[] = [];
  const source = relation.source;
  const filters = relation.filters;
  for (let t = 0; t < trace.length; t++) {
    const occurrence = trace[t]!;
    let value: unknown;
    if (source.kind === "event") {
      if (!isInstance(occurrence, Event) || !isInstance(occurrence, source.eventClass)) continue;
      value = occurrence;
    } else {
      if (!isInstance(occurrence, ToolCall) || (occurrence as ToolCall).tool !== source.tool) continue;
      value = (occurrence as ToolCall).fields;
    }
    let kept = true;
    for (let f = 0; f < filters.length && kept; f++) {
      const filter = filters[f]!;
      kept = !!filter(value);
    }
    if (kept) append(out, { occurrence, value });
  }
  return out;
}

const ObjectKeys = Object.keys;

/**
 * `Read("/a")` or `pay(to="bob", amount=5)`, like the classes' `toString`, but with the captured
 * built-ins: a program that replaces `Read.prototype.toString` cannot change what a message says.
 */
function render(occurrence: Occurrence): string {
  if (isInstance(occurrence, ToolCall)) {
    const call = occurrence as ToolCall;
    const keys = ObjectKeys(call.fields);
    return `${call.toolName}(${join(map(keys, (k) => `${k}=${show(call.fields[k])}`), ", ")})`;
  }
  const event = occurrence as unknown as Record<string, unknown>;
  const keys = ObjectKeys(event);
  const ctor = (ReflectGetPrototypeOf(event) as { constructor?: { name?: unknown } } | null)?.constructor;
  return `${StringOf(ctor?.name)}(${join(map(keys, (k) => show(event[k])), ", ")})`;
}

function describe(relation: RelationData): string {
  const s = relation.source;
  const base = s.kind === "event" ? StringOf(s.eventClass.name) : `effect(${s.toolName})`;
  return relation.filters.length > 0 ? `${base}.where(…)` : base;
}

/** The violation of `all` by one item. */
export function breaksAll(relation: RelationData, item: Item, contract: string | undefined): Violation {
  return { contract, message: `${render(item.occurrence)} breaks ${describe(relation)}.all(…)`, witnesses: [item.occurrence] };
}

/** The violation of `empty` by one item. */
export function breaksEmpty(relation: RelationData, item: Item, contract: string | undefined): Violation {
  return { contract, message: `${render(item.occurrence)} is performed but ${describe(relation)} must be empty`, witnesses: [item.occurrence] };
}

/** The violation of `distinct` (same keys) or `allSameValue` (different keys) by two items. */
export function breaksPair(distinct: boolean, a: Item, b: Item, keyA: unknown, keyB: unknown, contract: string | undefined): Violation {
  const first = render(a.occurrence);
  const second = render(b.occurrence);
  return {
    contract,
    message: distinct
      ? `${first} and ${second} share the key ${show(keyA)}`
      : `${first} and ${second} have different keys ${show(keyA)} and ${show(keyB)}`,
    witnesses: [a.occurrence, b.occurrence],
  };
}

/** The violation of `sharesValueWith`: no item of the left relation has the key of an item of the right one. */
export function breaksJoin(spec: Extract<ContractSpec, { kind: "sharesValueWith" }>, left: readonly Item[], right: readonly Item[], contract: string | undefined): Violation {
  const counts = `${StringOf(left.length)} item(s) on the left, ${StringOf(right.length)} on the right`;
  return {
    contract,
    message: `no item of ${describe(spec.relation)} has the key of an item of ${describe(spec.other)} (${counts}), but ${describe(spec.relation)}.sharesValueWith(${describe(spec.other)}, …) needs a pair`,
    witnesses: concat(occurrences(left), occurrences(right)),
  };
}

/** Whether some left item and some right item have the same key (`===`; NaN matches nothing). */
function joined(spec: Extract<ContractSpec, { kind: "sharesValueWith" }>, left: readonly Item[], right: readonly Item[]): boolean {
  const key = spec.key;
  const rightKeys = map(right, (i) => key(i.value));
  for (let a = 0; a < left.length; a++) {
    const k = key(left[a]!.value);
    for (let b = 0; b < rightKeys.length; b++) if (k === rightKeys[b]) return true;
  }
  return false;
}

/** The violation of a comparison of `count()` or `sum(…)`, whose value is `value`. */
export function breaksCompare(spec: Extract<ContractSpec, { kind: "compare" }>, value: number, items: readonly Item[], contract: string | undefined): Violation {
  const what = spec.aggregate.kind === "count" ? "count()" : "sum(…)";
  return {
    contract,
    message: `${describe(spec.relation)}.${what} is ${StringOf(value)}, expected ${spec.comparison}(${join(spec.bounds, ", ")})`,
    witnesses: occurrences(items),
  };
}

/** A specification of a kind the relation algebra does not build: never holds. */
export function unknownSpec(spec: { readonly kind?: unknown }, contract: string | undefined): Violation {
  return { contract, message: `${show(spec.kind)} is not a specification the relation algebra builds`, witnesses: [] };
}

function holds(comparison: Comparison, v: number, bounds: readonly number[]): boolean {
  switch (comparison) {
    case "atMost": return v <= bounds[0]!;
    case "atLeast": return v >= bounds[0]!;
    case "lessThan": return v < bounds[0]!;
    case "greaterThan": return v > bounds[0]!;
    case "equals": return v === bounds[0];
    case "between": return bounds[0]! <= v && v <= bounds[1]!;
    default: return false; // not a comparison the relation algebra builds: never holds
  }
}

function occurrences(items: readonly Item[]): Occurrence[] {
  return map(items, (i) => i.occurrence);
}

/** `count()` or `sum(…)` of a relation in a trace, compared with its bounds: the value and whether `test` holds. */
function compare(
  spec: Extract<ContractSpec, { kind: "compare" }>,
  trace: readonly Occurrence[],
  contract: string | undefined,
  test: (value: number) => boolean,
): Violation[] {
  const items = itemsOf(spec.relation, trace);
  const agg = spec.aggregate;
  let value: number;
  if (agg.kind === "count") value = items.length;
  else {
    const selector = agg.selector;
    value = 0;
    for (let i = 0; i < items.length; i++) value = value + selector(items[i]!.value);
  }
  return test(value) ? [] : [breaksCompare(spec, value, items, contract)];
}

/**
 * Evaluate a specification on a concrete trace (events and tool calls, in the order performed).
 * Returns every violation; an empty array means the trace satisfies the specification. These are
 * the semantics the prover decides for all traces of a program. Throws `IntrinsicsChangedError`
 * instead of answering while a built-in differs from what clauz3 captured at load (predicates
 * would run on the changed one).
 */
export function check(spec: ContractSpec, trace: readonly Occurrence[], contract?: string): Violation[] {
  assertIntrinsicsIntact();
  const violations = checkSpec(spec, trace, contract);
  assertIntrinsicsIntact();
  return violations;
}

/** `check` without the built-in checks around it (the backstop makes them once per call). */
export function checkSpec(spec: ContractSpec, trace: readonly Occurrence[], contract?: string): Violation[] {
  switch (spec.kind) {
    case "none":
      return [];
    case "allOf": {
      const out: Violation[] = [];
      for (let i = 0; i < spec.specs.length; i++) appendAll(out, checkSpec(spec.specs[i]!, trace, contract));
      return out;
    }
    case "guarantee":
      return checkSpec(spec.spec, trace, spec.contract);
    case "all": {
      const out: Violation[] = [];
      const items = itemsOf(spec.relation, trace);
      const predicate = spec.predicate;
      for (let i = 0; i < items.length; i++) if (!predicate(items[i]!.value)) append(out, breaksAll(spec.relation, items[i]!, contract));
      return out;
    }
    case "empty":
      return map(itemsOf(spec.relation, trace), (i) => breaksEmpty(spec.relation, i, contract));
    case "compare":
      return compare(spec, trace, contract, (v) => holds(spec.comparison, v, spec.bounds));
    case "finalAll": case "finalAt":
      return checkFinal(spec, trace, contract);
    case "sharesValueWith": {
      const left = itemsOf(spec.relation, trace);
      const right = itemsOf(spec.other, trace);
      return joined(spec, left, right) ? [] : [breaksJoin(spec, left, right, contract)];
    }
    case "distinct":
    case "allSameValue": {
      const items = itemsOf(spec.relation, trace);
      const key = spec.key;
      const keys = map(items, (i) => key(i.value));
      const distinct = spec.kind === "distinct";
      const out: Violation[] = [];
      for (let a = 0; a < items.length; a++) {
        for (let b = a + 1; b < items.length; b++) {
          if ((keys[a] === keys[b]) === distinct) append(out, breaksPair(distinct, items[a]!, items[b]!, keys[a], keys[b], contract));
        }
      }
      return out;
    }
    default:
      return [unknownSpec(spec, contract)];
  }
}

/** The largest count a count comparison allows, or undefined when it sets no upper bound. */
export function countCeiling(spec: Extract<ContractSpec, { kind: "compare" }>): ((count: number) => boolean) | undefined {
  if (spec.aggregate.kind !== "count") return undefined; // a sum of arbitrary numbers can go down again
  const a = spec.bounds[0]!;
  const b = spec.bounds[1]!;
  switch (spec.comparison) {
    case "atMost": return (n) => n <= a;
    case "lessThan": return (n) => n < a;
    case "equals": return (n) => n <= a;
    case "between": return (n) => n <= b;
    default: return undefined;
  }
}

/** Whether a count comparison also sets a lower bound that an empty run does not meet by itself. */
function countFloor(spec: Extract<ContractSpec, { kind: "compare" }>): boolean {
  const lo = spec.bounds[0]!;
  switch (spec.comparison) {
    case "atLeast": case "equals": case "between": return !(lo <= 0);
    case "greaterThan": return !(lo < 0);
    default: return false;
  }
}

/**
 * The violations of the parts of a specification that can be decided on a prefix of a run (they
 * stay broken however the run goes on): `all`, `empty`, `distinct`, `allSameValue`, and the upper
 * side of a count (`atMost`, `lessThan`, `equals`, `between`). Inside `allOf` each part is taken
 * on its own, so `allOf(Send.all(…), Pay.sum(…).atMost(…))` still checks the `all` before each
 * call. Sums and lower bounds wait for the end of the run (`check`).
 */
export function checkPrefix(spec: ContractSpec, trace: readonly Occurrence[], contract?: string): Violation[] {
  switch (spec.kind) {
    case "allOf": {
      const out: Violation[] = [];
      for (let i = 0; i < spec.specs.length; i++) appendAll(out, checkPrefix(spec.specs[i]!, trace, contract));
      return out;
    }
    case "guarantee":
      return checkPrefix(spec.spec, trace, spec.contract);
    case "compare": {
      const ceiling = countCeiling(spec);
      return ceiling ? compare(spec, trace, contract, ceiling) : [];
    }
    case "sharesValueWith": case "finalAll": case "finalAt":
      return []; // a pair may still come, a key may still change: only the whole run decides
    default:
      return checkSpec(spec, trace, contract);
  }
}

/**
 * Whether a specification says something only a complete run can establish: a sum (it can go up
 * and down), a count's lower bound above zero (`atLeast`, `greaterThan`, the lower side of
 * `equals` and `between`), a join (`sharesValueWith`: the pair may come with the last call), or
 * a fluent's final state (`final.all`, `final.at(k).equals(v)`: the last call may write the key).
 */
export function needsCompleteRun(spec: ContractSpec): boolean {
  switch (spec.kind) {
    case "none": case "all": case "empty": case "distinct": case "allSameValue":
      return false;
    case "sharesValueWith": case "finalAll": case "finalAt":
      return true;
    case "allOf":
      for (let i = 0; i < spec.specs.length; i++) if (needsCompleteRun(spec.specs[i]!)) return true;
      return false;
    case "guarantee":
      return needsCompleteRun(spec.spec);
    case "compare":
      return spec.aggregate.kind === "sum" || countFloor(spec);
    default:
      return true;
  }
}

/** True when the whole specification can be checked on a prefix of a run (safety), so the backstop decides it before each call. */
export function isPrefixClosed(spec: ContractSpec): boolean {
  return !needsCompleteRun(spec);
}

/** A short name for a guarantee in messages: its contract, or the relation expression. */
export function nameOf(spec: ContractSpec): string {
  switch (spec.kind) {
    case "guarantee": return spec.contract;
    case "none": return "noGuarantees()";
    case "allOf": return `allOf(${join(map(spec.specs, nameOf), ", ")})`;
    case "all": return `${describe(spec.relation)}.all(…)`;
    case "empty": return `${describe(spec.relation)}.empty()`;
    case "distinct": case "allSameValue": return `${describe(spec.relation)}.${spec.kind}(…)`;
    case "sharesValueWith": return `${describe(spec.relation)}.sharesValueWith(${describe(spec.other)}, …)`;
    case "finalAll": return `${StringOf(spec.fluent.name)}.final.all(…)`;
    case "finalAt": return `${StringOf(spec.fluent.name)}.final.at(${show(spec.key)}).equals(${show(spec.value)})`;
    case "compare":
      return `${describe(spec.relation)}.${spec.aggregate.kind === "count" ? "count()" : "sum(…)"}.${spec.comparison}(${join(spec.bounds, ", ")})`;
    default: return show((spec as { kind?: unknown }).kind);
  }
}
