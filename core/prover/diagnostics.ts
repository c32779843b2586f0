/**
 * Proof results → `ts.Diagnostic`s: the one boundary between
 * the prover's results (`ProgramVerdict`) and what the editor, the CLI and `tspc` show. Rule findings go through
 * `core`'s `toDiagnostic`, like the transformer's.
 *
 * - violated / refused results are errors with the result's stable code, on the result's location
 *   (the breaking call, the failing call, the refused node);
 * - coverage gaps (core/coverage/diagnostics.ts) are on `guarantees`: required gap error, silent gap warning, recommended gap suggestion;
 * - a proved guarantee is a suggestion on its entry in `guarantees` reading "proved: <sentence>";
 * - results of guarantees carry `relatedInformation` pointing at the guarantee entry;
 * - a result located in another file (a refusal inside a trusted contract body, a call inside an
 *   imported helper) is shown in the program file on the guarantee entry (or the `guarantees`
 *   declaration), saying where, with `relatedInformation` pointing at the other location.
 */
import * as path from "node:path";
import type * as TS from "typescript";
import type { Span } from "../model";
import type { ProgramVerdict, ProofResult } from "./api";
import { formatMessage, PROOF_CODES, RULES } from "../rules";
import { coverageDiagnostics } from "../coverage/diagnostics";

type TypeScript = typeof TS;

/** Diagnostics of one agent program, by the tsserver request that shows them. */
export interface ProofDiagnostics {
  /** `getSemanticDiagnostics`: violations and refusals (and coverage gaps: errors and warnings). */
  readonly errors: TS.Diagnostic[];
  /** `getSuggestionDiagnostics`: proved guarantees. */
  readonly suggestions: TS.DiagnosticWithLocation[];
}

/** Where a program-wide message goes when nothing more precise exists: the `guarantees` (or `main`) name, else the file start. */
export function programAnchor(ts: TypeScript, file: TS.SourceFile): { start: number; length: number } {
  let main: TS.Node | undefined;
  for (const stmt of file.statements) {
    if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.name.text === "guarantees") return nodeSpan(file, d.name);
        if (ts.isIdentifier(d.name) && d.name.text === "main") main ??= d.name;
      }
    } else if (ts.isFunctionDeclaration(stmt) && stmt.name?.text === "main") main ??= stmt.name;
  }
  if (main) return nodeSpan(file, main);
  return { start: 0, length: 0 };
}

function nodeSpan(file: TS.SourceFile, node: TS.Node): { start: number; length: number } {
  const start = node.getStart(file);
  return { start, length: node.getEnd() - start };
}

function within(file: TS.SourceFile, span: Span | undefined): boolean {
  return !!span && samePath(span.fileName, file.fileName) && span.start >= 0 && span.start + span.length <= file.text.length;
}

function samePath(a: string, b: string): boolean {
  return a === b || path.resolve(a) === path.resolve(b);
}

function shownPath(fileName: string, base: string): string {
  const rel = path.relative(base, fileName).replace(/\\/g, "/");
  return rel.startsWith("../") || path.isAbsolute(rel) ? fileName : rel;
}

/** The diagnostics of a proved program, in its current source file (`file` must hold the proved text). */
export function proofDiagnostics(ts: TypeScript, program: TS.Program, file: TS.SourceFile, verdict: ProgramVerdict, already: readonly TS.Diagnostic[] = []): ProofDiagnostics {
  const errors: TS.Diagnostic[] = [];
  const suggestions: TS.DiagnosticWithLocation[] = [];
  const base = program.getCurrentDirectory();
  // The prover repeats this file's rule findings as refusals; they are already shown once.
  const shown = new Set(already.map((d) => `${d.start}:${d.code}`));
  for (const r of verdict.results) {
    if (r.verdict === "proved") {
      if (r.kind !== "guarantee") continue;
      const at = within(file, r.guarantee) ? r.guarantee! : within(file, r.location) ? r.location : undefined;
      const anchor = at ?? programAnchor(ts, file);
      suggestions.push({
        category: ts.DiagnosticCategory.Suggestion,
        code: PROOF_CODES.proved,
        file,
        start: anchor.start,
        length: anchor.length,
        messageText: `proved: ${r.sentence ?? r.contract ?? r.message.replace(/^proved:\s*/, "")}`,
        source: "clauz3",
      });
      continue;
    }
    if (within(file, r.location) && shown.has(`${r.location.start}:${r.code}`)) continue;
    errors.push(errorOf(ts, program, file, r, base));
  }
  // Coverage gaps (core/coverage): on `guarantees`, where the program says what it keeps.
  const coverage = coverageDiagnostics(ts, program, file, verdict, programAnchor(ts, file));
  errors.push(...coverage.problems);
  suggestions.push(...coverage.suggestions);
  return { errors, suggestions };
}

