/**
 * Binding a receipt to a run (docs/run.md): verify it with the operator's public keys against what
 * `run` computed from the sources it is about to compile (core/approval's `verifyReceipt`), redeem
 * it with the approval service that issued it (single use: the service refuses a second
 * redemption), and only then make the binding every trusted call of the run checks (approval.ts).
 * Not part of the `clauz3` entry point an agent program imports: `clauz3 run` loads it.
 */
import { verifyReceipt, ReceiptError, type ExpectedBinding, type ReceiptClaims } from "../core/approval/receipt";
import type { PublicKeySet } from "../core/approval/keyset";
import { bindApproval, type ApprovalBinding } from "./approval";

/** Why a receipt was not bound: a `ReceiptError` reason, or the service's refusal of the redemption. */
export type BindFailure = ReceiptError["reason"] | "already-redeemed" | "unknown-receipt" | "redemption-failed";

export class ReceiptBindError extends Error {
  constructor(
    readonly reason: BindFailure,
    message: string,
  ) {
    super(message);
    this.name = "ReceiptBindError";
  }
}

export interface BindInput {
  readonly token: string;
  /** The operator's public key set (read from a path the operator owns). */
  readonly keys: PublicKeySet;
  /** What `run` computed from the sources it compiles. */
  readonly expected: ExpectedBinding;
  /** The approval service's base URL (`http://127.0.0.1:7411`). */
  readonly service: string;
  readonly now?: number;
}

/** POST /receipts/redeem; resolves with the service's claims once it acknowledged the redemption. */
async function redeem(service: string, token: string): Promise<ReceiptClaims> {
  let response: Response;
  try {
    response = await fetch(new URL("/receipts/redeem", service), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ receipt: token }) });
  } catch (error) {
    throw new ReceiptBindError("redemption-failed", `the approval service at ${service} cannot be reached to redeem the receipt (${error instanceof Error ? error.message : String(error)})`);
  }
  let body: { redeemed?: unknown; claims?: ReceiptClaims; error?: unknown; message?: unknown };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new ReceiptBindError("redemption-failed", `the approval service answered the redemption with ${response.status} and a body that is not JSON`);
  }
  if (response.ok && body.redeemed === true && body.claims) return body.claims;
  const code = typeof body.error === "string" ? body.error : "";
  const reason: BindFailure = code === "already-redeemed" || code === "unknown-receipt" ? code : "redemption-failed";
  throw new ReceiptBindError(reason, `the approval service refused to redeem the receipt (${response.status} ${code || "error"}: ${typeof body.message === "string" ? body.message : "no message"})`);
}

/**
 * Verify, then redeem, then bind. The signature and every digest are checked before the service
 * is asked, so a forged or mismatched receipt is never redeemed; the claims the service returns
 * must name the receipt that was verified.
 */
export async function bindReceipt(input: BindInput): Promise<ApprovalBinding> {
  let claims: ReceiptClaims;
  try {
    claims = await verifyReceipt(input.token, input.keys, input.expected, input.now ?? Date.now());
  } catch (error) {
    if (error instanceof ReceiptError) throw new ReceiptBindError(error.reason, error.message);
    throw error;
  }
  if (claims.singleUse) {
    const redeemed = await redeem(input.service, input.token);
    if (redeemed.jti !== claims.jti || redeemed.program !== claims.program) throw new ReceiptBindError("redemption-failed", `the approval service redeemed receipt ${String(redeemed.jti)}, not ${claims.jti}`);
  }
  return bindApproval({
    receipt: claims.jti,
    request: claims.request,
    claims: { program: claims.program, invocation: claims.invocation, guarantees: claims.guarantees, layer: claims.layer },
    expected: input.expected,
    redeemedAt: new Date().toISOString(),
  });
}
