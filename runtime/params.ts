/** The name given to a destructured object parameter (no tool parameter has it: it is never looked up by name). */
const OBJECT_PATTERN = "{…}";

/** Split a parameter list at its top-level commas (a destructured parameter holds commas of its own). */
function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") depth--;
    else if (ch === "," && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(list.slice(start));
  return parts;
}

/**
 * Parameter names of a function, read from its source text. Used only when the transformer's
 * metadata is absent (tests, ts-node). The trusted-layer rules forbid defaults, optional, rest and
 * destructured parameters in tools and builders (a tool of one object of named arguments aside:
 * its builders may destructure that object), so plain identifiers are all we need to read.
 */
export function parameterNames(fn: Function): string[] {
  const src = Function.prototype.toString.call(fn).replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
  let list: string;
  const arrowSingle = /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(src);
  if (arrowSingle) return [arrowSingle[1]!];
  const open = src.indexOf("(");
  if (open < 0) throw new TypeError(`clauz3: cannot read the parameters of ${fn.name || "a function"}`);
  let depth = 0;
  let end = open;
  for (let i = open; i < src.length; i++) {
    const ch = src[i];
    if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) { end = i; break; }
  }
  list = src.slice(open + 1, end).trim();
  if (list === "") return [];
  return splitTopLevel(list).map((p) => {
    const name = p.trim();
    // The one object of a tool of named arguments, destructured: it stands for the whole object (named.ts).
    if (name.startsWith("{")) return OBJECT_PATTERN;
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) {
      throw new TypeError(
        `clauz3: parameter "${name}" of ${fn.name || "a function"} must be a plain identifier (no default, rest or destructuring)`,
      );
    }
    return name;
  }).filter((n) => n !== "");
}
