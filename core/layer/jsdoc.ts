import type * as TS from "typescript";
import type { TypeScript } from "../context";

/**
 * The JSDoc comment written directly above a statement, read from the source text so it does not
 * depend on the compiler's JSDoc parsing mode (tsc skips JSDoc in .ts files by default).
 * Returns the whole text (without tags) and its first paragraph.
 */
export function jsDocOf(ts: TypeScript, statement: TS.Node): { summary: string | undefined; documentation: string | undefined } {
  const file = statement.getSourceFile();
  const ranges = ts.getLeadingCommentRanges(file.text, statement.getFullStart()) ?? [];
  const last = [...ranges].reverse().find((r) => file.text.startsWith("/**", r.pos));
  if (!last) return { summary: undefined, documentation: undefined };
  const body = file.text
    .slice(last.pos + 3, last.end - 2)
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*\*? ?/, ""));
  const tagAt = body.findIndex((line) => /^@\w/.test(line.trim()));
  const text = (tagAt >= 0 ? body.slice(0, tagAt) : body).join("\n").trim();
  if (!text) return { summary: undefined, documentation: undefined };
  const summary = text.split(/\n\s*\n/)[0]!.replace(/\s*\n\s*/g, " ").trim();
  return { summary, documentation: text };
}
