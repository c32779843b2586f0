/**
 * A tool's footprint derived from its `performs` (docs/footprints.md): an event whose class (or a
 * base class) the library's manifest gives a path or tree field becomes that path resource; any
 * other event becomes a resource keyed by its root event class and the values of its fields, with
 * the manifest's access (write when the manifest says nothing). Declared `footprint(...)` selectors
 * are added. A tool with neither is opaque.
 */
import type { Access, FootprintSpec, Selector } from "../../runtime/footprint";
import { defaultReadBytes, libraryAt, libraryRootOf, type EventAccess, type ReadBytes } from "../manifest";
import type { EventClassModel, LayerModel, ToolModel } from "../model";

/** The manifest entry of an event class, by class; undefined when the manifest declares none. */
export type EventAccessOf = (event: EventClassModel) => EventAccess | undefined;

/** Reads each library's manifest once (from disk, where the layer's files are). */
export function manifestEventAccess(readBytes: ReadBytes = defaultReadBytes): EventAccessOf {
  const byRoot = new Map<string, Readonly<Record<string, EventAccess>> | undefined>();
  return (event) => {
    const root = libraryRootOf(event.fileName);
    if (!byRoot.has(root)) byRoot.set(root, libraryAt(root, [], readBytes).manifest?.eventAccess);
    const table = byRoot.get(root);
    return table && Object.prototype.hasOwnProperty.call(table, event.name) ? table[event.name] : undefined;
  };
}

/** How one event class touches state: its own entry or its nearest base's. */
export interface EventFootprint {
  readonly access: Access;
  /** The field holding the path or tree root, when the entry names one. */
  readonly path?: { readonly field: string; readonly tree: boolean };
  /** Whether the manifest said so (false: the default, a write keyed by the class). */
  readonly declared: boolean;
}

export function eventFootprint(events: LayerModel["events"], event: EventClassModel, accessOf: EventAccessOf): EventFootprint {
  for (let c: EventClassModel | undefined = event; c; c = c.baseId ? events.get(c.baseId) : undefined) {
    const entry = accessOf(c);
    if (entry === undefined) continue;
    if (typeof entry === "string") return { access: entry, declared: true };
    const field = entry.path ?? entry.tree;
    return { access: entry.access, declared: true, ...(field !== undefined ? { path: { field, tree: entry.tree !== undefined } } : {}) };
  }
  return { access: "write", declared: false };
}

/** The topmost event class of a hierarchy (its direct base is `Event`): events of one hierarchy key one resource family. */
function rootOf(events: LayerModel["events"], event: EventClassModel): EventClassModel {
  let c = event;
  while (c.baseId) {
    const base = events.get(c.baseId);
    if (!base) break;
    c = base;
  }
  return c;
}

/** The selectors a tool's events stand for. */
export function derivedSelectors(layer: Pick<LayerModel, "events">, tool: ToolModel, accessOf: EventAccessOf): Selector[] {
  const out: Selector[] = [];
  for (const performed of tool.performs?.events ?? []) {
    const event = layer.events.get(performed.eventId);
    if (!event) {
      out.push({ kind: "opaque" });
      continue;
    }
    const how = eventFootprint(layer.events, event, accessOf);
    const pathParameter = how.path ? performed.fields[how.path.field] : undefined;
    if (how.path && pathParameter !== undefined) {
      out.push({ kind: "path", field: pathParameter, access: how.access, ...(how.path.tree ? { tree: true } : {}) });
      continue;
    }
    if (how.path) {
      // The manifest names a field the class does not have: nothing sound to key on.
      out.push({ kind: "opaque" });
      continue;
    }
    const root = rootOf(layer.events, event);
    const fields = root.fields.map((f) => performed.fields[f.name]);
    if (fields.some((f) => f === undefined)) out.push({ kind: "opaque" });
    else out.push({ kind: "event", event: `${root.fileName.slice(root.fileName.lastIndexOf("/") + 1)}#${root.name}`, fields: fields as string[], access: how.access });
  }
  return out;
}

/** A tool's footprint: derived selectors, then declared ones; opaque when it has neither `performs` nor `footprint`. */
export function toolFootprint(layer: Pick<LayerModel, "events">, tool: ToolModel, accessOf: EventAccessOf): FootprintSpec {
  if (!tool.performs && !tool.footprint) return { selectors: [{ kind: "opaque" }] };
  const selectors = [...derivedSelectors(layer, tool, accessOf), ...(tool.footprint?.selectors.map((s) => s.selector) ?? [])];
  return { selectors: dedupe(selectors) };
}

function dedupe(selectors: readonly Selector[]): Selector[] {
  if (selectors.some((s) => s.kind === "opaque")) return [{ kind: "opaque" }];
  const seen = new Set<string>();
  return selectors.filter((s) => {
    const key = JSON.stringify(s);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
