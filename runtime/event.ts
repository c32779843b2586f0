import type { Aggregate } from "./relation";
import { Relation, setEventRelations } from "./relation";
import type { ContractSpec } from "./spec-data";

const relations = new WeakMap<Function, Relation<any>>();

/** A concrete or abstract event class; `T` is its instance type. */
export type EventClass<T extends Event = Event> = abstract new (...args: any[]) => T;

function relationOf<T extends Event>(cls: EventClass<T>): Relation<T> {
  let r = relations.get(cls);
  if (!r) {
    r = new Relation<T>(Object.freeze({ kind: "event" as const, eventClass: cls }));
    relations.set(cls, r);
  }
  return r;
}

/**
 * Base class of every event. Subclass it with `readonly` constructor parameters as fields:
 *
 *     export class Read extends Event { constructor(readonly path: string) { super(); } }
 *
 * The class is also a relation over its events (subclasses included): `Read.all(...)`,
 * `Read.count().atMost(3)`. Identity is the class declaration, never its name.
 */
export abstract class Event {
  /** Field names and values, in declaration order. */
  fields(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(this)) out[key] = (this as Record<string, unknown>)[key];
    return out;
  }
  /** Same class (the declaration, not the name) and equal fields. */
  equals(other: unknown): boolean {
    if (!(other instanceof Event) || other.constructor !== this.constructor) return false;
    const a = this.fields();
    const b = other.fields();
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.is(a[k], b[k]) || a[k] === b[k]);
  }
  /** `{ "event": "Read", "path": "…" }` */
  toJSON(): Record<string, unknown> {
    return { event: this.constructor.name, ...this.fields() };
  }
  toString(): string {
    const args = Object.values(this.fields()).map((v) => JSON.stringify(v)).join(", ");
    return `${this.constructor.name}(${args})`;
  }

  /** Every event of this class satisfies `predicate`. */
  static all<T extends Event>(this: EventClass<T>, predicate: (event: T) => boolean): ContractSpec {
    return relationOf(this).all(predicate);
  }
  /** The events of this class satisfying `predicate`, as a relation. */
  static where<T extends Event>(this: EventClass<T>, predicate: (event: T) => boolean): Relation<T> {
    return relationOf(this).where(predicate);
  }
  /** No event of this class is performed. */
  static empty<T extends Event>(this: EventClass<T>): ContractSpec {
    return relationOf(this).empty();
  }
  /** The number of events of this class. */
  static count<T extends Event>(this: EventClass<T>): Aggregate {
    return relationOf(this).count();
  }
  /** The sum of `selector` over events of this class. */
  static sum<T extends Event>(this: EventClass<T>, selector: (event: T) => number): Aggregate {
    return relationOf(this).sum(selector);
  }
  /** No two events of this class have the same `key`. */
  static distinct<T extends Event>(this: EventClass<T>, key: (event: T) => unknown): ContractSpec {
    return relationOf(this).distinct(key);
  }
  /** All events of this class have the same `key`. */
  static allSameValue<T extends Event>(this: EventClass<T>, key: (event: T) => unknown): ContractSpec {
    return relationOf(this).allSameValue(key);
  }
  /** @deprecated Renamed `allSameValue` (same meaning); this alias stays for one release. */
  static sharesValue<T extends Event>(this: EventClass<T>, key: (event: T) => unknown): ContractSpec {
    return relationOf(this).allSameValue(key);
  }
  /** Some event of this class and some item of `other` have the same `key`. */
  static sharesValueWith<T extends Event, U>(this: EventClass<T>, other: Relation<U> | (abstract new (...args: any[]) => U), key: (item: T | U) => unknown): ContractSpec {
    return relationOf(this).sharesValueWith(other, key);
  }
}

setEventRelations((cls) => (cls === Event || cls.prototype instanceof Event ? relationOf(cls as EventClass) : undefined));

/** Freeze an event (the runtime does this to every event a tool performs). */
export function freezeEvent<E extends Event>(event: E): E {
  return Object.freeze(event);
}
