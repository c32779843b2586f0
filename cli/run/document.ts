/**
 * What `clauz3 run` tells the agent (docs/run.md): the outcome, the request id, the reviewer's
 * feedback, the result or what went wrong. `--json` prints it as one document
 * (schema/run-result.schema.json, version 1); otherwise it is a few `key: value` lines on stdout.
 */
import { terminalSafe } from "../io";

export const RUN_RESULT_VERSION = 1;

export type Outcome =
  | "ran"
  | "not-proved"
  | "threw"
  | "violated"
  | "rejected"
  | "changes-requested"
  | "pending"
  | "receipt-refused"
  | "error";

/** Exit code of each outcome: 0 ran; 1 not proved, threw or broke a guarantee; 2 configuration, service or receipt; 3 rejected; 4 changes requested; 5 still pending. */
export const EXIT_OF: Readonly<Record<Outcome, 0 | 1 | 2 | 3 | 4 | 5>> = {
  ran: 0,
  "not-proved": 1,
  threw: 1,
  violated: 1,
  error: 2,
  "receipt-refused": 2,
  rejected: 3,
  "changes-requested": 4,
  pending: 5,
};

export interface RunDocument {
  readonly version: typeof RUN_RESULT_VERSION;
  readonly outcome: Outcome;
  readonly exitCode: 0 | 1 | 2 | 3 | 4 | 5;
  /** The program as given, relative to the current directory. */
  readonly program: string;
  readonly target: string;
  /** The approval request, once one was submitted or resumed. */
  readonly requestId: string | null;
  /** Whether the submission attached to a request already pending for the same program and inputs (null: nothing submitted). */
  readonly attached: boolean | null;
  /** The request's status at the end (pending, approved, rejected, changes_requested), when there is a request. */
  readonly status: string | null;
  readonly decision: { readonly decision: string; readonly reviewer: string; readonly feedback: string | null; readonly decidedAt: string; readonly note?: string } | null;
  /** The reviewer's feedback (rejections and requests for changes), else null. */
  readonly feedback: string | null;
  /** The receipt `run` verified and redeemed (`redeemed: true`), or refused (`reason`). */
  readonly receipt: { readonly id: string | null; readonly redeemed: boolean; readonly reason: string | null } | null;
  /** What the target returned (JSON; `ran` only). */
  readonly result?: unknown;
  /** Trusted calls and events the run made, and the event log's path (`ran`, `threw` and `violated` after the run started). */
  readonly events: { readonly count: number; readonly log: string } | null;
  /** What went wrong, in one sentence (null for `ran`). */
  readonly message: string | null;
  /** `not-proved`: the report `clauz3 check --json` prints for the program (schema/report.schema.json). */
  readonly check?: unknown;
}

/** The result as JSON data: what JSON cannot hold is shown as text. */
export function jsonResult(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : (JSON.parse(text) as unknown);
  } catch {
    return String(value);
  }
}

/** The human lines (stdout). */
export function renderHuman(doc: RunDocument): string {
  const lines: string[] = [];
  if (doc.requestId !== null) lines.push(`request: ${doc.requestId}${doc.attached ? " (attached to the request already pending for the same program and inputs)" : ""}`);
  lines.push(`outcome: ${doc.outcome}`);
  if (doc.decision) lines.push(`decision: ${doc.decision.decision} by ${doc.decision.reviewer}`);
  if (doc.decision?.note) lines.push(`note: ${doc.decision.note}`);
  if (doc.feedback !== null) lines.push(`feedback: ${doc.feedback}`);
  if (doc.message !== null) lines.push(`message: ${doc.message}`);
  if (doc.outcome === "ran") lines.push(`result: ${JSON.stringify(doc.result ?? null)}`);
  if (doc.events) lines.push(`events: ${doc.events.count} (log: ${doc.events.log})`);
  if (doc.outcome === "pending" && doc.requestId !== null) lines.push(`resume: clauz3 run ${doc.program} --resume ${doc.requestId}`);
  return `${lines.map(terminalSafe).join("\n")}\n`;
}
