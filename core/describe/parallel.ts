/**
 * Which calls of a program may run in parallel, as `clauz3 describe` shows them: one sentence per
 * pair of call sites (core/prover/commute.ts decides), and the same as JSON data.
 */
import type { CallPair, CallSite, ProgramCalls } from "../prover/commute";
import { showText } from "../prover/model-reader";
import type { ShownValue } from "../prover/api";
import { displayPath } from "./symbol";

/** `name="x", …` */
function named(values: Readonly<Record<string, ShownValue>>): string {
  return Object.entries(values).map(([k, v]) => `${k}=${showText(v)}`).join(", ");
}

/** The sentence of one pair: "readFile(a) (line 4) and readFile(b) (line 5) commute: they may run in parallel." */
export function pairSentence(pair: CallPair, calls: readonly CallSite[]): string {
  const a = calls[pair.first]!, b = calls[pair.second]!;
  const self = pair.first === pair.second;
  const subject = self ? `${a.text} (line ${a.location.line}) and its next execution` : `${a.text} (line ${a.location.line}) and ${b.text} (line ${b.location.line})`;
  if (pair.verdict === "commute") return `${subject} commute: they may run in parallel.`;
  if (pair.verdict === "undecided") return `${subject} are not proved to commute (${pair.reason ?? "the solver gave no answer"}): they run in program order.`;
  const w = pair.witness;
  const inputs = w && Object.keys(w.inputs).length > 0 ? `main(${named(w.inputs)}) ` : "";
  const example = w ? `, e.g. ${inputs}calls ${a.tool}(${named(w.first)}) and ${b.tool}(${named(w.second)})` : "";
  const why = pair.reason ? ` (${pair.reason})` : " when they touch the same file or resource and one of them writes it";
  return `${subject} may conflict${why}${example}: they run in program order.`;
}

/** The JSON form: each call site with its location, each pair with its verdict, sentence and witness. */
export function parallelJson(result: ProgramCalls, projectDir: string): Record<string, unknown> {
  const where = (s: CallSite) => ({ file: displayPath(s.location.fileName, projectDir), line: s.location.line, column: s.location.column });
  if (result.refusal) return { calls: [], pairs: [], refusal: { message: result.refusal.message, ...where({ tool: "", text: "", location: result.refusal.location }) } };
  return {
    calls: result.calls.map((c) => ({ tool: c.tool, text: c.text, ...where(c) })),
    pairs: result.pairs.map((p) => ({
      first: p.first,
      second: p.second,
      verdict: p.verdict,
      sentence: pairSentence(p, result.calls),
      ...(p.witness ? { witness: p.witness } : {}),
      ...(p.reason ? { reason: p.reason } : {}),
    })),
  };
}

/** The text block: one line per pair, conflicts first. */
export function parallelText(result: ProgramCalls): string {
  if (result.refusal) return `calls: not analysed (${result.refusal.message})`;
  if (result.pairs.length === 0) return result.calls.length === 0 ? "calls: none" : "calls: one call, run once";
  const rank = { "may conflict": 0, undecided: 1, commute: 2 } as const;
  const sorted = [...result.pairs].sort((x, y) => rank[x.verdict] - rank[y.verdict]);
  return ["calls:", ...sorted.map((p) => `  ${pairSentence(p, result.calls)}`)].join("\n");
}
