import { DECLARATION } from "./brand";
import { ObjectFreeze } from "./intrinsics";
import type { ContractSpec, FluentData } from "./spec-data";

/**
 * Fluents: what holds when a run ends. A fluent is a map from keys to values, `initial` at every
 * key until a tool's `updates(...)` sets one; updates apply in program order (the last write to a
 * key wins), unlike events, which are a bag.
 *
 *     export const Locked = fluent("Locked", { key: String, value: Boolean, initial: false });
 *     export const lock = trusted(updates((door: string) => Locked.set(door, true)), function lock(door: string): void {});
 *     contract(…, (): ContractSpec => Locked.final.at("front").equals(true));
 */

/** The type tags a fluent's key and value are declared with: `String`, `Number`, `Boolean` (or their names, `"string"`, …). */
export type FluentTag = StringConstructor | NumberConstructor | BooleanConstructor | "string" | "number" | "boolean";
/** The value type a tag stands for. */
export type TagValue<T extends FluentTag> = T extends StringConstructor | "string" ? string : T extends NumberConstructor | "number" ? number : boolean;

/** The value a key holds after the call that last wrote it failed: the tool may or may not have changed it. */
export const UNKNOWN_VALUE: unique symbol = Symbol("clauz3.unknownFluentValue");

/** One write of a fluent's key, recorded after the call's events (an occurrence of the trace). */
export class FluentUpdate {
  readonly fluent: FluentData;
  readonly key: unknown;
  /** The written value, or `UNKNOWN_VALUE` when the call that wrote it failed. */
  readonly value: unknown;
  constructor(fluent: FluentData, key: unknown, value: unknown) {
    this.fluent = fluent;
    this.key = key;
    this.value = value;
    ObjectFreeze(this);
  }
  toJSON(): Record<string, unknown> {
    return { fluent: this.fluent.name, key: this.key, value: this.value === UNKNOWN_VALUE ? "(unknown: the call failed)" : this.value };
  }
  toString(): string {
    return `${this.fluent.name}.set(${JSON.stringify(this.key)}, ${this.value === UNKNOWN_VALUE ? "unknown" : JSON.stringify(this.value)})`;
  }
}

/** One entry of a fluent's final state, as `final.all`'s predicate sees it. */
export interface FluentEntry<K, V> {
  readonly key: K;
  readonly value: V;
}

/** A fluent's state when the run ends. */
export class FinalState<K, V> {
  readonly #fluent: Fluent<K, V>;
  constructor(fluent: Fluent<K, V>) {
    this.#fluent = fluent;
  }
  /** Every key the run wrote satisfies `predicate` with its final value (keys never written keep `initial`). */
  all(predicate: (entry: FluentEntry<K, V>) => boolean): ContractSpec {
    if (typeof predicate !== "function") throw new TypeError("clauz3: final.all(predicate) expects a function");
    return ObjectFreeze({ kind: "finalAll" as const, fluent: this.#fluent, predicate: predicate as (entry: FluentEntry<unknown, unknown>) => boolean });
  }
  /** The final value at one key. */
  at(key: K): { equals(value: V): ContractSpec } {
    const fluent = this.#fluent;
    return ObjectFreeze({
      equals(value: V): ContractSpec {
        return ObjectFreeze({ kind: "finalAt" as const, fluent, key, value });
      },
    });
  }
}

/** A fluent declared by a trusted layer: `fluent(name, { key, value, initial })`. */
export class Fluent<K, V> implements FluentData {
  readonly name: string;
  readonly initial: V;
  readonly final: FinalState<K, V>;
  constructor(name: string, initial: V) {
    this.name = name;
    this.initial = initial;
    this.final = new FinalState(this);
    ObjectFreeze(this);
  }
  /** A write of `value` at `key`: what an `updates(...)` builder returns. */
  set(key: K, value: V): FluentUpdate {
    return new FluentUpdate(this, key, value);
  }
}

const TAGS: ReadonlyMap<unknown, string> = new Map<unknown, string>([[String, "string"], [Number, "number"], [Boolean, "boolean"], ["string", "string"], ["number", "number"], ["boolean", "boolean"]]);

/**
 * Declare a fluent (trusted layer only, `export const Name = fluent("Name", {...})` at module top
 * level): keys and values are strings, numbers or booleans (`String`, `Number`, `Boolean`), and
 * `initial` is a literal of the value type.
 */
export function fluent<KT extends FluentTag, VT extends FluentTag>(
  name: string,
  declaration: { readonly key: KT; readonly value: VT; readonly initial: TagValue<VT> },
): Fluent<TagValue<KT>, TagValue<VT>> {
  if (typeof name !== "string" || name === "") throw new TypeError("clauz3: fluent(name, { key, value, initial }) expects a name");
  const key = TAGS.get(declaration?.key);
  const value = TAGS.get(declaration?.value);
  if (!key || !value) throw new TypeError(`clauz3: fluent ${name}: key and value are String, Number or Boolean`);
  if (typeof declaration.initial !== value) throw new TypeError(`clauz3: fluent ${name}: initial must be a ${value}`);
  return new Fluent(name, declaration.initial);
}

/** What an `updates` builder returns: one write or an array of them. */
export type Updated = FluentUpdate | readonly FluentUpdate[];

/** `updates(builder)`: the fluent writes a trusted tool makes. At most one per tool. */
export interface UpdatesDeclaration {
  readonly [DECLARATION]: "updates";
  readonly builder: (...params: any[]) => Updated;
}

/**
 * Declare the fluent writes a tool makes, like `performs`: the builder's parameters name the tool's
 * parameters and it returns `Fluent.set(key, value)` (or an array of them), each argument a builder
 * parameter or a literal.
 */
export function updates(builder: (...params: any[]) => Updated): UpdatesDeclaration {
  if (typeof builder !== "function") throw new TypeError("clauz3: updates(builder) expects a function");
  return ObjectFreeze({ [DECLARATION]: "updates" as const, builder });
}
