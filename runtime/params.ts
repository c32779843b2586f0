/**
 * Parameter names of a function, read from its source text. Used only when the transformer's
 * metadata is absent (tests, ts-node). The trusted-layer rules forbid defaults, optional, rest and
 * destructured parameters in tools and builders, so plain identifiers are all we need to read.
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
  return list.split(",").map((p) => {
    const name = p.trim();
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) {
      throw new TypeError(
        `clauz3: parameter "${name}" of ${fn.name || "a function"} must be a plain identifier (no default, rest or destructuring)`,
      );
    }
    return name;
  }).filter((n) => n !== "");
}
