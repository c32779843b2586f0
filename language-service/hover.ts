/**
 * Quick info on a contract call in `guarantees`: the library-qualified call with named arguments,
 * the generated sentence (or the contract's first JSDoc paragraph), the resolved symbol and the
 * current verdict. The text is what reviewers approve, so it comes from the same `core` functions
 * as the CLI's descriptions (`qualifiedCall`, `guaranteeSentence`, `symbolOf`).
 */
import type * as TS from "typescript";
import { symbolOf } from "../core/describe/symbol";
import { qualifiedCall, readGuarantees, type GuaranteeModel } from "../core/guarantees";
import type { LayerModel } from "../core/model";
import type { ProgramVerdict } from "../core/prover/api";
import { guaranteeSentence } from "../core/prover/prove";

type TypeScript = typeof TS;

/** What is known about a program's proof right now. */
export type ProofState =
  | { readonly state: "pending" }
  | { readonly state: "done"; readonly verdict: ProgramVerdict }
  | { readonly state: "failed"; readonly detail: string };

/** The guarantee entry (contract call) of `guarantees` at `position`, if any. */
export function guaranteeAt(ts: TypeScript, program: TS.Program, layer: LayerModel, file: TS.SourceFile, position: number): GuaranteeModel | undefined {
  const list = readGuarantees(ts, program.getTypeChecker(), layer, file);
  return list.guarantees.find((g) => g.node.getStart(file) <= position && position < g.node.getEnd());
}

/** The verdict line of a guarantee, from the program's proof state. */
export function verdictLine(g: GuaranteeModel, proof: ProofState): string {
  if (proof.state === "pending") return "proving…";
  if (proof.state === "failed") return `not proved: clauz3 failed (${proof.detail})`;
  const r = proof.verdict.results.find((x) => x.kind === "guarantee" && x.guarantee && x.guarantee.start === g.span.start && x.guarantee.fileName === g.span.fileName);
  if (!r) return "not proved (no result for this guarantee)";
  if (r.verdict === "proved") return "proved";
  return `${r.verdict}: ${r.message.replace(/^refused:\s*/, "")}`;
}

/** The hover text of a guarantee (Markdown, as tsserver clients render quick info documentation). */
export function guaranteeHover(g: GuaranteeModel, projectDir: string, proof: ProofState): string {
  const sentence = guaranteeSentence(g);
  const symbol = symbolOf(g.contract.fileName, g.contract.name, projectDir);
  return [
    `**clauz3 guarantee** \`${qualifiedCall(g)}\``,
    sentence ?? "_(the contract has no description and no JSDoc summary)_",
    `Symbol: \`${symbol}\``,
    `Verdict: ${verdictLine(g, proof)}`,
  ].join("\n\n");
}

/** `base` quick info (TypeScript's) with the guarantee's text in front of its documentation. */
export function withGuaranteeInfo(ts: TypeScript, base: TS.QuickInfo | undefined, g: GuaranteeModel, file: TS.SourceFile, text: string): TS.QuickInfo {
  const ours: TS.SymbolDisplayPart[] = [{ kind: "text", text }];
  const theirs = base?.documentation ?? [];
  const documentation = theirs.length > 0 ? [...ours, { kind: "lineBreak", text: "\n\n---\n\n" }, ...theirs] : ours;
  if (base) return { ...base, documentation };
  const start = g.node.getStart(file);
  return { kind: ts.ScriptElementKind.unknown, kindModifiers: "", textSpan: { start, length: g.node.getEnd() - start }, displayParts: [], documentation };
}
