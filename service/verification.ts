/**
 * What the service found when it re-read and re-proved a submitted request against its operator's
 * layer (verify.ts). Stored with the request: only a verified request can be approved, and a
 * receipt binds the identities the service computed, never the ones the request states.
 */
import type { ApprovalRequest } from "../core/approval/types";
import type { Verdict } from "../core/prover/api";
import type { LibraryProfile } from "./memory/profile";

/** One way a request differs from what the service computed: the field concerned and how. */
export interface VerificationProblem {
  readonly field: string;
  readonly problem: string;
}

export interface Verification {
  /** No problem: the program proved against the operator's layer, and every digest and identity is the service's own. */
  readonly verified: boolean;
  readonly problems: readonly VerificationProblem[];
  /** The program's verdict against the operator's layer (null when it could not be proved at all). */
  readonly verdict: Verdict | null;
  /** The request the service built itself from the submitted sources and its layer (null when it could not build one). */
  readonly computed: ApprovalRequest | null;
  /** The libraries the program loads (memory/profile.ts); absent in verifications stored before remembered rules. */
  readonly profile?: LibraryProfile;
}

/** What a request stored without a verification (by an older service, or a direct store call) counts as. */
export const NOT_VERIFIED: Verification = {
  verified: false,
  problems: [{ field: "the request", problem: "was not verified by this service" }],
  verdict: null,
  computed: null,
};
