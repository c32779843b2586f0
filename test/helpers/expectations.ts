/**
 * Expected verdicts of the agent-program corpus (`fixtures/programs`), read from each program's
 * header comment:
 *
 *     // <what the program does>
 *     // @expect proved
 *     // @expect violated <contract export name> line=<line of the breaking call>
 *     // @expect precondition <tool export name> line=<line of the call>
 *     // @expect throw line=<line of the throw>
 *     // @expect refused line=<line of the refused node>
 *
 * The header is the run of `//` lines at the top of the file; `@expect` anywhere else is an error.
 *
 * How a prover result matches (what the corpus promises):
 * - `proved` stands alone: every guarantee and precondition is proved and no throw is reachable.
 * - Otherwise the non-proved results of a program that is not refused are exactly the listed
 *   `violated`/`precondition`/`throw` entries (compared as a set of kind, name and line).
 *   `violated` names the guarantee's contract (the entry in `guarantees`, e.g. `safeOutbox`, even
 *   when a contract it delegates to is the part that breaks).
 * - Line conventions: the line of the tool call whose event breaks the guarantee (for a call inside
 *   an inlined helper, the call inside the helper); for a count or sum that becomes too large, the
 *   call whose event first takes it past the bound in program order (the corpus keeps those on one
 *   line); when a guarantee fails because too little happens (`atLeast`, `greaterThan`, `equals`
 *   or `between` from below, with no call to blame), the line of the guarantee entry in
 *   `guarantees`. A contract over an event no tool performs is refused on the guarantee entry.
 * - `refused`: the program's verdict is refused, and at least one refused result is on one of the
 *   listed lines (several lines list the acceptable places, e.g. a closure and its call).
 * - Programs under `adversarial/` try to hide a call: the hard requirement is that they are never
 *   proved and are reported on a listed line; the listed verdict is the precise expectation.
 *   Files named `control_*.ts` there are benign look-alikes and must be proved.
 *
 * Directories and files whose names start with `_` hold support modules, not programs.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export type Expectation =
  | { readonly verdict: "proved" }
  | { readonly verdict: "violated"; readonly contract: string; readonly line: number }
  | { readonly verdict: "precondition"; readonly tool: string; readonly line: number }
  | { readonly verdict: "throw"; readonly line: number }
  | { readonly verdict: "refused"; readonly line: number };

export interface CorpusProgram {
  /** Absolute path of the program. */
  readonly file: string;
  /** Path relative to the corpus directory, with `/` separators (e.g. `bank/sum_float_fail.ts`). */
  readonly relative: string;
  /** First directory below the corpus directory: a domain, `refused` or `adversarial`. */
  readonly suite: string;
  readonly expectations: readonly Expectation[];
}

/** A header that does not follow the format; the message names the file and line. */
export class MalformedHeaderError extends Error {
  constructor(file: string, line: number | undefined, problem: string) {
    super(`${file}${line === undefined ? "" : `:${line}`}: ${problem}`);
    this.name = "MalformedHeaderError";
  }
}

const IDENT = "[A-Za-z_$][\\w$]*";
const FORMS: readonly [RegExp, (m: RegExpExecArray) => Expectation][] = [
  [/^proved$/, () => ({ verdict: "proved" })],
  [new RegExp(`^violated (${IDENT}) line=([1-9]\\d*)$`), (m) => ({ verdict: "violated", contract: m[1]!, line: Number(m[2]) })],
  [new RegExp(`^precondition (${IDENT}) line=([1-9]\\d*)$`), (m) => ({ verdict: "precondition", tool: m[1]!, line: Number(m[2]) })],
  [/^throw line=([1-9]\d*)$/, (m) => ({ verdict: "throw", line: Number(m[1]) })],
  [/^refused line=([1-9]\d*)$/, (m) => ({ verdict: "refused", line: Number(m[1]) })],
];

/** Parse the `@expect` lines of one program's text; throws `MalformedHeaderError`. */
export function parseExpectations(text: string, file = "<program>"): Expectation[] {
  const lines = text.split(/\r?\n/);
  let headerEnd = 0;
  while (headerEnd < lines.length && lines[headerEnd]!.startsWith("//")) headerEnd++;
  const expectations: Expectation[] = [];
  const seen = new Set<string>();
  lines.forEach((line, i) => {
    const at = line.indexOf("@expect");
    if (at < 0) return;
    if (i >= headerEnd) throw new MalformedHeaderError(file, i + 1, "`@expect` outside the header comment at the top of the file");
    const m = /^\/\/ @expect (.*)$/.exec(line);
    if (!m) throw new MalformedHeaderError(file, i + 1, `write \`// @expect <verdict> …\`, not ${JSON.stringify(line)}`);
    const body = m[1]!;
    const form = FORMS.find(([re]) => re.test(body));
    if (!form) throw new MalformedHeaderError(file, i + 1, `unknown expectation ${JSON.stringify(body)}`);
    const expectation = form[1](form[0].exec(body)!);
    if ("line" in expectation && expectation.line > lines.length) {
      throw new MalformedHeaderError(file, i + 1, `line=${expectation.line} is past the end of the file (${lines.length} lines)`);
    }
    const key = JSON.stringify(expectation);
    if (seen.has(key)) throw new MalformedHeaderError(file, i + 1, `duplicate expectation ${JSON.stringify(body)}`);
    seen.add(key);
    expectations.push(expectation);
  });
  if (expectations.length === 0) throw new MalformedHeaderError(file, undefined, "no `// @expect …` line in the header");
  if (expectations.some((e) => e.verdict === "proved") && expectations.length > 1) {
    throw new MalformedHeaderError(file, undefined, "`proved` must stand alone; list only the non-proved results otherwise");
  }
  return expectations;
}

/** The program-level verdict the expectations imply. */
export function expectedVerdict(expectations: readonly Expectation[]): "proved" | "violated" | "refused" {
  if (expectations.some((e) => e.verdict === "refused")) return "refused";
  if (expectations.some((e) => e.verdict !== "proved")) return "violated";
  return "proved";
}

function programFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith("_") || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...programFiles(full));
    else if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/** Every program below `dir` (sorted by relative path) with its parsed expectations. */
export function loadCorpus(dir: string): CorpusProgram[] {
  const root = path.resolve(dir);
  return programFiles(root)
    .map((file) => {
      const relative = path.relative(root, file).split(path.sep).join("/");
      const suite = relative.includes("/") ? relative.slice(0, relative.indexOf("/")) : "";
      return { file, relative, suite, expectations: parseExpectations(fs.readFileSync(file, "utf8"), relative) };
    })
    .sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}
