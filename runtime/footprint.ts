/**
 * Declarative footprints (seed 003): data, never code, mapping a call's arguments to the resources
 * it reads and writes, so the scheduler (./scheduler) can run calls that commute at the same time.
 *
 * A write-mode selector adds its resource to both sets (writes ⊆ reads, the state-witness rule),
 * and anything that cannot be described resolves to the opaque workspace, which conflicts with
 * every call (fail closed).
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";

/** Whether a selector reads or changes its resource. */
export type Access = "read" | "write";

/** One entry of a footprint: which resource a call touches, found from its arguments. */
export type Selector =
  /** A fixed resource, whatever the arguments. */
  | { readonly kind: "literal"; readonly resource: string; readonly access: Access }
  /** The canonical path in the named argument; `tree`: every path beneath it too. */
  | { readonly kind: "path"; readonly field: string; readonly access: Access; readonly tree?: boolean }
  /** The manifest owning the path in the named argument (its directory's manifest). */
  | { readonly kind: "manifest"; readonly field: string; readonly access: Access }
  /** An extension-defined resource of `family`, keyed by a scalar argument (a table, a queue). */
  | { readonly kind: "scoped"; readonly family: string; readonly field: string; readonly access: Access }
  /** Derived from an event without a path: the event class keyed by the values of its fields. */
  | { readonly kind: "event"; readonly event: string; readonly fields: readonly string[]; readonly access: Access }
  /** A provider's rate limit: a throughput resource, never a serialization. */
  | { readonly kind: "rateLimit"; readonly provider: string }
  /** Conflicts with everything: the tool's touched state is not described. */
  | { readonly kind: "opaque" };

/** A tool's footprint: what its calls touch, as data. */
export interface FootprintSpec {
  readonly selectors: readonly Selector[];
}

/** A concrete resource of one call. */
export type Resource =
  | { readonly kind: "path"; readonly path: string; readonly tree: boolean }
  | { readonly kind: "key"; readonly key: string }
  | { readonly kind: "rate"; readonly provider: string }
  | { readonly kind: "opaque" };

/** The resolved footprint of one call. Every write is also a read. */
export interface Footprint {
  readonly reads: readonly Resource[];
  readonly writes: readonly Resource[];
}

const OPAQUE: Resource = Object.freeze({ kind: "opaque" });

/** The footprint that conflicts with every call. */
export const OPAQUE_FOOTPRINT: Footprint = Object.freeze({ reads: Object.freeze([OPAQUE]), writes: Object.freeze([OPAQUE]) });

/** The spec of a tool whose touched state is not described. */
export const OPAQUE_SPEC: FootprintSpec = Object.freeze({ selectors: Object.freeze([Object.freeze({ kind: "opaque" as const })]) });

/** Whether a spec has a write selector (or is opaque): its tool is mutating. */
export function isMutating(spec: FootprintSpec): boolean {
  return spec.selectors.some((s) => s.kind === "opaque" || ("access" in s && s.access === "write"));
}

/**
 * A path made comparable: absolute against `base`, `.`/`..`/repeated separators and a trailing
 * separator removed, and symbolic links resolved through the longest prefix that exists
 * (`realpath`), so `link/x` and `target/x` are one resource even before `x` exists.
 */
export function canonicalPath(path: string, base: string = process.cwd()): string {
  const absolute = nodePath.resolve(base, path);
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = fs.realpathSync.native(existing);
      return rest.length === 0 ? real : nodePath.join(real, ...rest.reverse());
    } catch {
      const parent = nodePath.dirname(existing);
      if (parent === existing) return absolute;
      rest.push(nodePath.basename(existing));
      existing = parent;
    }
  }
}

/** A scalar key for a resource: strings, finite numbers, booleans and arrays of them; else undefined. */
function keyOf(value: unknown): string | undefined {
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : String(value);
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const v of value) {
      const k = keyOf(v);
      if (k === undefined || Array.isArray(v)) return undefined;
      parts.push(k);
    }
    return `[${parts.join(",")}]`;
  }
  return undefined;
}

