/**
 * The footprint rules that need the tool's events: a mutating tool may not declare an empty
 * footprint (93062), and a declared selector may not contradict what the events say (93063).
 */
import { report, type ReadContext } from "../context";
import type { LayerModel, ToolModel } from "../model";
import { derivedSelectors, eventFootprint, type EventAccessOf } from "./derive";

/** Check a tool's declared footprint against its events. */
export function checkFootprint(ctx: ReadContext, layer: Pick<LayerModel, "events">, tool: ToolModel, accessOf: EventAccessOf): void {
  const declared = tool.footprint;
  if (!declared) return;
  const writingEvent = (tool.performs?.events ?? []).find((e) => {
    const event = layer.events.get(e.eventId);
    return event !== undefined && eventFootprint(layer.events, event, accessOf).access === "write";
  });
  if (declared.node.arguments.length === 0 && writingEvent) {
    const event = layer.events.get(writingEvent.eventId)!;
    report(ctx, "footprintEmpty", declared.node, { tool: tool.name, event: event.name });
    return;
  }
  const derived = derivedSelectors(layer, tool, accessOf);
  for (const { selector, node } of declared.selectors) {
    if (selector.kind !== "path" && selector.kind !== "manifest" && selector.kind !== "scoped") continue;
    for (const d of derived) {
      const touches = (d.kind === "path" && d.field === selector.field) || (d.kind === "event" && d.fields.includes(selector.field));
      if (!touches) continue;
      const problem =
        selector.access === "read" && "access" in d && d.access === "write" ? `declares \`${selector.field}\` read, but its events write it`
        : selector.kind === "path" && d.kind === "path" && (selector.tree === true) !== (d.tree === true)
          ? `declares \`${selector.field}\` ${selector.tree ? "a directory tree" : "one path"}, but its events touch ${d.tree ? "the whole tree" : "one path"} there`
        : undefined;
      if (problem) {
        report(ctx, "footprintContradicts", node, { tool: tool.name, problem });
        break;
      }
    }
  }
}
