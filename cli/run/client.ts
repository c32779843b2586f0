/**
 * The approval service's HTTP API as `clauz3 run` uses it (docs/approval.md): submit a request,
 * read its status, wait for a decision by polling the status. Every failure to reach the service or
 * to understand its answer is a `ServiceError` (exit 2), carrying the service's own error code and
 * message when it sent one.
 */
import type { ApprovalRequest } from "../../core/approval/types";

export type RequestStatus = "pending" | "approved" | "rejected" | "changes_requested";

/** A request's status as the service shows it to anyone holding its id. */
export interface StatusAnswer {
  readonly id: string;
  readonly status: RequestStatus;
  readonly submittedAt: string;
  readonly verified: boolean;
  readonly problems: readonly { readonly field: string; readonly problem: string }[];
  readonly decision: { readonly decision: string; readonly reviewer: string; readonly feedback: string | null; readonly decidedAt: string; readonly note?: string } | null;
  readonly receipt: { readonly token: string; readonly id: string; readonly kid: string; readonly singleUse: boolean; readonly expiresAt: string; readonly redeemedAt: string | null } | null;
  /** Only in a submission's answer: whether a new request was made (false: attached to the pending one). */
  readonly created?: boolean;
}

export class ServiceError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

const STATUSES: readonly string[] = ["pending", "approved", "rejected", "changes_requested"];

async function call(base: string, method: "GET" | "POST", url: string, body?: unknown): Promise<StatusAnswer> {
  let response: Response;
  try {
    response = await fetch(new URL(url, base), {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new ServiceError(`the approval service at ${base} cannot be reached (${cause ?? (error instanceof Error ? error.message : String(error))})`);
  }
  const text = await response.text();
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new ServiceError(`the approval service answered ${method} ${url} with ${response.status} and a body that is not JSON`);
  }
  if (!response.ok) {
    const code = typeof data.error === "string" ? data.error : undefined;
    const field = typeof data.field === "string" ? ` (${data.field})` : "";
    throw new ServiceError(`the approval service refused ${method} ${url}: ${response.status} ${code ?? "error"}${field}: ${typeof data.message === "string" ? data.message : "no message"}`, code);
  }
  if (typeof data.id !== "string" || typeof data.status !== "string" || !STATUSES.includes(data.status)) {
    throw new ServiceError(`the approval service answered ${method} ${url} with a status this clauz3 does not read`);
  }
  return data as unknown as StatusAnswer;
}

/** POST /requests: a new request (201) or the pending one for the same program and inputs (200, `created: false`). */
export function submit(base: string, request: ApprovalRequest): Promise<StatusAnswer> {
  return call(base, "POST", "/requests", request);
}

/** GET /requests/:id */
export function statusOf(base: string, id: string): Promise<StatusAnswer> {
  return call(base, "GET", `/requests/${encodeURIComponent(id)}`);
}

/** How often the status is read while waiting. */
export const POLL_INTERVAL_MS = 500;

/**
 * Read the status until it is no longer pending or `timeoutSeconds` have passed (0: read it once).
 * Resolves with the last status read.
 */
export async function waitForDecision(base: string, first: StatusAnswer, timeoutSeconds: number, sleep: (ms: number) => Promise<void> = delay): Promise<StatusAnswer> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  let current = first;
  while (current.status === "pending") {
    const left = deadline - Date.now();
    if (left <= 0) return current;
    await sleep(Math.min(POLL_INTERVAL_MS, left));
    current = await statusOf(base, first.id);
  }
  return current;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