/**
 * Resolve a spec against a call's arguments (by parameter name). An argument that a selector
 * names but that is missing or of the wrong type makes the whole call opaque (fail closed).
 */
export function resolveFootprint(spec: FootprintSpec, args: Readonly<Record<string, unknown>>, base?: string): Footprint {
  const reads: Resource[] = [];
  const writes: Resource[] = [];
  const add = (resource: Resource, access: Access): void => {
    reads.push(resource);
    if (access === "write") writes.push(resource);
  };
  const has = (field: string): boolean => Object.prototype.hasOwnProperty.call(args, field);
  for (const s of spec.selectors) {
    switch (s.kind) {
      case "literal":
        add({ kind: "key", key: `literal:${s.resource}` }, s.access);
        break;
      case "path":
      case "manifest": {
        const value = has(s.field) ? args[s.field] : undefined;
        if (typeof value !== "string") return OPAQUE_FOOTPRINT;
        const path = canonicalPath(value, base);
        if (s.kind === "path") add({ kind: "path", path, tree: s.tree === true }, s.access);
        else add({ kind: "key", key: `manifest:${nodePath.dirname(path)}` }, s.access);
        break;
      }
      case "scoped": {
        const key = has(s.field) ? keyOf(args[s.field]) : undefined;
        if (key === undefined) return OPAQUE_FOOTPRINT;
        add({ kind: "key", key: `scoped:${JSON.stringify(s.family)}:${key}` }, s.access);
        break;
      }
      case "event": {
        const keys: string[] = [];
        for (const field of s.fields) {
          const key = has(field) ? keyOf(args[field]) : undefined;
          if (key === undefined) return OPAQUE_FOOTPRINT;
          keys.push(key);
        }
        add({ kind: "key", key: `event:${JSON.stringify(s.event)}(${keys.join(",")})` }, s.access);
        break;
      }
      case "rateLimit":
        add({ kind: "rate", provider: s.provider }, "read");
        break;
      case "opaque":
        return OPAQUE_FOOTPRINT;
      default:
        // A selector this runtime does not know (metadata from elsewhere): fail closed.
        return OPAQUE_FOOTPRINT;
    }
  }
  return { reads, writes };
}

/** Whether `inner` is `outer` or beneath it. */
function beneath(inner: string, outer: string): boolean {
  if (inner === outer) return true;
  const prefix = outer.endsWith(nodePath.sep) ? outer : outer + nodePath.sep;
  return inner.startsWith(prefix);
}

/** Whether two resources may be the same state: equal keys, or paths where one is in the other's tree. */
export function overlaps(a: Resource, b: Resource): boolean {
  if (a.kind === "opaque" || b.kind === "opaque") return true;
  if (a.kind === "rate" || b.kind === "rate") return false;
  if (a.kind === "key" || b.kind === "key") return a.kind === "key" && b.kind === "key" && a.key === b.key;
  if (a.path === b.path) return true;
  return (a.tree && beneath(b.path, a.path)) || (b.tree && beneath(a.path, b.path));
}

function isOpaque(f: Footprint): boolean {
  return f.reads.some((r) => r.kind === "opaque") || f.writes.some((r) => r.kind === "opaque");
}

/**
 * Two calls conflict when one writes a resource the other reads (every write is a read) or when
 * either is opaque. Rate limits never conflict: they delay, they do not order.
 */
export function conflicts(a: Footprint, b: Footprint): boolean {
  if (isOpaque(a) || isOpaque(b)) return true;
  return a.writes.some((w) => b.reads.some((r) => overlaps(w, r))) || b.writes.some((w) => a.reads.some((r) => overlaps(w, r)));
}

/** Two calls commute when they do not conflict. */
export function commutes(a: Footprint, b: Footprint): boolean {
  return !conflicts(a, b);
}
