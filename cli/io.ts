import type * as TS from "typescript";
import type { TypeScript } from "../core/context";
import { toDiagnostic, type Finding } from "../core/context";
import { PROOF_CODES } from "../core/rules";
import type { Refusal } from "../core/refusal";
import { colourWanted, uncoloured } from "./format/colour";

/** Where the CLI writes; injectable for tests. */
export interface Io {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Whether stderr is a terminal (diagnostics are coloured only then). */
  readonly stderrIsTTY: boolean;
  /** Whether stdout is a terminal: the report is pretty there and TypeScript's plain format elsewhere (default false). */
  readonly stdoutIsTTY?: boolean;
  /** The environment read for NO_COLOR and FORCE_COLOR (default: none set). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export const processIo: Io = {
  cwd: process.cwd(),
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  stderrIsTTY: process.stderr.isTTY === true,
  stdoutIsTTY: process.stdout.isTTY === true,
  env: process.env,
};

/** Exit codes: 0 ok, 1 a finding (or output differs), 2 usage or configuration error (docs/cli.md); `run` adds its own 3–5 (cli/run/). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** An error that ends the command with a message and an exit code. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: 1 | 2) {
    super(message);
    this.name = "CliError";
  }
}

/** A refusal (guarantee entry that is not a literal contract call) as a diagnostic on its node. */
export function refusalDiagnostic(ts: TypeScript, r: Refusal): TS.Diagnostic {
  const file = r.node.getSourceFile();
  const start = r.node.getStart(file);
  return { category: ts.DiagnosticCategory.Error, code: PROOF_CODES.refused, file, start, length: r.node.getEnd() - start, messageText: r.message, source: "clauz3" };
}

/** Print diagnostics with TypeScript's own formatter and code frames (`catalog`; check, prove and describe use cli/format/). */
export function printDiagnostics(ts: TypeScript, io: Io, projectDir: string, diagnostics: readonly TS.Diagnostic[]): void {
  if (diagnostics.length === 0) return;
  const host: TS.FormatDiagnosticsHost = {
    getCurrentDirectory: () => projectDir,
    getCanonicalFileName: (f) => f,
    getNewLine: () => "\n",
  };
  // TypeScript's own code frames always; its colours as NO_COLOR, FORCE_COLOR and the terminal say.
  const framed = ts.formatDiagnosticsWithColorAndContext(diagnostics, host);
  io.stderr(colourWanted(io.env ?? {}, io.stderrIsTTY) ? framed : uncoloured(framed));
}

export function findingDiagnostics(ts: TypeScript, findings: readonly Finding[]): TS.Diagnostic[] {
  return findings.map((f) => toDiagnostic(ts, f));
}

/** Text safe to print on a terminal: control characters as `\uXXXX` (human output only, never JSON). */
export function terminalSafe(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029\p{Bidi_Control}]/gu, (ch) => (ch === "\n" ? "\n" : `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`));
}
