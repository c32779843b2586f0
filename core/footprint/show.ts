/** A footprint as one line of text, for the catalog and `clauz3 tools` (docs/footprints.md). */
import type { FootprintSpec, Selector } from "../../runtime/footprint";

function showSelector(s: Selector): string {
  switch (s.kind) {
    case "literal":
      return `${s.access}s ${JSON.stringify(s.resource)}`;
    case "path":
      return `${s.access}s ${s.tree ? "the tree at " : ""}${s.field}`;
    case "manifest":
      return `${s.access}s the manifest of ${s.field}`;
    case "scoped":
      return `${s.access}s ${s.family}[${s.field}]`;
    case "event":
      return `${s.access}s ${s.event.slice(s.event.indexOf("#") + 1)}(${s.fields.join(", ")})`;
    case "rateLimit":
      return `rate limit ${JSON.stringify(s.provider)}`;
    case "opaque":
      return "opaque (runs alone)";
  }
}

/** `reads src, writes dest`; `none` for a tool that touches nothing. */
export function showFootprint(spec: FootprintSpec): string {
  return spec.selectors.length === 0 ? "none" : spec.selectors.map(showSelector).join(", ");
}
