/**
 * Redeeming a receipt, as `run` does before `main` starts: the token must be one this service
 * issued (the stored token, byte for byte), verify against the service's own keys and the stored
 * request's digests (so expiry and revocation apply), and not have been redeemed before — the
 * store's primary key decides that atomically.
 */
import { bindingOf } from "../core/approval/binding";
import { verifyReceipt, type ReceiptClaims } from "../core/approval/receipt";
import type { Keyring } from "./keys";
import type { ApprovalStore } from "./store/store";

export type RedemptionFailure = "unknown-receipt" | "already-redeemed";

export class RedemptionError extends Error {
  constructor(
    readonly reason: RedemptionFailure,
    message: string,
  ) {
    super(message);
    this.name = "RedemptionError";
  }
}

/** The `jti` a token claims, read without trusting it (only to find the stored receipt). */
function claimedId(token: string): string | undefined {
  const payload = token.split(".")[1];
  if (payload === undefined) return undefined;
  try {
    const jti = (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { jti?: unknown }).jti;
    return typeof jti === "string" ? jti : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Redeem `token` once; resolves with its verified claims after the redemption is committed. Throws
 * `RedemptionError` (not issued here, already redeemed) or `ReceiptError` (expired, revoked, …).
 */
export async function redeemReceipt(input: { readonly store: ApprovalStore; readonly keyring: Keyring; readonly token: string; readonly now?: number }): Promise<ReceiptClaims> {
  const now = input.now ?? Date.now();
  const id = claimedId(input.token);
  const stored = id === undefined ? undefined : await input.store.receipt(id);
  if (!stored || stored.token !== input.token) throw new RedemptionError("unknown-receipt", "the receipt was not issued by this service");
  // The receipt was signed over the request the service computed (decide.ts).
  const request = (await input.store.get(stored.requestId))!.verification.computed;
  if (!request) throw new RedemptionError("unknown-receipt", "the receipt's request was not verified by this service");
  const claims = await verifyReceipt(input.token, input.keyring.publicKeySet(), bindingOf(request), now);
  const outcome = await input.store.redeem(stored.id, new Date(now).toISOString());
  if (outcome !== "redeemed") throw new RedemptionError(outcome === "already-redeemed" ? "already-redeemed" : "unknown-receipt", outcome === "already-redeemed" ? `receipt ${stored.id} was already redeemed` : "the receipt was not issued by this service");
  return claims;
}