function errorOf(ts: TypeScript, program: TS.Program, file: TS.SourceFile, r: ProofResult, base: string): TS.Diagnostic {
  const related: TS.DiagnosticRelatedInformation[] = [];
  let anchor: { start: number; length: number };
  let messageText = r.message;
  if (within(file, r.location)) {
    anchor = r.location;
  } else {
    anchor = within(file, r.guarantee) ? r.guarantee! : programAnchor(ts, file);
    const where = `${shownPath(r.location.fileName, base)}:${r.location.line}:${r.location.column}`;
    messageText = `${r.message} (at ${where})`;
    const other = program.getSourceFile(r.location.fileName);
    if (other && r.location.start + r.location.length <= other.text.length) {
      related.push({
        category: ts.DiagnosticCategory.Message,
        code: r.code,
        file: other,
        start: r.location.start,
        length: r.location.length,
        messageText: r.verdict === "refused" ? "refused here" : "here",
      });
    }
  }
  const g = r.guarantee;
  if (r.kind === "guarantee" && g && within(file, g) && !(g.start === anchor.start && g.length === anchor.length)) {
    related.push({
      category: ts.DiagnosticCategory.Message,
      code: r.code,
      file,
      start: g.start,
      length: g.length,
      messageText: `guarantee ${r.contract ?? ""}${r.sentence ? `: ${r.sentence}` : ""}`.trim(),
    });
  }
  const diagnostic: TS.Diagnostic = {
    category: ts.DiagnosticCategory.Error,
    code: r.code,
    file,
    start: anchor.start,
    length: anchor.length,
    messageText,
    source: "clauz3",
  };
  if (related.length > 0) diagnostic.relatedInformation = related;
  return diagnostic;
}

/** The prover failed unexpectedly on a program: an error on the program (fail closed, never a silent pass). */
export function failureDiagnostic(ts: TypeScript, file: TS.SourceFile, detail: string): TS.Diagnostic {
  const anchor = programAnchor(ts, file);
  return {
    category: ts.DiagnosticCategory.Error,
    code: RULES.internalError.code,
    file,
    start: anchor.start,
    length: anchor.length,
    messageText: formatMessage(RULES.internalError, { file: file.fileName, detail }),
    source: "clauz3",
  };
}

/** A configuration error of the plugin, shown at the start of every file it would check. */
export function configurationDiagnostic(ts: TypeScript, file: TS.SourceFile, message: string): TS.Diagnostic {
  return { category: ts.DiagnosticCategory.Error, code: RULES.internalError.code, file, start: 0, length: 0, messageText: message, source: "clauz3" };
}

/** Whether a module exports `guarantees` or `main` (an agent program, as opposed to a helper module). */
export function exportsProgram(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile): boolean {
  const symbol = checker.getSymbolAtLocation(file);
  if (symbol) return checker.getExportsOfModule(symbol).some((s) => s.name === "guarantees" || s.name === "main");
  return file.statements.some((s) => {
    const exported = ts.canHaveModifiers(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) return false;
    if (ts.isFunctionDeclaration(s)) return s.name?.text === "main";
    if (ts.isVariableStatement(s)) return s.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && (d.name.text === "main" || d.name.text === "guarantees"));
    return false;
  });
}
